"""``python -m benchmark.bench synth``: the wall time of ``atlbench synth`` on a validation tree.

Times ``python -m benchmark synth TREE --profile P... --runs N --atl-variant V`` in a fresh process, on a
fresh copy of the tree each time (so every run file is written, none is found unchanged), for each
``--variants`` selection (a line each: ``all``, ``original,opaque``...), ``--repeat`` times, and prints
the medians [min-max] of the wall time and the CPU seconds, the run files written, and the 1-minute load
average before the first and after the last command of the line.

The tree is ``--tree DIR`` (a validation tree: the bundled ``validation/``, a Zoo tree built earlier), or
the ATL Zoo (``--zoo DIR`` or ``ATLBENCH_ZOO``) built into a temporary folder by this checkout first
(``atlbench zoo build``, untimed here: ``python -m benchmark.bench zoo`` times it).

``--against COMMIT`` times the same lines on COMMIT too (a temporary git worktree run with this
interpreter, ``benchmark/bench/_checkout.py``), in pairs run in turn, and adds this / COMMIT: the median
of the pairs' ratios and, from 5 pairs on, an interval holding it with at least 90 % confidence. A command
still running after ``--timeout`` seconds is stopped and reported as not ended (a renaming that loops,
as ``synonym`` did on the Zoo's Bugzilla metamodel before every name could be renamed): its line gives
the bound, and no ratio.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from contextlib import ExitStack
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from benchmark.core.wording import plain_text

DEFAULT_PROFILES = ("Synthetic-Memoriser", "Synthetic-Noisy")


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "synth",
        help="time atlbench synth on a validation tree or the ATL Zoo, against another commit",
        description=plain_text(__doc__),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    where = parser.add_mutually_exclusive_group()
    where.add_argument("--tree", type=Path, help="a validation tree to synthesize runs into (a copy of it)")
    where.add_argument("--zoo", type=Path, help="a local ATL Zoo checkout, built into a tree first")
    parser.add_argument(
        "--profile",
        action="append",
        help=f"synthetic profile (repeatable; default {', '.join(DEFAULT_PROFILES)})",
    )
    parser.add_argument("--runs", type=int, default=3, help="runs per profile (default 3)")
    parser.add_argument(
        "--variants",
        action="append",
        help="an --atl-variant selection to time, one line each (repeatable; default all)",
    )
    parser.add_argument("--repeat", type=int, default=3, help="commands per line and checkout (default 3)")
    parser.add_argument("--against", metavar="COMMIT", help="time the same lines on COMMIT, in turn")
    parser.add_argument(
        "--timeout", type=float, default=600.0, help="stop a command after this many seconds (default 600)"
    )
    parser.set_defaults(handler=run)


@dataclass(frozen=True)
class Timed:
    """One timed command: wall and CPU seconds, whether it ended within the bound, files written."""

    seconds: float
    cpu: float
    ended: bool
    status: int | None
    written: int


def _written(tree: Path) -> int:
    return sum(1 for _ in tree.rglob("runs/**/*.json"))


def time_synth(tree: Path, command: list[str], cwd: Path, env: dict[str, str], timeout: float) -> Timed:
    """One ``synth`` on ``tree`` (a fresh copy) in a fresh process; stopped after ``timeout`` seconds."""
    from benchmark.bench.session import children_cpu

    before = children_cpu()
    start = time.perf_counter()
    try:
        result = subprocess.run(command, cwd=cwd, env=env, capture_output=True, timeout=timeout)
        ended, status = True, result.returncode
        if status != 0:
            print(result.stderr.decode(errors="replace")[-2000:], file=sys.stderr)
    except subprocess.TimeoutExpired:
        ended, status = False, None
    return Timed(time.perf_counter() - start, children_cpu() - before, ended, status, _written(tree))


def synth_command(tree: Path, profiles: list[str], runs: int, variants: str) -> list[str]:
    profile_args = [arg for name in profiles for arg in ("--profile", name)]
    return [
        sys.executable, "-m", "benchmark", "synth", str(tree), *profile_args,
        "--runs", str(runs), "--atl-variant", variants,
    ]  # fmt: skip


def _cell(runs: list[Timed], timeout: float) -> tuple[str, str, str]:
    """(wall median [min-max], CPU median, files written) of one checkout's commands on a line."""
    from benchmark.bench._session_plan import median

    if not all(t.ended for t in runs):
        ended = sum(t.ended for t in runs)
        return f"did not end within {timeout:g} s ({ended} of {len(runs)} ended)", "-", "-"
    walls = [t.seconds for t in runs]
    spread = f" [{min(walls):.2f}-{max(walls):.2f}]" if len(walls) > 1 else ""
    return (
        f"{median(walls):.2f}{spread}",
        f"{median([t.cpu for t in runs]):.2f}",
        ",".join(sorted({str(t.written) for t in runs})),
    )


def _ratio(this: list[Timed], other: list[Timed]) -> str:
    from benchmark.bench._session_plan import median
    from benchmark.stats.median_interval import median_interval

    if not all(t.ended for t in this + other):
        return "-"
    ratios = [a.seconds / b.seconds for a, b in zip(this, other, strict=False) if b.seconds > 0]
    if not ratios:
        return "-"
    interval = median_interval(ratios)
    return f"{median(ratios):.2f}" + (f" [{interval[0]:.2f}-{interval[1]:.2f}]" if interval else "")


def run(args: argparse.Namespace) -> int:
    from benchmark.bench._checkout import other_checkout, prepare_bytecode, this_checkout
    from benchmark.bench.zoo import _time_build, zoo_location
    from benchmark.reports.table import terminal_lines

    profiles = args.profile or list(DEFAULT_PROFILES)
    selections = args.variants or ["all"]
    failed = False
    print(f"load average at start: {' '.join(f'{x:.2f}' for x in os.getloadavg())}", file=sys.stderr)
    with ExitStack() as stack:
        tmp = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="atlbench-synth-")))
        if args.tree is not None:
            source = args.tree
        else:
            zoo = zoo_location(args.zoo)
            if zoo is None:
                print("synth: skipped: no tree (--tree DIR) and no local ATL Zoo (--zoo DIR or ATLBENCH_ZOO)")
                return 0
            source = tmp / "zoo-tree"
            wall, _, status = _time_build(zoo, source)
            print(f"built the Zoo tree in {wall:.1f} s (exit {status})", file=sys.stderr)
            failed |= status != 0
        checkouts = [this_checkout()]
        if args.against:
            checkouts.append(stack.enter_context(other_checkout(args.against)))
        checkouts = [prepare_bytecode(checkout, "compiled") for checkout in checkouts]
        rows = []
        for selection in selections:
            timed: dict[str, list[Timed]] = {c.label: [] for c in checkouts}
            load_before = os.getloadavg()[0]
            for index in range(max(1, args.repeat)):
                for checkout in checkouts:
                    tree = tmp / "tree"
                    shutil.rmtree(tree, ignore_errors=True)
                    shutil.copytree(source, tree, ignore=shutil.ignore_patterns("runs"))
                    command = synth_command(tree, profiles, args.runs, selection)
                    one = time_synth(tree, command, checkout.root, checkout.env(), args.timeout)
                    timed[checkout.label].append(one)
                    failed |= one.ended and one.status != 0
                    state = f"{one.seconds:.2f} s" if one.ended else f"stopped after {args.timeout:g} s"
                    print(
                        f"--atl-variant {selection}, {checkout.label} #{index + 1}: {state}, "
                        f"{one.cpu:.1f} s CPU, {one.written} run files, load {os.getloadavg()[0]:.1f}",
                        file=sys.stderr,
                    )
            row = [selection, f"{load_before:.1f}-{os.getloadavg()[0]:.1f}"]
            for checkout in checkouts:
                row += list(_cell(timed[checkout.label], args.timeout))
            if len(checkouts) == 2:
                row.append(_ratio(timed[checkouts[0].label], timed[checkouts[1].label]))
            rows.append(row)
    headers = ["--atl-variant", "load"]
    for checkout in checkouts:
        headers += [f"{checkout.label} wall s", f"{checkout.label} CPU s", f"{checkout.label} files"]
    if len(checkouts) == 2:
        headers.append(f"{checkouts[0].label} / {checkouts[1].label}")
    print(
        f"atlbench synth {source} --profile {' --profile '.join(profiles)} --runs {args.runs}: medians of "
        f"{max(1, args.repeat)} [min-max], a fresh copy of the tree each time; {os.cpu_count()} CPUs; "
        f"load average at the end: {' '.join(f'{x:.2f}' for x in os.getloadavg())}"
    )
    print("\n".join(terminal_lines(headers, rows)))
    return 1 if failed else 0
