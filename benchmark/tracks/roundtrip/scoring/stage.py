"""Scoring one stage evaluation of the round-trip track, and checking the references it is scored against.

The answer is read from its run file (or study answer file), or is the baseline's own model; it is scored
line by line (:func:`~.scorer.score_lines`) against the stage's expected model with its base model as the
base, the references' lines read once per content. A stage's payload is a function of the scored file's
bytes, of its two reference models and of this code, so it is kept in the disk cache under that key and a
repeated session reads it back. A run file saying that no answer was obtained gives a *missing* stage (an
error row with the reason, never scored), a run file that cannot be read an error row with its positioned
message (excluded, listed).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace
from functools import cached_property
from pathlib import Path
from typing import Any

from benchmark.core.diskcache import DiskCache, code_fingerprint, make_key
from benchmark.core.errors import BenchmarkError, ConfigurationError
from benchmark.core.fileio import sha256_file
from benchmark.core.rows import Facts, Row
from benchmark.core.track import GroundTruthCase, GroundTruthProblem, RunCase
from benchmark.core.wording import word
from benchmark.tracks.roundtrip.models.lines import CanonicalLine
from benchmark.tracks.roundtrip.names import ECHO, STAGES
from benchmark.tracks.roundtrip.operators.witness import diff_lines
from benchmark.tracks.roundtrip.payload import STAGE_STATUS_OK, StagePayload, missing_payload
from benchmark.tracks.roundtrip.reading.models import ReadModel, read_answer, read_answer_data
from benchmark.tracks.roundtrip.reading.runfile import STATUS_NO_ANSWER, STATUS_NOT_RUN, StageRun, read_run
from benchmark.tracks.roundtrip.scoring.payload_cache import PayloadCache
from benchmark.tracks.roundtrip.scoring.scorer import ScoreReport, reference, reference_lines, score_lines
from benchmark.tracks.roundtrip.study.cases import RoundTripCase, Stage, StageCase, Study


def stage_payload(
    report: ScoreReport,
    case: RoundTripCase,
    stage: str,
    k: int | None,
    run_index: int | None,
    status: str,
) -> StagePayload:
    """The payload of a stage evaluation scored as ``report``."""
    counts = report.counts
    return StagePayload(
        pair=case.domain,
        operator=case.operator,
        k=k,
        run_index=run_index,
        stage=stage,
        stage_status=status,
        loc=counts.loc,
        cr=counts.cr,
        incr=counts.incr,
        ad=counts.ad,
        ad_harmful=counts.ad_harmful,
        miss=counts.miss,
        pct_correct=report.pct_correct,
        pct_wsuccess=report.pct_wsuccess,
        pct_wsuccess_sheet=report.pct_wsuccess_sheet,
        delta_detected=report.delta_detected,
        delta_recall=report.delta.recall,
        delta_precision=report.delta.precision,
        delta_lines=report.delta.lines,
        loadable=report.loadable,
        load_error=report.load_error,
        read_as=report.read_as,
        equivalent=report.equivalent,
        flags=tuple(report.flags),
        extraction_notes=tuple((report.extraction or {}).get("notes", [])),
    )


class References:
    """A stage's base and expected models as its scoring uses them: the hashes of their bytes, which its
    disk-cache key is made of, and their lines (:func:`~.scorer.reference`), read only when a stage is
    scored: a session whose payloads are all in the disk cache hashes the two files and parses neither."""

    def __init__(self, stage: Stage, base_hash: str, expected_hash: str) -> None:
        self.stage = stage
        self.base_hash = base_hash
        self.expected_hash = expected_hash

    @cached_property
    def base(self) -> tuple[CanonicalLine, ...]:
        return reference(self.stage.base, self.stage.kind)[1]

    @cached_property
    def expected(self) -> tuple[CanonicalLine, ...]:
        return reference(self.stage.expected, self.stage.kind)[1]


#: the code a stage's payload and a task's reference models are computed by (part of their disk-cache keys)
CODE = ("tracks.roundtrip", "lang.ecore", "core.xmlguard")
UNREADABLE_TASK = "runs"  # the task of a run file that cannot be read (collection.UNREADABLE_TASK)


class MissingStage(BenchmarkError):
    """A run file saying that no answer was obtained for its stage: never scored, listed as missing."""

    def __init__(self, reason: str, file: str) -> None:
        super().__init__(f"no answer was obtained for this stage: {reason}", file=file, field="$.status")
        self.reason = reason


class StageScorer:
    """Scores the run cases of one study; checks and describes its cases (once per task and process)."""

    def __init__(
        self,
        study: Study,
        stage_case: Callable[[RunCase], StageCase],
        runs_of: Callable[[str], Sequence[RunCase]],
        cache: DiskCache,
        error_row: Callable[[RunCase, str], Row],
        track: str = "roundtrip",
    ) -> None:
        self.stage_case = stage_case  # what a run case scores (the collection's)
        self.study = study
        self.cache = cache
        self.error_row = error_row  # the track's (the harness's envelope of a run that was not scored)
        self.name = track
        self._problems: dict[str, tuple[str | None, dict[str, int]]] = {}  # task -> (_models)
        self._references: dict[tuple[str, str], References] = {}
        self._keys: dict[str, str] = {}  # run case id -> its payload's key
        self._digests: dict[Path, str] = {}  # SHA-256 of the files read for scoring (:meth:`digest`)
        self.payloads = PayloadCache(cache, "roundtrip", runs_of, self.payload_key)

    def _case(self, task: str) -> RoundTripCase:
        try:
            return self.study.case(task)
        except KeyError:
            raise ConfigurationError(f"no round-trip case {task!r}", file=self.study.root) from None

    def error(self, task: str) -> str | None:
        """Why the case's four models cannot be read (once per task and process)."""
        if task == UNREADABLE_TASK:  # an unreadable run file's case: its row says why
            return None
        return self._models(task)[0]

    def _models(self, task: str) -> tuple[str | None, dict[str, int]]:
        """Why the task's four models cannot be read (``None``: they can), and their line counts: once per
        task and process, and from the disk cache when the same four files (same paths, same bytes) were
        read before by the same code, since reading them is most of a warm session's ground-truth checks."""
        found = self._problems.get(task)
        if found is None:
            case = self._case(task)
            models = [
                (stage, path)
                for stage in (case.inverse, case.forward)
                for path in (stage.base, stage.expected)
            ]
            try:
                parts = [f"{path}\0{stage.kind.ns_uri}\0{self.digest(path)}" for stage, path in models]
            except OSError:  # a file that cannot be read: reading the models says so
                found = self._read_models(task, case)
            else:
                key = make_key("task-models", task, *parts, code_fingerprint(*CODE))
                found = self.cache.get_or_compute(
                    "roundtrip-models", key, lambda: self._read_models(task, case)
                )
            self._problems[task] = found
        return found

    @staticmethod
    def _read_models(task: str, case: RoundTripCase) -> tuple[str | None, dict[str, int]]:
        counts: dict[str, int] = {}
        try:
            for stage in (case.inverse, case.forward):
                base = reference_lines(stage.base, stage.kind)
                expected = reference_lines(stage.expected, stage.kind)
                counts[f"{stage.name}BaseLines"] = len(base)
                counts[f"{stage.name}ExpectedLines"] = len(expected)
                counts[f"{stage.name}DeltaLines"] = len(diff_lines(base, expected).entries())
        except BenchmarkError as error:
            return f"case {task} is unusable: {error}", {}
        return None, counts

    def check(self, case: GroundTruthCase) -> Facts:
        problem = self.error(case.task)
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
        if task == UNREADABLE_TASK:
            return Facts(self.name, task, str(self.study.root), "run files that cannot be read")
        case = self._case(task)
        payload: dict[str, Any] = {"pair": case.domain, "operator": case.operator, "seed": case.seed}
        error, counts = self._models(task)
        payload.update(counts)
        return Facts(self.name, task, str(case.delta_source), error, payload)

    # ---------------------------------------------------------------------------------- scoring
    def references(self, stage_case: StageCase) -> References:
        """The stage's references, read once per stage and process (every provider, k and run of the
        stage is scored against the same two files, which do not change under a session)."""
        key = (stage_case.case.case_id, stage_case.stage)
        found = self._references.get(key)
        if found is None:
            stage = stage_case.case.stage(stage_case.stage)
            found = self._references[key] = References(
                stage, self.digest(stage.base), self.digest(stage.expected)
            )
        return found

    def digest(self, path: Path) -> str:
        """The SHA-256 of a file this process scored with (run files, references), else of the file now
        (``results.json``'s input files: a session hashes each once)."""
        found = self._digests.get(path)
        if found is None:
            found = self._digests[path] = sha256_file(path)
        return found

    def _read(self, stage_case: StageCase, case: RunCase, references: References) -> tuple[ReadModel, str]:
        stage = stage_case.case.stage(stage_case.stage)
        if case.baseline is not None:  # our own, loadable models: their lines are read already
            model, lines = (
                (stage.base, references.base)
                if case.baseline == ECHO
                else (stage.expected, references.expected)
            )
            return ReadModel(str(model), stage.kind.name, True, None, "model", lines), STAGE_STATUS_OK
        assert case.file is not None
        if stage_case.source == "study answer":
            return read_answer(case.file, stage.kind), STAGE_STATUS_OK
        run: StageRun = stage_case.run if stage_case.run is not None else read_run(case.file)
        if run.status == STATUS_NO_ANSWER:
            raise MissingStage(run.reason or "no answer was obtained", str(case.file))
        if run.status == STATUS_NOT_RUN:
            reason = run.reason or "not run: the inverse answer is unusable"
            return ReadModel(str(case.file), stage.kind.name, False, reason, "nothing", ()), run.status
        assert run.answer is not None
        return read_answer_data(run.answer.encode("utf-8"), str(case.file), stage.kind), run.status

    def _payload(self, case: RunCase, stage_case: StageCase, references: References) -> dict[str, Any]:
        stage = stage_case.case.stage(stage_case.stage)
        read, status = self._read(stage_case, case, references)
        report = score_lines(
            references.base,
            references.expected,
            read,
            base_file=str(stage.base),
            expected_file=str(stage.expected),
        )
        return stage_payload(
            report, stage_case.case, stage_case.stage, stage_case.k, stage_case.run_index, status
        ).to_json()

    def payload_key(self, case: RunCase) -> str:
        """A stage's payload is a function of the scored file's bytes, of its two reference models and of
        this code: the key of its disk-cache entry (a repeated session reads it back; made once per case
        and process)."""
        key = self._keys.get(case.case_id)
        if key is None:
            stage_case = self.stage_case(case)
            key = self._keys[case.case_id] = self._payload_key(case, stage_case, self.references(stage_case))
        return key

    def _payload_key(self, case: RunCase, stage_case: StageCase, references: References) -> str:
        stage = stage_case.case.stage(stage_case.stage)
        return make_key(
            stage_case.case.case_id,
            stage_case.stage,
            stage_case.source,
            case.baseline or "",
            str(stage_case.k),
            str(stage_case.run_index),
            stage.kind.ns_uri,
            self.digest(case.file) if case.file is not None else "",
            references.base_hash,
            references.expected_hash,
            code_fingerprint(*CODE),
        )

    def score(self, case: RunCase) -> Row:
        problem = self.error(case.task)
        if problem is not None:
            return self.error_row(case, problem)
        try:
            if case.task == UNREADABLE_TASK:
                assert case.file is not None
                read_run(case.file)  # raises the positioned reason (the collection could not read it)
                return self.error_row(case, f"{case.file}: not a stage evaluation of this study")
            stage_case = self.stage_case(case)
            references = self.references(stage_case)
            payload = self.payloads.get_or_compute(case, lambda: self._payload(case, stage_case, references))
        except MissingStage as missing:  # says nothing about the model: listed, never scored
            row = self.error_row(case, str(missing))
            return replace(row, payload=missing_payload(missing.reason))
        except BenchmarkError as error:
            return self.error_row(case, str(error))
        return Row(self.name, case.provider, case.model, case.task, case.run, case.label, payload=payload)
