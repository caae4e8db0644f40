"""``atlbench parse FILE.atl... [--summary | --ast]``: check ATL files with the project's parser."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from benchmark.cli import EXIT_INPUT_ERROR


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "parse",
        help="parse ATL files (syntax check, summary counts or the AST as JSON)",
        description=(
            "Parse ATL files. Without options, print 'FILE: ok' per file. --summary prints one JSON object "
            "per file and line: the file and its counts (unit, name, matchedRules, lazyRules, "
            "uniqueLazyRules, calledRules, helpers, contextHelpers, inElements, outElements, bindings), or "
            "{file, error, line, column} for a file that does not parse. --ast prints each file's AST as "
            "one JSON object per line. Errors also go to stderr as FILE:LINE:COL: error: MESSAGE, and "
            "constructs the official ATL parser rejects but that are accepted leniently as "
            "FILE:LINE:COL: warning: MESSAGE; the exit status is 2 when any file failed."
        ),
    )
    parser.add_argument("files", nargs="+", metavar="FILE.atl", help="ATL files to parse")
    mode = parser.add_mutually_exclusive_group()
    mode.add_argument("--summary", action="store_true", help="print the summary counts as JSON lines")
    mode.add_argument("--ast", action="store_true", help="print the AST of each file as a JSON line")
    parser.add_argument(
        "-j", "--jobs", type=int, default=None, help="worker processes (default: the usable CPUs)"
    )
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    if args.ast:
        return _run_ast(args.files)
    from benchmark.lang.atl.batch import parse_files

    failed = False
    for result in parse_files(args.files, jobs=args.jobs):
        if result.error is not None:
            failed = True
            print(f"{result.location}: error: {result.error}", file=sys.stderr)
        for line, column, message, count in result.warnings:
            more = f" ({count - 1} more like it)" if count > 1 else ""
            print(f"{result.file}:{line}:{column}: warning: {message}{more}", file=sys.stderr)
        if args.summary:
            print(json.dumps(result.to_json(), ensure_ascii=False), flush=False)
        elif result.ok:
            print(f"{result.file}: ok")
    sys.stdout.flush()
    return EXIT_INPUT_ERROR if failed else 0


def _run_ast(files: list[str]) -> int:
    from benchmark.cli import report_error
    from benchmark.core.errors import BenchmarkError
    from benchmark.lang.atl import parse_file
    from benchmark.lang.atl.ast import to_data

    failed = False
    for file in files:
        try:
            unit = parse_file(file)
        except BenchmarkError as error:
            failed = True
            report_error(error)
            continue
        print(json.dumps({"file": file, "ast": to_data(unit)}, ensure_ascii=False))
    return EXIT_INPUT_ERROR if failed else 0
