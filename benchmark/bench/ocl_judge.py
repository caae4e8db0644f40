"""``python -m benchmark.bench ocl_judge``: the OCL track's judging at the study's scale.

Judges C constraints (default 100, the first of the bundled dataset in specification order) in 8 model
variants (the original and the seven transformation modes) on every state of their model, for 4
providers (Oracle, Rename-blind and two synthetic runs, read from ``runs/``), and prints ``name: value``
lines: the answers judged, the states evaluated, the wall clock of the whole job (reading the dataset,
parsing the states, transforming, evaluating the references, judging), and of the judging alone. With
``-j N`` the models are split over N processes, as pytest-xdist splits the track's cases.
"""

from __future__ import annotations

import argparse
import os
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

PROVIDERS = (("Synthetic-Noisy", "run01"), ("Synthetic-Sloppy", "run01"))


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "ocl_judge",
        help="OCL judging speed: constraints x 8 variants x states x 4 providers",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--root", type=Path, default=None, help="the OCL dataset (default: validation/ocl)")
    parser.add_argument("--constraints", type=int, default=100, help="constraints judged (default 100)")
    parser.add_argument("-j", "--jobs", type=int, default=None, help="processes (default: usable CPUs)")
    parser.set_defaults(handler=run)


def _plan(root: Path | None, limit: int) -> tuple[Path, dict[str, list[str]]]:
    from benchmark.tracks.ocl.dataset import load_dataset

    dataset = load_dataset(root)
    chosen: dict[str, list[str]] = {}
    for constraint in list(dataset.constraints())[:limit]:
        chosen.setdefault(constraint.model, []).append(constraint.id)
    return dataset.root, chosen


def _judge(root: str, chosen: dict[str, list[str]]) -> tuple[int, int, float]:
    """(answers judged, state evaluations, seconds spent judging) for some models, in this process."""
    from benchmark.tracks.ocl.baselines import baseline_answers
    from benchmark.tracks.ocl.dataset import load_dataset
    from benchmark.tracks.ocl.runs import read_run, run_path
    from benchmark.tracks.ocl.variants import ORIGINAL, VariantSource, modes

    dataset = load_dataset(root)
    answers = states = 0
    judging = 0.0
    for name, ids in chosen.items():
        source = VariantSource(dataset.models[name])
        original = source.variant(ORIGINAL)
        for mode in modes():
            variant = source.variant(mode)
            referee = variant.referee()
            given = [baseline_answers(b, variant, original) for b in ("Oracle", "Rename-blind")]
            for provider, run in PROVIDERS:
                path = run_path(dataset.root, provider, run, mode)
                given.append(read_run(path).answers.get(name, {}) if path.is_file() else {})
            start = time.perf_counter()
            for per_provider in given:
                for cid in ids:
                    referee.judge(cid, per_provider.get(cid))
            judging += time.perf_counter() - start
            answers += len(given) * len(ids)
            states += len(given) * len(ids) * len(variant.states)
    return answers, states, judging


def run(args: argparse.Namespace) -> int:
    start = time.perf_counter()
    root, chosen = _plan(args.root, args.constraints)
    jobs = max(1, min(args.jobs or len(os.sched_getaffinity(0)), len(chosen)))
    names = sorted(chosen, key=lambda n: -len(chosen[n]))
    shares: list[dict[str, list[str]]] = [{} for _ in range(jobs)]
    for index, name in enumerate(names):
        shares[index % jobs][name] = chosen[name]
    if jobs == 1:
        results = [_judge(str(root), shares[0])]
    else:
        with ProcessPoolExecutor(jobs) as pool:
            results = list(pool.map(_judge, [str(root)] * jobs, shares))
    wall = time.perf_counter() - start
    answers = sum(r[0] for r in results)
    print(f"constraints: {sum(len(v) for v in chosen.values())} in {len(chosen)} models")
    print(
        "variants: 8 (original + 7 modes); providers: 4 (Oracle, Rename-blind, "
        + ", ".join(p for p, _ in PROVIDERS)
        + ")"
    )
    print(f"processes: {jobs}")
    print(f"answers judged: {answers}")
    print(f"state evaluations: {sum(r[1] for r in results)}")
    print(f"judging only (summed over processes): {sum(r[2] for r in results):.2f} s")
    print(f"wall clock, everything (load, parse, transform, references, judge): {wall:.2f} s")
    return 0
