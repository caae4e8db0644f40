"""``python -m benchmark.bench session``: wall time of a whole benchmark session at 1x and 10x the runs.

Copies the validation tree's transformation folders to a temporary directory, multiplies the runs with
seeded synthetic ones (1x = the runs as bundled; kx adds (k-1) times as many ``Synthetic-Scale`` runs),
and times ``pytest cases/test_rq1.py`` in a fresh process for each scale, cold (no disk cache) and warm.
The growth between scales is the suite's own cost per run, which should stay in milliseconds.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

from benchmark.core.wording import plain_text

REPO = Path(__file__).resolve().parents[2]


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "session",
        help="time a whole pytest benchmark session at several run counts",
        description=plain_text(__doc__),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--validation-root", type=Path, default=REPO / "validation")
    parser.add_argument("--scales", default="1,10", help="comma-separated multipliers (default 1,10)")
    parser.add_argument("--workers", default="0,auto", help="pytest-xdist -n values to time (default 0,auto)")
    parser.add_argument("--baseline", default="all", help="--baseline passed to pytest (default all)")
    parser.set_defaults(handler=run)


def _prepare(source: Path, target: Path, scale: int) -> int:
    """Copy the ATL transformation folders and add synthetic runs; return the number of run files."""
    from benchmark.tracks.mapping.corpus import discover
    from benchmark.tracks.mapping.synth import PROFILES, write_synthetic_runs

    discovery = discover(source)
    for folder in discovery.transformations:
        shutil.copytree(folder.path, target / folder.name)
    noise = replace(PROFILES["Synthetic-Noisy"], name="Synthetic-Scale")
    for folder in discovery.transformations if scale > 1 else ():
        extra = max(1, len(folder.suggestion_files)) * (scale - 1)
        write_synthetic_runs(target / folder.name, profiles=[noise], runs=extra, out_dir="runs-scale")
    return sum(len(f.suggestion_files) for f in discover(target).transformations)


def _time_session(tree: Path, workers: str, baseline: str, cache: bool) -> tuple[float, int]:
    command = [
        sys.executable,
        "-m",
        "pytest",
        str(REPO / "cases" / "test_rq1.py"),
        "-q",
        "-p",
        "no:randomly",
        "--validation-root",
        str(tree),
        "--reports-dir",
        str(tree / "reports"),
        "--baseline",
        baseline,
        "-n",
        workers,
        "-o",
        f"cache_dir={tree / '.cache'}",
    ]
    if not cache:
        shutil.rmtree(tree / ".cache", ignore_errors=True)
    env = {**os.environ, "PYTHONPATH": str(REPO) + os.pathsep + os.environ.get("PYTHONPATH", "")}
    start = time.perf_counter()
    result = subprocess.run(command, cwd=REPO, capture_output=True, text=True, env=env)
    elapsed = time.perf_counter() - start
    return elapsed, result.returncode


def run(args: argparse.Namespace) -> int:
    from tabulate import tabulate

    scales = [int(s) for s in args.scales.split(",") if s.strip()]
    workers = [w.strip() for w in args.workers.split(",") if w.strip()]
    rows = []
    failed = False
    with tempfile.TemporaryDirectory(prefix="atlbench-session-") as tmp:
        for scale in scales:
            tree = Path(tmp) / f"x{scale}"
            tree.mkdir()
            runs = _prepare(args.validation_root, tree, scale)
            for worker in workers:
                for cache in (False, True):
                    seconds, status = _time_session(tree, worker, args.baseline, cache)
                    failed |= status not in (0, 1)  # 1: a run failed or a gate tripped, still timed
                    rows.append(
                        {
                            "scale": f"{scale}x",
                            "runs": runs,
                            "-n": worker,
                            "disk cache": "warm" if cache else "cold",
                            "wall s": round(seconds, 2),
                            "ms per run": round(1000 * seconds / max(runs, 1), 1),
                            "exit": status,
                        }
                    )
                    print(
                        f"scale {scale}x, -n {worker}, {'warm' if cache else 'cold'}: {seconds:.2f} s",
                        file=sys.stderr,
                    )
    print(tabulate(rows, headers="keys"))
    for worker in workers:
        for cache in ("cold", "warm"):
            picked = [r for r in rows if r["-n"] == worker and r["disk cache"] == cache]
            if len(picked) >= 2 and picked[-1]["runs"] > picked[0]["runs"]:
                growth = (picked[-1]["wall s"] - picked[0]["wall s"]) / (
                    picked[-1]["runs"] - picked[0]["runs"]
                )
                print(f"-n {worker}, {cache} cache: {1000 * growth:.1f} ms per additional run")
    return 1 if failed else 0
