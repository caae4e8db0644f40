"""``atlbench baseline``: run a deterministic baseline on metamodel pairs, writing jJodel exports.

One pair: ``atlbench baseline SOURCE TARGET [-o OUT.json]`` (stdout without ``-o``). Many pairs in one
process: ``atlbench baseline --pairs LIST.tsv --out-dir DIR``, one ``SOURCE<TAB>TARGET`` per line, line
``n`` written to ``DIR/NNN.json`` with ``NNN = n - 1``; progress goes to stderr. A malformed line or a
metamodel that cannot be loaded is reported as ``LIST:LINE: error: ...`` and the other pairs still run;
the exit status is then 2.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Any

from benchmark.core.wording import plain_text, plural
from benchmark.tracks.mapping.baselines.pairs import ENGINE_ALIASES


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "baseline",
        help="run the EMF Compare (or name-equality) baseline on a metamodel pair or a list of pairs",
        description=plain_text(__doc__),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("source", metavar="SOURCE", nargs="?", help="source metamodel (.ecore or .km3)")
    parser.add_argument("target", metavar="TARGET", nargs="?", help="target metamodel (.ecore or .km3)")
    parser.add_argument("-o", "--output", metavar="OUT.json", help="write the export here (default: stdout)")
    parser.add_argument("--pairs", metavar="LIST.tsv", help="a list of SOURCE<TAB>TARGET lines")
    parser.add_argument("--out-dir", metavar="DIR", help="directory for NNN.json (with --pairs)")
    parser.add_argument(
        "--engine",
        default="emfcompare",
        help=f"baseline to run: {' or '.join(ENGINE_ALIASES)} (default: emfcompare)",
    )
    parser.add_argument(
        "--transformation", metavar="NAME", help="transformation name in the export (single pair only)"
    )
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    from benchmark.core.errors import ConfigurationError
    from benchmark.tracks.mapping.baselines import BASELINES
    from benchmark.tracks.mapping.baselines.pairs import engine_name

    name = engine_name(args.engine)
    if name not in BASELINES:
        known = ", ".join(ENGINE_ALIASES)
        raise ConfigurationError(f"unknown engine {args.engine!r}; choose one of: {known}", field="--engine")
    if args.pairs is not None:
        if args.source is not None or args.output is not None or args.transformation is not None:
            raise ConfigurationError(
                "--pairs takes no SOURCE/TARGET, -o or --transformation", field="--pairs"
            )
        if args.out_dir is None:
            raise ConfigurationError("--pairs needs --out-dir DIR", field="--out-dir")
        return _run_list(name, Path(args.pairs), Path(args.out_dir))
    if args.source is None or args.target is None:
        raise ConfigurationError("give SOURCE and TARGET, or --pairs LIST.tsv --out-dir DIR")
    if args.out_dir is not None:
        raise ConfigurationError("--out-dir goes with --pairs; use -o for one pair", field="--out-dir")
    return _run_one(name, args.source, args.target, args.output, args.transformation)


def _run_one(name: str, source: str, target: str, output: str | None, transformation: str | None) -> int:
    from benchmark.core.fileio import dumps_json, write_json_atomic
    from benchmark.tracks.mapping.baselines import run_baseline

    document = run_baseline(name, source, target, transformation=transformation)
    if output is None:
        sys.stdout.write(dumps_json(document))
    else:
        write_json_atomic(output, document)
    return 0


def _run_list(name: str, list_file: Path, out_dir: Path) -> int:
    from benchmark.cli import EXIT_INPUT_ERROR, EXIT_OK, report_error
    from benchmark.core.errors import BenchmarkError
    from benchmark.core.fileio import write_json_atomic
    from benchmark.tracks.mapping.baselines import run_baseline
    from benchmark.tracks.mapping.baselines.pairs import read_pairs

    pairs, line_errors = read_pairs(list_file)
    for error in line_errors:
        report_error(error)
    failed = len(line_errors)
    total = len(pairs) + len(line_errors)  # every pair line counts, the malformed ones too
    lines = sorted([pair.line for pair in pairs] + [error.line or 0 for error in line_errors])
    out_dir.mkdir(parents=True, exist_ok=True)
    start = time.perf_counter()
    for pair in pairs:
        position = lines.index(pair.line) + 1
        target_file = out_dir / pair.output_name
        began = time.perf_counter()
        try:
            document = run_baseline(name, pair.source, pair.target)
        except BenchmarkError as error:
            print(f"{pair.list_file}:{pair.line}: error: {error}", file=sys.stderr)
            failed += 1
            target_file.unlink(missing_ok=True)  # never leave an earlier run's output for a failed line
            continue
        write_json_atomic(target_file, document)
        print(
            f"[{position}/{total}] {pair.output_name} {pair.source.name} -> {pair.target.name}: "
            f"{plural(len(document['mappings']), 'mapping')} ({(time.perf_counter() - began) * 1000:.0f} ms)",
            file=sys.stderr,
        )
    written = total - failed
    print(
        f"{written} of {plural(total, 'pair')} written to {out_dir} "
        f"in {time.perf_counter() - start:.2f} s; {failed} failed",
        file=sys.stderr,
    )
    return EXIT_INPUT_ERROR if failed else EXIT_OK
