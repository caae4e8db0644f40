"""A fourth, toy track: proof that a study plugs into the harness without editing it (docs/TRACKS.md).

Data: ``<root>/<task>/task.json`` holds ``{"answer": N}``; every ``<root>/<task>/runs/<provider>-<run>.json``
holds a run's ``{"answer": N}``. A run is correct when it gives the task's answer. The payload is one
boolean; the headline is accuracy per provider. It registers through the ``atlbench.tracks`` entry-point
group like any installed track (the tests write the entry point into a temporary ``*.dist-info``).
"""

from __future__ import annotations

import json
from pathlib import Path

from benchmark.core.errors import InputFormatError
from benchmark.core.fileio import write_text_atomic
from benchmark.core.options import Option
from benchmark.core.rows import Facts, Row
from benchmark.core.track import (
    Collection,
    GroundTruthCase,
    GroundTruthProblem,
    HtmlPart,
    RunCase,
    Track,
    TrackReport,
)


def _answer(path: Path) -> int:
    try:
        return int(json.loads(path.read_text(encoding="utf-8"))["answer"])
    except (OSError, ValueError, KeyError, TypeError) as error:
        raise InputFormatError(f"not a toy answer: {error}", file=path, field="$.answer") from None


class ToyTrack(Track):
    name = "toy"
    title = "Toy: answer the number"
    options = (Option("--toy-tolerance", "0", "how far off an answer may be and still count", int),)
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
        if self.ground_truth_error(case.task):
            raise GroundTruthProblem(self.ground_truth_error(case.task))
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
        lines = [
            "provider,accuracy",
            *(f"{p},{a:.3f}" for p, a in sorted(self.headline(section.rows).items())),
        ]
        path = write_text_atomic(Path(out_dir) / "toy_scores.csv", "\n".join(lines) + "\n")
        html = "<table>" + "".join(f"<tr><td>{line}</td></tr>" for line in lines) + "</table>"
        return TrackReport((path,), HtmlPart(sections=(("scores", "Toy scores", html),)), tuple(lines))
