"""``atlbench synth``: write seeded synthetic runs (ground truth + controlled noise) into runs/ folders."""

from __future__ import annotations

import argparse
import sys
from typing import Any


def register(subparsers: Any) -> None:
    from benchmark.synth import PROFILES

    parser = subparsers.add_parser(
        "synth",
        help="write seeded synthetic runs derived from the ground truth",
        description="For every transformation folder under ROOT (or ROOT itself), write "
        "runs/<PROFILE>-runNN.json: the ground truth with the profile's seeded noise. Synthetic runs "
        "say so in their provider name; see docs/SYNTHETIC_RUNS.md.",
    )
    parser.add_argument("root", metavar="ROOT", help="validation tree or one transformation folder")
    parser.add_argument(
        "--profile",
        action="append",
        choices=sorted(PROFILES),
        help="noise profile (repeatable; default: all profiles)",
    )
    parser.add_argument("--runs", type=int, default=3, help="runs per profile and transformation (default 3)")
    parser.add_argument("--first-run", type=int, default=1, help="number of the first run (default 1)")
    parser.add_argument("--seed", type=int, default=0, help="base seed (default 0)")
    parser.add_argument("--out-dir", default="runs", help="folder below each transformation (default runs)")
    parser.add_argument("--force", action="store_true", help="overwrite existing files that differ")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    from benchmark.corpus import discover, load_ground_truth, resolve_metamodels
    from benchmark.fileio import dumps_json, write_text_atomic
    from benchmark.synth import PROFILES, run_seed, synthesize

    if args.runs < 1:
        print("error: --runs must be at least 1", file=sys.stderr)
        return 2
    profiles = [PROFILES[name] for name in (args.profile or PROFILES)]
    discovery = discover(args.root)
    written = unchanged = refused = 0
    for folder in discovery.transformations:
        document = load_ground_truth(folder.atl_file)
        metamodels = resolve_metamodels(document, folder.metamodel_files, folder=folder.path)
        for note in metamodels.notes:
            print(f"{folder.path}: note: {note} (names are not checked against it)", file=sys.stderr)
        for noise in profiles:
            for number in range(args.first_run, args.first_run + args.runs):
                seed = run_seed(args.seed, noise.name, folder.name, number)
                export = synthesize(
                    document,
                    noise=noise,
                    seed=seed,
                    source_view=metamodels.source,
                    target_view=metamodels.target,
                )
                path = folder.path / args.out_dir / f"{noise.name}-run{number:02d}.json"
                text = dumps_json(export)
                if path.exists():
                    if path.read_text(encoding="utf-8") == text:
                        unchanged += 1
                        continue
                    if not args.force:
                        print(f"{path}: exists and differs; not overwritten (use --force)", file=sys.stderr)
                        refused += 1
                        continue
                write_text_atomic(path, text)
                written += 1
                print(f"wrote {path} ({len(export['mappings'])} mappings)", file=sys.stderr)
    print(
        f"{len(discovery.transformations)} transformations: {written} written, {unchanged} unchanged, "
        f"{refused} left as they were"
    )
    return 1 if refused else 0
