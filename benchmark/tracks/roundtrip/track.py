"""The round-trip Ecore <-> SQL track (``roundtrip``): the hooks through which the harness runs it
(``docs/TRACKS.md``, ``docs/ROUNDTRIP.md`` §13).

Each hook hands over to a room: :mod:`.collection` (the study's cases), :mod:`.scoring` (a stage
evaluation's payload, and the references' checks), :mod:`.payload` (the typed payload: one line of the
sheet), :mod:`.reports` (the sheet, its summaries, the files), :mod:`.llm_task` (two chained passes),
:mod:`.options`. The study's code loads where it is used: every session loads each registered track to
add its options.
"""

from __future__ import annotations

from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Any

from benchmark.core.rows import Facts, Row
from benchmark.core.track import AnswerQuality, Collection, GroundTruthCase, RunCase, Track
from benchmark.tracks.roundtrip.options import GENERATE_OPTIONS, REPORT_OPTIONS, TRACK_OPTIONS

if TYPE_CHECKING:  # imported where used: every session loads the track for its options (docs/TRACKS.md)
    from benchmark.tracks.roundtrip.collection import StageCases
    from benchmark.tracks.roundtrip.scoring.stage import StageScorer
    from benchmark.tracks.roundtrip.study.cases import Study

JUNIT_COLUMNS = ("LOC", "Cr", "InCr", "Ad", "Miss", "pctCorrect", "pctWSuccess", "deltaDetected", "loadable")
JUNIT_COLUMNS += ("AdHarmful", "deltaRecall", "deltaPrecision", "equivalent", "stageStatus")


class RoundTripTrack(Track):
    name = "roundtrip"
    title = "Round trip Ecore <-> SQL by example: inverse Δ(T) -> S', forward S' -> T'"
    label = "Round trip"
    options = TRACK_OPTIONS
    report_options = REPORT_OPTIONS
    generate_options = GENERATE_OPTIONS
    headline_name = "mean %WSuccess"
    unit_name = "pair"

    # ------------------------------------------------------------------------------- the rooms

    @cached_property
    def study(self) -> Study:
        from benchmark.tracks.roundtrip.study.load import load_study

        return load_study(self.data_root)

    @cached_property
    def cases(self) -> StageCases:
        from benchmark.tracks.roundtrip.collection import StageCases

        return StageCases(self.study, self.option("roundtrip_baselines"), self.name)

    @cached_property
    def scorer(self) -> StageScorer:
        from benchmark.tracks.roundtrip.scoring.stage import StageScorer

        cases = self.cases
        return StageScorer(self.study, cases.stage_case, cases.runs_of, self.cache, self.error_row, self.name)

    # ------------------------------------------------------------------------------- the hooks

    def scoring_done(self) -> None:
        """The payloads of the last task this process scored part of (module docstring of
        :mod:`.scoring.payload_cache`), stored now rather than computed again next session."""
        if "scorer" in self.__dict__:  # a process that scored no run case has no scorer to ask
            self.scorer.payloads.flush()

    def collect(self) -> Collection:
        return self.cases.collect()

    def ground_truth_error(self, task: str) -> str | None:
        """Why the case's four models cannot be read (once per task and process)."""
        return self.scorer.error(task)

    def check_ground_truth(self, case: GroundTruthCase) -> Facts:
        return self.scorer.check(case)

    def facts(self, task: str) -> Facts:
        return self.scorer.facts(task)

    def score_run(self, case: RunCase) -> Row:
        return self.scorer.score(case)

    def missing_reason(self, row: Row) -> str | None:
        """A stage whose request got no answer is a missing stage (``docs/ROUNDTRIP.md`` §13)."""
        from benchmark.tracks.roundtrip.payload import missing_reason

        return missing_reason(row)

    def input_files(self) -> dict[str, str]:
        from benchmark.tracks.roundtrip.collection import input_files

        return input_files(self.study, self.collect().runs, self.scorer.digest)

    def options_json(self) -> dict[str, Any]:
        return {
            "baselines": list(self.option("roundtrip_baselines")),
            "layout": self.study.layout,
            "sqlNsURI": self.study.sql_kind.ns_uri,
        }

    def condition(self, row: Row) -> str:
        """The case, k and stage (``library/to_many k2-inverse``): templates are compared on the same."""
        import re

        return f"{row.task} {re.sub(r'-?run[0-9]+', '', row.run)}"

    def headline(self, rows: Any) -> dict[str, float]:
        """Mean %WSuccess per provider (and prompt template: :attr:`~benchmark.core.rows.Row.series`) over its
        scored stage evaluations (both stages)."""
        from benchmark.tracks.roundtrip.payload import StagePayload

        values: dict[str, list[float]] = {}
        for row in rows:
            if row.ok:
                values.setdefault(row.series, []).append(float(StagePayload.of_row(row).pct_wsuccess))
        return {provider: sum(v) / len(v) for provider, v in values.items()}

    def paired(self, first: Any, second: Any) -> Any:
        """Two sets of rows as one paired comparison of mean %WSuccess: per round-trip pair (the
        independent unit of the study's intervals), each scored stage evaluation's (%WSuccess, 1)."""
        from benchmark.core.track import PairedData
        from benchmark.tracks.roundtrip.payload import StagePayload

        def entries(rows: Any) -> list[tuple[str, tuple[float, float]]]:
            found = []
            for row in rows:
                if row.ok:
                    payload = StagePayload.of_row(row)
                    found.append((payload.pair, (float(payload.pct_wsuccess), 1.0)))
            return found

        return PairedData.of(entries(first), entries(second), mean_of_sums)

    def junit_properties(self, row: Row) -> list[tuple[str, str]]:
        """The sheet's nine columns, the delta scores and the flags of the stage evaluation."""
        from benchmark.tracks.roundtrip.payload import StagePayload

        if not row.ok:
            return []
        payload = StagePayload.of_row(row)
        properties = []
        for name in JUNIT_COLUMNS:
            value = payload.column(name)
            if isinstance(value, float):
                text = f"{value:.6f}"
            else:
                text = str(value).lower() if isinstance(value, bool) else str(value)
            properties.append((name, text))
        return [*properties, ("flags", str(len(payload.flags)))]

    def summary_lines(self, results: Any, section: Any, verbose: bool) -> list[str]:
        from benchmark.tracks.roundtrip.reports.sheet import summary_lines

        return summary_lines(section.rows, self.study.layout, verbose)

    def write_reports(self, results: Any, section: Any, out_dir: Path, options: Any) -> Any:
        from benchmark.tracks.roundtrip.reports.files import track_report

        return track_report(section.rows, out_dir, dict(options), self.cache)

    def answer_quality(self, rows: Any) -> AnswerQuality:
        """One answer per stage that was asked (not ``not-run``); usable: a model of the stage's metamodel
        could be extracted from it (status ``ok``)."""
        from benchmark.tracks.roundtrip.payload import StagePayload
        from benchmark.tracks.roundtrip.reading.runfile import STATUS_NOT_RUN, STATUS_OK

        statuses = [StagePayload.of_row(row).stage_status for row in rows if row.ok]
        asked = [status for status in statuses if status != STATUS_NOT_RUN]
        return AnswerQuality(len(asked), sum(1 for status in asked if status == STATUS_OK))

    def llm_task(self, request: Any) -> Any:
        """Two chained passes (inverse, then forward from the inverse answers): ``llm_task.py``."""
        from benchmark.tracks.roundtrip.answer_schema import OFFERED
        from benchmark.tracks.roundtrip.llm_task import RoundTripLlmTask

        return RoundTripLlmTask(
            self.study,
            config=request.config,
            runs=request.runs,
            selectors=request.selectors,
            prompt_template=request.prompt_template,
            redactor=request.redactor,
            examples=request.options.get("examples", (1,)),
            example_seed=request.options.get("example_seed", 0),
            templates=request.templates,
            answer_formats=request.chosen_formats(OFFERED),
        )


def mean_of_sums(sums: Any) -> Any:
    """The mean of summed (value, count) vectors: value / count per row (0 where nothing was counted)."""
    import numpy as np

    sums = np.atleast_2d(np.asarray(sums, dtype=float))
    counted = sums[:, 1] > 0
    return np.where(counted, sums[:, 0] / np.where(counted, sums[:, 1], 1.0), 0.0)
