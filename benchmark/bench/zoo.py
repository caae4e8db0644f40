"""``python -m benchmark.bench zoo``: the mapping study at ATL Zoo scale, from the tree to the report.

Needs a local Zoo checkout (``--zoo DIR`` or ``ATLBENCH_ZOO``); without one it prints one line saying so
and exits 0. Nothing of the Zoo is copied anywhere but a temporary directory, removed at the end.

1. **Build**: ``python -m benchmark zoo build ZOO --into DIR -q`` in a fresh process, ``--repeat`` times
   into a new directory (every ``.atl`` file surveyed: parsed, extracted, its metamodels found and
   loaded; the task folders and the manifest written), then once more into the built tree (a rebuild:
   everything surveyed again, nothing to write). Whole-process wall and CPU seconds (the worker
   processes' included), interpreter start included.
2. **Session**: the built tree plus ``--runs`` synthetic runs per profile and transformation
   (``--profile``, default the three bundled profiles), then ``pytest cases/test_rq1.py
   --validation-root TREE --baseline all -n N`` for each ``--workers`` value, cold (no disk cache: ATL
   parsing, metamodels, baselines, every run scored, statistics, figures and drill-down) and warm (all of
   that from the cache the cold session left), ``--repeat`` times each, with the median phase breakdown
   (:mod:`benchmark.bench.session`).
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from benchmark.bench._checkout import BYTECODE_STATES, prepare_bytecode, this_checkout
from benchmark.bench._session_plan import ScaledRoots, median, pytest_command
from benchmark.bench.session import REPO, children_cpu, time_session
from benchmark.core.wording import plain_text

ZOO_ENV = "ATLBENCH_ZOO"


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "zoo",
        help="time building the ATL Zoo tree and a whole session on it (skipped without a local Zoo)",
        description=plain_text(__doc__),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--zoo", type=Path, help=f"a local ATL Zoo checkout (default: ${ZOO_ENV})")
    parser.add_argument("--repeat", type=int, default=3, help="timings per row; medians (default 3)")
    parser.add_argument("--workers", default="auto", help="pytest-xdist -n values to time (default auto)")
    parser.add_argument("--runs", type=int, default=5, help="synthetic runs per profile (default 5)")
    parser.add_argument(
        "--profile",
        action="append",
        help="synthetic profile (repeatable; default: Synthetic-Oracle, -Noisy and -Sloppy)",
    )
    parser.add_argument("--skip-session", action="store_true", help="time the build only")
    parser.set_defaults(handler=run)


def zoo_location(given: Path | None) -> Path | None:
    """The Zoo checkout to use: ``--zoo``, else ``$ATLBENCH_ZOO``; None when neither names a directory."""
    location = given or (Path(os.environ[ZOO_ENV]) if os.environ.get(ZOO_ENV) else None)
    return location if location is not None and location.is_dir() else None


def _time_build(zoo: Path, into: Path) -> tuple[float, float, int]:
    """(wall s, CPU s, exit status) of one ``atlbench zoo build`` in a fresh process."""
    command = [sys.executable, "-m", "benchmark", "zoo", "build", str(zoo), "--into", str(into), "-q"]
    path = os.pathsep.join(p for p in (str(REPO), os.environ.get("PYTHONPATH", "")) if p)
    env = {**os.environ, "PYTHONPATH": path}
    before = children_cpu()
    start = time.perf_counter()
    result = subprocess.run(command, cwd=REPO, capture_output=True, text=True, env=env)
    wall = time.perf_counter() - start
    if result.returncode != 0:
        print(result.stdout[-2000:] + result.stderr[-2000:], file=sys.stderr)
    return wall, children_cpu() - before, result.returncode


def _row(label: str, timed: list[tuple[float, float, int]], **extra: Any) -> dict[str, Any]:
    walls = [t[0] for t in timed]
    return {
        "what": label,
        **extra,
        "wall s (median)": round(statistics.median(walls), 2),
        "min": round(min(walls), 2),
        "max": round(max(walls), 2),
        "CPU s (median)": round(statistics.median(t[1] for t in timed), 2),
        "exit": ",".join(sorted({str(t[2]) for t in timed})),
    }


def _table(records: list[dict[str, Any]]) -> str:
    """Records (one dict per line, the keys as headings) as the report kit's terminal table."""
    from benchmark.reports.table import terminal_lines

    return "\n".join(terminal_lines(list(records[0]), [[str(v) for v in r.values()] for r in records]))


def run(args: argparse.Namespace) -> int:
    zoo = zoo_location(args.zoo)
    if zoo is None:
        print(f"zoo: skipped: no local ATL Zoo checkout (give --zoo DIR or set {ZOO_ENV})")
        return 0
    failed = False
    with tempfile.TemporaryDirectory(prefix="atlbench-zoo-") as tmp:
        builds = []
        for index in range(args.repeat):
            builds.append(_time_build(zoo, Path(tmp) / f"build{index}"))
            print(f"build {index + 1}: {builds[-1][0]:.2f} s", file=sys.stderr)
        tree = Path(tmp) / f"build{args.repeat - 1}"
        rebuild = [_time_build(zoo, tree)]
        failed |= any(status != 0 for *_, status in builds + rebuild)
        from benchmark.tracks.mapping.discovery import discover

        tasks = len(discover(tree).transformations)
        print(f"ATL Zoo: {zoo} ({sum(1 for _ in zoo.rglob('*.atl'))} .atl files); {tasks} tasks")
        print(
            _table([_row("build into a new directory", builds), _row("rebuild (nothing to write)", rebuild)])
        )
        if not args.skip_session:
            failed |= _sessions(args, tree, Path(tmp))
    return 1 if failed else 0


def _sessions(args: argparse.Namespace, built: Path, tmp: Path) -> bool:
    from benchmark.tracks.mapping.discovery import discover
    from benchmark.tracks.mapping.synth import PROFILES, write_synthetic_runs

    tree = tmp / "session"
    shutil.copytree(built, tree)
    names = args.profile or ["Synthetic-Oracle", "Synthetic-Noisy", "Synthetic-Sloppy"]
    write_synthetic_runs(tree, profiles=[PROFILES[name] for name in names], runs=args.runs)
    discovery = discover(tree)
    runs = sum(len(f.suggestion_files) for f in discovery.transformations)
    tasks = len(discovery.transformations)
    cases = tasks + runs + 2 * tasks  # ground truths, run files, two baselines each
    here = prepare_bytecode(this_checkout(), "compiled")
    rows, breakdowns, failed = [], [], False
    for worker in [w.strip() for w in args.workers.split(",") if w.strip()]:
        for warm in (False, True):
            label = f"-n {worker}, {'warm' if warm else 'cold'}"
            timed = []
            for _ in range(args.repeat):
                command = pytest_command(
                    sys.executable, "mapping", worker, tmp / "cache", tmp / "reports", ScaledRoots(1, tree)
                )
                if not warm:
                    shutil.rmtree(tmp / "cache", ignore_errors=True)
                one = time_session(command, here.root, here.env(), tmp / "phases.json")
                timed.append(one)
                print(f"session {label}: {one.seconds:.2f} s, exit {one.status}", file=sys.stderr)
                if one.status != 0:
                    failed = True
                    print("\n".join(one.output.splitlines()[-25:]), file=sys.stderr)
            rows.append(_row(f"session {label}", [(t.seconds, t.cpu, t.status) for t in timed], cases=cases))
            names_ = list(dict.fromkeys(name for t in timed for name, _ in t.phases))
            breakdown = [(n, median([s for t in timed for m, s in t.phases if m == n])) for n in names_]
            breakdowns.append((label, breakdown))
    print(
        f"\npytest cases/test_rq1.py: {tasks} transformations, {runs} run files "
        f"({', '.join(names)} x {args.runs}) and 2 baselines each; medians of {args.repeat}; "
        f"bytecode: {BYTECODE_STATES['compiled']}"
    )
    print(_table(rows))
    for label, breakdown in breakdowns:
        print(f"\nphases, {label} (median seconds; a phase inside another is listed after it):")
        print(_table([{"phase": name, "s": f"{seconds:.3f}"} for name, seconds in breakdown]))
    return failed
