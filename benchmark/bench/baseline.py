"""``python -m benchmark.bench baseline PAIRS.tsv``: baseline speed per metamodel pair, and in total.

For every ``SOURCE<TAB>TARGET`` line (the list format of ``atlbench baseline --pairs``) both metamodels are
loaded first (load time reported apart: the loader caches files, so a metamodel shared by several pairs is
parsed once), then the engine runs on the pair ``--repeat`` times and the best time is kept. For
``emfcompare`` the timed call is the match engine
(:func:`benchmark.tracks.mapping.baselines.emfcompare.match`, scope building included); building the export
document from its result is timed apart. Other engines are timed as their whole baseline function.

Output: one line per pair, then ``name: value`` summary lines (pairs, failures, total, median, p90 and
maximum per pair, in milliseconds). Also runnable as ``python -m benchmark.bench.baseline PAIRS.tsv``.
"""

from __future__ import annotations

import argparse
import math
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from typing import Any

from benchmark.core.wording import plain_text


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "baseline",
        help="speed of a baseline (EMF Compare port by default) on a list of metamodel pairs",
        description=plain_text(__doc__),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    _add_arguments(parser)
    parser.set_defaults(handler=run)


def _add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("pairs", metavar="PAIRS.tsv", help="SOURCE<TAB>TARGET per line")
    parser.add_argument("--engine", default="emfcompare", help="emfcompare (default) or name-equality")
    parser.add_argument(
        "--repeat", type=int, default=1, metavar="N", help="runs per pair, the best kept (default 1)"
    )
    parser.add_argument("--quiet", action="store_true", help="print the summary only")


def percentile(values: Sequence[float], fraction: float) -> float:
    """Nearest-rank percentile (p90 of 10 values is the 9th smallest)."""
    ordered = sorted(values)
    return ordered[max(0, math.ceil(fraction * len(ordered)) - 1)]


def _best_of(repeat: int, call: Callable[..., Any], *arguments: Any) -> tuple[float, Any]:
    best = math.inf
    result = None
    for _ in range(max(1, repeat)):
        began = time.perf_counter()
        result = call(*arguments)
        best = min(best, time.perf_counter() - began)
    return best, result


def run(args: argparse.Namespace) -> int:
    from benchmark.core.errors import BenchmarkError
    from benchmark.lang.ecore import load_resource
    from benchmark.tracks.mapping.baselines import BASELINES
    from benchmark.tracks.mapping.baselines.pairs import engine_name, read_pairs

    name = engine_name(args.engine)
    if name not in BASELINES:
        known = ", ".join(sorted(BASELINES))
        print(f"error: unknown engine {args.engine!r}; known engines: {known}", file=sys.stderr)
        return 2
    pairs, line_errors = read_pairs(args.pairs)
    for error in line_errors:
        print(f"{error.location}: error: {error.message}", file=sys.stderr)
    wall_start = time.perf_counter()
    engine_times: list[float] = []
    load_seconds = 0.0
    document_seconds = 0.0
    failures = len(line_errors)
    if not args.quiet:
        print("pair\tengine_ms\texport_ms\tleft_objects\tright_objects\tdistances\tsource -> target")
    for pair in pairs:
        try:
            began = time.perf_counter()
            source, target = load_resource(pair.source), load_resource(pair.target)
            load_seconds += time.perf_counter() - began
            if name == "EMFCompare":
                from benchmark.tracks.mapping.baselines.emfcompare import match
                from benchmark.tracks.mapping.baselines.emfcompare.document import result_document

                seconds, result = _best_of(args.repeat, match, source, target)
                export_seconds, _ = _best_of(
                    1, lambda r: result_document(r, transformation="", source="", target=""), result
                )
                stats = result.statistics
                counts = f"{stats.left_objects}\t{stats.right_objects}\t{stats.distances_computed}"
            else:
                seconds, _ = _best_of(args.repeat, BASELINES[name], source, target)
                export_seconds = 0.0
                counts = "\t\t"
        except BenchmarkError as error:
            failures += 1
            print(f"{pair.list_file}:{pair.line}: error: {error}", file=sys.stderr)
            continue
        engine_times.append(seconds)
        document_seconds += max(0.0, export_seconds)
        if not args.quiet:
            timings = f"{seconds * 1000:.2f}\t{max(0.0, export_seconds) * 1000:.2f}"
            print(
                f"{pair.output_name[:-5]}\t{timings}\t{counts}\t{pair.source.name} -> {pair.target.name}",
                flush=True,
            )
    wall = time.perf_counter() - wall_start
    print(f"engine: {name}")
    print(f"pairs: {len(engine_times)}")
    print(f"failures: {failures}")
    if engine_times:
        print(f"total engine seconds: {sum(engine_times):.3f}")
        print(f"median ms per pair: {statistics.median(engine_times) * 1000:.2f}")
        print(f"p90 ms per pair: {percentile(engine_times, 0.9) * 1000:.2f}")
        print(f"max ms per pair: {max(engine_times) * 1000:.2f}")
        print(f"total export-document seconds (beyond the engine): {document_seconds:.3f}")
    print(f"total load seconds (cached per file): {load_seconds:.3f}")
    print(f"wall seconds: {wall:.3f}")
    return 1 if failures else 0


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m benchmark.bench.baseline", description=plain_text(__doc__)
    )
    _add_arguments(parser)
    return run(parser.parse_args(argv))


if __name__ == "__main__":
    raise SystemExit(main())
