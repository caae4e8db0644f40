"""The OCL track's cases: a ground-truth case per (dataset model, mode), a run case per (dataset model,
mode, provider, run) of every run file (:mod:`.runs`), plus the live baselines (:mod:`.baselines`).

Case ids read ``library-rename-Synthetic-Noisy-run01`` and ``library-rename-Oracle``, so ``-k rename``,
``-k library`` or ``-k Oracle`` select what they say; a run asked with a prompt template other than the
study's has the template after the provider (``library-rename-Synthetic-Noisy-terse-run01``: ``-k terse``),
and an answer format other than free after it (``-k grounded``).
A task is ``<dataset model>-<mode>`` (:class:`~.variants.Tasks`); a run file that cannot be read is a case
of its own (task ``runs``), whose row says why.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from benchmark.core.fileio import sha256_file
from benchmark.core.rows import FREE_FORMAT, STUDY_TEMPLATE
from benchmark.core.track import Collection, GroundTruthCase, RunCase, SkippedInput
from benchmark.tracks.ocl.dataset import Dataset
from benchmark.tracks.ocl.runs import peek_run, run_files
from benchmark.tracks.ocl.variants import UNREADABLE_TASK, Tasks, modes


def collect(
    root: Path, dataset: Dataset | None, tasks: Tasks, baselines: Sequence[str], track: str = "ocl"
) -> Collection:
    """Every case of the OCL data in ``root``, sorted by id (identical on every xdist worker)."""
    if not root.is_dir():
        return Collection(skipped=(SkippedInput(root, "no OCL dataset folder"),))
    if dataset is None:  # one ground-truth case, which fails with the dataset's problem
        return Collection(ground_truths=(GroundTruthCase(track, "dataset", root / "specification.json"),))
    truths, runs, skipped = [], [], []
    for model in dataset.models.values():
        for mode in modes():
            task = tasks.of(model.name, mode)
            truths.append(GroundTruthCase(track, task, model.use_file))
            for baseline in baselines:
                runs.append(
                    RunCase(track, task, baseline, "baseline", f"{task}-{baseline}", baseline=baseline)
                )
    seen: set[str] = set()
    for path in run_files(root):
        run = peek_run(path)
        if run is None:  # unreadable: a case of its own, whose row says why
            label = path.relative_to(root).with_suffix("").as_posix().replace("/", "-")
            runs.append(
                RunCase(track, UNREADABLE_TASK, "unknown", path.stem, f"unreadable-{label}", file=path)
            )
            continue
        template = "" if run.template == STUDY_TEMPLATE else f"{run.template}-"
        template += "" if run.answer_format == FREE_FORMAT else f"{run.answer_format}-"
        for model in run.models:  # answered, or recorded as unanswered: a missing run is listed
            task = tasks.of(model, run.mode)
            case_id = f"{task}-{run.provider}-{template}{run.run}"
            if case_id in seen:
                case_id = f"{case_id}-{path.stem}"
            seen.add(case_id)
            runs.append(
                RunCase(
                    track,
                    task,
                    run.provider,
                    run.run,
                    case_id,
                    path,
                    model=run.model,
                    template=run.template,
                    answer_format=run.answer_format,
                    ledger_scope=f"{model}/",  # the file holds every model's answers, keyed MODEL/ID
                )
            )
        for model in sorted(set(dataset.models) - set(run.models)):
            skipped.append(SkippedInput(path, f"no answers for model {model}"))
    return Collection(
        tuple(sorted(truths, key=lambda c: c.case_id)),
        tuple(sorted(runs, key=lambda c: c.case_id)),
        tuple(skipped),
    )


def input_files(root: Path, dataset: Dataset | None) -> dict[str, str]:
    """Every input file (specification, models, states, run files) relative to ``root``, with its SHA-256."""
    if dataset is None:
        return {}
    files = [root / "specification.json"]
    for entry in dataset.models.values():
        files += [entry.use_file, entry.puml_file, entry.states_file]
        files += [entry.state_path(s) for s in entry.verdicts]
    files += run_files(root)
    return {p.relative_to(root).as_posix(): sha256_file(p) for p in sorted(set(files))}
