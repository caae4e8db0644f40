"""``atlbench zoo build``: survey a Zoo checkout, plan the tasks, write the tree and its manifest.

The command line (:mod:`benchmark.cli.zoo`), the benchmark (:mod:`benchmark.bench.zoo`) and the tests
all build through :func:`build`.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from benchmark.tracks.mapping.zoo.manifest import Manifest, read_manifest
from benchmark.tracks.mapping.zoo.plan import plan, select
from benchmark.tracks.mapping.zoo.survey import survey
from benchmark.tracks.mapping.zoo.tree import TreeReport, check_locations, write_tree


@dataclass
class BuildResult:
    manifest: Manifest
    tree: TreeReport
    #: Wall seconds of each step: survey, plan, write.
    seconds: dict[str, float] = field(default_factory=dict)


def build(
    zoo: str | Path,
    into: str | Path,
    *,
    only: Sequence[str] = (),
    jobs: int | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> BuildResult:
    """Build (or update) the tree ``into`` from the Zoo checkout ``zoo``: every included transformation,
    or those named in ``only`` (task names or Zoo paths)."""
    zoo, into = Path(zoo).resolve(), Path(into)
    check_locations(zoo, into)
    previous = read_manifest(into) if into.is_dir() else None
    seconds: dict[str, float] = {}
    start = time.perf_counter()
    surveyed = survey(zoo, jobs=jobs, progress=progress)
    seconds["survey"] = time.perf_counter() - start
    start = time.perf_counter()
    entries = plan(surveyed)
    chosen = select(entries, only)
    seconds["plan"] = time.perf_counter() - start
    start = time.perf_counter()
    earlier = {**previous.kept, **previous.tasks} if previous else {}
    into.mkdir(parents=True, exist_ok=True)
    tree = write_tree(zoo, into, chosen, earlier)
    manifest = Manifest(str(zoo), entries, list(only), tree.written, tree.kept_tasks)
    manifest.write(into)
    seconds["write"] = time.perf_counter() - start
    return BuildResult(manifest, tree, seconds)
