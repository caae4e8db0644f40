"""``atlbench diff``: score one suggestion file against one ground truth (optionally beside a baseline)."""

from __future__ import annotations

import argparse
import sys
from typing import Any


def add_scoring_options(parser: argparse.ArgumentParser) -> None:
    """``--partial-weight`` and ``--confidence``, as the mapping track declares them (one declaration for
    pytest, ``validate``, ``diff`` and the ini file)."""
    from benchmark.core.options import add_to_argparse
    from benchmark.tracks.mapping.options import SCORING_OPTIONS

    add_to_argparse(parser, SCORING_OPTIONS)


def read_scoring_options(args: argparse.Namespace) -> tuple[float, str | None]:
    """The checked (partial weight, confidence filter) before any file is read."""
    from benchmark.core.options import read_argparse
    from benchmark.tracks.mapping.options import SCORING_OPTIONS

    values = read_argparse(args, SCORING_OPTIONS)
    return values["partial_weight"], values["confidence"]


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "diff",
        help="score one suggestion file against a ground truth",
        description="Compare LLM mapping suggestions with the ground truth of one ATL transformation and "
        "print the report as JSON (definitions: docs/METRICS.md).",
    )
    parser.add_argument(
        "--atl", required=True, metavar="GT", help="ground truth: interchange .json or .atl file"
    )
    parser.add_argument(
        "--llm", required=True, metavar="S.json", help="suggestion file (jJodel export or answer)"
    )
    parser.add_argument(
        "--baseline", metavar="B.json", help="baseline suggestion file: adds a three-way report"
    )
    parser.add_argument(
        "--metamodels",
        nargs=2,
        metavar=("SRC", "TGT"),
        help="source and target metamodels (.ecore/.km3): feature-kind split and hallucination count",
    )
    add_scoring_options(parser)
    parser.add_argument("-o", "--output", metavar="OUT.json", help="write the report here (default: stdout)")
    parser.set_defaults(handler=run)


def _summary_lines(report: dict[str, Any]) -> str:
    from benchmark.reports.table import terminal_lines

    rows = []
    for level in ("class", "binding", "overall"):
        block = report["summary"][level]
        rows.append(
            [level, *(f"{block[c]:g}" for c in ("tp", "fp", "fn"))]
            + [f"{block[m]:.3f}" for m in ("precision", "recall", "f1", "accuracy")]
        )
    return "\n".join(terminal_lines(["level", "TP", "FP", "FN", "P", "R", "F1", "Acc"], rows))


def run(args: argparse.Namespace) -> int:
    from benchmark.core.fileio import dumps_json, write_json_atomic
    from benchmark.tracks.mapping.ground_truth import default_metamodel_loader, load_ground_truth
    from benchmark.tracks.mapping.scoring.compare import compare
    from benchmark.tracks.mapping.scoring.suggestions import load_suggestions
    from benchmark.tracks.mapping.scoring.three_way import three_way
    from benchmark.tracks.mapping.variants.apply import rename_document, renamed_views
    from benchmark.tracks.mapping.variants.renaming import read_recorded

    weight, confidence = read_scoring_options(args)
    ground_truth = load_ground_truth(args.atl)
    source_view = target_view = None
    if args.metamodels:
        source_view = default_metamodel_loader(args.metamodels[0])
        target_view = default_metamodel_loader(args.metamodels[1])
    suggestions = load_suggestions(args.llm)
    # a run of a task variant is scored as the track scores it: against the ground truth and metamodels
    # renamed as its file records (docs/VARIANTS.md)
    renaming = read_recorded(suggestions.variant, source_view, target_view, file=args.llm)
    if renaming is not None:
        ground_truth = rename_document(ground_truth, renaming)
        source_view, target_view = renamed_views(renaming, source_view, target_view)
    llm = compare(
        ground_truth,
        suggestions,
        confidence=confidence,
        source_view=source_view,
        target_view=target_view,
    )
    report = llm.to_json(weight)  # the comparison holds raw categories: the weight is the report's
    if args.baseline:
        baseline = compare(
            ground_truth, load_suggestions(args.baseline), source_view=source_view, target_view=target_view
        )
        report["threeWay"] = three_way(llm, baseline, weight).to_json(weight)
    if args.output:
        write_json_atomic(args.output, report)
        print(_summary_lines(report))
        print(f"wrote {args.output}")
    else:
        sys.stdout.write(dumps_json(report))
    return 0
