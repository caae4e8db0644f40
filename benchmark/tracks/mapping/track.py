"""RQ1, the ATL binding track (``atl``): the hooks through which the harness runs it (``docs/TRACKS.md``).

Each hook hands over to the room that does the work: :mod:`.collection` (the cases of a validation tree),
:mod:`.ground_truth` (each transformation's ground truth, checked), :mod:`.scoring` (a run's row),
:mod:`.payload` (the row's typed payload), :mod:`.aggregate` and :mod:`.reports` (what is read from the
rows), :mod:`.llm_task` (``atlbench generate``), :mod:`.options` (the options). The track module imports
none of them at module level: every session loads each registered track to add its options.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Any

from benchmark.core.rows import Facts, Row
from benchmark.core.track import AnswerQuality, Collection, GroundTruthCase, RunCase, Track
from benchmark.tracks.mapping.options import GENERATE_OPTIONS, REPORT_OPTIONS, TRACK_OPTIONS

if TYPE_CHECKING:
    from benchmark.tracks.mapping.aggregate import Aggregation
    from benchmark.tracks.mapping.discovery import Discovery
    from benchmark.tracks.mapping.ground_truth import GroundTruths
    from benchmark.tracks.mapping.payload import RunRow
    from benchmark.tracks.mapping.scoring.runs import RunScorer


class AtlTrack(Track):
    name = "atl"
    title = "RQ1: class and binding mappings against ATL ground truth"
    label = "Mapping (RQ1)"
    data_dir = ""  # the transformation folders sit directly in the validation root
    options = TRACK_OPTIONS
    report_options = REPORT_OPTIONS
    generate_options = GENERATE_OPTIONS
    headline_name = "micro overall F1"
    unit_name = "transformation"
    min_score_alias = "--min-f1"

    # ------------------------------------------------------------------------------- the rooms

    @cached_property
    def discovery(self) -> Discovery:
        from benchmark.tracks.mapping.discovery import discover

        return discover(self.data_root)

    @cached_property
    def truths(self) -> GroundTruths:
        from benchmark.tracks.mapping.ground_truth import GroundTruths

        return GroundTruths(self.discovery, self.cache, self.name)

    @cached_property
    def scorer(self) -> RunScorer:
        from benchmark.tracks.mapping.scoring.runs import RunScorer

        return RunScorer(
            self.truths,
            self.cache,
            confidence=self.option("confidence"),
            track=self.name,
            variant_seed=self.option("atl_variant_seed"),
        )

    @staticmethod
    def decode(rows: Any) -> list[RunRow]:
        from benchmark.tracks.mapping.payload import RunRow

        return [RunRow.from_envelope(row) for row in rows]

    @classmethod
    def decode_original(cls, rows: Any) -> list[RunRow]:
        """The rows of the original task: what the study's tables, headline and gates read (a task
        variant's rows are read by the variants table only, ``docs/VARIANTS.md``)."""
        from benchmark.tracks.mapping.variants.names import ORIGINAL

        return [row for row in cls.decode(rows) if row.variant == ORIGINAL]

    def decoded(self, rows: Sequence[Row]) -> list[RunRow]:
        """``rows`` decoded with their counts only (not their per-item verdicts, most of a row: only the
        statistics and the drill-down read them, :meth:`.MappingResults.with_items`), once per process
        for the same tuple of rows: the report writers and the terminal tables read a session's rows."""
        from benchmark.tracks.mapping.payload import RunRow

        memo = self._memo.get("decoded")
        if memo is not None and memo[0] is rows:
            return memo[1]
        decoded = [RunRow.from_envelope(row, items=False) for row in rows]
        if isinstance(rows, tuple):  # immutable: the same object holds the same rows
            self._memo["decoded"] = (rows, decoded)
        return decoded

    def _aggregation(self, rows: Sequence[Row], original: list[RunRow], weight: float) -> Aggregation:
        """The aggregation of the original task's rows ``original`` (decoded from ``rows``) at partial
        weight ``weight``: the one the report's statistics hold when :meth:`write_reports` wrote them
        from the same rows at that weight, else computed."""
        from benchmark.tracks.mapping.aggregate import aggregate

        memo = self._memo.get("aggregation")
        if memo is not None and memo[0] is rows and memo[1] == weight:
            return memo[2]
        return aggregate(original, partial_weight=weight)

    @cached_property
    def _memo(self) -> dict[str, Any]:
        return {}

    # ------------------------------------------------------------------------------- the hooks

    def collect(self) -> Collection:
        from benchmark.tracks.mapping.collection import collect

        return collect(self.discovery, self.option("atl_baselines"), self.name)

    def _prepare_drawer(self) -> None:
        """Once a case missed the disk cache (a cold session: the report's statistics and figures will be
        computed too), a forked drawer imports matplotlib on a CPU that would otherwise be idle
        (:mod:`.reports.drawer`), while the harness's helper scores the remaining cases ahead
        (:mod:`benchmark.harness.ahead`)."""
        if not self.cache.misses or "drawer" in self._memo:
            return
        self._memo["drawer"] = True
        from benchmark.tracks.mapping.reports.drawer import prepare

        prepare(self.cache)

    def check_ground_truth(self, case: GroundTruthCase) -> Facts:
        facts = self.truths.check(case).to_facts()
        self._prepare_drawer()
        return facts

    def ground_truth_error(self, task: str) -> str | None:
        return self.truths.error(task)

    def facts(self, task: str) -> Facts:
        return self.truths.facts(task).to_facts()

    def score_run(self, case: RunCase) -> Row:
        row = self.scorer.score(case).to_envelope()
        self._prepare_drawer()
        return row

    def error_row(self, case: RunCase, message: str) -> Row:
        return self.scorer.error_row(case, message).to_envelope()

    def missing_reason(self, row: Row) -> str | None:
        """The reason a run file records for getting no answer (``generation.status = "no-answer"``)."""
        from benchmark.tracks.mapping.scoring.outcomes import missing_reason

        return missing_reason(self.decode([row])[0])

    def input_files(self) -> dict[str, str]:
        from benchmark.tracks.mapping.collection import input_files

        return input_files(self.discovery)

    def options_json(self) -> dict[str, Any]:
        from benchmark.tracks.mapping.variants.names import DEFAULT_SEED

        options = {
            "partialWeight": self.option("partial_weight"),
            "confidence": self.option("confidence") or "all",
            "baselines": list(self.option("atl_baselines")),
        }
        if self.option("atl_variant_seed") != DEFAULT_SEED:  # said only when it is not the default
            options["variantSeed"] = self.option("atl_variant_seed")
        return options

    def incomparable(self, now: Any, before: Any) -> str | None:
        """Sessions with different confidence filters scored different subsets of the answers; another
        partial weight is fine (the saved counts are re-scored at this session's weight)."""
        if now.get("confidence", "all") != before.get("confidence", "all"):
            return (
                f"the confidence filters differ ({before.get('confidence', 'all')!r} then "
                f"{now.get('confidence', 'all')!r}): the sessions scored different subsets of the answers"
            )
        return None

    def headline(self, rows: Any, partial_weight: float | None = None) -> dict[str, float]:
        """Micro overall F1 per provider, at this session's partial weight (a saved session's counts are
        re-scored with it, so sessions are compared on one formula)."""
        from benchmark.tracks.mapping.aggregate import aggregate

        weight = self.option("partial_weight") if partial_weight is None else partial_weight
        aggregation = aggregate(self.decode_original(rows), partial_weight=weight)
        return {group.provider: group.micro.overall.f1 for group in aggregation.totals()}

    def paired(self, first: Any, second: Any) -> Any:
        """Two sets of rows of the original task as one paired comparison of micro overall F1: per
        transformation, each run's (TP, FP, FN) at this session's partial weight."""
        from benchmark.core.track import PairedData
        from benchmark.tracks.mapping.stats.profiles import level_counts
        from benchmark.tracks.mapping.stats.summary import micro_f1

        weight = self.option("partial_weight")

        def entries(rows: Any) -> list[tuple[str, tuple[float, float, float]]]:
            return [
                (row.transformation, level_counts(row.classes, row.bindings, weight, "overall"))
                for row in self.decode_original(rows)
                if row.ok
            ]

        return PairedData.of(entries(first), entries(second), micro_f1)

    def answer_quality(self, rows: Sequence[Row]) -> AnswerQuality:
        """Usable: scored runs whose answer held a mapping list (not unusable, not missing); invented: the
        classes and features named that neither metamodel has (``find_hallucinations``), over the runs
        scored with both metamodels."""
        from benchmark.tracks.mapping.scoring.outcomes import OUTCOME_SCORED, run_outcome

        decoded = [row for row in self.decode(rows) if row.ok]
        usable = sum(1 for row in decoded if run_outcome(row) == OUTCOME_SCORED)
        invented = sum(len(row.hallucinated_classes) + len(row.hallucinated_features) for row in decoded)
        return AnswerQuality(len(decoded), usable, invented)

    def junit_properties(self, row: Row) -> list[tuple[str, str]]:
        """The transformation, why an unusable answer could not be used, and P/R/F1/accuracy per level."""
        from benchmark.tracks.mapping.payload import RunRow
        from benchmark.tracks.mapping.scoring.outcomes import unusable_reason

        properties = [("transformation", row.task)]
        mapping_row = RunRow.from_envelope(row, items=False)  # every case: the counts only
        if mapping_row.variant != "original":
            properties.append(("variant", mapping_row.variant))
        if not row.ok:
            return properties
        reason = unusable_reason(mapping_row)
        properties += [("unusable", reason)] if reason is not None else []
        levels = mapping_row.scores(self.option("partial_weight"))
        for level, scores in (
            ("class", levels.classes),
            ("binding", levels.bindings),
            ("overall", levels.overall),
        ):
            properties += [
                (f"{level}_{metric}", f"{value:.6f}") for metric, value in scores.to_json().items()
            ]
        return properties

    def junit_suite_properties(self, rows: Any) -> list[tuple[str, str]]:
        """Each provider's micro overall precision, recall and F1."""
        from benchmark.tracks.mapping.aggregate import aggregate

        aggregation = aggregate(self.decode_original(rows), partial_weight=self.option("partial_weight"))
        return [
            (f"{group.provider}_overall_{metric}", f"{value:.6f}")
            for group in aggregation.totals()
            for metric, value in group.micro.overall.to_json().items()
            if metric != "accuracy"
        ]

    def summary_lines(self, results: Any, section: Any, verbose: bool) -> list[str]:
        from benchmark.tracks.mapping.reports.terminal import summary_lines
        from benchmark.tracks.mapping.variants.names import ORIGINAL

        every_row, weight = self.decoded(section.rows), self.option("partial_weight")
        rows = [row for row in every_row if row.variant == ORIGINAL]
        aggregation = self._aggregation(section.rows, rows, weight)
        lines = summary_lines(rows, aggregation, self.option("confidence"), verbose)
        if len(rows) == len(every_row):
            return lines
        from benchmark.tracks.mapping.reports.variants import variants_lines

        if not rows:  # not "no run could be scored": the runs answered task variants
            lines = [lines[0], "no run of the original task: every run answered a task variant (below)"]
        return lines + variants_lines(every_row, weight)

    def write_reports(self, results: Any, section: Any, out_dir: Path, options: Any) -> Any:
        from benchmark.tracks.mapping.reports.files import section_report

        rows = section.rows
        report, stats = section_report(results, section, out_dir, options, self.cache, self.decoded(rows))
        self._memo["aggregation"] = (rows, stats.partial_weight, stats.aggregation)
        return report

    def llm_task(self, request: Any) -> Any:
        """One pass: a prompt per selected transformation and run index (``docs/LLM_RUNS.md``)."""
        from benchmark.tracks.mapping.llm_task import MappingTrackTask

        return MappingTrackTask(self.data_root, request)
