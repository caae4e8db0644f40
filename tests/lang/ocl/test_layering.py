"""The OCL package's core modules form layers, not a cycle: ``types`` < ``model`` < ``values``.

``model`` builds classes and enumerations whose types live in ``types``; ``values`` holds runtime values
typed by ``types``. An import hidden inside a function or an ``if TYPE_CHECKING:`` block is how a cycle
between them creeps back in, so every import of these modules must sit at module level and point down.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import benchmark.lang.ocl

PACKAGE = Path(benchmark.lang.ocl.__file__).parent
PREFIX = "benchmark.lang.ocl."

# module -> the package modules it may import (everything else of the package is above it)
ALLOWED = {
    "types": set(),
    "model": {"ast", "errors", "types"},
    "hashorder": set(),
    "values": {"hashorder", "types"},
}


def _imports(module: str) -> list[tuple[str, int, bool]]:
    """(imported package module, line, at module level) for every import of the package."""
    tree = ast.parse((PACKAGE / f"{module}.py").read_text(encoding="utf-8"))
    top_level = {id(node) for node in tree.body}
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module:
            names = (
                [node.module]
                if node.module != "benchmark.lang.ocl"
                else [f"benchmark.lang.ocl.{a.name}" for a in node.names]
            )
        elif isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        else:
            continue
        for name in names:
            if name.startswith(PREFIX):
                found.append((name[len(PREFIX) :].split(".")[0], node.lineno, id(node) in top_level))
    return found


@pytest.mark.parametrize("module", sorted(ALLOWED))
def test_core_modules_import_only_downwards_and_at_module_level(module: str) -> None:
    problems = []
    for target, line, top in _imports(module):
        if not top:
            problems.append(f"{module}.py:{line}: import of `{target}' inside a block (hides a cycle)")
        elif target not in ALLOWED[module]:
            problems.append(f"{module}.py:{line}: imports `{target}', which is not below it")
    assert not problems, "\n".join(problems)


def test_enumeration_values_are_made_by_their_type() -> None:
    from benchmark.lang.ocl.model import Enumeration
    from benchmark.lang.ocl.values import EnumValue

    enum = Enumeration("Light", ("red", "amber"))
    assert enum.values is enum.type.values
    assert isinstance(enum.values["red"], EnumValue) and enum.values["red"].type is enum.type
