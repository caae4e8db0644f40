"""``atlbench synth``: write seeded synthetic runs (ground truth + controlled noise) into runs/ folders."""

from __future__ import annotations

import argparse
import sys
from typing import Any


def register(subparsers: Any) -> None:
    from benchmark.core.options import add_to_argparse
    from benchmark.tracks.mapping.options import SYNTH_OPTIONS
    from benchmark.tracks.mapping.synth import PROFILES, TEMPLATE_NOISE

    parser = subparsers.add_parser(
        "synth",
        help="write seeded synthetic runs derived from the ground truth",
        description="For every transformation folder under ROOT (or ROOT itself), write "
        "runs/<PROFILE>-runNN.json: the ground truth with the profile's seeded noise (runs/<VARIANT>/... "
        "for a task variant: --variant, docs/VARIANTS.md). Synthetic runs say so in their provider name; "
        "see docs/SYNTHETIC_RUNS.md.",
    )
    parser.add_argument("root", metavar="ROOT", help="validation tree or one transformation folder")
    parser.add_argument(
        "--profile",
        action="append",
        choices=sorted(PROFILES),
        help="noise profile (repeatable; default: all profiles)",
    )
    add_to_argparse(parser, SYNTH_OPTIONS)
    parser.add_argument(
        "--template",
        default="study",
        choices=("study", *sorted(TEMPLATE_NOISE)),
        help="the prompt template the runs pretend to answer: another than study (the default) applies "
        "the profile's made-up template effect and names the files <PROFILE>-<TEMPLATE>-runNN.json",
    )
    parser.add_argument("--out-dir", default="runs", help="folder below each transformation (default runs)")
    parser.add_argument("--force", action="store_true", help="overwrite existing files that differ")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    from benchmark.core.options import read_argparse
    from benchmark.tracks.mapping.options import SYNTH_OPTIONS
    from benchmark.tracks.mapping.synth import PROFILES, write_synthetic_runs

    values = read_argparse(args, SYNTH_OPTIONS)
    report = write_synthetic_runs(
        args.root,
        profiles=[PROFILES[name] for name in (args.profile or PROFILES)],
        runs=values["runs"],
        first_run=values["first_run"],
        seed=values["seed"],
        out_dir=args.out_dir,
        force=args.force,
        progress=lambda line: print(line, file=sys.stderr),
        variants=values["atl_variant"],
        variant_seed=values["atl_variant_seed"],
        template=args.template,
    )
    from benchmark.core.wording import plural

    for note in report.notes:
        print(f"note: {note}", file=sys.stderr)
    for path in report.refused:
        print(f"{path}: exists and differs; not overwritten (use --force)", file=sys.stderr)
    print(
        f"{plural(report.transformations, 'transformation')}: {len(report.written)} written, "
        f"{len(report.unchanged)} unchanged, {len(report.refused)} left as they were"
    )
    return 1 if report.refused else 0
