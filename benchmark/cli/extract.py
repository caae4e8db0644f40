"""``atlbench extract FILE.atl... [-o OUT.json | --out-dir DIR]``: the ground truth of ATL files."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from benchmark.cli import EXIT_INPUT_ERROR


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "extract",
        help="extract the ground truth (interchange document) of ATL files",
        description=(
            "Parse ATL files and print their interchange documents (the ground truth: class pairs, "
            "bindings and source paths, defined in docs/INTERCHANGE_FORMAT.md), one after another. -o "
            "writes the document of a single file there; --out-dir writes one document per input, named "
            "after the input file (X.atl -> DIR/X.json). A file that cannot be read or parsed is reported "
            "as FILE:LINE:COL: error: MESSAGE and the others are still processed; the exit status is 2 "
            "when any file failed."
        ),
    )
    parser.add_argument("files", nargs="+", metavar="FILE.atl", help="ATL files")
    output = parser.add_mutually_exclusive_group()
    output.add_argument("-o", "--output", metavar="OUT.json", help="write the document here (one input only)")
    output.add_argument("--out-dir", metavar="DIR", help="write one document per input into DIR")
    parser.set_defaults(handler=run)


def _targets(args: argparse.Namespace) -> list[Path | None]:
    """Where each input's document goes (None: standard output); refuses ambiguous requests up front."""
    from benchmark.core.errors import ConfigurationError

    files: list[str] = args.files
    if args.output is not None:
        if len(files) != 1:
            raise ConfigurationError(
                f"-o writes one document but {len(files)} files were given; use --out-dir", field="-o"
            )
        return [Path(args.output)]
    if args.out_dir is None:
        return [None] * len(files)
    directory = Path(args.out_dir)
    targets: list[Path | None] = []
    seen: dict[Path, str] = {}
    for file in files:
        target = directory / (Path(file).stem + ".json")
        if target in seen:
            raise ConfigurationError(
                f"{seen[target]} and {file} would both be written to {target}; extract them into "
                "different directories",
                field="--out-dir",
            )
        seen[target] = file
        targets.append(target)
    return targets


def run(args: argparse.Namespace) -> int:
    from benchmark.cli import report_error
    from benchmark.core.errors import BenchmarkError
    from benchmark.core.fileio import write_text_atomic
    from benchmark.tracks.mapping import interchange
    from benchmark.tracks.mapping.extractor import extract_file

    failed = False
    for file, target in zip(args.files, _targets(args), strict=True):
        try:
            text = interchange.dumps(extract_file(file))
        except BenchmarkError as error:
            failed = True
            report_error(error)
            continue
        if target is None:
            sys.stdout.write(text)
        else:
            write_text_atomic(target, text)
    sys.stdout.flush()
    return EXIT_INPUT_ERROR if failed else 0
