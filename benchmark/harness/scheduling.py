"""Where pytest-xdist sends the cases: a track's cases stay together on one worker, other tests are spread
one by one.

xdist's default (``--dist load``) deals the cases out to the workers in small batches, so with ``-n 2`` each
worker scores some cases of every track and each pays every track's first use: the imports of its scoring
code, its grammars and compilers, its study, the models and variants a case needs and the other worker has
already built. With a track module's cases on one worker, a cold ``pytest cases -n auto`` on the bundled
data took 23.8 s of CPU instead of 26.4 s, and 13.5 s instead of 14.5 s (medians of 3 pairs run in turn,
2026-12-02, 2 CPUs at load 2.3-3.1). :class:`TrackScheduling` keeps that grouping for the benchmark's
track modules only:
a track module's cases form one unit of work, or, with more workers than track modules, as many
contiguous slices of it (cases in collection order, so a task's cases stay together) as it takes to give
every worker one. Any other test is a unit of its own, as with ``--dist load``. Units go out largest first,
each to the next worker that is nearly done (xdist's ``LoadScopeScheduling``, which this extends).

A track module is one whose module-level ``pytestmark`` names the ``atlbench_track`` marker (the way
``cases/`` and docs/TRACKS.md declare one), read from the module's source by the controller, which under
xdist imports no test module. A module that applies the marker another way is spread one by one: slower,
never wrong, since where a case runs changes no row, report or verdict.

Used when the session distributes with xdist's default mode (``-n``, or ``--dist load``); any other
``--dist`` the user asks for is xdist's own.
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import pytest
from xdist.scheduler import LoadScopeScheduling

from benchmark.harness.state import TRACK_MARKER
from benchmark.harness.trackmodules import declares_track


def track_scopes(collection: list[str], rootdir: Path, workers: int) -> dict[str, str]:
    """Node id -> unit of work, for the cases of track modules (module docstring); other node ids are
    absent (each its own unit)."""
    modules: dict[str, list[str]] = {}
    known: dict[str, bool] = {}
    for nodeid in collection:
        module = nodeid.split("::", 1)[0]
        if module not in known:
            try:
                known[module] = declares_track((rootdir / module).read_bytes())
            except OSError:
                known[module] = False
        if known[module]:
            modules.setdefault(module, []).append(nodeid)
    slices = max(1, math.ceil(workers / len(modules))) if modules else 1
    scopes = {}
    for module, nodeids in modules.items():
        size = math.ceil(len(nodeids) / slices)
        for index, nodeid in enumerate(nodeids):
            scopes[nodeid] = f"{module}::<{TRACK_MARKER} cases, part {index // size + 1} of {slices}>"
    return scopes


class TrackScheduling(LoadScopeScheduling):  # type: ignore[misc]
    """xdist's scope scheduling with a track module's cases as the scope (module docstring)."""

    def __init__(self, config: pytest.Config, log: Any = None) -> None:
        super().__init__(config, log)
        self._scopes: dict[str, str] | None = None

    def _split_scope(self, nodeid: str) -> str:
        if self._scopes is None:  # every node collected the same ids (checked before any is split)
            collection = next(iter(self.registered_collections.values()))
            self._scopes = track_scopes(list(collection), Path(self.config.rootpath), self.numnodes)
        return self._scopes.get(nodeid, nodeid)

    def remove_node(self, node: Any) -> str | None:
        """A worker went down: its unfinished cases go back to the queue, as in xdist's scope scheduling,
        but not the case it crashed in, which xdist has reported failed (as ``--dist load`` does: a case
        that kills its worker is not run a second time, and the session says its row is missing)."""
        crashed: str | None = super().remove_node(node)
        for scope, work_unit in list(self.workqueue.items()):
            if crashed in work_unit:
                work_unit[crashed] = True
                if all(work_unit.values()):  # nothing of it left to run
                    del self.workqueue[scope]
        return crashed


__all__ = ["TrackScheduling", "track_scopes"]
