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
from benchmark.core.options import FLAG, PATH, Option, switch
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
from benchmark.tracks.ocl.baselines import BASELINES, parse_baselines
from benchmark.tracks.ocl.dataset import Dataset, DatasetError, load_dataset
from benchmark.tracks.ocl.runs import RunFileError, peek_run, read_run, run_files
from benchmark.tracks.ocl.variants import ORIGINAL, modes

if TYPE_CHECKING:  # imported where used: every session loads the track for its options (docs/TRACKS.md)
    from benchmark.tracks.ocl.judge import Judgement, Referee
    from benchmark.tracks.ocl.use_batch import UseInstallation
    from benchmark.tracks.ocl.use_judge import UseVerdicts
    from benchmark.tracks.ocl.variants import Variant, VariantSource

BUILTIN, USE, BOTH = "builtin", "use", "both"


def _seed(text: str) -> int:
    value = int(text)
    if value < 0:
        raise ValueError(f"must be a non-negative integer, got {text}")
    return value


def _mode(text: str) -> str:
    if text not in modes():
        raise ValueError(f"unknown mode {text!r}; expected one of {', '.join(modes())}")
    return text


def _judge(text: str) -> str:
    if text not in (BUILTIN, USE, BOTH):
        raise ValueError(f"must be {BUILTIN}, {USE} or {BOTH}, got {text!r}")
    return text


def _positive(text: str) -> int | None:
    if not text:
        return None
    value = int(text)
    if value < 1:
        raise ValueError(f"must be a positive integer, got {text}")
    return value


class OclTrack(Track):
    name = "ocl"
    title = "OCL robustness: LLM-written constraints on original and transformed models"
    options = (
        Option(
            "--ocl-baseline",
            "all",
            f"OCL baselines run live: all, none, or a comma list ({', '.join(BASELINES)})",
            parse_baselines,
            metavar="NAMES",
        ),
        Option("--ocl-seed", "0", "seed of the OCL model transformations", _seed, metavar="S"),
        Option(
            "--ocl-judge",
            BUILTIN,
            "who judges the OCL answers: builtin, use (a local USE, see --ocl-use) or both (the tables are "
            "the built-in judge's; every disagreement is listed and fails the session)",
            _judge,
            metavar="JUDGE",
        ),
        Option(
            "--ocl-use",
            "",
            "the local USE of --ocl-judge use|both: its `use' launcher, installation folder or folder of "
            "jars (default: $ATLBENCH_USE)",
            kind=PATH,
            metavar="PATH",
        ),
        Option(
            "--ocl-accept-disagreements",
            "false",
            "with --ocl-judge both: list the disagreements between the judges and pass",
            switch,
            kind=FLAG,
        ),
    )
    report_options = (
        Option(
            "--ocl-draws", "", "bootstrap draws of the OCL intervals (default 2000)", _positive, metavar="N"
        ),
    )
    generate_options = (
        Option(
            "--ocl-mode",
            ORIGINAL,
            "the model variant the prompts show: original or a transformation mode",
            _mode,
            metavar="MODE",
        ),
    )
    headline_name = "robustness"

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._dataset: Dataset | None = None
        self._dataset_error: str | None = None
        self._sources: dict[str, VariantSource] = {}
        self._variants: dict[tuple[str, str], Variant | str] = {}
        self._referees: dict[tuple[str, str], Referee] = {}
        self._tasks: dict[str, tuple[str, str]] = {}
        self._collection: Collection | None = None
        self._use: UseInstallation | None = None
        self._use_verdicts: dict[tuple[str, str], UseVerdicts | str] = {}

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

    @property
    def judge(self) -> str:
        return self.context.options.get("ocl_judge", BUILTIN)

    def collect(self) -> Collection:
        if self.judge != BUILTIN:
            self.use_installation()  # a missing USE is a configuration error, said once, before any case
        self._collection = self._collect()
        return self._collection

    def _collect(self) -> Collection:
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
                for baseline in self.option("ocl_baseline"):
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
        judged = [("", self.referee(model, mode).verdicts)]
        if self.judge != BUILTIN:
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
        constraints = dataset.models[model].constraints
        judgements = [
            referee.judge(cid, answers.get(cid), label=f"{label} [{model}.{cid}]")
            for cid in constraints
            if self.judge != USE
        ]
        extra: dict[str, Any] = {}
        if self.judge != BUILTIN:  # USE's judgements: the tables' (use), or compared with ours (both)
            from benchmark.tracks.ocl.use_judge import disagreements

            try:
                verdicts = self.use_verdicts(model, mode)
            except BenchmarkError as error:
                return self.error_row(case, str(error))
            use = [verdicts.judge((case.case_id, cid), answers.get(cid)) for cid in constraints]
            extra = {"judge": self.judge, "useJudge": verdicts.cost_json()}
            if self.judge == USE:
                judgements = use
            else:
                extra["judgeDisagreements"] = [d.to_json() for d in disagreements(judgements, use)]
        unknown = sorted(set(answers) - set(constraints))
        return Row(
            self.name,
            case.provider,
            llm,
            case.task,
            case.run,
            label,
            payload=self._payload(model, mode, judgements, unknown) | extra,
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

    # --------------------------------------------------------------------------------------- USE

    def use_installation(self) -> UseInstallation:
        """The local USE (``--ocl-use``, else ``ATLBENCH_USE``); a configuration error when absent."""
        if self._use is None:
            from benchmark.tracks.ocl.use_batch import find_use

            self._use = find_use(self.option("ocl_use"))
        return self._use

    def use_verdicts(self, model: str, mode: str) -> UseVerdicts:
        """USE's judgement of every answer of the variant (every run case of its task and the references),
        computed once per process in one JVM; raises when USE cannot judge the variant."""
        key = (model, mode)
        if key not in self._use_verdicts:
            from benchmark.tracks.ocl.use_batch import UseFailed
            from benchmark.tracks.ocl.use_judge import judge_with_use

            answers: dict[tuple[str, str], str] = {}
            collection = self._collection or self.collect()
            task = self.task_of(model, mode)
            for case in collection.runs:
                if case.task != task:
                    continue
                try:
                    got, _ = self.answers_of(case, model, mode)
                except (BenchmarkError, GroundTruthProblem):
                    continue  # its row is an error row, judged by nobody
                answers.update(((case.case_id, cid), text) for cid, text in got.items())
            try:
                self._use_verdicts[key] = judge_with_use(
                    self.variant(model, mode), answers, self.use_installation()
                )
            except (BenchmarkError, GroundTruthProblem) as error:
                self._use_verdicts[key] = f"USE could not judge {model} ({mode}): {error}"
        found = self._use_verdicts[key]
        if isinstance(found, str):
            raise UseFailed(found)
        return found

    def session_check(self, rows: Sequence[Row]) -> tuple[list[str], list[str]]:
        """With ``--ocl-judge both``: a disagreement between the judges fails the session, unless
        ``--ocl-accept-disagreements``."""
        if self.judge != BOTH:
            return [], []
        from benchmark.tracks.ocl.judge_report import disagreement_records

        own = [row for row in rows if row.track == self.name]
        found = disagreement_records(own)
        answers = sum(len(row.payload.get("judgements", [])) for row in own if row.ok)
        if not found:
            return [f"ocl: the built-in judge and USE agree on all {plural(answers, 'answer')}"], []
        head = (
            f"ocl: the built-in judge and USE disagree on {len(found)} of {plural(answers, 'answer')} "
            "(listed in the OCL summary and ocl_judge_disagreements.csv)"
        )
        if self.option("ocl_accept_disagreements"):
            return [f"{head}; accepted by --ocl-accept-disagreements"], []
        return [], [f"{head}; accept them with --ocl-accept-disagreements"]

    def error_row(self, case: RunCase, message: str) -> Row:
        """An unusable run still counts: every constraint of its model is a failure (``missing``)."""
        from benchmark.tracks.ocl.judge import MISSING, Judgement

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
        options = {"baselines": list(self.option("ocl_baseline")), "seed": self.seed}
        if self.judge != BUILTIN:
            options["judge"] = self.judge
        return options

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
        from benchmark.tracks.ocl.judge import OUTCOMES

        items = row.payload.get("judgements", [])
        counts = {o: sum(1 for j in items if j["outcome"] == o) for o in OUTCOMES}
        props = [("mode", str(row.payload.get("mode", ""))), ("constraints", str(len(items)))]
        props += [(o.replace(" ", "_"), str(n)) for o, n in counts.items() if n]
        return props

    def summary_lines(self, results: Any, section: Any, verbose: bool) -> list[str]:
        from benchmark.tracks.ocl.judge_report import judge_lines
        from benchmark.tracks.ocl.reports import summary_lines

        rows = section.rows
        return summary_lines(self.scores(rows), rows, verbose, self.mode_pairs(rows)) + judge_lines(rows)

    def write_reports(self, results: Any, section: Any, out_dir: Path, options: Any) -> Any:
        from benchmark.tracks.ocl.judge_report import with_judge_report
        from benchmark.tracks.ocl.reports import track_report

        draws = options.get("ocl_draws")
        rows = section.rows
        report = track_report(section, self.scores(rows, draws), Path(out_dir), self.mode_pairs(rows, draws))
        return with_judge_report(report, rows, Path(out_dir))

    # ------------------------------------------------------------------------------------ LLM

    def llm_task(self, request: Any) -> Any:
        from benchmark.tracks.ocl.llm_task import OclTrackTask

        dataset = self.dataset()
        if dataset is None:
            raise ConfigurationError(
                f"the OCL dataset is unusable: {self._dataset_error}", field="--ocl-root"
            )
        return OclTrackTask(self, dataset, request)
