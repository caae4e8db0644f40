"""``atlbench variant export``: the mapping track's task variants written out, to run a probe by hand
(``docs/VARIANTS.md``)."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any


def register(subparsers: Any) -> None:
    from benchmark.core.options import add_to_argparse
    from benchmark.tracks.mapping.options import EXPORT_OPTIONS

    parser = subparsers.add_parser(
        "variant",
        help="the mapping track's task variants (synonym, opaque, shuffled, name-only)",
        description="Task variants of the mapping track: the same transformation renamed, reordered or "
        "named only (docs/VARIANTS.md).",
    )
    commands = parser.add_subparsers(dest="variant_command", metavar="SUBCOMMAND", required=True)
    export = commands.add_parser(
        "export",
        help="write a variant's renamed metamodels, ground truth, renaming and prompt",
        description="For every selected transformation under ROOT and every variant, write "
        "OUT/<transformation>/<variant>/: the metamodels as the variant shows them (.ecore and .km3), "
        "ground-truth.json (the ground truth in the variant's names), variant.json (the renaming a run "
        "of the variant records; give it to atlbench import --variant-file to file answers obtained by "
        "hand) and prompt.md (what atlbench generate --variant sends).",
    )
    export.add_argument(
        "root", metavar="ROOT", type=Path, help="validation tree or one transformation folder"
    )
    export.add_argument("--out", metavar="OUT", type=Path, required=True, help="the folder to write")
    export.add_argument(
        "-k",
        dest="selectors",
        action="append",
        default=[],
        metavar="SUBSTRING",
        help="only transformations whose name contains SUBSTRING (any case; repeatable: any of them)",
    )
    add_to_argparse(export, EXPORT_OPTIONS)
    export.set_defaults(handler=_export)


def _export(args: argparse.Namespace) -> int:
    from benchmark.core.options import read_argparse
    from benchmark.core.wording import plural
    from benchmark.tracks.mapping.options import EXPORT_OPTIONS
    from benchmark.tracks.mapping.variant_export import export_variants

    values = read_argparse(args, EXPORT_OPTIONS)
    exported = export_variants(
        args.root,
        args.out,
        values["atl_variant"],
        selectors=args.selectors,
        seed=values["atl_variant_seed"],
    )
    for item in exported:
        print(f"{item.folder}: {plural(len(item.files), 'file')}")
    print(f"atlbench variant export: {plural(len(exported), 'folder')} written under {args.out}")
    return 0
