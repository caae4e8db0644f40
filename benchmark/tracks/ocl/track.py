"""The OCL robustness track (``ocl``): the hooks through which the harness runs it (``docs/TRACKS.md``,
``docs/OCL.md``).

LLM-written constraints are judged on original and transformed models. Each hook hands over to a room:
:mod:`.collection` (the cases of the dataset and its run files), :mod:`.variants` (each model's variants
and their judges, built once per process and kept in the disk cache), :mod:`.scoring` (a run's
judgements, and the ground truth's check), :mod:`.payload` (the typed payload), :mod:`.scores`,
:mod:`.pairs` and :mod:`.reports` (what is read from the rows), :mod:`.llm_task`, :mod:`.options`.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Any

from benchmark.core.rows import Facts, Row
from benchmark.core.track import AnswerQuality, Collection, GroundTruthCase, RunCase, Track
from benchmark.tracks.ocl.options import BOTH, BUILTIN, GENERATE_OPTIONS, REPORT_OPTIONS, TRACK_OPTIONS

if TYPE_CHECKING:  # imported where used: every session loads the track for its options (docs/TRACKS.md)
    from benchmark.tracks.ocl.dataset import Dataset
    from benchmark.tracks.ocl.scoring.runs import RunJudge
    from benchmark.tracks.ocl.variants import Tasks, Variants


class OclTrack(Track):
    name = "ocl"
    title = "OCL robustness: LLM-written constraints on original and transformed models"
    label = "OCL robustness"
    options = TRACK_OPTIONS
    report_options = REPORT_OPTIONS
    generate_options = GENERATE_OPTIONS
    headline_name = "robustness"
    unit_name = "constraint"

    # ------------------------------------------------------------------------------- the rooms

    @property
    def seed(self) -> int:
        return self.option("ocl_seed")

    @cached_property
    def loaded(self) -> tuple[Dataset | None, str | None]:
        """(the dataset, None), or (None, why it cannot be read)."""
        from benchmark.tracks.ocl.dataset import DatasetError, load_dataset

        try:
            return load_dataset(self.data_root), None
        except DatasetError as error:
            return None, str(error)

    @cached_property
    def tasks(self) -> Tasks:
        from benchmark.tracks.ocl.variants import Tasks

        return Tasks(self.loaded[0])

    @cached_property
    def variants(self) -> Variants | None:
        from benchmark.tracks.ocl.variants import Variants

        dataset = self.loaded[0]
        return None if dataset is None else Variants(dataset, self.seed, self.cache)

    @cached_property
    def judge(self) -> RunJudge:
        from benchmark.tracks.ocl.scoring.runs import RunJudge

        dataset, error = self.loaded
        return RunJudge(
            self.data_root,
            dataset,
            error,
            self.tasks,
            self.variants,
            super().error_row,
            self.name,
            judging=self.option("ocl_judge"),
            use_path=self.option("ocl_use"),
            use_timeout=self.option("ocl_use_timeout"),
            run_cases=lambda: self.collection.runs,
        )

    @cached_property
    def collection(self) -> Collection:
        from benchmark.tracks.ocl.collection import collect

        return collect(self.data_root, self.loaded[0], self.tasks, self.option("ocl_baselines"), self.name)

    # ------------------------------------------------------------------------------- the hooks

    def collect(self) -> Collection:
        if self.option("ocl_judge") != BUILTIN:
            self.judge.use_installation()  # a missing USE is a configuration error, said once, up front
        return self.collection

    def ground_truth_error(self, task: str) -> str | None:
        return self.judge.error(task)

    def check_ground_truth(self, case: GroundTruthCase) -> Facts:
        return self.judge.check(case)

    def facts(self, task: str) -> Facts:
        return self.judge.facts(task)

    def score_run(self, case: RunCase) -> Row:
        return self.judge.score(case)

    def error_row(self, case: RunCase, message: str) -> Row:
        """A run that cannot be judged: excluded, listed with ``message``, its model and mode named."""
        return self.judge.error_row(case, message)

    def missing_reason(self, row: Row) -> str | None:
        """A run case some of whose constraints got no answer is a missing run (``docs/OCL.md``)."""
        from benchmark.tracks.ocl.payload import missing_reason

        return missing_reason(row)

    def input_files(self) -> dict[str, str]:
        from benchmark.tracks.ocl.collection import input_files

        return input_files(self.data_root, self.loaded[0])

    def options_json(self) -> dict[str, Any]:
        options = {"baselines": list(self.option("ocl_baselines")), "seed": self.seed}
        if self.option("ocl_judge") != BUILTIN:
            options["judge"] = self.option("ocl_judge")
        return options

    def session_check(self, rows: Sequence[Row]) -> tuple[list[str], list[str]]:
        """With ``--ocl-judge both``: a disagreement between the judges fails the session, unless
        ``--ocl-accept-disagreements``."""
        if self.option("ocl_judge") != BOTH:
            return [], []
        from benchmark.tracks.ocl.reports.judge import agreement_check

        own = [row for row in rows if row.track == self.name]
        return agreement_check(own, accepted=self.option("ocl_accept_disagreements"))

    def incomparable(self, now: Any, before: Any) -> str | None:
        if now.get("seed", 0) != before.get("seed", 0):
            return f"the transformation seeds differ ({before.get('seed', 0)} then {now.get('seed', 0)})"
        return None

    def headline(self, rows: Any) -> dict[str, float]:
        from benchmark.tracks.ocl.scores import headline, judged, score

        return headline(score(judged(rows), draws=1))

    def paired(self, first: Any, second: Any) -> Any:
        """Two sets of rows as one paired comparison of the headline, mean robustness over the
        transformation modes both sides answered (:func:`benchmark.tracks.ocl.scores.paired_robustness`)."""
        from benchmark.tracks.ocl.scores import paired_robustness

        return paired_robustness(first, second)

    def answer_quality(self, rows: Any) -> AnswerQuality:
        """One answer per constraint asked (a judgement that is not missing); usable: it holds a constraint
        that parses (not a syntax error: the reader found ``context C inv: expr`` in prose, a fence or the
        JSON answer format). Made-up names are not looked for here: a context the model lacks is a type
        error of the judge's."""
        from benchmark.tracks.ocl.payload import MISSING, SYNTAX_ERROR, OclPayload

        outcomes = [
            judgement.outcome
            for row in rows
            if row.ok
            for judgement in OclPayload.of_row(row).judgements
            if judgement.outcome != MISSING
        ]
        return AnswerQuality(len(outcomes), sum(1 for outcome in outcomes if outcome != SYNTAX_ERROR))

    def junit_properties(self, row: Row) -> list[tuple[str, str]]:
        from benchmark.tracks.ocl.payload import OclPayload

        payload = OclPayload.of_row(row)
        props = [("mode", payload.mode), ("constraints", str(len(payload.judgements)))]
        return props + [(o.replace(" ", "_"), str(n)) for o, n in payload.outcome_counts().items() if n]

    def summary_lines(self, results: Any, section: Any, verbose: bool) -> list[str]:
        from benchmark.tracks.ocl.reports.judge import judge_lines
        from benchmark.tracks.ocl.reports.tables import summary_lines

        return summary_lines(section.rows, verbose) + judge_lines(section.rows)

    def write_reports(self, results: Any, section: Any, out_dir: Path, options: Any) -> Any:
        from benchmark.tracks.ocl.reports.files import track_report
        from benchmark.tracks.ocl.reports.judge import with_judge_report

        report = track_report(section, Path(out_dir), options.get("ocl_draws"), self.cache)
        return with_judge_report(report, section.rows, Path(out_dir))

    def llm_task(self, request: Any) -> Any:
        from benchmark.core.errors import ConfigurationError
        from benchmark.tracks.ocl.llm_task import OclTrackTask

        dataset, error = self.loaded
        if dataset is None or self.variants is None:
            raise ConfigurationError(f"the OCL dataset is unusable: {error}", field="--ocl-root")
        return OclTrackTask(self.variants, dataset, request)
