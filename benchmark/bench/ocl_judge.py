"""``python -m benchmark.bench ocl_judge``: the OCL track's judging at the study's scale.

Judges C constraints (default 100, the first of the bundled dataset in specification order) in 8 model
variants (the original and the seven transformation modes) on every state of their model, for 4
providers (Oracle, Rename-blind and two synthetic runs, read from ``runs/``), and prints ``name: value``
lines: the answers judged, the states evaluated, the wall clock of the whole job (reading the dataset,
parsing the states, transforming, evaluating the references, judging), and of the judging alone. With
``-j N`` the models are split over N processes, as pytest-xdist splits the track's cases.

The job runs ``--repeat`` times **cold** (no disk cache: every state parsed, every variant transformed)
and as many times **warm** (parsed states and variants read from a disk cache filled by one untimed run,
as a repeated pytest session reads its ``.pytest_cache``); the medians are printed against the issue's
target (10 s on 2 cores), with every run's figure.
"""

from __future__ import annotations

import argparse
import os
import statistics
import tempfile
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

PROVIDERS = (("Synthetic-Noisy", "run01"), ("Synthetic-Sloppy", "run01"))
TARGET_SECONDS = 10.0  # the figure: the whole job on 2 cores


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
    parser.add_argument("--repeat", type=int, default=3, help="timed runs, cold and warm each (default 3)")
    parser.set_defaults(handler=run)


def _plan(root: Path | None, limit: int) -> tuple[Path, dict[str, list[str]]]:
    from benchmark.tracks.ocl.dataset import load_dataset

    dataset = load_dataset(root)
    chosen: dict[str, list[str]] = {}
    for constraint in list(dataset.constraints())[:limit]:
        chosen.setdefault(constraint.model, []).append(constraint.id)
    return dataset.root, chosen


def _judge(root: str, chosen: dict[str, list[str]], cache_dir: str | None) -> tuple[int, int, float]:
    """(answers judged, state evaluations, seconds spent judging) for some models, in this process."""
    from benchmark.core.diskcache import DiskCache
    from benchmark.tracks.ocl.baselines import baseline_answers
    from benchmark.tracks.ocl.dataset import load_dataset
    from benchmark.tracks.ocl.runs import read_run, run_path
    from benchmark.tracks.ocl.scoring.judge import Referee
    from benchmark.tracks.ocl.variants import ORIGINAL, VariantSource, modes

    dataset = load_dataset(root)
    cache = DiskCache(cache_dir)
    answers = states = 0
    judging = 0.0
    for name, ids in chosen.items():
        source = VariantSource(dataset.models[name], cache)
        original = source.variant(ORIGINAL)
        for mode in modes():
            variant = source.variant(mode)
            referee = Referee.of(variant)
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


def _job(root: Path | None, limit: int, jobs: int | None, cache_dir: str | None) -> dict[str, Any]:
    """One whole job, timed from reading the dataset to the last judgement."""
    start = time.perf_counter()
    root, chosen = _plan(root, limit)
    jobs = max(1, min(jobs or len(os.sched_getaffinity(0)), len(chosen)))
    names = sorted(chosen, key=lambda n: -len(chosen[n]))
    shares: list[dict[str, list[str]]] = [{} for _ in range(jobs)]
    for index, name in enumerate(names):
        shares[index % jobs][name] = chosen[name]
    if jobs == 1:
        results = [_judge(str(root), shares[0], cache_dir)]
    else:
        with ProcessPoolExecutor(jobs) as pool:
            results = list(pool.map(_judge, [str(root)] * jobs, shares, [cache_dir] * jobs))
    return {
        "wall": time.perf_counter() - start,
        "jobs": jobs,
        "chosen": chosen,
        "answers": sum(r[0] for r in results),
        "states": sum(r[1] for r in results),
        "judging": sum(r[2] for r in results),
    }


def _figures(label: str, runs: list[dict[str, Any]]) -> float:
    walls = [r["wall"] for r in runs]
    median = statistics.median(walls)
    judging = statistics.median(r["judging"] for r in runs)
    verdict = "within" if median <= TARGET_SECONDS else "OVER"
    print(
        f"{label}: median {median:.2f} s ({verdict} the {TARGET_SECONDS:g} s target); runs "
        + ", ".join(f"{w:.2f}" for w in walls)
        + f"; judging only, summed over processes: median {judging:.2f} s"
    )
    return median


def run(args: argparse.Namespace) -> int:
    if args.repeat < 1:
        raise SystemExit("--repeat must be at least 1")
    cold = [_job(args.root, args.constraints, args.jobs, None) for _ in range(args.repeat)]
    with tempfile.TemporaryDirectory(prefix="ocl-judge-cache-") as cache_dir:
        _job(args.root, args.constraints, args.jobs, cache_dir)  # fills the cache, untimed
        warm = [_job(args.root, args.constraints, args.jobs, cache_dir) for _ in range(args.repeat)]
    first = cold[0]
    chosen = first["chosen"]
    print(f"constraints: {sum(len(v) for v in chosen.values())} in {len(chosen)} models")
    print(
        "variants: 8 (original + 7 modes); providers: 4 (Oracle, Rename-blind, "
        + ", ".join(p for p, _ in PROVIDERS)
        + ")"
    )
    print(f"processes: {first['jobs']} (usable CPUs: {len(os.sched_getaffinity(0))})")
    print(f"answers judged: {first['answers']}")
    print(f"state evaluations: {first['states']}")
    print("wall clock of the whole job (load, parse, transform, references, judge):")
    _figures("  cold (no disk cache)", cold)
    _figures("  warm (states and variants from the disk cache)", warm)
    return 0
