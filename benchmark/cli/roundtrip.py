"""``atlbench roundtrip``: the round-trip Ecore <-> SQL track (generate the data, score outputs).

atlbench roundtrip generate [--source DIR] [--out DIR] [--check]
atlbench roundtrip score --base FILE --expected FILE --output FILE [--json]
atlbench roundtrip lines FILE [--kind ecore|sql] [--json]
atlbench roundtrip cases [DIR]
atlbench roundtrip synth [--data DIR] [--profile NAME ...] [--examples 1,2] [--runs N] [--seed N]
    [--template NAME] [-k PAIR/OPERATOR ...] [--check]
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from benchmark.core.wording import plural

EXIT_OK = 0
EXIT_FAILED = 1


def register(subparsers: Any) -> None:
    from benchmark.core.options import add_to_argparse
    from benchmark.tracks.roundtrip.options import SYNTH_OPTIONS

    parser = subparsers.add_parser(
        "roundtrip",
        help="round-trip Ecore <-> SQL track: generate the bundled data, score an output model",
        description="Round-trip Ecore <-> SQL-XMI track (docs/ROUNDTRIP.md).",
    )
    commands = parser.add_subparsers(dest="roundtrip_command", metavar="SUBCOMMAND", required=True)

    generate = commands.add_parser(
        "generate",
        help="rebuild T_<id>.sql.xmi, the 200 delta files and manifest.json from the S_<id>.ecore domains",
    )
    generate.add_argument(
        "--source", type=Path, help="folder with the S_<id>.ecore domains (default: bundled)"
    )
    generate.add_argument("--out", type=Path, help="where to write (default: the source folder)")
    generate.add_argument(
        "--check",
        action="store_true",
        help="write nothing; exit 1 when the folder differs from a fresh build",
    )
    generate.set_defaults(handler=_generate)

    score = commands.add_parser("score", help="score an output model against the expected one")
    score.add_argument("--base", type=Path, required=True, help="the model before the delta (S or T)")
    score.add_argument("--expected", type=Path, required=True, help="the expected model (Δ(S) or Δ(T))")
    score.add_argument(
        "--output",
        type=Path,
        required=True,
        help="the answer to score: a bare model or an LLM's raw answer (prose, fences, several documents)",
    )
    score.add_argument("--json", action="store_true", help="print the full JSON report")
    score.set_defaults(handler=_score)

    lines = commands.add_parser("lines", help="print the canonical lines of a model file")
    lines.add_argument("file", type=Path)
    lines.add_argument("--kind", choices=("ecore", "sql"), help="model kind (default: from the file)")
    lines.add_argument("--json", action="store_true")
    lines.set_defaults(handler=_lines)

    cases = commands.add_parser("cases", help="list the cases of a round-trip data folder")
    cases.add_argument("folder", type=Path, nargs="?", metavar="DIR", help="data folder (default: bundled)")
    # the earlier spelling, kept so that scripts keep working; the positional folder is what the
    # sibling commands take
    cases.add_argument("--data", type=Path, metavar="DIR", help="deprecated: give the folder as DIR")
    cases.set_defaults(handler=_cases)

    synth = commands.add_parser(
        "synth",
        help="write the synthetic chained runs (Synthetic-* providers, not LLM output) into runs/",
        description="Seeded, noisy runs derived from the expected models (docs/ROUNDTRIP.md §14).",
    )
    synth.add_argument("--data", type=Path, help="data folder (default: bundled)")
    synth.add_argument(
        "--profile",
        action="append",
        default=None,
        help="noise profile (repeatable; default: the bundled two)",
    )
    add_to_argparse(synth, SYNTH_OPTIONS)
    synth.add_argument(
        "--template",
        default="study",
        choices=("study", "terse", "stepwise"),
        help="the prompt template the runs pretend to answer: another than study (the default) applies the "
        "profiles' made-up template effect and names it in the files",
    )
    synth.add_argument(
        "-k",
        dest="selectors",
        action="append",
        default=[],
        metavar="SUBSTRING",
        help="only cases whose PAIR/OPERATOR contains SUBSTRING (repeatable: any of them)",
    )
    synth.add_argument("--check", action="store_true", help="write nothing; exit 1 when a file differs")
    synth.set_defaults(handler=_synth)


def _generate(args: argparse.Namespace) -> int:
    from benchmark.core.errors import ConfigurationError
    from benchmark.tracks.roundtrip.study.generate import check, generate
    from benchmark.tracks.roundtrip.study.manifest import default_data_dir

    source = args.source or default_data_dir()
    if not source.is_dir():
        raise ConfigurationError("no such folder", file=str(source), field="--source")
    if args.out is not None and args.out.exists() and not args.out.is_dir():
        raise ConfigurationError("not a folder", file=str(args.out), field="--out")
    if args.check:
        problems = check(source, args.out)
        for problem in problems:
            print(f"{args.out or source}/{problem}")
        print("up to date" if not problems else f"{len(problems)} difference(s)")
        return EXIT_FAILED if problems else EXIT_OK
    report = generate(source, args.out, progress=lambda line: print(line, file=sys.stderr))
    for name in report.removed:
        print(f"removed stale {name}")
    print(
        f"{args.out or source}: {len(report.written)} written, {len(report.unchanged)} unchanged, "
        f"{len(report.copied)} base domains copied, {len(report.removed)} stale removed"
    )
    return EXIT_OK


def _percent(value: float) -> str:
    return f"{100 * value:.1f}%"


def _yes_no(value: bool) -> str:
    return "yes" if value else "no"


def _score(args: argparse.Namespace) -> int:
    from benchmark.core.fileio import dumps_json
    from benchmark.tracks.roundtrip.scoring.scorer import score

    report = score(args.base, args.expected, args.output)
    if args.json:
        sys.stdout.write(dumps_json(report.to_json()))
        return EXIT_OK
    state = "loadable" if report.loadable else f"NOT loadable: {report.load_error}; read as {report.read_as}"
    counts = report.counts
    print(f"{report.output} ({report.model}, {state})")
    extraction = report.extraction or {}
    if extraction.get("source") not in (None, "whole answer"):
        print(f"model taken from {extraction['source']} (line {extraction['startLine']} of the answer)")
    for note in extraction.get("notes", ()):
        print(f"note: {note}")
    print(
        f"LOC {counts.loc}  Cr {counts.cr}  InCr {counts.incr}  Ad {counts.ad} (harmful {counts.ad_harmful})"
        f"  Miss {counts.miss}"
    )
    print(
        f"%Correct {_percent(report.pct_correct)}  %WSuccess {_percent(report.pct_wsuccess)}"
        f" (sheet {_percent(report.pct_wsuccess_sheet)})  DeltaDetected {_yes_no(report.delta_detected)}"
        f"  Equivalent {_yes_no(report.equivalent)}"
    )
    delta = report.delta
    print(
        f"delta: {delta.reproduced} of {delta.lines} line(s) reproduced (recall {_percent(delta.recall)}),"
        f" {delta.output_changes} change(s) to the base (precision {_percent(delta.precision)})"
    )
    for flag in report.flags:
        print(f"flag: {flag}")
    wrong = [line for line in report.lines if line.verdict != "Cr"]
    if wrong:
        print("lines not correct:")
    for line in wrong:
        shown = line.output if line.output is not None else line.expected
        text = shown.text if shown is not None else line.key
        extra = f"  differs: {', '.join(line.differences)}" if line.differences else ""
        role = f"  [delta: {line.delta}]" if line.delta else ""
        harmless = "  (harmless: no image in the schema)" if line.harmful is False else ""
        print(f"  {line.verdict:<4} {text}{extra}{role}{harmless}")
    return EXIT_OK


def _lines(args: argparse.Namespace) -> int:
    from benchmark.core.fileio import dumps_json
    from benchmark.tracks.roundtrip.reading.models import MODEL_KINDS, kind_of, read_model

    kind = MODEL_KINDS[args.kind] if args.kind else kind_of(args.file)
    read = read_model(args.file, kind)
    if args.json:
        payload = {
            "loadable": read.loadable,
            "loadError": read.load_error,
            "readAs": read.read_as,
            "lines": [line.text for line in read.lines],
        }
        sys.stdout.write(dumps_json(payload))
        return EXIT_OK
    if not read.loadable:
        print(f"# not loadable: {read.load_error}; read as {read.read_as}", file=sys.stderr)
    for line in read.lines:
        print(line.text)
    return EXIT_OK


def _cases(args: argparse.Namespace) -> int:
    from benchmark.core.errors import ConfigurationError
    from benchmark.tracks.roundtrip.study.load import load_study

    if args.data is not None and args.folder is not None:
        raise ConfigurationError("give the data folder once: DIR or the deprecated --data", field="--data")
    if args.data is not None:
        print("atlbench roundtrip cases: --data is deprecated; give the folder as DIR", file=sys.stderr)
    cases = load_study(args.folder or args.data).cases
    for case in cases:
        seed = f"seed {case.seed}" if case.seed is not None else "study case"
        print(f"{case.case_id}\t{seed}\t{' '.join(case.target)}".rstrip())
    print(plural(len(cases), "case"), file=sys.stderr)
    return EXIT_OK


def _synth(args: argparse.Namespace) -> int:
    from benchmark.core.errors import ConfigurationError
    from benchmark.core.options import read_argparse
    from benchmark.tracks.roundtrip.options import SYNTH_OPTIONS
    from benchmark.tracks.roundtrip.study.load import load_study
    from benchmark.tracks.roundtrip.synth import BUNDLED_PROFILES, PROFILES, write_synthetic_runs

    profiles = args.profile or list(BUNDLED_PROFILES)
    unknown = [p for p in profiles if p not in PROFILES]
    if unknown:
        raise ConfigurationError(
            f"unknown profile(s) {', '.join(unknown)}; known: {', '.join(PROFILES)}", field="--profile"
        )
    values = read_argparse(args, SYNTH_OPTIONS)
    report = write_synthetic_runs(
        load_study(args.data),
        profiles,
        values["examples"],
        values["runs"],
        values["seed"],
        check=args.check,
        template=args.template,
        selectors=args.selectors,
    )
    for path in report.refused:
        print(f"left alone (not written by atlbench roundtrip synth): {path}")
    if args.check:
        for path in report.written:
            print(f"differs: {path}")
        print("up to date" if not report.written else f"{len(report.written)} file(s) differ")
        return EXIT_FAILED if report.written else EXIT_OK
    print(
        f"{len(report.written)} written, {len(report.unchanged)} unchanged, {len(report.refused)} left alone"
    )
    return EXIT_OK
