"""Which test modules are a track's cases, read from their source (no test module is imported).

A track module declares its track with a module-level ``pytestmark`` naming the ``atlbench_track`` marker
(``pytestmark = pytest.mark.atlbench_track("ocl")``, alone or in a list), as ``cases/`` and docs/TRACKS.md do.
The xdist controller, which imports no test module, reads it to keep a track's cases together
(:mod:`benchmark.harness.scheduling`), and ``-n auto`` to learn, before anything is collected, that a
session runs benchmark cases only (:mod:`benchmark.harness.autoworkers`).
"""

from __future__ import annotations

import ast
import fnmatch
from collections.abc import Iterable, Sequence
from pathlib import Path

from benchmark.harness.state import TRACK_MARKER


def declares_track(source: bytes) -> bool:
    """Whether a module's source assigns ``pytestmark`` at module level with the track marker in it."""
    if TRACK_MARKER.encode() not in source:
        return False
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError):
        return False  # pytest reports it when it imports the module
    for statement in tree.body:
        if not isinstance(statement, ast.Assign):
            continue
        if any(isinstance(t, ast.Name) and t.id == "pytestmark" for t in statement.targets):
            names = ast.walk(statement.value)
            if any(isinstance(n, ast.Attribute) and n.attr == TRACK_MARKER for n in names):
                return True
    return False


def only_track_modules(paths: Iterable[str], base: Path, patterns: Sequence[str]) -> list[Path] | None:
    """The test modules the session's ``paths`` (its arguments, or its ``testpaths``; relative to ``base``;
    a node id's ``::`` part ignored) name, when every one of them is a track module; ``None`` when one is
    not, or a path is missing or names no test module (``patterns``: the ``python_files`` ini value)."""
    modules: list[Path] = []
    for given in paths:
        path = base / given.split("::", 1)[0]
        if path.is_file():
            found = [path]
        elif path.is_dir():
            found = sorted(
                p for p in path.rglob("*.py") if any(fnmatch.fnmatch(p.name, pattern) for pattern in patterns)
            )
        else:
            return None
        if not found:
            return None
        for module in found:
            try:
                if not declares_track(module.read_bytes()):
                    return None
            except OSError:
                return None
        modules += found
    return modules or None


__all__ = ["declares_track", "only_track_modules"]
