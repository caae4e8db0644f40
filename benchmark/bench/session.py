"""``python -m benchmark.bench session``: wall time of a whole benchmark session at 1x and 10x the runs.

Copies the validation tree's transformation folders to a temporary directory, multiplies the runs with
seeded synthetic ones (1x = the runs as bundled; kx adds (k-1) times as many ``Synthetic-Scale`` runs),
and times ``pytest cases/test_rq1.py`` in a fresh process for each scale and ``-n`` value, cold (no disk
cache: ATL parsing, metamodels, baselines, statistics and figures all computed) and warm (all of that
taken from the cache the cold run left), ``--repeat`` times each; it prints the medians. The growth
between scales is the suite's own cost per run, which should stay in milliseconds.

Each session is run with ``ATLBENCH_PHASE_TIMES`` set (:mod:`benchmark.core.phases`), so the session
writes where its time went and the benchmark prints a median breakdown per row: start-up, collection,
scoring, results, each report file (statistics, each figure, each writer), the terminal summary, exit.
A session that exits with another status than 0 or 1 has the end of its output printed.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from benchmark.core import phases
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
    parser.add_argument("--repeat", type=int, default=3, help="sessions timed per row; medians (default 3)")
    parser.add_argument(
        "--tests", default="cases/test_rq1.py", help="the test module to run (default cases/test_rq1.py)"
    )
    parser.set_defaults(handler=run)


def _prepare(source: Path, target: Path, scale: int) -> int:
    """Copy the ATL transformation folders and add synthetic runs; return the number of run files."""
    from benchmark.tracks.mapping.discovery import discover
    from benchmark.tracks.mapping.synth import PROFILES, write_synthetic_runs

    discovery = discover(source)
    for folder in discovery.transformations:
        shutil.copytree(folder.path, target / folder.name)
    noise = replace(PROFILES["Synthetic-Noisy"], name="Synthetic-Scale")
    for folder in discovery.transformations if scale > 1 else ():
        extra = max(1, len(folder.suggestion_files)) * (scale - 1)
        write_synthetic_runs(target / folder.name, profiles=[noise], runs=extra, out_dir="runs-scale")
    return sum(len(f.suggestion_files) for f in discover(target).transformations)


@dataclass
class Timed:
    """One timed session: its wall time, exit status, and phases (name, seconds) in the order they began."""

    seconds: float
    status: int
    phases: list[tuple[str, float]] = field(default_factory=list)
    output: str = ""
    #: CPU seconds (user + system) of the session's process and its worker processes.
    cpu: float = 0.0


def _phases(document: dict[str, Any], spawned: float, ended: float) -> list[tuple[str, float]]:
    """The session's phases (:mod:`benchmark.core.phases`), with the time before the first (interpreter
    start, imports, pytest's start-up) and after the phase file was written (exit) added."""
    recorded = sorted(document.get("phases", []), key=lambda p: (p["start"], -p["end"]))
    if not recorded:
        return []
    out = [(STARTUP, recorded[0]["start"] - spawned)]
    out += [(p["phase"], p["end"] - p["start"]) for p in recorded]
    out.append((EXIT, ended - document.get("written", ended)))
    return out


def time_session(tree: Path, workers: str, baseline: str, cache: bool, tests: str) -> Timed:
    """One ``pytest TESTS`` session on ``tree`` in a fresh process, cold (its disk cache deleted first) or
    warm, with its phases (``ATLBENCH_PHASE_TIMES``)."""
    command = [
        sys.executable,
        "-m",
        "pytest",
        tests,
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
    phase_file = tree.parent / f"{tree.name}-phases.json"  # outside the tree: a .json in it is a run file
    phase_file.unlink(missing_ok=True)
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join(p for p in (str(REPO), os.environ.get("PYTHONPATH", "")) if p),
        phases.ENV: str(phase_file),
    }
    spawned = time.time()
    before = children_cpu()
    start = time.perf_counter()
    result = subprocess.run(command, cwd=REPO, capture_output=True, text=True, env=env)
    elapsed = time.perf_counter() - start
    ended = time.time()
    cpu = children_cpu() - before
    document = json.loads(phase_file.read_text(encoding="utf-8")) if phase_file.is_file() else {}
    phases_ = _phases(document, spawned, ended)
    return Timed(elapsed, result.returncode, phases_, result.stdout + result.stderr, cpu)


def children_cpu() -> float:
    """User + system CPU seconds of this process's finished children (and theirs) so far."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


STARTUP = "start-up (interpreter, imports, pytest and its plugins)"
EXIT = "exit (interpreter shutdown)"


def median_phases(runs: list[Timed]) -> list[tuple[str, float]]:
    """Each phase's median over the runs that went through it, in the order of the first run."""
    order: dict[str, list[float]] = {}
    for run in runs:
        for name, seconds in run.phases:
            order.setdefault(name, []).append(seconds)
    return [(name, statistics.median(values)) for name, values in order.items()]


def run(args: argparse.Namespace) -> int:
    from benchmark.reports.table import terminal_lines

    scales = [int(s) for s in args.scales.split(",") if s.strip()]
    workers = [w.strip() for w in args.workers.split(",") if w.strip()]
    tests = str((REPO / args.tests) if not Path(args.tests).is_absolute() else Path(args.tests))
    rows = []
    breakdowns = []
    failed = False
    with tempfile.TemporaryDirectory(prefix="atlbench-session-") as tmp:
        for scale in scales:
            tree = Path(tmp) / f"x{scale}"
            tree.mkdir()
            runs = _prepare(args.validation_root, tree, scale)
            for worker in workers:
                for cache in (False, True):
                    label = f"scale {scale}x, -n {worker}, {'warm' if cache else 'cold'}"
                    timed = []
                    for _ in range(args.repeat):
                        one = time_session(tree, worker, args.baseline, cache, tests)
                        timed.append(one)
                        print(f"{label}: {one.seconds:.2f} s, exit {one.status}", file=sys.stderr)
                        if one.status not in (0, 1):  # 1: a run failed or a gate tripped, still timed
                            failed = True
                            print(f"pytest exited {one.status}; its output ends:", file=sys.stderr)
                            print("\n".join(one.output.splitlines()[-25:]), file=sys.stderr)
                    seconds = statistics.median(t.seconds for t in timed)
                    rows.append(
                        {
                            "scale": f"{scale}x",
                            "runs": runs,
                            "-n": worker,
                            "disk cache": "warm" if cache else "cold",
                            "wall s (median)": round(seconds, 2),
                            "min": round(min(t.seconds for t in timed), 2),
                            "max": round(max(t.seconds for t in timed), 2),
                            "ms per run": round(1000 * seconds / max(runs, 1), 1),
                            "exit": ",".join(sorted({str(t.status) for t in timed})),
                        }
                    )
                    breakdowns.append((label, median_phases(timed)))
    print(
        f"pytest {Path(tests).relative_to(REPO) if Path(tests).is_relative_to(REPO) else tests}, "
        f"medians of {args.repeat}"
    )
    print("\n".join(terminal_lines(list(rows[0]), [[str(v) for v in r.values()] for r in rows])))
    for worker in workers:
        for cache in ("cold", "warm"):
            picked = [r for r in rows if r["-n"] == worker and r["disk cache"] == cache]
            if len(picked) >= 2 and picked[-1]["runs"] > picked[0]["runs"]:
                growth = (picked[-1]["wall s (median)"] - picked[0]["wall s (median)"]) / (
                    picked[-1]["runs"] - picked[0]["runs"]
                )
                print(f"-n {worker}, {cache} cache: {1000 * growth:.1f} ms per additional run")
    for label, breakdown in breakdowns:
        print(f"\nphases, {label} (median seconds; a phase inside another is listed after it):")
        print(
            "\n".join(
                terminal_lines(["phase", "s"], [(name, f"{seconds:.3f}") for name, seconds in breakdown])
            )
        )
    return 1 if failed else 0
