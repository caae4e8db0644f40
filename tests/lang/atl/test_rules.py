"""Helpers and rules: every section and modifier ATL accepts, and the ones it rejects."""

from __future__ import annotations

import pytest

from benchmark.lang.atl import AtlSyntaxError, parse
from benchmark.lang.atl import ast as a

from .conftest import MODULE_HEADER, parse_rule

X = a.ModelElementType("A", "X")
T = a.ModelElementType("B", "T")
INTEGER = a.PrimitiveType("Integer")
V = a.VariableExp


def helpers(source: str) -> tuple[a.Helper, ...]:
    unit = parse(MODULE_HEADER + source)
    assert isinstance(unit, a.Module)
    return unit.helpers


# ---------------------------------------------------------------------- helpers
def test_helper_kinds():
    operation, attribute, module_operation = helpers(
        "helper context A!X def : f(n : Integer, s : String) : Boolean = n > 0;\n"
        "helper context A!X def : size : Integer = 1;\n"
        "helper def : g() : Integer = 2;\n"
    )
    assert operation == a.Helper(
        X,
        "f",
        True,
        (a.Parameter("n", INTEGER), a.Parameter("s", a.PrimitiveType("String"))),
        a.PrimitiveType("Boolean"),
        a.BinaryExp(">", V("n"), a.IntegerExp(0)),
    )
    assert attribute == a.Helper(X, "size", False, (), INTEGER, a.IntegerExp(1))
    assert module_operation == a.Helper(None, "g", True, (), INTEGER, a.IntegerExp(2))


@pytest.mark.parametrize(
    ("context", "expected"),
    [
        ("String", a.PrimitiveType("String")),
        ("Real", a.PrimitiveType("Real")),
        ("Boolean", a.PrimitiveType("Boolean")),
        ("Set(A!X)", a.CollectionType("Set", X)),
        ('A!"pkg::X"', a.ModelElementType("A", "pkg::X")),
        ("OclAny", a.OclAnyType()),
    ],
)
def test_helper_context_may_be_any_type(context, expected):
    (helper,) = helpers(f"helper context {context}\n\tdef:f() : Integer = 1;\n")
    assert helper.context == expected


def test_helper_return_type_may_be_complex():
    (helper,) = helpers("helper def : m : Map(String, TupleType(a : Integer)) = Map{};\n")
    assert helper.type == a.MapType(
        a.PrimitiveType("String"), a.TupleType((a.TupleTypeAttribute("a", INTEGER),))
    )


def test_quoted_keyword_helper_name():
    (helper,) = helpers('helper def : "rule" : Integer = 1;\n')
    assert helper.name == "rule"


# ---------------------------------------------------------------------- matched and lazy rules
def test_matched_rule_with_every_section():
    rule = parse_rule(
        "nodefault abstract refining rule R extends P {\n"
        "  from a : A!X, b : A!Y (a.n = b.n)\n"
        "  using { k : Integer = 1; s : String = 'x'; }\n"
        '  to t : B!T (n <- a.n, "from" <:= k), u : B!U\n'
        "  do { t.x <- 1; }\n"
        "}\n"
    )
    assert isinstance(rule, a.MatchedRule)
    assert (rule.name, rule.super_rule, rule.abstract, rule.refining, rule.nodefault) == (
        "R",
        "P",
        True,
        True,
        True,
    )
    assert (rule.lazy, rule.unique) == (False, False)
    assert [e.name for e in rule.in_pattern.elements] == ["a", "b"]
    assert isinstance(rule.in_pattern.filter, a.BinaryExp)
    assert [v.name for v in rule.variables] == ["k", "s"]
    t, u = rule.out_elements
    assert t.bindings == (
        a.Binding("n", a.NavigationExp(V("a"), "n"), False),
        a.Binding("from", V("k"), True),
    )
    assert u == a.SimpleOutPatternElement("u", a.ModelElementType("B", "U"), None, None, (), ())
    assert rule.action_block is not None and len(rule.action_block.statements) == 1


@pytest.mark.parametrize(
    ("modifiers", "lazy", "unique", "abstract", "refining"),
    [
        ("lazy", True, False, False, False),
        ("unique lazy", True, True, False, False),
        ("unique lazy abstract refining", True, True, True, True),
        ("abstract", False, False, True, False),
        ("", False, False, False, False),
    ],
)
def test_rule_modifiers(modifiers, lazy, unique, abstract, refining):
    rule = parse_rule(f"{modifiers} rule R {{ from a : A!X }}\n")
    assert isinstance(rule, a.MatchedRule)
    assert (rule.lazy, rule.unique, rule.abstract, rule.refining) == (lazy, unique, abstract, refining)
    assert rule.out_pattern is None and rule.action_block is None and rule.variables == ()


@pytest.mark.parametrize(
    ("modifiers", "column"),
    [
        ("abstract lazy", 10),
        ("lazy unique", 6),
        ("unique", 8),
        ("abstract nodefault", 10),
        ("endpoint entrypoint", 10),
    ],
)
def test_modifier_order_is_fixed(modifiers, column):
    with pytest.raises(AtlSyntaxError) as caught:
        parse_rule(f"{modifiers} rule R {{ from a : A!X }}\n")
    assert (caught.value.line, caught.value.column) == (3, column)


def test_matched_rule_needs_from():
    with pytest.raises(AtlSyntaxError, match="expected 'from'"):
        parse_rule("rule R { to t : B!T }\n")


def test_in_pattern_model_lists():
    rule = parse_rule("rule R { from a : A!X in IN, IN2, b : A!Y in IN (true) }\n")
    assert isinstance(rule, a.MatchedRule)
    assert [(e.name, e.models) for e in rule.in_pattern.elements] == [("a", ("IN", "IN2")), ("b", ("IN",))]
    assert rule.in_pattern.filter == a.BooleanExp(True)


def test_one_filter_after_all_elements():
    with pytest.raises(AtlSyntaxError) as caught:
        parse_rule("rule R { from a : A!X (true), b : A!Y }\n")
    assert (caught.value.line, caught.value.column, caught.value.token) == (3, 29, ",")


def test_out_pattern_element_options():
    rule = parse_rule(
        "rule R { from a : A!X to t : B!T in OUT mapsTo a -> (a.x, a.y) (n <- 1),"
        " u : distinct B!U foreach (e in a.es) mapsTo a (n <- e), v : B!V () }\n"
    )
    t, u, v = rule.out_elements
    assert t == a.SimpleOutPatternElement(
        "t",
        T,
        "OUT",
        "a",
        (a.NavigationExp(V("a"), "x"), a.NavigationExp(V("a"), "y")),
        (a.Binding("n", a.IntegerExp(1), False),),
    )
    assert u == a.ForEachOutPatternElement(
        "u",
        a.ModelElementType("B", "U"),
        "e",
        a.NavigationExp(V("a"), "es"),
        "a",
        (a.Binding("n", V("e"), False),),
    )
    assert isinstance(v, a.SimpleOutPatternElement) and v.bindings == ()


@pytest.mark.parametrize(
    ("to", "elements", "drop"),
    [("to", 0, False), ("to drop", 0, True), ("to drop t : B!T", 1, True), ("to t : B!T", 1, False)],
)
def test_out_pattern_forms(to, elements, drop):
    rule = parse_rule(f"rule R {{ from a : A!X {to} }}\n")
    assert rule.out_pattern is not None
    assert (len(rule.out_pattern.elements), rule.out_pattern.drop) == (elements, drop)


def test_keywords_as_binding_properties():
    rule = parse_rule(
        'rule R { from a : A!X to t : B!T (from <- 1, super <- 2, endpoint <- 3, "to" <- 4) }\n'
    )
    assert [b.property for b in rule.out_elements[0].bindings] == ["from", "super", "endpoint", "to"]


def test_quoted_keyword_variables():
    rule = parse_rule('rule R { from "from" : A!X to "for" : B!T (n <- "from"."to") }\n')
    assert isinstance(rule, a.MatchedRule)
    assert rule.in_pattern.elements[0].name == "from"
    assert rule.out_elements[0].name == "for"
    assert rule.out_elements[0].bindings[0].value == a.NavigationExp(V("from"), "to")


@pytest.mark.parametrize(
    ("text", "line", "column", "message"),
    [
        ("rule R { from a : A!X to t : B!T, }\n", 3, 35, "unexpected '}' after ','; expected a declaration"),
        ("rule R { from a : A!X to t : B!T in OUT, OUT2 }\n", 3, 42, "unexpected name 'OUT2' after ','"),
        ("rule R { from a : A!X to t : B!T (n <- 1,) }\n", 3, 42, "unexpected ')'"),
        ("rule R { from a : A!X to t : B!T (n < - 1) }\n", 3, 37, "unexpected '<'"),
    ],
)
def test_out_pattern_errors(text, line, column, message):
    with pytest.raises(AtlSyntaxError) as caught:
        parse_rule(text)
    assert (caught.value.line, caught.value.column) == (line, column)
    assert caught.value.message.startswith(message)


def test_empty_sections_are_grammatical():
    rule = parse_rule("rule R { from a : A!X using { } to do { } }\n")
    assert isinstance(rule, a.MatchedRule)
    assert rule.variables == ()
    assert rule.out_pattern == a.OutPattern((), False)
    assert rule.action_block == a.ActionBlock(())


# ---------------------------------------------------------------------- called rules
def test_called_rules():
    unit = parse(
        MODULE_HEADER + "entrypoint rule E() { do { thisModule.f(); } }\n"
        "endpoint rule F(n : Integer, c : A!X) { using { k : Integer = n; } to t : B!T (v <- k) do { } }\n"
        "rule G() { }\n"
    )
    assert isinstance(unit, a.Module)
    e, f, g = unit.rules
    assert isinstance(e, a.CalledRule) and (e.entrypoint, e.endpoint) == (True, False)
    assert isinstance(f, a.CalledRule) and (f.entrypoint, f.endpoint) == (False, True)
    assert f.parameters == (a.Parameter("n", INTEGER), a.Parameter("c", X))
    assert [v.name for v in f.variables] == ["k"]
    assert g == a.CalledRule("G", False, False, (), (), None, None)


def test_lazy_rules_cannot_take_parameters():
    with pytest.raises(AtlSyntaxError, match="unexpected '\\('"):
        parse_rule("lazy rule L(a : Integer) { }\n")
