"""The OCL robustness track: LLM-written constraints judged on original and transformed models.

Ground-truth cases are (dataset model, mode) pairs: the variant is built (:mod:`.variants`) and its
transformed references must give, on the transformed states, the verdicts ``states.json`` records for the
original (the transformations' law, checked on the data the runs are judged with). Run cases are
(dataset model, mode, provider, run): one per run file (:mod:`.runs`) and dataset model it answers, plus
the live baselines (:mod:`.baselines`), each judging every constraint of the model (:mod:`.judge`).
Case ids read ``library-rename-Synthetic-Noisy-run01`` and ``library-rename-Oracle``, so ``-k rename``,
``-k library`` or ``-k Oracle`` select what they say. Variants and their judges are built once per process
and model (SOIL parsing is the cost; every mode transforms the parsed states), and kept in the session's
disk cache, so a repeated session loads them instead of parsing and transforming again.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from benchmark.core.errors import BenchmarkError, ConfigurationError
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
from benchmark.core.wording import plural
from benchmark.tracks.ocl.dataset import Dataset, DatasetError, load_dataset
from benchmark.tracks.ocl.options import GENERATE_OPTIONS, REPORT_OPTIONS, TRACK_OPTIONS
from benchmark.tracks.ocl.runs import RunFileError, peek_run, read_run, run_files
from benchmark.tracks.ocl.variants import ORIGINAL, modes

if TYPE_CHECKING:  # imported where used: every session loads the track for its options (docs/TRACKS.md)
    from benchmark.tracks.ocl.scoring.judge import Judgement, Referee
    from benchmark.tracks.ocl.variants import Variant, VariantSource


class OclTrack(Track):
    name = "ocl"
    title = "OCL robustness: LLM-written constraints on original and transformed models"
    label = "OCL robustness"
    options = TRACK_OPTIONS
    report_options = REPORT_OPTIONS
    generate_options = GENERATE_OPTIONS
    headline_name = "robustness"

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._dataset: Dataset | None = None
        self._dataset_error: str | None = None
        self._sources: dict[str, VariantSource] = {}
        self._variants: dict[tuple[str, str], Variant | str] = {}
        self._referees: dict[tuple[str, str], Referee] = {}
        self._tasks: dict[str, tuple[str, str]] = {}

    # ------------------------------------------------------------------------------- dataset

    @property
    def seed(self) -> int:
        return self.option("ocl_seed")

    def dataset(self) -> Dataset | None:
        if self._dataset is None and self._dataset_error is None:
            try:
                self._dataset = load_dataset(self.data_root)
            except DatasetError as error:
                self._dataset_error = str(error)
        return self._dataset

    def task_of(self, model: str, mode: str) -> str:
        task = f"{model}-{mode}"
        self._tasks[task] = (model, mode)
        return task

    def split(self, task: str) -> tuple[str, str] | None:
        if task in self._tasks:
            return self._tasks[task]
        dataset = self.dataset()
        for mode in modes():
            model = task[: -len(mode) - 1] if task.endswith(f"-{mode}") else None
            if model and dataset is not None and model in dataset.models:
                return self._tasks.setdefault(task, (model, mode))
        return None

    def variant(self, model: str, mode: str) -> Variant:
        """The variant (built once per process); raises :class:`GroundTruthProblem` when it cannot be."""
        from benchmark.tracks.ocl.variants import VariantSource

        key = (model, mode)
        if key not in self._variants:
            dataset = self.dataset()
            assert dataset is not None
            try:
                if model not in self._sources:
                    self._sources[model] = VariantSource(dataset.models[model], self.cache)
                self._variants[key] = self._sources[model].variant(mode, self.seed)
            except BenchmarkError as error:
                self._variants[key] = f"{model} ({mode}): {error}"
        found = self._variants[key]
        if isinstance(found, str):
            raise GroundTruthProblem(found)
        return found

    def referee(self, model: str, mode: str) -> Referee:
        key = (model, mode)
        if key not in self._referees:
            self._referees[key] = self.variant(model, mode).referee()
        return self._referees[key]

    # ------------------------------------------------------------------------------- collection

    def collect(self) -> Collection:
        if not self.data_root.is_dir():
            return Collection(skipped=(SkippedInput(self.data_root, "no OCL dataset folder"),))
        dataset = self.dataset()
        if dataset is None:
            truth = GroundTruthCase(self.name, "dataset", self.data_root / "specification.json")
            return Collection(ground_truths=(truth,))
        truths, runs, skipped = [], [], []
        for model in dataset.models.values():
            for mode in modes():
                task = self.task_of(model.name, mode)
                truths.append(GroundTruthCase(self.name, task, model.use_file))
                for baseline in self.option("ocl_baselines"):
                    runs.append(
                        RunCase(
                            self.name, task, baseline, "baseline", f"{task}-{baseline}", baseline=baseline
                        )
                    )
        seen: set[str] = set()
        for path in run_files(self.data_root):
            run = peek_run(path)
            if run is None:  # unreadable: a case of its own, whose row says why
                label = path.relative_to(self.data_root).with_suffix("").as_posix().replace("/", "-")
                runs.append(
                    RunCase(self.name, "runs", "unknown", path.stem, f"unreadable-{label}", file=path)
                )
                continue
            for model in sorted(run.answers):
                task = self.task_of(model, run.mode)
                case_id = f"{task}-{run.provider}-{run.run}"
                if case_id in seen:
                    case_id = f"{case_id}-{path.stem}"
                seen.add(case_id)
                runs.append(
                    RunCase(self.name, task, run.provider, run.run, case_id, file=path, model=run.model)
                )
            for model in sorted(set(dataset.models) - set(run.answers)):
                skipped.append(SkippedInput(path, f"no answers for model {model}"))
        return Collection(
            tuple(sorted(truths, key=lambda c: c.case_id)),
            tuple(sorted(runs, key=lambda c: c.case_id)),
            tuple(skipped),
        )

    # ----------------------------------------------------------------------------- ground truth

    def ground_truth_error(self, task: str) -> str | None:
        if self.dataset() is None:
            return f"the OCL dataset is unusable: {self._dataset_error}"
        if task == "runs":
            return None
        parts = self.split(task)
        if parts is None:
            return f"{task}: no such dataset model and mode (modes: {', '.join(modes())})"
        try:
            self.variant(*parts)
        except GroundTruthProblem as error:
            return f"the variant is unusable: {error}"
        return None

    def check_ground_truth(self, case: GroundTruthCase) -> Facts:
        problem = self.ground_truth_error(case.task)
        if problem is not None:
            raise GroundTruthProblem(problem)
        model, mode = self.split(case.task)  # type: ignore[misc]
        dataset = self.dataset()
        assert dataset is not None
        recorded = dataset.models[model].verdicts
        referee = self.referee(model, mode)
        wrong = [
            f"  - {cid} on {state}: the reference {'holds' if got[cid] else 'fails'}, states.json says "
            f"{'holds' if recorded[state][cid] else 'fails'}"
            for state, got in referee.verdicts.items()
            for cid in got
            if got[cid] is not recorded[state][cid]
        ]
        if wrong:
            raise GroundTruthProblem(
                f"{dataset.models[model].states_file}: mode {mode} changes "
                f"{plural(len(wrong), 'verdict')} of the "
                "references (the transformed reference on the transformed state must agree with the "
                "original):\n" + "\n".join(wrong)
            )
        return self.facts(case.task)

    def facts(self, task: str) -> Facts:
        dataset = self.dataset()
        parts = self.split(task)
        if dataset is None or parts is None:
            return Facts(self.name, task, str(self.data_root), self._dataset_error or "unknown task")
        entry = dataset.models[parts[0]]
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
        from benchmark.tracks.ocl.baselines import baseline_answers

        if case.baseline is not None:
            return baseline_answers(
                case.baseline, self.variant(model, mode), self.variant(model, ORIGINAL)
            ), case.model
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
        return run.answers.get(model, {}), run.model

    def score_run(self, case: RunCase) -> Row:
        parts = self.split(case.task)
        if parts is None:
            try:
                read_run(case.file) if case.file is not None else None
            except RunFileError as error:
                return self.error_row(case, str(error))
            return self.error_row(case, f"{case.task}: no such dataset model and mode")
        model, mode = parts
        try:
            answers, llm = self.answers_of(case, model, mode)
            referee = self.referee(model, mode)
        except (BenchmarkError, GroundTruthProblem) as error:
            return self.error_row(case, str(error))
        dataset = self.dataset()
        assert dataset is not None
        label = case.label
        judgements = [
            referee.judge(cid, answers.get(cid), label=f"{label} [{model}.{cid}]")
            for cid in dataset.models[model].constraints
        ]
        unknown = sorted(set(answers) - set(dataset.models[model].constraints))
        return Row(
            self.name,
            case.provider,
            llm,
            case.task,
            case.run,
            label,
            payload=self._payload(model, mode, judgements, unknown),
        )

    def _payload(
        self, model: str, mode: str, judgements: Sequence[Judgement], unknown: Sequence[str] = ()
    ) -> dict[str, Any]:
        return {
            "datasetModel": model,
            "mode": mode,
            "seed": self.seed,
            "judgements": [j.to_json() for j in judgements],
            "unknownConstraints": list(unknown),
        }

    def error_row(self, case: RunCase, message: str) -> Row:
        """An unusable run still counts: every constraint of its model is a failure (``missing``)."""
        from benchmark.tracks.ocl.scoring.judge import MISSING, Judgement

        row = super().error_row(case, message)
        parts = self.split(case.task)
        dataset = self.dataset()
        if parts is None or dataset is None:
            return row
        model, mode = parts
        judgements = [
            Judgement(cid, MISSING, f"run unusable: {message}") for cid in dataset.models[model].constraints
        ]
        return replace(row, payload=self._payload(model, mode, judgements))

    # ----------------------------------------------------------------------------------- inputs

    def input_files(self) -> dict[str, str]:
        dataset = self.dataset()
        if dataset is None:
            return {}
        files = [self.data_root / "specification.json"]
        for entry in dataset.models.values():
            files += [entry.use_file, entry.puml_file, entry.states_file]
            files += [entry.state_path(s) for s in entry.verdicts]
        files += run_files(self.data_root)
        return {p.relative_to(self.data_root).as_posix(): sha256_file(p) for p in sorted(set(files))}

    def options_json(self) -> dict[str, Any]:
        return {"baselines": list(self.option("ocl_baselines")), "seed": self.seed}

    def incomparable(self, now: Any, before: Any) -> str | None:
        if now.get("seed", 0) != before.get("seed", 0):
            return f"the transformation seeds differ ({before.get('seed', 0)} then {now.get('seed', 0)})"
        return None

    # -------------------------------------------------------------------------------- reading

    def scores(self, rows: Any, draws: int | None = None) -> Any:
        from benchmark.stats.bootstrap import DEFAULT_DRAWS
        from benchmark.tracks.ocl.scores import judged, score

        return score(judged(rows), draws=draws or DEFAULT_DRAWS)

    def mode_pairs(self, rows: Any, draws: int | None = None) -> Any:
        from benchmark.stats.bootstrap import DEFAULT_DRAWS
        from benchmark.tracks.ocl.pairs import compare_modes
        from benchmark.tracks.ocl.scores import judged

        return compare_modes(judged(rows), draws=draws or DEFAULT_DRAWS)

    def headline(self, rows: Any) -> dict[str, float]:
        from benchmark.tracks.ocl.scores import headline

        return headline(self.scores(rows, draws=1))

    def junit_properties(self, row: Row) -> list[tuple[str, str]]:
        from benchmark.tracks.ocl.scoring.judge import OUTCOMES

        items = row.payload.get("judgements", [])
        counts = {o: sum(1 for j in items if j["outcome"] == o) for o in OUTCOMES}
        props = [("mode", str(row.payload.get("mode", ""))), ("constraints", str(len(items)))]
        props += [(o.replace(" ", "_"), str(n)) for o, n in counts.items() if n]
        return props

    def summary_lines(self, results: Any, section: Any, verbose: bool) -> list[str]:
        from benchmark.tracks.ocl.reports.files import summary_lines

        rows = section.rows
        return summary_lines(self.scores(rows), rows, verbose, self.mode_pairs(rows))

    def write_reports(self, results: Any, section: Any, out_dir: Path, options: Any) -> Any:
        from benchmark.tracks.ocl.reports.files import track_report

        draws = options.get("ocl_draws")
        rows = section.rows
        return track_report(section, self.scores(rows, draws), Path(out_dir), self.mode_pairs(rows, draws))

    # ------------------------------------------------------------------------------------ LLM

    def llm_task(self, request: Any) -> Any:
        from benchmark.tracks.ocl.llm_task import OclTrackTask

        dataset = self.dataset()
        if dataset is None:
            raise ConfigurationError(
                f"the OCL dataset is unusable: {self._dataset_error}", field="--ocl-root"
            )
        return OclTrackTask(self, dataset, request)
