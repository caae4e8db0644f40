"""A toy track: a complete study in one module, plugged into the harness without editing it
(``docs/TRACKS.md``, "The example").

Data: ``<root>/<task>/task.json`` holds ``{"answer": N}``; every ``<root>/<task>/runs/<provider>-<run>.json``
holds a run's ``{"answer": N}``. A run is correct when it gives the task's answer (within
``--toy-tolerance``). The payload is one boolean; the headline is accuracy per provider; the report is a CSV
file and a table in ``index.html`` drawn with the report kit. It registers through the ``atlbench.tracks``
entry-point group (``pyproject.toml`` beside this file) like any installed track.
"""

from __future__ import annotations

import json
from pathlib import Path

from benchmark.core import Collection, Facts, GroundTruthCase, Option, Row, RunCase, Track
from benchmark.core.errors import InputFormatError
from benchmark.core.fileio import write_text_atomic
from benchmark.core.options import integer
from benchmark.core.track import GroundTruthProblem, HtmlPart, TrackReport
from benchmark.reports.table import Column, Table


def _answer(path: Path) -> int:
    try:
        return int(json.loads(path.read_text(encoding="utf-8"))["answer"])
    except (OSError, ValueError, KeyError, TypeError) as error:
        raise InputFormatError(f"not a toy answer: {error}", file=path, field="$.answer") from None


class ToyTrack(Track):
    name = "toy"
    title = "Toy: answer the number"
    label = "Toy"
    options = (
        Option(
            "--toy-tolerance",
            "0",
            "how far off an answer may be and still count",
            integer("a whole number of at least 0", 0),
        ),
    )
    headline_name = "accuracy"

    def collect(self) -> Collection:
        truths, runs = [], []
        for folder in sorted(p for p in self.data_root.iterdir() if (p / "task.json").is_file()):
            truths.append(GroundTruthCase(self.name, folder.name, folder / "task.json"))
            for run in sorted((folder / "runs").glob("*.json")):
                provider, _, index = run.stem.partition("-")
                runs.append(
                    RunCase(self.name, folder.name, provider, index, f"{folder.name}-{run.stem}", run)
                )
        return Collection(tuple(truths), tuple(runs))

    def check_ground_truth(self, case: GroundTruthCase) -> Facts:
        problem = self.ground_truth_error(case.task)
        if problem:
            raise GroundTruthProblem(problem)
        return self.facts(case.task)

    def ground_truth_error(self, task: str) -> str | None:
        try:
            _answer(self.data_root / task / "task.json")
        except InputFormatError as error:
            return str(error)
        return None

    def facts(self, task: str) -> Facts:
        return Facts(self.name, task, str(self.data_root / task / "task.json"))

    def score_run(self, case: RunCase) -> Row:
        assert case.file is not None
        try:
            given = _answer(case.file)
        except InputFormatError as error:
            return self.error_row(case, str(error))
        truth = _answer(self.data_root / case.task / "task.json")
        correct = abs(given - truth) <= self.option("toy_tolerance")
        return Row(
            self.name,
            case.provider,
            case.model,
            case.task,
            case.run,
            str(case.file),
            payload={"correct": correct},
        )

    def headline(self, rows):
        by: dict[str, list[bool]] = {}
        for row in rows:
            if row.ok:
                by.setdefault(row.provider, []).append(bool(row.payload["correct"]))
        return {p: sum(v) / len(v) for p, v in by.items()}

    def junit_properties(self, row: Row) -> list[tuple[str, str]]:
        return [("correct", str(row.payload.get("correct")))] if row.ok else []

    def summary_lines(self, results, section, verbose):
        return [f"{p}: accuracy {a:.3f}" for p, a in sorted(self.headline(section.rows).items())]

    def write_reports(self, results, section, out_dir, options) -> TrackReport:
        scores = sorted(self.headline(section.rows).items())
        lines = ["provider,accuracy", *(f"{p},{a:.3f}" for p, a in scores)]
        path = write_text_atomic(Path(out_dir) / "toy_scores.csv", "\n".join(lines) + "\n")
        columns = (Column("Provider", lambda s: s[0], "l"), Column("Accuracy", lambda s: f"{s[1]:.3f}"))
        table = Table.of("toy-scores", "Toy scores", columns, scores)
        html = HtmlPart(sections=(("scores", "Toy scores", table.to_html(heading=False)),))
        return TrackReport((path,), html, tuple(lines))
