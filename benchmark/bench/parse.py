"""``python -m benchmark.bench parse DIR``: ATL parser speed on a corpus, cold, and its scaling.

Three measurements, printed as ``name: value`` lines:

1. corpus, in process: every ``.atl`` file below DIR parsed and summarized the way ``atlbench parse
   --summary`` does it (both cores when it pays), wall clock from before the grammar is compiled;
2. corpus, cold command: ``python -m benchmark parse --summary FILES`` run as a fresh process with the
   compiled-grammar cache disabled, so the figure includes interpreter start, imports and grammar
   compilation, like a user's very first run (and like the official Java parser's figure, JVM start
   included); then the same command with the compiled grammar loaded from its cache, as every later run
   does; ``--official CMD`` times another command on the same files for comparison;
3. scaling: a generated module (:mod:`benchmark.lang.atl.synthetic`) at 1x, 10x and 100x its base size, parsed
   in one process (best of several runs), to show that cost grows linearly with size.
"""

from __future__ import annotations

import argparse
import os
import shlex
import subprocess
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

from benchmark.core.wording import plain_text

if TYPE_CHECKING:
    from benchmark.bench._corpus import AtlCorpus


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "parse",
        help="ATL parser speed on a directory of .atl files, cold, plus a scaling run",
        description=plain_text(__doc__),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("directory", type=Path, help="directory searched recursively for .atl files")
    parser.add_argument(
        "-j", "--jobs", type=int, default=None, help="worker processes (default: usable CPUs)"
    )
    parser.add_argument(
        "--base-blocks",
        type=int,
        default=10,
        help="size of the 1x generated module, in blocks of about 1.6 KB (default: 10)",
    )
    parser.add_argument(
        "--repeat-seconds",
        type=float,
        default=1.0,
        help="keep re-parsing each scaling size for this long (best run counts; at least 3 runs)",
    )
    parser.add_argument("--no-cold", action="store_true", help="skip the cold command-line run")
    parser.add_argument("--no-scaling", action="store_true", help="skip the scaling run")
    parser.add_argument(
        "--official",
        metavar="CMD",
        default=None,
        help="also time this command on the same files (e.g. a wrapper around the official ATL parser)",
    )
    parser.set_defaults(handler=run)


def _mb_per_second(size: int, seconds: float) -> float:
    return size / 1e6 / seconds if seconds > 0 else float("inf")


def run(args: argparse.Namespace) -> int:
    from benchmark.bench._corpus import AtlCorpus

    corpus = AtlCorpus.below(args.directory)
    print(corpus.describe())
    _in_process(corpus, args.jobs)
    if not args.no_cold:
        _cold(corpus, args.jobs, args.official)
    if not args.no_scaling:
        _scaling(args.base_blocks, args.repeat_seconds)
    return 0


def _in_process(corpus: AtlCorpus, jobs: int | None) -> None:
    start = time.perf_counter()
    cpu_start = time.process_time()
    from benchmark.lang.atl.batch import parse_files, workers
    from benchmark.lang.atl.parser import _parser

    _parser()
    compiled = time.perf_counter()
    results = list(parse_files(corpus.files, jobs=jobs))
    seconds = time.perf_counter() - start
    failures = [result for result in results if not result.ok]
    print(f"jobs: {workers(corpus.files, jobs)}")
    print(f"grammar compile seconds: {compiled - start:.3f}")
    print(f"in-process seconds (wall, compile included): {seconds:.3f}")
    print(f"in-process main-process CPU seconds: {time.process_time() - cpu_start:.3f}")
    print(f"in-process MB/s: {_mb_per_second(corpus.size, seconds):.2f}")
    print(f"sum of per-file parse seconds: {sum(result.seconds for result in results):.3f}")
    print(f"failures: {len(failures)}")
    for result in failures:
        print(f"  {result.location}: error: {result.error}")


def _time_command(command: list[str], environment: dict[str, str] | None = None) -> tuple[float, int]:
    env = {**os.environ, **environment} if environment else None
    start = time.perf_counter()
    completed = subprocess.run(
        command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False, env=env
    )
    return time.perf_counter() - start, completed.returncode


def _cold(corpus: AtlCorpus, jobs: int | None, official: str | None) -> None:
    from benchmark.lang.atl.parser import GRAMMAR_CACHE_VARIABLE

    files = corpus.files
    command = [sys.executable, "-m", "benchmark", "parse", "--summary", *files]
    if jobs is not None:
        command[4:4] = ["--jobs", str(jobs)]
    # Truly cold: the grammar is compiled, not loaded from the compiled-tables cache.
    seconds, status = _time_command(command, {GRAMMAR_CACHE_VARIABLE: "off"})
    print(f"cold command seconds (wall, interpreter start included): {seconds:.3f} (exit status {status})")
    print(f"cold command MB/s: {_mb_per_second(corpus.size, seconds):.2f}")
    seconds, status = _time_command(command)
    print(f"command seconds with the compiled grammar cached: {seconds:.3f} (exit status {status})")
    if official:
        seconds, status = _time_command([*shlex.split(official), *files])
        print(f"official command seconds (wall): {seconds:.3f} (exit status {status})")


def _scaling(base_blocks: int, repeat_seconds: float) -> None:
    from benchmark.lang.atl import parse
    from benchmark.lang.atl.synthetic import synthetic_module

    print(f"scaling (generated module, {base_blocks} blocks at 1x, best of several runs; the cost ratio uses")
    print("  CPU time, which other processes on the machine disturb less than wall time):")
    base_rate: float | None = None
    for factor in (1, 10, 100):
        text = synthetic_module(base_blocks * factor)
        size = len(text.encode("utf-8"))
        best_wall = best_cpu = float("inf")
        runs = 0
        budget_start = time.perf_counter()
        while runs < 3 or (time.perf_counter() - budget_start < repeat_seconds and runs < 50):
            start, cpu_start = time.perf_counter(), time.process_time()
            parse(text)
            best_wall = min(best_wall, time.perf_counter() - start)
            best_cpu = min(best_cpu, time.process_time() - cpu_start)
            runs += 1
        per_megabyte = best_cpu / (size / 1e6)
        if base_rate is None:
            base_rate = per_megabyte
        print(
            f"  {factor:>3}x: {size:>9} bytes, {best_wall:.4f} s wall, {best_cpu:.4f} s CPU, "
            f"{_mb_per_second(size, best_wall):.2f} MB/s, "
            f"cost per byte {per_megabyte / base_rate:.2f}x the 1x cost ({runs} runs)"
        )
