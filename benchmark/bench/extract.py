"""``python -m benchmark.bench extract DIR``: parse + extract every ``.atl`` file below DIR, timed.

Prints ``name: value`` lines: files, bytes, wall seconds for the whole corpus (grammar compilation
included, both cores by default), MB/s, the summed per-file parse and extraction seconds (so that the
extractor's share of the cost is visible), documents produced, class pairs and bindings, diagnostics by
code, and every failure as ``FILE:LINE:COL: error: MESSAGE``.
"""

from __future__ import annotations

import argparse
import collections
import multiprocessing
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "extract",
        help="parse and extract every .atl file below a directory, timed",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("directory", type=Path, help="directory searched recursively for .atl files")
    parser.add_argument(
        "-j", "--jobs", type=int, default=None, help="worker processes (default: the usable CPUs)"
    )
    parser.set_defaults(handler=run)


@dataclass(frozen=True)
class _Outcome:
    """One file's figures (plain data: it travels back from a worker process)."""

    file: str
    size: int
    parse_seconds: float = 0.0
    extract_seconds: float = 0.0
    class_matches: int = 0
    bindings: int = 0
    diagnostics: dict[str, int] = field(default_factory=dict)
    error: str | None = None


def _one(path: str) -> _Outcome:
    from benchmark.atl import parse, read_atl_text
    from benchmark.errors import BenchmarkError
    from benchmark.extractor import extract

    try:
        text = read_atl_text(path)
    except BenchmarkError as error:
        return _Outcome(path, 0, error=f"{error.location}: error: {error.message}")
    size = len(text.encode("utf-8"))
    start = time.perf_counter()
    parsed: float | None = None
    try:
        unit = parse(text, file=path)
        parsed = time.perf_counter()
        document = extract(unit, file=path)
    except BenchmarkError as error:  # not ATL, or nested too deeply to analyse
        failed = time.perf_counter()
        timing = (failed - start, 0.0) if parsed is None else (parsed - start, failed - parsed)
        return _Outcome(path, size, *timing, error=f"{error.location}: error: {error.message}")
    extracted = time.perf_counter()
    return _Outcome(
        path,
        size,
        parsed - start,
        extracted - parsed,
        class_matches=len(document.class_matches),
        bindings=sum(len(match.feature_matches) for match in document.class_matches),
        diagnostics=dict(collections.Counter(d.code for d in document.diagnostics)),
    )


def _outcomes(files: list[str], jobs: int) -> Iterator[_Outcome]:
    if jobs > 1 and len(files) > 1 and "fork" in multiprocessing.get_all_start_methods():
        from benchmark.atl.parser import _parser

        _parser()  # compile the grammar once, before forking
        with multiprocessing.get_context("fork").Pool(min(jobs, len(files))) as pool:
            yield from pool.imap(_one, files, chunksize=1)
        return
    for file in files:
        yield _one(file)


def run(args: argparse.Namespace) -> int:
    from benchmark.atl.batch import default_jobs

    directory: Path = args.directory
    if not directory.is_dir():
        print(f"error: {directory} is not a directory", file=sys.stderr)
        return 2
    files = sorted(str(path) for path in directory.rglob("*.atl") if path.is_file())
    if not files:
        print(f"error: no .atl file below {directory}", file=sys.stderr)
        return 2
    jobs = default_jobs() if args.jobs is None else max(1, args.jobs)
    start = time.perf_counter()
    outcomes = list(_outcomes(files, jobs))
    seconds = time.perf_counter() - start
    size = sum(outcome.size for outcome in outcomes)
    failures = [outcome for outcome in outcomes if outcome.error is not None]
    parse_seconds = sum(outcome.parse_seconds for outcome in outcomes)
    extract_seconds = sum(outcome.extract_seconds for outcome in outcomes)
    codes: collections.Counter[str] = collections.Counter()
    for outcome in outcomes:
        codes.update(outcome.diagnostics)
    print(f"corpus: {directory}")
    print(f"files: {len(files)}")
    print(f"bytes: {size}")
    print(f"jobs: {jobs}")
    print(f"wall seconds (parse + extract, grammar compile included): {seconds:.3f}")
    print(f"MB/s: {size / 1e6 / seconds if seconds > 0 else float('inf'):.2f}")
    print(f"sum of per-file parse seconds: {parse_seconds:.3f}")
    print(f"sum of per-file extract seconds: {extract_seconds:.3f}")
    if parse_seconds > 0:
        print(f"extract cost relative to parse: {extract_seconds / parse_seconds:.1%}")
    print(f"documents: {len(outcomes) - len(failures)}")
    print(f"class pairs: {sum(outcome.class_matches for outcome in outcomes)}")
    print(f"bindings: {sum(outcome.bindings for outcome in outcomes)}")
    print("diagnostics: " + (", ".join(f"{code} {count}" for code, count in sorted(codes.items())) or "none"))
    print(f"failures: {len(failures)}")
    for outcome in failures:
        print(f"  {outcome.error}")
    return 0
