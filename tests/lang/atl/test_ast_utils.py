"""Walking, transforming and serialising trees."""

from __future__ import annotations

import dataclasses
import json

import pytest

from benchmark.lang.atl import ast, parse

from .conftest import MODULE_HEADER

SOURCE = MODULE_HEADER + "rule R { from a : A!X (a.ok) to t : B!T (n <- a.n + 1) }\n"


def test_walk_visits_every_node_in_source_order():
    unit = parse(SOURCE)
    names = [type(node).__name__ for node in ast.walk(unit)]
    assert names == [
        "Module",
        "ModelDecl",
        "ModelDecl",
        "MatchedRule",
        "InPattern",
        "InPatternElement",
        "ModelElementType",
        "NavigationExp",
        "VariableExp",
        "OutPattern",
        "SimpleOutPatternElement",
        "ModelElementType",
        "Binding",
        "BinaryExp",
        "NavigationExp",
        "VariableExp",
        "IntegerExp",
    ]


def test_walk_handles_deep_trees():
    unit = parse(MODULE_HEADER + "helper def : h : Integer = " + " + ".join(["1"] * 3000) + ";\n")
    assert sum(isinstance(node, ast.IntegerExp) for node in ast.walk(unit)) == 3000


def test_nodes_are_frozen():
    unit = parse(SOURCE)
    with pytest.raises(dataclasses.FrozenInstanceError):
        unit.name = "other"  # type: ignore[misc]


def test_transform_rebuilds_changed_nodes_only():
    unit = parse(SOURCE)

    def rename(node: ast.Node) -> ast.Node:
        if isinstance(node, ast.VariableExp) and node.name == "a":
            return dataclasses.replace(node, name="b")
        return node

    renamed = ast.transform(unit, rename)
    assert renamed != unit
    assert sum(isinstance(n, ast.VariableExp) and n.name == "b" for n in ast.walk(renamed)) == 2
    assert isinstance(renamed, ast.Module) and isinstance(unit, ast.Module)
    assert renamed.in_models is unit.in_models
    assert ast.transform(unit, lambda node: node) is unit


def test_to_data_is_plain_json():
    data = ast.to_data(parse(SOURCE))
    text = json.dumps(data)
    assert '"node": "MatchedRule"' in text
    binding = data["elements"][0]["out_pattern"]["elements"][0]["bindings"][0]  # type: ignore[index]
    assert binding["property"] == "n" and binding["line"] == 3
    assert "line" not in ast.to_data(parse(SOURCE), positions=False)
