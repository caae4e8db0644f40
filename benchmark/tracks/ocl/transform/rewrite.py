"""Rebuilding OCL ASTs bottom-up, one node at a time.

Every transformation changes only a few kinds of node (a property name, a type name, one navigation
replaced by a path of two); :func:`rewrite` visits every node, children first, and lets a hook replace
the node once its children have been rebuilt. The hook receives the *original* node too, because the
meaning of a node (see :mod:`.resolve`) is recorded by the identity of the original. Nodes are frozen
dataclasses, so rebuilding is :func:`dataclasses.replace` and unchanged subtrees are shared.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any, TypeVar

from benchmark.lang.ocl import ast

N = TypeVar("N", bound=ast.Node)
Hook = Callable[[ast.Node, ast.Node], ast.Node]


def rewrite(node: N, hook: Hook) -> N:
    """``node`` with every descendant rebuilt and passed through ``hook(original, rebuilt)``."""
    changes: dict[str, Any] = {}
    for f in dataclasses.fields(node):
        if f.name in ("line", "column"):
            continue
        value = getattr(node, f.name)
        new = _rewrite_value(value, hook)
        if new is not value:
            changes[f.name] = new
    rebuilt = dataclasses.replace(node, **changes) if changes else node
    return hook(node, rebuilt)  # type: ignore[return-value]


def _rewrite_value(value: Any, hook: Hook) -> Any:
    if isinstance(value, ast.Node):
        return rewrite(value, hook)
    if isinstance(value, tuple):
        items = tuple(_rewrite_value(v, hook) for v in value)
        return value if all(a is b for a, b in zip(items, value, strict=True)) else items
    return value


def rename_types(names: dict[str, str]) -> Hook:
    """A hook renaming class and enumeration names where the syntax names a type (``oclIsKindOf(C)``,
    ``Set(C){}``, ``E::lit``, ``x : C``); ``C.allInstances`` is a property call and handled by callers."""

    def hook(original: ast.Node, node: ast.Node) -> ast.Node:
        if isinstance(node, ast.SimpleTypeExpr) and node.name in names:
            return dataclasses.replace(node, name=names[node.name])
        if isinstance(node, ast.EnumLit) and node.enum is not None and node.enum in names:
            return dataclasses.replace(node, enum=names[node.enum])
        return node

    return hook


def chain(*hooks: Hook) -> Hook:
    """Apply several hooks in order to the same node."""

    def hook(original: ast.Node, node: ast.Node) -> ast.Node:
        for h in hooks:
            node = h(original, node)
        return node

    return hook


def variable_names(expr: ast.Node) -> set[str]:
    """Every variable an expression declares (iterators, ``iterate`` accumulators, ``let``)."""
    found: set[str] = set()

    def hook(original: ast.Node, node: ast.Node) -> ast.Node:
        if isinstance(node, ast.VarDecl | ast.LetBinding):
            found.add(node.name)
        return node

    rewrite(expr, hook)
    return found


def all_instances_source(node: ast.Node) -> ast.Name | None:
    """The class name of ``C.allInstances`` / ``C.allInstances()``, as the checker reads it."""
    if (
        isinstance(node, ast.PropertyCall)
        and node.name == "allInstances"
        and not node.arrow
        and not node.args
        and isinstance(node.source, ast.Name)
    ):
        return node.source
    return None
