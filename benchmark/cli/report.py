"""``atlbench report``: rebuild every report artefact from a saved ``results.json`` and nothing else."""

from __future__ import annotations

import argparse
import time
from typing import Any

DEFAULT_OUT = "reports"


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "report",
        help="regenerate tables, plots, index.html and tables.tex from a results.json",
        description="Compute the statistics (docs/STATISTICS.md) of a saved session and write every report "
        "artefact: rq1_per_run.csv, rq1_aggregate.csv, summary.md, statistics.json, PNG and SVG figures, "
        "index.html and tables.tex. The same file and options always give byte-identical output.",
    )
    parser.add_argument(
        "results", metavar="results.json", help="the session file written by the pytest suite"
    )
    parser.add_argument(
        "-o", "--output", default=DEFAULT_OUT, metavar="DIR", help="output folder (default: reports)"
    )
    parser.add_argument(
        "--level",
        choices=("overall", "binding", "class"),
        default="overall",
        help="level the statistics and figures use (default: overall = classes + bindings pooled)",
    )
    parser.add_argument("--draws", type=int, default=None, metavar="N", help="bootstrap draws (default 2000)")
    parser.add_argument("--seed", type=int, default=None, metavar="S", help="bootstrap seed (default: fixed)")
    parser.add_argument(
        "--partial-match-weight",
        "--partial-weight",
        dest="partial_weight",
        type=float,
        default=None,
        metavar="W",
        help="re-apply another partial weight to the stored counts (default: the rows' own)",
    )
    parser.add_argument(
        "--baseline",
        default=None,
        metavar="PROVIDER",
        help="provider whose misses define baseline-relative recall",
    )
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    from tabulate import tabulate

    from benchmark.core.errors import ConfigurationError
    from benchmark.core.results import Results
    from benchmark.tracks.mapping.metrics import check_partial_weight
    from benchmark.tracks.mapping.reports import format as fmt
    from benchmark.tracks.mapping.reports import write_reports
    from benchmark.tracks.mapping.stats import (
        BASELINE_PROVIDER,
        DEFAULT_DRAWS,
        DEFAULT_SEED,
        check_single_track,
        compute_statistics,
    )

    if args.partial_weight is not None:
        try:
            check_partial_weight(args.partial_weight)
        except ValueError as error:
            raise ConfigurationError(str(error), field="--partial-match-weight") from error
    start = time.perf_counter()
    results = Results.load(args.results)
    check_single_track(results.rows, source=args.results)
    stats = compute_statistics(
        results.rows,
        level=args.level,
        draws=DEFAULT_DRAWS if args.draws is None else args.draws,
        seed=DEFAULT_SEED if args.seed is None else args.seed,
        partial_weight=args.partial_weight,
        baseline=args.baseline or BASELINE_PROVIDER,
    )
    paths = write_reports(results, args.output, statistics=stats)
    elapsed = time.perf_counter() - start
    rows = [
        [
            p.provider,
            p.runs,
            fmt.with_interval(p.micro.f1, p.intervals.get("f1")),
            fmt.spread(p.macro["f1"]),
            fmt.number(p.stability.mean),
        ]
        for p in stats.providers
    ]
    if rows:
        print(tabulate(rows, headers=["provider", "runs", "F1 [95% CI]", "macro F1 ± SD", "stability"]))
    for note in stats.notes:
        print(f"note: {note}")
    for excluded in stats.aggregation.excluded:
        print(f"excluded: {excluded.provider} {excluded.transformation} {excluded.run}: {excluded.error}")
    print(f"wrote {len(paths)} files to {args.output} in {elapsed:.1f} s")
    return 0
