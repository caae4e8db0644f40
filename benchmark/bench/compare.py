"""Prints how long the comparator's steps take per run, on generated inputs of a realistic size.

Usage: ``python -m benchmark.bench compare [--pairs 30] [--bindings 8] [--repeat 50]``. The ground truth
has PAIRS class pairs with BINDINGS bindings each; the run suggests every pair and binding once (a third of
them wrong or renamed) plus invented ones, in the jJodel export shape, as JSON text. Timed: reading the
text (schema validation and normalisation included), comparing (all confidence slices, feature kinds and
hallucinations included), building and serialising the row, and aggregating 1000 rows. CPU time (not wall
clock), so other processes on the machine do not distort the figures.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time
from collections.abc import Callable
from typing import Any

from benchmark.lang.ecore.view import ClassView, FeatureView, MetamodelView  # noqa: E402
from benchmark.tracks.mapping.aggregate import aggregate  # noqa: E402
from benchmark.tracks.mapping.interchange import (  # noqa: E402
    ClassMatch,
    FeatureMatch,
    InterchangeDocument,
    TransformationInfo,
)
from benchmark.tracks.mapping.jjodel import MappingEntry, export_document  # noqa: E402
from benchmark.tracks.mapping.payload import RunRow  # noqa: E402
from benchmark.tracks.mapping.scoring.compare import compare  # noqa: E402
from benchmark.tracks.mapping.scoring.suggestions import parse_suggestions  # noqa: E402


def _view(name: str, classes: dict[str, list[str]]) -> MetamodelView:
    views = []
    for cls, features in classes.items():
        feats = tuple(
            FeatureView(f, cls, "reference" if i % 3 == 0 else "attribute", "EString")
            for i, f in enumerate(features)
        )
        views.append(ClassView(cls, f"{name}::{cls}", name, features=feats, all_features=feats))
    return MetamodelView(name=name, file=f"{name}.ecore", classes=tuple(views))


def build(
    pairs: int, bindings: int, seed: int = 1
) -> tuple[InterchangeDocument, str, MetamodelView, MetamodelView]:
    rng = random.Random(seed)
    matches, entries = [], []
    source_classes: dict[str, list[str]] = {}
    target_classes: dict[str, list[str]] = {}
    for p in range(pairs):
        source, target = f"S{p}", f"T{p}"
        features = []
        for b in range(bindings):
            heads = tuple(f"s{b}_{k}" for k in range(rng.choice((0, 1, 1, 1, 2))))
            features.append(FeatureMatch(f"t{b}", heads, heads))
            source_classes.setdefault(source, []).extend(heads)
            target_classes.setdefault(target, []).append(f"t{b}")
            named = heads[0] if heads and rng.random() < 0.67 else "invented"
            confidence = rng.choice(("high", "medium", "low", None))
            entries.append(MappingEntry("attribute", source, target, named, f"t{b}", confidence))
        matches.append(ClassMatch(source, target, feature_matches=tuple(features)))
        entries.append(
            MappingEntry("class", source, target if rng.random() < 0.8 else f"T{p + 1}", confidence="high")
        )
        entries.append(MappingEntry("attribute", source, target, "x", "madeUp", "low"))
    document = InterchangeDocument(TransformationInfo("Speed", "Speed.atl"), tuple(matches))
    export = export_document(
        transformation="Speed", source="S", target="T", provider="Bench", model="m", mappings=entries
    )
    return document, json.dumps(export), _view("S", source_classes), _view("T", target_classes)


def _median_ms(action: Callable[[], object], repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.process_time()
        action()
        times.append(time.process_time() - start)
    return statistics.median(times) * 1000


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m benchmark.bench compare", description=__doc__.splitlines()[0]
    )
    parser.add_argument("--pairs", type=int, default=30)
    parser.add_argument("--bindings", type=int, default=8)
    parser.add_argument("--repeat", type=int, default=50)
    args = parser.parse_args(argv)
    document, text, source, target = build(args.pairs, args.bindings)
    suggestions = parse_suggestions(text)
    result = compare(document, suggestions, source_view=source, target_view=target)
    row = result.to_row(run="r1")
    rows = [
        RunRow.of(f"P{i % 4}", "m", f"T{i % 8}", f"r{i}", classes=row.classes, bindings=row.bindings)
        for i in range(1000)
    ]
    print(
        f"ground truth: {args.pairs} pairs, {args.pairs * args.bindings} bindings; run: "
        f"{len(suggestions.mappings)} mappings ({len(text) // 1024} KiB)"
    )
    few = max(3, args.repeat // 10)
    steps: list[tuple[str, Callable[[], object], int]] = [
        ("read (parse + schema + normalise)", lambda: parse_suggestions(text), args.repeat),
        (
            "compare (with slices, kinds, hallucinations)",
            lambda: compare(document, suggestions, source_view=source, target_view=target),
            args.repeat,
        ),
        ("to_row + envelope JSON", lambda: result.to_row(run="r1").to_envelope().dumps(), args.repeat),
        ("aggregate 1000 rows", lambda: aggregate(rows), few),
    ]
    from benchmark.reports.table import terminal_lines

    rows = [[name, f"{_median_ms(action, repeat):.2f}", str(repeat)] for name, action, repeat in steps]
    print("\n".join(terminal_lines(("step", "ms CPU (median)", "runs"), rows)))
    return 0


def register(subparsers: Any) -> None:
    """``python -m benchmark.bench compare``: the options are this module's own (``--help`` lists them)."""
    parser = subparsers.add_parser(
        "compare", help="comparator speed per run (parse, compare, rows)", add_help=False, prefix_chars="+"
    )
    parser.add_argument("arguments", nargs=argparse.REMAINDER)
    parser.set_defaults(handler=lambda args: main(args.arguments) or 0)


if __name__ == "__main__":
    raise SystemExit(main())
