"""``atlbench import``: validate hand-exported jJodel files and file them under their transformation."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from benchmark.cli import EXIT_INPUT_ERROR, EXIT_OK, report_error


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "import",
        help="validate jJodel exports and file them as runs/<provider>-<model>-runNN.json",
        description="Each FILE is read like a run is scored (so a file that imports is a file that scores), "
        "matched to its transformation folder under DIR (--transformation, else the export's transformation "
        "name, else its source and target metamodels) and copied unchanged with the next free run number. "
        "Exits 2 when a file could not be imported; the others are still filed.",
    )
    parser.add_argument("files", nargs="+", type=Path, metavar="FILE")
    parser.add_argument(
        "--into", required=True, type=Path, metavar="DIR", help="validation root or one folder"
    )
    parser.add_argument(
        "--transformation", metavar="NAME", help="the transformation folder, when the file does not say"
    )
    parser.add_argument("--provider", metavar="NAME", help="provider name (overrides the file's)")
    parser.add_argument("--model", metavar="MODEL", help="model name (overrides the file's)")
    parser.add_argument(
        "--variant-file",
        type=Path,
        metavar="FILE",
        help="variant.json of atlbench variant export: file the runs as runs of that task variant "
        "(runs/<variant>/, docs/VARIANTS.md)",
    )
    parser.add_argument(
        "-n", "--dry-run", action="store_true", help="say where each file would go; write nothing"
    )
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    from benchmark.core.errors import BenchmarkError
    from benchmark.tracks.mapping.importer import ALREADY_PRESENT, FAILED, import_runs

    try:
        results = import_runs(
            args.files,
            args.into,
            transformation=args.transformation,
            provider=args.provider,
            model=args.model,
            dry_run=args.dry_run,
            variant_file=args.variant_file,
        )
    except BenchmarkError as error:
        report_error(error)
        return EXIT_INPUT_ERROR
    verb = "would import" if args.dry_run else "imported"
    for result in results:
        if result.status == FAILED:
            assert result.error is not None
            report_error(result.error)
        elif result.status == ALREADY_PRESENT:
            print(f"{result.source}: {result.message}")
        else:
            print(f"{result.source} -> {result.destination}")
    failed = sum(1 for r in results if r.status == FAILED)
    done = sum(1 for r in results if r.status not in (FAILED, ALREADY_PRESENT))
    print(
        f"atlbench import: {done} {verb}, {len(results) - done - failed} already present, {failed} failed",
        file=sys.stderr,
    )
    return EXIT_INPUT_ERROR if failed else EXIT_OK
