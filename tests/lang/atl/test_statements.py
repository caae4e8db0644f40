"""Statements of ``do`` blocks, including the if-statement / if-expression decision ATL makes."""

from __future__ import annotations

import pytest

from benchmark.lang.atl import AtlSyntaxError
from benchmark.lang.atl import ast as a

from .conftest import parse_statements

V = a.VariableExp
ONE = a.IntegerExp(1)
TWO = a.IntegerExp(2)


def bind(target: str, value: a.Expr) -> a.BindingStat:
    return a.BindingStat(V(target), value, False)


def test_binding_and_expression_statements():
    assert parse_statements("x <- 1; y <:= 2; thisModule.f(x); 3 <- 4;") == (
        bind("x", ONE),
        a.BindingStat(V("y"), TWO, True),
        a.ExpressionStat(a.OperationCallExp(V("thisModule"), "f", (V("x"),), False)),
        a.BindingStat(a.IntegerExp(3), a.IntegerExp(4), False),
    )


def test_binding_target_may_be_any_expression():
    (statement,) = parse_statements("t.a->last().b <- 5;")
    assert isinstance(statement, a.BindingStat)
    assert statement.target == a.NavigationExp(
        a.OperationCallExp(a.NavigationExp(V("t"), "a"), "last", (), True), "b"
    )


def test_if_with_and_without_braces():
    assert parse_statements("if (c) x <- 1; else { x <- 2; y <- 1; }") == (
        a.IfStat(V("c"), (bind("x", ONE),), (bind("x", TWO), bind("y", ONE))),
    )
    assert parse_statements("if (c) { } else { }") == (a.IfStat(V("c"), (), ()),)


def test_else_if_chain_without_braces():
    got = parse_statements("if (a) x <- 1; else if (b) x <- 2; else { x <- 3; }")
    inner = a.IfStat(V("b"), (bind("x", TWO),), (bind("x", a.IntegerExp(3)),))
    assert got == (a.IfStat(V("a"), (bind("x", ONE),), (inner,)),)


def test_dangling_else_binds_to_the_nearest_if():
    got = parse_statements("if (a) if (b) x <- 1; else x <- 2;")
    assert got == (a.IfStat(V("a"), (a.IfStat(V("b"), (bind("x", ONE),), (bind("x", TWO),)),), ()),)


def test_for_statement_needs_braces():
    got = parse_statements("for (e in s.items) { e.done <- true; }")
    assert got == (
        a.ForStat(
            "e",
            a.NavigationExp(V("s"), "items"),
            (a.BindingStat(a.NavigationExp(V("e"), "done"), a.BooleanExp(True), False),),
        ),
    )
    with pytest.raises(AtlSyntaxError, match="expected '{'"):
        parse_statements("for (e in s) e.x <- 1;")


def test_if_followed_by_what_cannot_continue_an_expression_is_a_statement():
    # `if (a) - 1;` could start either; ATL reads an if statement whose body is `- 1;`.
    assert parse_statements("if (a) - 1;") == (
        a.IfStat(V("a"), (a.ExpressionStat(a.UnaryExp("-", ONE)),), ()),
    )
    assert parse_statements("if (a) not b;") == (
        a.IfStat(V("a"), (a.ExpressionStat(a.UnaryExp("not", V("b"))),), ()),
    )


@pytest.mark.parametrize(
    "source",
    [
        "if (a) then 1 else 2 endif;",
        "if a then 1 else 2 endif;",
        "if (a).b then 1 else 2 endif;",
        "if (a) and b then 1 else 2 endif;",
        "if (a) - 1 then 1 else 2 endif;",
    ],
)
def test_if_expression_statements(source):
    (statement,) = parse_statements(source)
    assert isinstance(statement, a.ExpressionStat)
    assert isinstance(statement.expression, a.IfExp)


def test_if_expression_chained_in_statement():
    (statement,) = parse_statements("if a then x else y endif.f();")
    assert statement == a.ExpressionStat(a.OperationCallExp(a.IfExp(V("a"), V("x"), V("y")), "f", (), False))


@pytest.mark.parametrize(("source", "column"), [(";", 28), ("if a x <- 1;", 33), ("x <- 1", 35)])
def test_statement_errors(source, column):
    with pytest.raises(AtlSyntaxError) as caught:
        parse_statements(source)
    assert (caught.value.line, caught.value.column) == (3, column)
