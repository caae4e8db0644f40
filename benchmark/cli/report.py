"""``atlbench report``: rebuild every track's report files from a saved ``results.json`` and nothing else."""

from __future__ import annotations

import argparse
import time
from pathlib import Path
from typing import Any

DEFAULT_OUT = "reports"


def _report_options() -> list[Any]:
    from benchmark.core.registry import declared_options

    return declared_options("report_options")


def register(subparsers: Any) -> None:
    from benchmark.core.options import add_to_argparse

    parser = subparsers.add_parser(
        "report",
        help="regenerate every track's tables, plots and index.html from a results.json",
        description="Write every report file of a saved session: each track's own files (the mapping "
        "track's rq1_per_run.csv, rq1_aggregate.csv, summary.md, statistics.json, figures and tables.tex; "
        "see docs/TRACKS.md for the others) and index.html with a section per track. The same file and "
        "options always give byte-identical output.",
    )
    parser.add_argument(
        "results", metavar="results.json", help="the session file written by the pytest suite or validate"
    )
    parser.add_argument(
        "-o", "--output", default=DEFAULT_OUT, metavar="DIR", help="output folder (default: reports)"
    )
    parser.add_argument("--track", metavar="NAME", help="rebuild this track's files only")
    add_to_argparse(parser, _report_options())
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    from benchmark.core.errors import ConfigurationError
    from benchmark.core.options import read_argparse
    from benchmark.core.registry import track_class
    from benchmark.core.results import Results
    from benchmark.core.track import TrackContext
    from benchmark.reports import write_session_reports

    start = time.perf_counter()
    results = Results.load(args.results)
    if args.track is not None and results.section(args.track) is None:
        raise ConfigurationError(
            f"the session has no rows of track {args.track!r} "
            f"(it has: {', '.join(results.tracks) or 'none'})",
            field="--track",
        )
    root = Path(results.header.validation_root or ".")
    tracks, options = {}, {}
    for section in results.sections:
        cls = track_class(section.track)
        defaults = {option.dest: option.convert(option.default, root) for option in cls.options}
        tracks[section.track] = cls(TrackContext(data_root=root, options=defaults))
        options[section.track] = read_argparse(args, cls.report_options)
    lines: list[str] = []
    paths = write_session_reports(
        results,
        args.output,
        tracks,
        options,
        save_results=False,
        only=args.track,
        on_report=lambda name, report: lines.extend(report.lines),
    )
    elapsed = time.perf_counter() - start
    for line in lines:
        print(line)
    from benchmark.core.wording import plural

    print(f"wrote {plural(len(paths), 'file')} to {args.output} in {elapsed:.1f} s")
    return 0
