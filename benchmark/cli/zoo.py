"""``atlbench zoo build ZOO_DIR --into DIR``: every usable ATL Zoo transformation as a task folder.

See :mod:`benchmark.tracks.mapping.zoo` and docs/ZOO.md.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Any


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "zoo",
        help="build a validation tree from a local ATL Zoo checkout",
        description="Tasks from a local copy of the ATL Zoo (nothing of the Zoo ships with this project).",
    )
    commands = parser.add_subparsers(dest="zoo_command", metavar="SUBCOMMAND", required=True)
    build = commands.add_parser(
        "build",
        help="write one task folder per usable transformation, and zoo-manifest.json",
        description="Walk ZOO_DIR (the folder holding one folder per Zoo project) and write, under DIR, "
        "one folder per usable transformation: its .atl file and its source and target metamodels, found "
        "below its project folder by file stem or main package name, as the track finds them. "
        "DIR/zoo-manifest.json and the printed table give every .atl file's verdict and reason. "
        "Rerunning updates the tree and never touches runs filed under it.",
    )
    build.add_argument("zoo", metavar="ZOO_DIR", type=Path, help="the root of a local ATL Zoo checkout")
    build.add_argument("--into", metavar="DIR", type=Path, required=True, help="the tree to write")
    build.add_argument(
        "--only",
        metavar="NAME",
        action="append",
        default=[],
        help="write only this task (a task name or the Zoo path of its .atl file; repeatable)",
    )
    build.add_argument(
        "--published",
        action="store_true",
        help="write only the published study's eight transformations",
    )
    build.add_argument("-j", "--jobs", type=int, help="worker processes (default: the usable CPUs)")
    build.add_argument(
        "-q", "--quiet", action="store_true", help="print the counts only, not the table of every file"
    )
    build.set_defaults(handler=_build)


def _build(args: argparse.Namespace) -> int:
    from benchmark.core.wording import plural
    from benchmark.tracks.mapping.zoo.build import build
    from benchmark.tracks.mapping.zoo.manifest import MANIFEST_NAME, table
    from benchmark.tracks.mapping.zoo.plan import PUBLISHED_STUDY

    only = [*args.only, *(PUBLISHED_STUDY if args.published else ())]
    start = time.perf_counter()
    shown = [0]

    def progress(done: int, total: int) -> None:
        if done == total or done - shown[0] >= 25:
            shown[0] = done
            print(
                f"surveyed {done}/{total} .atl files ({time.perf_counter() - start:.1f} s)", file=sys.stderr
            )

    result = build(args.zoo, args.into, only=only, jobs=args.jobs, progress=progress)
    manifest, tree = result.manifest, result.tree
    if not args.quiet:
        print(table(manifest.entries))
    else:
        counts = ", ".join(f"{n} {verdict}" for verdict, n in manifest.counts().items())
        print(f"{plural(len(manifest.entries), '.atl file')}: {counts}")
    for name, why in tree.kept.items():
        print(
            f"warning: {args.into / name}: kept: {why}; the track still reads it as a task", file=sys.stderr
        )
    print(
        f"\n{args.into}: {plural(len(tree.written), 'task folder')} ({len(tree.created)} created, "
        f"{len(tree.updated)} updated, {len(tree.unchanged)} unchanged), {len(tree.removed)} removed, "
        f"{len(tree.kept)} kept; {MANIFEST_NAME} written in {time.perf_counter() - start:.1f} s"
    )
    return 0
