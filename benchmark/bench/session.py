"""``python -m benchmark.bench session``: the wall time of the user's command, ``pytest cases``.

Times, each in a fresh process started from the checkout's folder, ``pytest cases`` (every track) and each
track's module alone (``--rows all,mapping,ocl,roundtrip``), with each ``-n`` value (``--workers 0,auto``),
**cold** (the pytest cache folder, and with it the disk cache, deleted before the session: ATL parsing,
metamodels, variants, states, statistics and figures all computed) and **warm** (the cache the previous
session of the same checkout left), ``--repeat`` times each, and prints the medians [min-max] of the wall
time and the CPU time of the session's processes, with the 1-minute load average before the first and
after the last session of the line. The cache and the report files go to a temporary folder.

``-n auto`` starts as many workers as the session's plugin decides (:mod:`benchmark.harness.autoworkers`:
none, in one process, when the previous session of the same cases says one process is faster): the
table's ``-n`` column says how many each line's sessions started, ``auto (2)`` or ``auto (0)``.

``--against COMMIT`` times the same lines on COMMIT too (a temporary git worktree, run with this
interpreter: ``benchmark/bench/_checkout.py`` says why), in pairs run in turn (this, COMMIT, this,
COMMIT...), and adds this / COMMIT: the median of the pairs' ratios and, from 5 pairs on, in brackets, an
interval of two of them that holds that median with at least 90 % confidence whatever the distribution of
the timings (the sign test's interval: with 5 pairs their smallest and largest ratio, 93.75 %). On this
shared machine a ratio whose interval holds 1 is within the noise; ``--repeat 7`` or more narrows it.

``--bytecode compiled`` (the default) byte-compiles every checkout's modules before timing, as Python
leaves a checkout after its first session; ``--bytecode source`` removes the checkouts' ``__pycache__``
folders and runs every session with ``PYTHONDONTWRITEBYTECODE=1`` (a fresh clone's first session, or an
environment that writes no bytecode: each session then compiles the checkout's modules, 0.2 to 0.3 s per
process). Both checkouts are always in the same state; the report's first line says which.

``--ocl-judge use`` (or ``both``) runs the sessions of the rows that hold the OCL track with that judge
(a local USE: ``ATLBENCH_USE``, docs/OCL.md) and prints, under each line's phases, what the last session
of each checkout printed about USE's cost (its starts and where its time went).

``--scales 1,4,16`` times the sessions on the bundled data at k times its runs
(``benchmark/bench/_scaled.py``; 1x is the bundled data itself) and prints, per line, the milliseconds
per additional case and, with ``-n 0``, per additional case beyond the cases' own work (the sum of the
tracks' ``score_run`` and ground-truth checks, which the session measures in its process).

Each session runs with ``ATLBENCH_PHASE_TIMES`` (:mod:`benchmark.core.phases`): the bench prints the median
breakdown of every line (start-up, collection, scoring, results, each track's reports and report files,
the terminal summary, exit). A session that exits with another status than 0 or 1 has the end of its
output printed and the bench exits 1.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from contextlib import ExitStack
from pathlib import Path
from typing import Any

from benchmark.bench._checkout import Checkout
from benchmark.bench._session_plan import (
    CACHES,
    ROWS,
    Key,
    Measurements,
    ScaledRoots,
    Timed,
    choices,
    count_cases,
    phase_rows,
    phases_of,
    pytest_command,
    scales,
    slope_lines,
    summary_rows,
    tallies_of,
    use_lines,
    worker_counts,
)
from benchmark.core import phases
from benchmark.core.wording import plain_text

REPO = Path(__file__).resolve().parents[2]


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "session",
        help="time the user's command, pytest cases, per track, cold and warm, against another commit",
        description=plain_text(__doc__),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    add_arguments(parser)
    parser.set_defaults(handler=run)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--rows", default=",".join(ROWS), help=f"sessions to time, among {', '.join(ROWS)} (default all four)"
    )
    parser.add_argument("--workers", default="0,auto", help="pytest-xdist -n values (default 0,auto)")
    parser.add_argument("--cache", default="cold,warm", help="disk cache states (default cold,warm)")
    parser.add_argument("--repeat", type=int, default=3, help="sessions per line and checkout (default 3)")
    parser.add_argument("--scales", default="1", help="run multipliers, e.g. 1,4,16 (default 1: as bundled)")
    parser.add_argument("--validation-root", type=Path, default=REPO / "validation", help=argparse.SUPPRESS)
    parser.add_argument("--against", metavar="COMMIT", help="time the same lines on COMMIT, in turn")
    parser.add_argument(
        "--ocl-judge",
        choices=("builtin", "use", "both"),
        default="builtin",
        help="the OCL track's judge in the sessions that run it (default builtin; use and both need USE)",
    )
    parser.add_argument("--json", type=Path, metavar="FILE", help="also write every timed session to FILE")
    parser.add_argument(
        "--bytecode",
        choices=("compiled", "source"),
        default="compiled",
        help="the checkouts' modules byte-compiled before timing (default), or compiled from source by "
        "every session",
    )


def children_cpu() -> float:
    """User + system CPU seconds of this process's finished children (and theirs) so far."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def time_session(command: list[str], cwd: Path, env: dict[str, str], phase_file: Path) -> Timed:
    """One session in a fresh process, with its phases (``ATLBENCH_PHASE_TIMES``)."""
    phase_file.unlink(missing_ok=True)
    env = {**env, phases.ENV: str(phase_file)}
    load_before = os.getloadavg()[0]
    spawned = time.time()
    before = children_cpu()
    start = time.perf_counter()
    result = subprocess.run(command, cwd=cwd, capture_output=True, text=True, env=env)
    elapsed = time.perf_counter() - start
    ended = time.time()
    cpu = children_cpu() - before
    document = json.loads(phase_file.read_text(encoding="utf-8")) if phase_file.is_file() else {}
    output = result.stdout + result.stderr
    return Timed(
        elapsed,
        result.returncode,
        phases_of(document, spawned, ended),
        tallies_of(document),
        cpu,
        count_cases(output),
        (load_before, os.getloadavg()[0]),
        output,
        document.get("workers"),
    )


def run(args: argparse.Namespace) -> int:
    from benchmark.bench._checkout import BYTECODE_STATES, other_checkout, prepare_bytecode, this_checkout
    from benchmark.bench._scaled import scaled_roots
    from benchmark.reports.table import terminal_lines

    rows = choices(args.rows, list(ROWS), "--rows")
    workers = worker_counts(args.workers)
    caches = choices(args.cache, CACHES, "--cache")
    multipliers = scales(args.scales)
    repeat = max(1, args.repeat)
    measurements: Measurements = {}
    failed = False
    # a terminated bench still removes its temporary folders and its --against worktree
    signal.signal(signal.SIGTERM, lambda number, frame: sys.exit(128 + number))
    print(f"load average at start: {' '.join(f'{x:.2f}' for x in os.getloadavg())}", file=sys.stderr)
    with ExitStack() as stack:
        tmp = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="atlbench-session-")))
        checkouts = [this_checkout()]
        if args.against:
            checkouts.append(stack.enter_context(other_checkout(args.against)))
        checkouts = [prepare_bytecode(checkout, args.bytecode) for checkout in checkouts]
        sides = [c.label for c in checkouts]
        for scale in multipliers:
            roots: ScaledRoots = scaled_roots(args.validation_root, tmp / f"data-x{scale}", scale, rows)
            for row in rows:
                for worker in workers:
                    primed: set[str] = set()
                    for cache in caches:
                        key = Key(scale, row, worker, cache, args.ocl_judge)
                        measurements[key] = time_line(key, checkouts, roots, tmp, repeat, primed)
                        failed = failed or any(
                            t.status not in (0, 1) for runs in measurements[key].values() for t in runs
                        )
        print_report(measurements, sides, repeat, terminal_lines, BYTECODE_STATES[args.bytecode])
    if args.json:
        args.json.write_text(json.dumps(as_json(measurements), indent=1), encoding="utf-8")
    return 1 if failed else 0


def time_line(
    key: Key, checkouts: list[Checkout], roots: ScaledRoots, tmp: Path, repeat: int, primed: set[str]
) -> dict[str, list[Timed]]:
    """``repeat`` sessions of one line per checkout, in turn; a warm line of a checkout whose cache is not
    filled yet (``--cache warm`` alone) is preceded by one untimed session."""
    timed: dict[str, list[Timed]] = {checkout.label: [] for checkout in checkouts}
    for index in range(repeat):
        for number, checkout in enumerate(checkouts):
            where = tmp / f"side{number}"
            command = pytest_command(
                sys.executable, key.row, key.workers, where / "cache", where / "reports", roots, key.ocl_judge
            )
            if key.cache == "cold":
                shutil.rmtree(where / "cache", ignore_errors=True)
            elif checkout.label not in primed:
                subprocess.run(command, cwd=checkout.root, env=checkout.env(), capture_output=True)
            primed.add(checkout.label)
            one = time_session(command, checkout.root, checkout.env(), where / "phases.json")
            timed[checkout.label].append(one)
            print(
                f"{key.label()}, {checkout.label} #{index + 1}: {one.seconds:.2f} s wall, {one.cpu:.1f} s "
                f"CPU, {one.cases} cases, {_workers(one)}, exit {one.status}, "
                f"load {one.load[0]:.1f}-{one.load[1]:.1f}",
                file=sys.stderr,
            )
            if one.status not in (0, 1):  # 1: a run failed or a gate tripped, still timed
                print(f"pytest exited {one.status}; its output ends:", file=sys.stderr)
                print("\n".join(one.output.splitlines()[-25:]), file=sys.stderr)
    return timed


def _workers(one: Timed) -> str:
    """How many xdist workers the session started (``-n auto`` decides: benchmark.harness.autoworkers)."""
    if one.workers is None:
        return "workers unknown"
    return "no worker (one process)" if one.workers == 0 else f"{one.workers} workers"


def print_report(
    measurements: Measurements, sides: list[str], repeat: int, terminal_lines: Any, bytecode: str
) -> None:
    cores = os.cpu_count()
    print(
        f"whole pytest sessions, medians of {repeat} [min-max]"
        + (
            f", pairs run in turn ({sides[0]} / {sides[1]}: the median of the pairs' ratios [an interval "
            "holding it with at least 90 % confidence, from 5 pairs on])"
            if len(sides) == 2
            else ""
        )
        + f"; {cores} CPUs; load average at the end: {' '.join(f'{x:.2f}' for x in os.getloadavg())}"
    )
    print(f"bytecode: {bytecode}")
    headers, rows = summary_rows(measurements, sides)
    print("\n".join(terminal_lines(headers, rows)))
    slopes = slope_lines(measurements, sides)
    if slopes:
        print("\ncost per case between the scales:")
        print("\n".join(slopes))
    for key, by_side in measurements.items():
        headers, rows = phase_rows(by_side, sides)
        if rows:
            print(f"\nphases, {key.label()} (median seconds; a phase inside another is listed after it):")
            print("\n".join(terminal_lines(headers, rows)))
        for side in sides:
            runs = by_side.get(side, [])
            said = use_lines(runs[-1].output) if runs else []
            if said:
                print(f"USE, {key.label()}, {side}, last session:")
                print("\n".join(f"  {line}" for line in said))


def as_json(measurements: Measurements) -> list[dict[str, Any]]:
    return [
        {
            "scale": key.scale,
            "command": f"pytest {key.command()} -n {key.workers}",
            "cache": key.cache,
            "checkout": side,
            "sessions": [
                {
                    "wall": t.seconds,
                    "cpu": t.cpu,
                    "cases": t.cases,
                    "exit": t.status,
                    "load": list(t.load),
                    "workers": t.workers,
                    "phases": t.phases,
                    "tallies": t.tallies,
                }
                for t in runs
            ],
        }
        for key, by_side in measurements.items()
        for side, runs in by_side.items()
    ]
