"""``python -m benchmark.bench extract DIR``: parse + extract every ``.atl`` file below DIR, timed.

Prints ``name: value`` lines: files, bytes, worker processes, wall seconds for the whole corpus (grammar
compilation included; files are spread over the usable CPUs as ``atlbench parse`` spreads them, see
:func:`benchmark.lang.atl.batch.map_files`), MB/s, the summed per-file parse and extraction seconds (so that
the extractor's share of the cost is visible), documents produced, class pairs and bindings, diagnostics by
code, and every failure as ``FILE:LINE:COL: error: MESSAGE``.
"""

from __future__ import annotations

import argparse
import collections
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from benchmark.core.wording import plain_text


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "extract",
        help="parse and extract every .atl file below a directory, timed",
        description=plain_text(__doc__),
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
    parse_seconds: float = 0.0
    extract_seconds: float = 0.0
    class_matches: int = 0
    bindings: int = 0
    diagnostics: dict[str, int] = field(default_factory=dict)
    error: str | None = None


def _one(path: str) -> _Outcome:
    from benchmark.core.errors import BenchmarkError
    from benchmark.lang.atl import parse, read_atl_text
    from benchmark.tracks.mapping.extractor import extract

    start = time.perf_counter()
    parsed: float | None = None
    try:
        unit = parse(read_atl_text(path), file=path)
        parsed = time.perf_counter()
        document = extract(unit, file=path)
    except BenchmarkError as error:  # unreadable, not ATL, or nested too deeply to analyse
        failed = time.perf_counter()
        timing = (failed - start, 0.0) if parsed is None else (parsed - start, failed - parsed)
        return _Outcome(path, *timing, error=f"{error.location}: error: {error.message}")
    extracted = time.perf_counter()
    return _Outcome(
        path,
        parsed - start,
        extracted - parsed,
        class_matches=len(document.class_matches),
        bindings=sum(len(match.feature_matches) for match in document.class_matches),
        diagnostics=dict(collections.Counter(d.code for d in document.diagnostics)),
    )


def run(args: argparse.Namespace) -> int:
    from benchmark.bench._corpus import AtlCorpus
    from benchmark.lang.atl.batch import map_files, workers

    corpus = AtlCorpus.below(args.directory)
    start = time.perf_counter()
    outcomes = list(map_files(_one, corpus.files, jobs=args.jobs))
    seconds = time.perf_counter() - start
    failures = [outcome for outcome in outcomes if outcome.error is not None]
    parse_seconds = sum(outcome.parse_seconds for outcome in outcomes)
    extract_seconds = sum(outcome.extract_seconds for outcome in outcomes)
    codes: collections.Counter[str] = collections.Counter()
    for outcome in outcomes:
        codes.update(outcome.diagnostics)
    print(corpus.describe())
    print(f"jobs: {workers(corpus.files, args.jobs)}")
    print(f"wall seconds (parse + extract, grammar compile included): {seconds:.3f}")
    print(f"MB/s: {corpus.size / 1e6 / seconds if seconds > 0 else float('inf'):.2f}")
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
