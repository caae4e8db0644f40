"""Shared helpers for the ATL front-end tests."""

from __future__ import annotations

import pytest

from benchmark.lang.atl import ast, parse

MODULE_HEADER = "module M;\ncreate OUT : B from IN : A;\n"


def parse_expression(text: str) -> ast.Expr:
    """Parse ``text`` as the body of an attribute helper and return the expression."""
    unit = parse(f"{MODULE_HEADER}helper def : h : OclAny = {text};\n")
    assert isinstance(unit, ast.Module)
    helper = unit.elements[0]
    assert isinstance(helper, ast.Helper)
    return helper.body


def parse_statements(text: str) -> tuple[ast.Statement, ...]:
    """Parse ``text`` as the statements of a matched rule's ``do`` block."""
    unit = parse(f"{MODULE_HEADER}rule R {{ from a : A!X do {{ {text} }} }}\n")
    assert isinstance(unit, ast.Module)
    rule = unit.elements[0]
    assert isinstance(rule, ast.MatchedRule) and rule.action_block is not None
    return rule.action_block.statements


def parse_rule(text: str) -> ast.MatchedRule | ast.CalledRule:
    unit = parse(MODULE_HEADER + text)
    assert isinstance(unit, ast.Module)
    rule = unit.elements[0]
    assert isinstance(rule, ast.MatchedRule | ast.CalledRule)
    return rule


@pytest.fixture
def expr():
    return parse_expression
