"""``atlbench validate``: score every suggestion file of a validation tree and print micro/macro tables."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from benchmark.cli.diff import add_scoring_options, read_scoring_options


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "validate",
        help="score every run of a validation tree",
        description="Each subfolder of ROOT holding exactly one .atl file is a transformation; its "
        ".ecore/.km3 files are the metamodels and every *.json below it is a run. Prints the per-provider "
        "micro and macro tables; exits 1 when a run could not be scored.",
    )
    parser.add_argument("root", metavar="ROOT", help="validation tree")
    add_scoring_options(parser)
    parser.add_argument("-o", "--output", metavar="OUT.json", help="write rows and aggregates as JSON")
    parser.add_argument("--by-model", action="store_true", help="separate the models of one provider")
    parser.add_argument("-v", "--verbose", action="store_true", help="list skipped folders and files")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    from benchmark.core.fileio import write_json_atomic
    from benchmark.tracks.mapping.aggregate import aggregate
    from benchmark.tracks.mapping.corpus import score_corpus
    from benchmark.tracks.mapping.tables import format_tables

    weight = read_scoring_options(args)

    def progress(folder: Any) -> None:
        if args.verbose:
            print(f"scoring {folder.name}: {len(folder.suggestion_files)} runs", file=sys.stderr)

    result = score_corpus(args.root, partial_weight=weight, confidence=args.confidence, progress=progress)
    discovery = result.discovery
    skipped = discovery.skipped_folders
    if args.verbose:
        for skip in (*skipped, *discovery.ignored_files):
            print(f"skipped {skip.path}: {skip.reason}", file=sys.stderr)
    for folder in result.folders:  # the metamodel notes are among the problems (as in the pytest suite)
        for problem in folder.problems:
            print(f"{folder.folder.atl_file}: note: {problem}", file=sys.stderr)

    rows = result.rows
    summary = (
        f"{len(discovery.transformations)} transformations, {len(rows)} runs, "
        f"confidence {result.confidence}, partial weight {weight:g}"
    )
    if skipped and not args.verbose:
        noun = "folder" if len(skipped) == 1 else "folders"
        summary += f"; {len(skipped)} {noun} skipped (-v lists them)"
    if discovery.ignored_files and not args.verbose:
        summary += f"; {len(discovery.ignored_files)} files ignored (-v lists them)"
    print(summary)
    if not discovery.transformations:
        print(f"no transformation folder (a subfolder with exactly one .atl file) under {args.root}")
        return 1

    agg = aggregate(rows, partial_weight=weight, by_model=args.by_model)
    print(format_tables(agg), end="")

    if args.output:
        write_json_atomic(
            args.output,
            {
                "root": str(discovery.root),
                "partialWeight": weight,
                "confidence": result.confidence,
                "transformations": [folder.to_json() for folder in result.folders],
                "skipped": [item.to_json() for item in (*skipped, *discovery.ignored_files)],
                "rows": [row.to_json() for row in rows],
                "aggregate": agg.to_json(),
            },
        )
        print(f"\nwrote {args.output}")
    return 1 if agg.excluded else 0
