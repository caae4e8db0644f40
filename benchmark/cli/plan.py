"""``atlbench plan``: how many units × runs a study needs to detect an effect, from a pilot, and its cost.

The pilot is a saved session (``results.json``, as ``pytest cases`` or ``atlbench validate -o`` write it)
or a validation tree, scored here with the session's code and default options; the arithmetic is
:mod:`benchmark.reports.plan`'s.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any


def register(subparsers: Any) -> None:
    from benchmark.reports.plan import DEFAULT_RUNS

    parser = subparsers.add_parser(
        "plan",
        help="from pilot runs: how many units x runs a study needs to detect an effect, and its cost",
        description="For each pair of providers of the pilot (a results.json, or a validation tree scored "
        "here), the pilot's own minimum detectable effect and, for each number of runs per unit, the fewest "
        "units (transformations, constraints, pairs) with which the study detects an effect of --effect with "
        "--power at --alpha after Holm over --family comparisons, and what generating them would cost at the "
        "prices of atlbench.toml (docs/STATISTICS.md, 'What a comparison can detect').",
    )
    parser.add_argument("pilot", metavar="PILOT", help="a results.json, or a validation tree to score")
    parser.add_argument("--track", default="atl", metavar="NAME", help="the track to plan (default: atl)")
    parser.add_argument(
        "--effect",
        type=float,
        required=True,
        metavar="D",
        help="the |Δ| headline to detect (0.05: 5 points of F1)",
    )
    parser.add_argument("--power", type=float, default=0.8, metavar="P", help="power (default 0.8)")
    parser.add_argument("--alpha", type=float, default=0.05, metavar="A", help="level (default 0.05)")
    parser.add_argument(
        "--family",
        type=int,
        default=1,
        metavar="M",
        help="comparisons the study will correct together with Holm (default 1: one planned comparison)",
    )
    parser.add_argument(
        "--runs",
        default=",".join(str(r) for r in DEFAULT_RUNS),
        metavar="K[,K...]",
        help=f"runs per unit to plan for (default {','.join(str(r) for r in DEFAULT_RUNS)})",
    )
    parser.add_argument(
        "--provider",
        dest="providers",
        action="append",
        default=[],
        metavar="NAME",
        help="only the pairs with this provider (repeatable)",
    )
    parser.add_argument("--config", metavar="FILE", help="atlbench.toml with the providers' prices")
    parser.set_defaults(handler=run)


def _check(args: argparse.Namespace) -> list[int]:
    from benchmark.core.errors import ConfigurationError

    if not args.effect > 0:
        raise ConfigurationError(f"must be a positive number, got {args.effect}", field="--effect")
    for flag, value in (("--power", args.power), ("--alpha", args.alpha)):
        if not 0 < value < 1:
            raise ConfigurationError(f"must be a number in (0, 1), got {value}", field=flag)
    if args.family < 1:
        raise ConfigurationError(f"must be a whole number of at least 1, got {args.family}", field="--family")
    try:
        runs = sorted({int(part) for part in args.runs.split(",") if part.strip()})
    except ValueError:
        runs = []
    if not runs or runs[0] < 1:
        raise ConfigurationError(
            f"must be a comma list of whole numbers of at least 1, got {args.runs!r}", field="--runs"
        )
    return runs


def _pilot_rows(path: Path, track_name: str) -> tuple[Any, list[Any]]:
    """The track and its rows: from a saved session, or scored from a validation tree."""
    from benchmark.core.errors import ConfigurationError
    from benchmark.core.registry import track_class, track_classes
    from benchmark.core.results import Results
    from benchmark.core.track import TrackContext

    cls = track_class(track_name)
    if path.is_file():
        results = Results.load(path)
        section = results.section(track_name)
        if section is None:
            raise ConfigurationError(
                f"the session has no rows of track {track_name!r} "
                f"(it has: {', '.join(results.tracks) or 'none'})",
                file=path,
                field="--track",
            )
        root = Path(results.header.validation_root or ".")
        defaults = {option.dest: option.convert(option.default, root) for option in cls.options}
        return cls(TrackContext(data_root=root, options=defaults)), list(section.rows)
    if not path.is_dir():
        raise ConfigurationError("no such file or folder", file=path, field="PILOT")
    from benchmark.core.options import LIST
    from benchmark.harness.options import VALIDATION_ROOT, read_session_options
    from benchmark.harness.session import Harness

    classes = {c.name: c for c in track_classes()}

    def read(option: Any) -> tuple[Any, Path, Any]:
        if option is VALIDATION_ROOT:
            return str(path), Path.cwd(), option
        if option.flag == "--reports-dir":
            return "", Path.cwd(), option
        return (() if option.kind == LIST else option.default), Path.cwd(), option

    options = read_session_options(read, list(classes.values()))
    harness = Harness(options, classes, source_dir=Path.cwd())
    rows, _problems = harness.score_all([track_name])
    return harness.track(track_name), rows


def run(args: argparse.Namespace) -> int:
    from benchmark.llm.config import load_config
    from benchmark.reports.plan import plan_pairs, prices, table

    runs = _check(args)
    track, rows = _pilot_rows(Path(args.pilot), args.track)
    config = load_config(args.config)
    price_of = prices({name: provider.price for name, provider in config.providers.items()})
    plans = plan_pairs(
        track,
        rows,
        effect=args.effect,
        runs=runs,
        power=args.power,
        alpha=args.alpha,
        family=args.family,
        providers=args.providers,
        price_of=price_of,
    )
    found = table(plans, track, args.effect, runs)
    print(found.title)
    for line in found.to_terminal():
        print(line)
    for note in found.notes:
        print(f"  {note}")
    return 0
