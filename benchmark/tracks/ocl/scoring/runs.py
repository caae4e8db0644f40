"""Judging one run of the OCL track, and checking the ground truth it is judged against.

A run case's answers come from its run file (checked: the file's mode and seed must be the case's and the
session's) or from a baseline; every constraint of its dataset model is judged on the variant of its mode
(:class:`~.judge.Referee`), none dropped. A run case is judged only when every constraint of its model has
an answer: until then it is a *missing* run (an error row that says which constraints wait and why, listed
and never scored: a request that got no answer says nothing about the model). A run file that cannot be
read, or whose ground truth is unusable, gives an error row too, excluded from every number and listed
with its positioned message (``docs/OCL.md``, "Missing, unusable, excluded"). A ground truth is usable
when its variant can be built and, on the transformed states, the transformed references give the
verdicts ``states.json`` records for the original (the transformations' law, checked on the data the
runs are judged with). With ``--ocl-judge use|both`` a local USE judges every answer of a variant too,
in one batch per variant in the process's long-lived USE shell (:mod:`.use_judge`, :mod:`.use_shell`):
its judgements are the table's (``use``) or compared with the built-in judge's (``both``), and its
verdicts of the references must be those of ``states.json`` as well. USE's verdicts are kept in the disk
cache, keyed by the variant, the answers, the judging code and the USE installation's files (a warm
session starts no USE), except those with a judge error, which the next session tries again.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

from benchmark.core.diskcache import code_fingerprint, make_key
from benchmark.core.errors import BenchmarkError
from benchmark.core.fileio import dumps_json
from benchmark.core.gcpause import collector_paused
from benchmark.core.rows import Facts, Row
from benchmark.core.track import GroundTruthCase, GroundTruthProblem, RunCase
from benchmark.core.wording import plural
from benchmark.tracks.ocl.baselines import RENAME_BLIND, baseline_answers
from benchmark.tracks.ocl.dataset import Dataset
from benchmark.tracks.ocl.options import BUILTIN, USE
from benchmark.tracks.ocl.payload import Judgement, OclPayload
from benchmark.tracks.ocl.runs import RunFileError, read_run
from benchmark.tracks.ocl.scoring.judge import Referee
from benchmark.tracks.ocl.variants import ORIGINAL, UNREADABLE_TASK, Tasks, Variants, modes

#: the code a judgement is a function of (with the variant's, which its key covers)
JUDGING_CODE = ("lang/ocl", "tracks/ocl/scoring", "tracks/ocl/payload")

if TYPE_CHECKING:  # USE's driver is imported when a session asks for USE
    from benchmark.tracks.ocl.scoring.use_install import UseInstallation
    from benchmark.tracks.ocl.scoring.use_judge import UseVerdicts
    from benchmark.tracks.ocl.scoring.use_shell import UseShell


class RunJudge:
    """Judges the run cases of one dataset (or says, for every case, why it cannot be judged)."""

    def __init__(
        self,
        root: Path,
        dataset: Dataset | None,
        dataset_error: str | None,
        tasks: Tasks,
        variants: Variants | None,
        error_row: Callable[[RunCase, str], Row],
        track: str = "ocl",
        *,
        judging: str = BUILTIN,
        use_path: Path | None = None,
        use_timeout: float = 30.0,
        run_cases: Callable[[], Sequence[RunCase]] = tuple,
    ) -> None:
        self.root = root
        self.dataset = dataset
        self.dataset_error = dataset_error
        self.tasks = tasks
        self.variants = variants
        self.base_error_row = error_row  # the harness's envelope of a run that could not be judged
        self.name = track
        self._referees: dict[tuple[str, str], Referee] = {}
        self.judging = judging  # who judges: the built-in judge, USE, or both
        self.use_path = use_path
        self.use_timeout = use_timeout
        self._shell: UseShell | None = None
        self.run_cases = run_cases  # the session's run cases (USE judges all of a variant's at once)
        self._use: UseInstallation | None = None
        self._use_verdicts: dict[tuple[str, str], UseVerdicts | str] = {}

    def referee(self, model: str, mode: str) -> Referee:
        """The judge of a variant, built once per process."""
        assert self.variants is not None
        if (model, mode) not in self._referees:
            self._referees[(model, mode)] = Referee.of(self.variants.variant(model, mode))
        return self._referees[(model, mode)]

    @property
    def seed(self) -> int:
        assert self.variants is not None
        return self.variants.seed

    # ----------------------------------------------------------------------------- ground truth

    def error(self, task: str) -> str | None:
        if self.dataset is None or self.variants is None:
            return f"the OCL dataset is unusable: {self.dataset_error}"
        if task == UNREADABLE_TASK:
            return None
        parts = self.tasks.split(task)
        if parts is None:
            return f"{task}: no such dataset model and mode (modes: {', '.join(modes())})"
        try:
            self.variants.variant(*parts)
        except GroundTruthProblem as error:
            return f"the variant is unusable: {error}"
        return None

    def check(self, case: GroundTruthCase) -> Facts:
        problem = self.error(case.task)
        if problem is not None:
            raise GroundTruthProblem(problem)
        assert self.dataset is not None and self.variants is not None
        model, mode = self.tasks.split(case.task)  # type: ignore[misc]
        recorded = self.dataset.models[model].verdicts
        judged = [("", self.reference_verdicts(model, mode))]
        if self.judging != BUILTIN:
            judged.append((" in USE", self.use_verdicts(model, mode).references))
        wrong = [
            f"  - {cid} on {state}: the reference {'holds' if got[cid] else 'fails'}{who}, states.json says "
            f"{'holds' if recorded[state][cid] else 'fails'}"
            for who, verdicts in judged
            for state, got in verdicts.items()
            for cid in got
            if got[cid] is not recorded[state][cid]
        ]
        if wrong:
            raise GroundTruthProblem(
                f"{self.dataset.models[model].states_file}: mode {mode} changes "
                f"{plural(len(wrong), 'verdict')} of the "
                "references (the transformed reference on the transformed state must agree with the "
                "original):\n" + "\n".join(wrong)
            )
        return self.facts(case.task)

    def facts(self, task: str) -> Facts:
        parts = self.tasks.split(task)
        if self.dataset is None or parts is None:
            return Facts(self.name, task, str(self.root), self.dataset_error or "unknown task")
        entry = self.dataset.models[parts[0]]
        return Facts(
            self.name,
            task,
            str(entry.use_file),
            payload={
                "datasetModel": entry.name,
                "mode": parts[1],
                "constraints": len(entry.constraints),
                "states": len(entry.verdicts),
            },
        )

    # ---------------------------------------------------------------------------------- scoring

    def answers_of(self, case: RunCase, model: str, mode: str) -> tuple[dict[str, str], str]:
        """(constraint id -> raw answer, the LLM's model name) of a run case."""
        answers, llm, _ = self.read_answers(case, model, mode)
        return answers, llm

    def read_answers(
        self, case: RunCase, model: str, mode: str
    ) -> tuple[dict[str, str], str, dict[str, str]]:
        """(constraint id -> raw answer, the LLM's model name, constraint id -> why its request got no
        answer, as the run file records it) of a run case."""
        assert self.variants is not None
        if case.baseline is not None:
            variant = self.variants.variant(model, mode)  # Rename-blind alone reads the original too
            original = self.variants.variant(model, ORIGINAL) if case.baseline == RENAME_BLIND else variant
            return baseline_answers(case.baseline, variant, original), case.model, {}
        assert case.file is not None
        run = read_run(case.file)
        if run.mode != mode:
            raise RunFileError(
                f"the file is for mode {run.mode}, its case for {mode}", file=case.file, field="$.mode"
            )
        if run.seed != self.seed:
            raise RunFileError(
                f"the prompts were built with transformation seed {run.seed}, this session judges seed "
                f"{self.seed} (--ocl-seed)",
                file=case.file,
                field="$.seed",
            )
        return run.answers.get(model, {}), run.model, run.unanswered.get(model, {})

    def score(self, case: RunCase) -> Row:
        parts = self.tasks.split(case.task)
        if parts is None:
            try:
                read_run(case.file) if case.file is not None else None
            except RunFileError as error:
                return self.error_row(case, str(error))
            return self.error_row(case, f"{case.task}: no such dataset model and mode")
        model, mode = parts
        assert self.dataset is not None and self.variants is not None
        try:
            answers, llm, unanswered = self.read_answers(case, model, mode)
            constraints = self.dataset.models[model].constraints
            absent = [cid for cid in constraints if cid not in answers]
            if absent:  # never judged: a request that got no answer says nothing about the model
                return self.missing_row(case, model, mode, absent, unanswered)
            self.variants.variant(model, mode)  # a variant that cannot be built gives an error row
        except (BenchmarkError, GroundTruthProblem) as error:
            return self.error_row(case, str(error))
        label = case.label
        judgements = [] if self.judging == USE else self.judgements(model, mode, label, answers)
        unknown = sorted(set(answers) - set(constraints))
        payload = OclPayload(model, mode, self.seed, tuple(judgements), tuple(unknown))
        if self.judging != BUILTIN:  # USE's judgements: the tables' (use), or compared with ours (both)
            from benchmark.tracks.ocl.scoring.use_judge import disagreements

            try:
                verdicts = self.use_verdicts(model, mode)
            except BenchmarkError as error:
                return self.error_row(case, str(error))
            use = tuple(verdicts.judge((case.case_id, cid), answers.get(cid)) for cid in constraints)
            payload = replace(payload, judge=self.judging, use_cost=verdicts.cost_json())
            if self.judging == USE:
                payload = replace(payload, judgements=use)
            else:
                found = tuple(d.to_json() for d in disagreements(judgements, use))
                payload = replace(payload, judge_disagreements=found)
        return Row(self.name, case.provider, llm, case.task, case.run, label, payload=payload.to_json())

    def judgements(self, model: str, mode: str, label: str, answers: dict[str, str]) -> list[Judgement]:
        """The built-in judge's judgement of every constraint of the model, in the specification's order.
        A function of the variant, the answers, the label (an error's message names the run) and the
        judging code, so it is kept in the disk cache: a repeated session reads it instead of parsing and
        evaluating every answer again."""
        assert self.dataset is not None and self.variants is not None
        constraints = self.dataset.models[model].constraints

        def judge() -> list[Judgement]:
            referee = self.referee(model, mode)
            with collector_paused():  # parsing and compiling answers: benchmark.core.gcpause
                return [
                    referee.judge(cid, answers.get(cid), label=f"{label} [{model}.{cid}]")
                    for cid in constraints
                ]

        if self.variants.cache is None:
            return judge()
        given = dumps_json([[cid, answers.get(cid)] for cid in constraints])
        key = make_key(self.variants.key(model, mode), code_fingerprint(*JUDGING_CODE), label, given)
        return self.variants.cache.get_or_compute("ocl-judgements", key, judge)

    def reference_verdicts(self, model: str, mode: str) -> dict[str, dict[str, bool]]:
        """State -> constraint id -> the reference holds, on the variant: kept in the disk cache as the
        judgements are."""
        assert self.variants is not None
        if self.variants.cache is None:
            return self.referee(model, mode).verdicts
        key = make_key(self.variants.key(model, mode), code_fingerprint(*JUDGING_CODE))
        return self.variants.cache.get_or_compute(
            "ocl-verdicts", key, lambda: self.referee(model, mode).verdicts
        )

    # -------------------------------------------------------------------------------------- USE

    def use_installation(self) -> UseInstallation:
        """The local USE (``--ocl-use``, else ``ATLBENCH_USE``); a configuration error when absent."""
        if self._use is None:
            from benchmark.tracks.ocl.scoring.use_install import find_use

            self._use = find_use(self.use_path)
        return self._use

    def use_verdicts(self, model: str, mode: str) -> UseVerdicts:
        """USE's judgement of every answer of the variant (every run case of its task and the references),
        computed once per process in the process's USE shell, or read from the disk cache; raises when USE
        cannot judge the variant."""
        key = (model, mode)
        if key not in self._use_verdicts:
            try:
                self._use_verdicts[key] = self._judged_by_use(model, mode)
            except (BenchmarkError, GroundTruthProblem) as error:
                self._use_verdicts[key] = f"USE could not judge {model} ({mode}): {error}"
        found = self._use_verdicts[key]
        if isinstance(found, str):
            from benchmark.tracks.ocl.scoring.use_install import UseFailed

            raise UseFailed(found)
        return found

    def _judged_by_use(self, model: str, mode: str) -> UseVerdicts:
        from dataclasses import replace as with_fields

        from benchmark.core.diskcache import computing, require_stored
        from benchmark.tracks.ocl.scoring.use_judge import judge_with_use

        assert self.variants is not None
        answers: dict[tuple[str, str], str] = {}
        task = self.tasks.of(model, mode)
        for case in self.run_cases():
            if case.task != task:
                continue
            try:
                got, _ = self.answers_of(case, model, mode)
            except (BenchmarkError, GroundTruthProblem):
                continue  # its row is an error row, judged by nobody
            answers.update(((case.case_id, cid), text) for cid, text in got.items())
        variant = self.variants.variant(model, mode)
        cache = self.variants.cache
        installation = self.use_installation()
        given = dumps_json(sorted([*key, text] for key, text in answers.items()))
        key = make_key(
            self.variants.key(model, mode),
            code_fingerprint(*JUDGING_CODE),
            installation.fingerprint(),
            f"timeout={self.use_timeout!r}",
            given,
        )
        stored = cache.get("ocl-use-verdicts", key) if cache is not None else None
        if stored is not None:
            return with_fields(stored, cached=True)
        require_stored(f"ocl-use-verdicts/{key}")
        with computing():
            verdicts = judge_with_use(variant, answers, self.use_shell())
            if cache is not None and not verdicts.cost.judge_errors:
                cache.put("ocl-use-verdicts", key, verdicts)
        return verdicts

    def use_shell(self) -> UseShell:
        """The process's USE shell (started at its first batch)."""
        if self._shell is None:
            from benchmark.tracks.ocl.scoring.use_shell import UseShell

            self._shell = UseShell(self.use_installation(), self.use_timeout)
        return self._shell

    def error_row(self, case: RunCase, message: str) -> Row:
        """A run that cannot be judged (its file unreadable or inconsistent, its ground truth unusable): an
        error row, excluded from every number and listed with ``message``; it names its model and mode."""
        row = self.base_error_row(case, message)
        parts = self.tasks.split(case.task)
        if parts is None or self.dataset is None or self.variants is None:
            return row
        model, mode = parts
        return replace(row, payload=OclPayload(model, mode, self.seed).to_json())

    def missing_row(
        self, case: RunCase, model: str, mode: str, absent: Sequence[str], recorded: dict[str, str]
    ) -> Row:
        """The row of a run case some of whose constraints have no answer: a missing run, with the reason
        of each (as the run file records it), never judged; the next ``atlbench generate`` fills it in."""
        assert self.dataset is not None
        by_reason: dict[str, list[str]] = {}
        for cid in absent:
            by_reason.setdefault(recorded.get(cid, "the run file has no answer for it"), []).append(cid)
        total = len(self.dataset.models[model].constraints)
        reasons = "; ".join(f"{', '.join(cids)}: {why}" for why, cids in by_reason.items())
        reason = f"no answer for {len(absent)} of {plural(total, 'constraint')} of {model} ({reasons})"
        row = self.base_error_row(case, f"no answer was obtained for this run: {reason}")
        payload = OclPayload(model, mode, self.seed, missing=reason, unanswered=tuple(absent))
        return replace(row, payload=payload.to_json())
