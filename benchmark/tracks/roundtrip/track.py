"""The round-trip Ecore <-> SQL track as a harness track (``docs/TRACKS.md``, ``docs/ROUNDTRIP.md`` §13).

Ground-truth cases: one per (pair, operator) of the study (:func:`.cases.load_study`: the bundled data,
or a study's own folder given with ``--roundtrip-root``). Run cases: one per stage
evaluation, i.e. per (pair, operator, k, stage, provider, run):

* every run file below ``runs/`` (``atlbench generate --track roundtrip``, the bundled synthetic runs);
* every answer file of a study's own layout (``*_inverse_*.ecore``, ``*_forward_*_sql.xmi``);
* the live baselines of ``--roundtrip-baselines`` (default both): **Echo** (the unchanged base model: S
  for the inverse stage, T for the forward one: what "did nothing" earns) and **Oracle** (Δ(S), Δ(T)
  themselves: 100 % everywhere, or the scorer is wrong). A baseline does not depend on k.

Case ids read ``<pair>-<operator>-k<k>-<stage>-<provider>-run<NN>`` (baselines: ``<pair>-<operator>-
<stage>-<Baseline>``), so ``-k "to_many and k2 and inverse"`` selects what it says. A row's payload holds
the sheet's columns for that stage evaluation (:func:`stage_payload`).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Any

from benchmark.core.diskcache import code_fingerprint, make_key
from benchmark.core.errors import BenchmarkError, ConfigurationError, InputFormatError
from benchmark.core.fileio import sha256_file
from benchmark.core.rows import Facts, Row
from benchmark.core.track import (
    Collection,
    GroundTruthCase,
    GroundTruthProblem,
    RunCase,
    SkippedInput,
    Track,
)
from benchmark.core.wording import word
from benchmark.tracks.roundtrip.names import ECHO, STAGES
from benchmark.tracks.roundtrip.options import GENERATE_OPTIONS, REPORT_OPTIONS, TRACK_OPTIONS

if TYPE_CHECKING:  # imported where used: every session loads the track for its options (docs/TRACKS.md)
    from benchmark.tracks.roundtrip.reading.models import ReadModel
    from benchmark.tracks.roundtrip.reading.runfile import StageRun
    from benchmark.tracks.roundtrip.scoring.scorer import ScoreReport
    from benchmark.tracks.roundtrip.study.cases import RoundTripCase, Study

STAGE_STATUS_OK = "ok"


@dataclass(frozen=True)
class StageCase:
    """What a run case scores: a case's stage, from a run file, a study answer or a baseline."""

    case: RoundTripCase
    stage: str
    k: int | None  # None for a baseline
    run_index: int | None
    source: str  # "run file" | "study answer" | "baseline"


def run_name(k: int | None, run_index: int | None, stage: str, baseline: str | None = None) -> str:
    """The row's ``run``: ``k2-run01-inverse``, or ``echo-inverse`` for a baseline."""
    if baseline is not None:
        return f"{baseline.lower()}-{stage}"
    return f"k{k}-run{run_index:02d}-{stage}"


def stage_payload(
    report: ScoreReport, case: RoundTripCase, stage: str, k: int | None, run_index: int | None, status: str
) -> dict[str, Any]:
    """One line of the sheet: the nine columns, the delta scores, flags and what the row is about."""
    counts = report.counts
    return {
        "pair": case.domain,
        "operator": case.operator,
        "k": k,
        "runIndex": run_index,
        "stage": stage,
        "stageStatus": status,
        "LOC": counts.loc,
        "Cr": counts.cr,
        "InCr": counts.incr,
        "Ad": counts.ad,
        "AdHarmful": counts.ad_harmful,
        "Miss": counts.miss,
        "pctCorrect": report.pct_correct,
        "pctWSuccess": report.pct_wsuccess,
        "pctWSuccessSheet": report.pct_wsuccess_sheet,
        "deltaDetected": report.delta_detected,
        "deltaRecall": report.delta.recall,
        "deltaPrecision": report.delta.precision,
        "deltaLines": report.delta.lines,
        "loadable": report.loadable,
        "loadError": report.load_error,
        "readAs": report.read_as,
        "equivalent": report.equivalent,
        "flags": list(report.flags),
        "extractionNotes": list((report.extraction or {}).get("notes", [])),
    }


class RoundTripTrack(Track):
    name = "roundtrip"
    title = "Round trip Ecore <-> SQL by example: inverse Δ(T) -> S', forward S' -> T'"
    label = "Round trip"
    options = TRACK_OPTIONS
    report_options = REPORT_OPTIONS
    generate_options = GENERATE_OPTIONS
    headline_name = "mean %WSuccess"

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._stage_cases: dict[str, StageCase] = {}
        self._collection: Collection | None = None
        self._problems: dict[str, str | None] = {}

    # ------------------------------------------------------------------------------- the study
    @cached_property
    def study(self) -> Study:
        from benchmark.tracks.roundtrip.study.load import load_study

        return load_study(self.data_root)

    def _case(self, task: str) -> RoundTripCase:
        try:
            return self.study.case(task)
        except KeyError:
            raise ConfigurationError(f"no round-trip case {task!r}", file=self.data_root) from None

    # ------------------------------------------------------------------------------- collection
    def collect(self) -> Collection:
        from benchmark.tracks.roundtrip.reading.runfile import RUNS_DIR, read_run

        if self._collection is not None:
            return self._collection
        study = self.study
        truths = [GroundTruthCase(self.name, case.case_id, case.delta_source) for case in study.cases]
        runs: list[RunCase] = []
        skipped = [SkippedInput(path, reason) for path, reason in study.skipped]
        known = {case.case_id: case for case in study.cases}
        for path in (
            sorted((study.root / RUNS_DIR).rglob("*.json")) if (study.root / RUNS_DIR).is_dir() else []
        ):
            if any(part.startswith(".") for part in path.relative_to(study.root).parts):
                continue
            try:
                run = read_run(path)
            except InputFormatError as error:
                skipped.append(SkippedInput(path, f"not a round-trip run file: {error.message}"))
                continue
            case = known.get(run.case_id)
            if case is None:
                skipped.append(SkippedInput(path, f"run of {run.case_id}, which is not a case of this study"))
                continue
            self._add(runs, case, run.stage, run.k, run.run, run.provider, "run file", path, run.model)
        if study.layout == "study":
            from benchmark.tracks.roundtrip.study.own_layout import study_answers

            answers, ignored = study_answers(study)
            skipped += [SkippedInput(path, reason) for path, reason in ignored]
            for answer in answers:
                self._add(
                    runs,
                    answer.case,
                    answer.stage,
                    answer.k,
                    answer.run,
                    answer.provider,
                    "study answer",
                    answer.file,
                    "unknown",
                )
        for case in study.cases:
            for baseline in self.option("roundtrip_baselines"):
                for stage in STAGES:
                    case_id = f"{case.domain}-{case.operator}-{stage}-{baseline}"
                    self._stage_cases[case_id] = StageCase(case, stage, None, None, "baseline")
                    runs.append(
                        RunCase(
                            self.name,
                            case.case_id,
                            baseline,
                            run_name(None, None, stage, baseline),
                            case_id,
                            baseline=baseline,
                            model=f"baseline-{baseline.lower()}",
                        )
                    )
        ids = [run.case_id for run in runs]
        duplicates = sorted({i for i in ids if ids.count(i) > 1})
        if duplicates:
            raise InputFormatError(
                f"several runs are the same stage evaluation: {', '.join(duplicates[:5])}", file=study.root
            )
        self._collection = Collection(
            tuple(sorted(truths, key=lambda c: c.case_id)),
            tuple(sorted(runs, key=lambda c: c.case_id)),
            tuple(skipped),
        )
        return self._collection

    def _add(
        self,
        runs: list[RunCase],
        case: RoundTripCase,
        stage: str,
        k: int,
        run: int,
        provider: str,
        source: str,
        file: Path,
        model: str,
    ) -> None:
        case_id = f"{case.domain}-{case.operator}-k{k}-{stage}-{provider}-run{run:02d}"
        self._stage_cases[case_id] = StageCase(case, stage, k, run, source)
        runs.append(
            RunCase(self.name, case.case_id, provider, run_name(k, run, stage), case_id, file, model=model)
        )

    def _stage_case(self, case: RunCase) -> StageCase:
        if case.case_id not in self._stage_cases:
            self.collect()
        return self._stage_cases[case.case_id]

    # ----------------------------------------------------------------------------- ground truth
    def ground_truth_error(self, task: str) -> str | None:
        """Why the case's four models cannot be read (once per task and process)."""
        from benchmark.tracks.roundtrip.scoring.scorer import reference_lines

        if task not in self._problems:
            try:
                case = self._case(task)
                for stage in (case.inverse, case.forward):
                    reference_lines(stage.base, stage.kind)
                    reference_lines(stage.expected, stage.kind)
                self._problems[task] = None
            except BenchmarkError as error:
                self._problems[task] = f"case {task} is unusable: {error}"
        return self._problems[task]

    def check_ground_truth(self, case: GroundTruthCase) -> Facts:
        problem = self.ground_truth_error(case.task)
        if problem is not None:
            raise GroundTruthProblem(problem)
        facts = self.facts(case.task)
        empty = [s for s in STAGES if facts.payload[f"{s}DeltaLines"] == 0]
        if empty:
            raise GroundTruthProblem(
                f"case {case.task}: the delta changes no canonical line on the {' and '.join(empty)} "
                f"{word(len(empty), 'side')}, so it measures nothing"
            )
        return facts

    def facts(self, task: str) -> Facts:
        from benchmark.tracks.roundtrip.scoring.scorer import reference_lines
        from benchmark.tracks.roundtrip.scoring.witness import diff_lines

        case = self._case(task)
        payload: dict[str, Any] = {"pair": case.domain, "operator": case.operator, "seed": case.seed}
        error = self.ground_truth_error(task)
        if error is None:
            for stage in (case.inverse, case.forward):
                base = reference_lines(stage.base, stage.kind)
                expected = reference_lines(stage.expected, stage.kind)
                diff = diff_lines(base, expected)
                payload[f"{stage.name}BaseLines"] = len(base)
                payload[f"{stage.name}ExpectedLines"] = len(expected)
                payload[f"{stage.name}DeltaLines"] = len(diff.entries())
        return Facts(self.name, task, str(case.delta_source), error, payload)

    # ---------------------------------------------------------------------------------- scoring
    def _read(self, stage_case: StageCase, case: RunCase) -> tuple[ReadModel, str]:
        from benchmark.tracks.roundtrip.reading.models import ReadModel, read_answer, read_answer_data
        from benchmark.tracks.roundtrip.reading.runfile import STATUS_NOT_RUN, read_run
        from benchmark.tracks.roundtrip.scoring.scorer import reference_lines

        stage = stage_case.case.stage(stage_case.stage)
        if case.baseline is not None:  # our own, loadable models: their lines are cached already
            model = stage.base if case.baseline == ECHO else stage.expected
            lines = reference_lines(model, stage.kind)
            return ReadModel(str(model), stage.kind.name, True, None, "model", lines), STAGE_STATUS_OK
        assert case.file is not None
        if stage_case.source == "study answer":
            return read_answer(case.file, stage.kind), STAGE_STATUS_OK
        run: StageRun = read_run(case.file)
        if run.status == STATUS_NOT_RUN:
            reason = run.reason or "not run: the inverse answer is unusable"
            return ReadModel(str(case.file), stage.kind.name, False, reason, "nothing", ()), run.status
        assert run.answer is not None
        return read_answer_data(run.answer.encode("utf-8"), str(case.file), stage.kind), run.status

    def _payload(self, case: RunCase, stage_case: StageCase) -> dict[str, Any]:
        from benchmark.tracks.roundtrip.scoring.scorer import reference_lines, score_lines

        stage = stage_case.case.stage(stage_case.stage)
        read, status = self._read(stage_case, case)
        report = score_lines(
            reference_lines(stage.base, stage.kind),
            reference_lines(stage.expected, stage.kind),
            read,
            base_file=str(stage.base),
            expected_file=str(stage.expected),
        )
        return stage_payload(
            report, stage_case.case, stage_case.stage, stage_case.k, stage_case.run_index, status
        )

    def _payload_key(self, case: RunCase, stage_case: StageCase) -> str:
        """A stage's payload is a function of the scored file's bytes, of its two reference models and of
        this code: the key of its disk-cache entry (a repeated session reads it back)."""
        stage = stage_case.case.stage(stage_case.stage)
        return make_key(
            stage_case.case.case_id,
            stage_case.stage,
            stage_case.source,
            case.baseline or "",
            str(stage_case.k),
            str(stage_case.run_index),
            stage.kind.ns_uri,
            sha256_file(case.file) if case.file is not None else "",
            sha256_file(stage.base),
            sha256_file(stage.expected),
            code_fingerprint("tracks.roundtrip", "lang.ecore", "core.xmlguard"),
        )

    def score_run(self, case: RunCase) -> Row:
        problem = self.ground_truth_error(case.task)
        if problem is not None:
            return self.error_row(case, problem)
        try:
            stage_case = self._stage_case(case)
            key = self._payload_key(case, stage_case)
            payload = self.cache.get_or_compute("roundtrip", key, lambda: self._payload(case, stage_case))
        except BenchmarkError as error:
            return self.error_row(case, str(error))
        return Row(self.name, case.provider, case.model, case.task, case.run, case.label, payload=payload)

    # ----------------------------------------------------------------------------------- inputs
    def input_files(self) -> dict[str, str]:
        root = self.study.root
        files = {self.study.sql_metamodel}
        for case in self.study.cases:
            files |= {case.source, case.target_model, case.delta_source, case.delta_target}
        for run in self.collect().runs:
            if run.file is not None:
                files.add(run.file)
        found = {}
        for path in sorted(files):
            try:
                name = path.resolve().relative_to(root.resolve()).as_posix()
            except ValueError:
                name = str(path)  # the track's own sql.ecore, outside the data folder
            found[name] = sha256_file(path)
        return found

    def options_json(self) -> dict[str, Any]:
        return {
            "baselines": list(self.option("roundtrip_baselines")),
            "layout": self.study.layout,
            "sqlNsURI": self.study.sql_kind.ns_uri,
        }

    # -------------------------------------------------------------------------------- reading
    def headline(self, rows: Any) -> dict[str, float]:
        """Mean %WSuccess per provider over its scored stage evaluations (both stages)."""
        values: dict[str, list[float]] = {}
        for row in rows:
            if row.ok:
                values.setdefault(row.provider, []).append(float(row.payload["pctWSuccess"]))
        return {provider: sum(v) / len(v) for provider, v in values.items()}

    def junit_properties(self, row: Row) -> list[tuple[str, str]]:
        """The sheet's nine columns, the delta scores and the flags of the stage evaluation."""
        if not row.ok:
            return []
        payload = row.payload
        names = ("LOC", "Cr", "InCr", "Ad", "Miss", "pctCorrect", "pctWSuccess", "deltaDetected", "loadable")
        names += ("AdHarmful", "deltaRecall", "deltaPrecision", "equivalent", "stageStatus")
        properties = []
        for name in names:
            value = payload.get(name)
            text = (
                f"{value:.6f}"
                if isinstance(value, float)
                else str(value).lower()
                if isinstance(value, bool)
                else str(value)
            )
            properties.append((name, text))
        properties.append(("flags", str(len(payload.get("flags") or []))))
        return properties

    def summary_lines(self, results: Any, section: Any, verbose: bool) -> list[str]:
        from benchmark.tracks.roundtrip.reports.sheet import aggregate, sheet_rows, terminal_lines

        rows = sheet_rows(section.rows)
        lines = [
            f"{len(rows)} stage evaluations, {len({r.pair for r in rows})} pairs, {self.study.layout} data"
        ]
        lines += terminal_lines(aggregate(rows, ("provider", "stage"), draws=0), ("provider", "stage"))
        if verbose:
            lines.append("")
            lines += terminal_lines(aggregate(rows, ("provider", "k"), draws=0), ("provider", "k"))
        excluded = [r for r in section.rows if not r.ok]
        lines += [f"excluded: {r.provider} {r.task} {r.run}: {r.error}" for r in excluded]
        return lines

    def write_reports(self, results: Any, section: Any, out_dir: Path, options: Any) -> Any:
        from benchmark.tracks.roundtrip.reports.files import track_report

        return track_report(section.rows, out_dir, dict(options))

    # ------------------------------------------------------------------------------------ LLM
    def llm_task(self, request: Any) -> Any:
        """Two chained passes (inverse, then forward from the inverse answers): ``llm_task.py``."""
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
        )
