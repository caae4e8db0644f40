"""The round-trip track's cases: one ground-truth case per (pair, operator) of the study
(:func:`~.study.load.load_study`: the bundled data, or a study's own folder given with
``--roundtrip-root``), one run case per stage evaluation, i.e. per (pair, operator, k, stage, provider,
run):

* every run file below ``runs/`` (``atlbench generate --track roundtrip``, the bundled synthetic runs);
* every answer file of a study's own layout (``*_inverse_*.ecore``, ``*_forward_*_sql.xmi``);
* the live baselines of ``--roundtrip-baselines`` (default both): **Echo** (the unchanged base model: S
  for the inverse stage, T for the forward one: what "did nothing" earns) and **Oracle** (Δ(S), Δ(T)
  themselves: 100 % everywhere, or the scorer is wrong). A baseline does not depend on k.

Case ids read ``<pair>-<operator>-k<k>-<stage>-<provider>-run<NN>`` (baselines: ``<pair>-<operator>-
<stage>-<Baseline>``), so ``-k "to_many and k2 and inverse"`` selects what it says; a run asked with a
prompt template other than the study's has the template after the provider
(``<pair>-<operator>-k<k>-<stage>-<provider>-<template>-run<NN>``: ``-k terse``), and an answer format
other than free after it (``-k schema``). A run file that cannot
be read (cut off, not UTF-8, too large, not of the documented shape) is a case of its own,
``unreadable-<path>`` (task ``runs``), whose row is excluded and says why: it is listed, never skipped.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path

from benchmark.core.errors import InputFormatError
from benchmark.core.fileio import sha256_file
from benchmark.core.rows import FREE_FORMAT, STUDY_TEMPLATE
from benchmark.core.track import Collection, GroundTruthCase, RunCase, SkippedInput
from benchmark.tracks.roundtrip.names import STAGES
from benchmark.tracks.roundtrip.reading.runfile import RUNS_DIR, StageRun, read_run
from benchmark.tracks.roundtrip.scoring.stage import UNREADABLE_TASK
from benchmark.tracks.roundtrip.study.cases import RoundTripCase, StageCase, Study


def run_name(k: int | None, run_index: int | None, stage: str, baseline: str | None = None) -> str:
    """The row's ``run``: ``k2-run01-inverse``, or ``echo-inverse`` for a baseline."""
    if baseline is not None:
        return f"{baseline.lower()}-{stage}"
    return f"k{k}-run{run_index:02d}-{stage}"


@dataclass
class StageCases:
    """A study's cases (:meth:`collect`, once per process), and what each run case scores."""

    study: Study
    baselines: Sequence[str]
    track: str = "roundtrip"
    _stage_cases: dict[str, StageCase] = field(default_factory=dict)
    _collection: Collection | None = None
    _runs_by_task: dict[str, tuple[RunCase, ...]] | None = None

    def stage_case(self, case: RunCase) -> StageCase:
        if case.case_id not in self._stage_cases:
            self.collect()
        return self._stage_cases[case.case_id]

    def runs_of(self, task: str) -> tuple[RunCase, ...]:
        """The run cases of a task (a case of the study), in collection order."""
        if self._runs_by_task is None:
            by_task: dict[str, list[RunCase]] = {}
            for run in self.collect().runs:
                by_task.setdefault(run.task, []).append(run)
            self._runs_by_task = {task: tuple(runs) for task, runs in by_task.items()}
        return self._runs_by_task.get(task, ())

    def collect(self) -> Collection:
        if self._collection is not None:
            return self._collection
        study = self.study
        truths = [GroundTruthCase(self.track, case.case_id, case.delta_source) for case in study.cases]
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
            except InputFormatError:  # a case of its own, whose row says why (never a silent skip)
                label = path.relative_to(study.root).with_suffix("").as_posix().replace("/", "-")
                runs.append(
                    RunCase(self.track, UNREADABLE_TASK, "unknown", path.stem, f"unreadable-{label}", path)
                )
                continue
            case = known.get(run.case_id)
            if case is None:
                skipped.append(SkippedInput(path, f"run of {run.case_id}, which is not a case of this study"))
                continue
            self._add(
                runs,
                case,
                run.stage,
                run.k,
                run.run,
                run.provider,
                "run file",
                path,
                run.model,
                run.template,
                replace(run, extra={}),
                run.answer_format,  # what scoring reads of it (status, answer, reason), kept
            )
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
            for baseline in self.baselines:
                for stage in STAGES:
                    case_id = f"{case.domain}-{case.operator}-{stage}-{baseline}"
                    self._stage_cases[case_id] = StageCase(case, stage, None, None, "baseline")
                    runs.append(
                        RunCase(
                            self.track,
                            case.case_id,
                            baseline,
                            run_name(None, None, stage, baseline),
                            case_id,
                            baseline=baseline,
                            model=f"baseline-{baseline.lower()}",
                        )
                    )
        counts = Counter(run.case_id for run in runs)
        duplicates = sorted(case_id for case_id, count in counts.items() if count > 1)
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
        template: str = STUDY_TEMPLATE,
        stage_run: StageRun | None = None,
        answer_format: str = FREE_FORMAT,
    ) -> None:
        named = "" if template == STUDY_TEMPLATE else f"{template}-"
        named += "" if answer_format == FREE_FORMAT else f"{answer_format}-"
        case_id = f"{case.domain}-{case.operator}-k{k}-{stage}-{provider}-{named}run{run:02d}"
        self._stage_cases[case_id] = StageCase(case, stage, k, run, source, stage_run)
        runs.append(
            RunCase(
                self.track,
                case.case_id,
                provider,
                run_name(k, run, stage),
                case_id,
                file,
                model=model,
                template=template,
                answer_format=answer_format,
            )
        )


def input_files(
    study: Study, runs: Sequence[RunCase], digest: Callable[[Path], str] = sha256_file
) -> dict[str, str]:
    """Every input file (the study's models, the SQL metamodel, the run files) with its SHA-256
    (``digest``: the scorer's, which knows those it scored with), relative to the study's folder (the
    track's own ``sql.ecore`` by its path)."""
    root = study.root
    files = {study.sql_metamodel}
    for case in study.cases:
        files |= {case.source, case.target_model, case.delta_source, case.delta_target}
    files |= {run.file for run in runs if run.file is not None}
    found = {}
    resolved_root = root.resolve()
    for path in sorted(files):
        try:
            name = path.resolve().relative_to(resolved_root).as_posix()
        except ValueError:
            name = str(path)  # the track's own sql.ecore, outside the data folder
        found[name] = digest(path)
    return found
