"""OCL expressions as ATL parses them: precedence, postfix calls, iterators, literals, types."""

from __future__ import annotations

import pytest

from benchmark.lang.atl import AtlSyntaxError
from benchmark.lang.atl import ast as a

from .conftest import parse_expression as expr

V = a.VariableExp
I = a.IntegerExp  # noqa: E741


def B(op: str, left: a.Expr, right: a.Expr) -> a.BinaryExp:
    return a.BinaryExp(op, left, right)  # type: ignore[arg-type]


def nav(source: a.Expr, name: str) -> a.NavigationExp:
    return a.NavigationExp(source, name)


# ---------------------------------------------------------------------- precedence
def test_documented_precedence_example():
    # From the reference notes, as the official parser builds it:
    # ((((a <> b) implies c) xor d) or ((e div f) mod g))
    got = expr("a <> b implies c xor d or e div f mod g")
    assert got == B(
        "or",
        B("xor", B("implies", B("<>", V("a"), V("b")), V("c")), V("d")),
        B("mod", B("div", V("e"), V("f")), V("g")),
    )


def test_and_or_share_one_left_associative_level():
    assert expr("a or b and c implies d") == B("implies", B("and", B("or", V("a"), V("b")), V("c")), V("d"))


def test_comparisons_chain_left_to_right():
    assert expr("a = b = c < d") == B("<", B("=", B("=", V("a"), V("b")), V("c")), V("d"))


def test_multiplicative_binds_tighter_than_additive_then_comparison():
    assert expr("1 + 2 * 3 - 4 / 5 > 6") == B(
        ">", B("-", B("+", I(1), B("*", I(2), I(3))), B("/", I(4), I(5))), I(6)
    )


def test_unary_applies_to_a_postfix_expression():
    assert expr("not a = b") == B("=", a.UnaryExp("not", V("a")), V("b"))
    assert expr("- a.b + 1") == B("+", a.UnaryExp("-", nav(V("a"), "b")), I(1))
    assert expr("-1") == a.UnaryExp("-", I(1))


@pytest.mark.parametrize("source", ["not not a", "- -1", "not -1", "- not a"])
def test_unary_operators_do_not_stack(source):
    with pytest.raises(AtlSyntaxError, match="expected a primary expression"):
        expr(source)


def test_let_only_at_the_top_of_an_expression():
    got = expr("let x : Integer = 1 in let y : Integer = x in x + y")
    inner = a.LetExp(a.VariableDeclaration("y", a.PrimitiveType("Integer"), V("x")), B("+", V("x"), V("y")))
    assert got == a.LetExp(a.VariableDeclaration("x", a.PrimitiveType("Integer"), I(1)), inner)
    assert expr("1 + (let x : Integer = 1 in x)") == B(
        "+", I(1), a.LetExp(a.VariableDeclaration("x", a.PrimitiveType("Integer"), I(1)), V("x"))
    )
    with pytest.raises(AtlSyntaxError) as caught:
        expr("1 + let x : Integer = 1 in x")
    assert (caught.value.line, caught.value.column) == (3, 31)


def test_if_expression_is_a_primary():
    got = expr("if a then b else c endif.d + if x then 1 else 2 endif")
    assert got == B("+", nav(a.IfExp(V("a"), V("b"), V("c")), "d"), a.IfExp(V("x"), I(1), I(2)))


def test_if_expression_needs_else():
    with pytest.raises(AtlSyntaxError, match="expected 'else'"):
        expr("if a then b endif")


# ---------------------------------------------------------------------- postfix
def test_navigation_and_calls_record_dot_or_arrow():
    got = expr("self.items->first().name.toUpper()")
    first = a.OperationCallExp(nav(V("self"), "items"), "first", (), True)
    assert got == a.OperationCallExp(nav(first, "name"), "toUpper", (), False)


def test_keywords_are_names_after_dot():
    got = expr('x.from.rule().iterate() + x."to"')
    left = a.OperationCallExp(
        a.OperationCallExp(nav(V("x"), "from"), "rule", (), False), "iterate", (), False
    )
    assert got == B("+", left, nav(V("x"), "to"))


def test_no_keyword_after_arrow():
    with pytest.raises(AtlSyntaxError) as caught:
        expr("x->from()")
    assert caught.value.expected == ("'iterate'", "a name")


def test_iterator_with_one_or_more_variables():
    assert expr("s->select(e | e.ok)") == a.IteratorExp(V("s"), "select", ("e",), nav(V("e"), "ok"))
    assert expr("s->exists(a, b | a = b)") == a.IteratorExp(
        V("s"), "exists", ("a", "b"), B("=", V("a"), V("b"))
    )


def test_collection_operation_with_two_name_arguments_is_not_an_iterator():
    # The LALR trap: `->including(a, b)` and `->exists(a, b | e)` share a prefix.
    assert expr("s->including(a, b)") == a.OperationCallExp(V("s"), "including", (V("a"), V("b")), True)
    assert expr("s->including(a)") == a.OperationCallExp(V("s"), "including", (V("a"),), True)


@pytest.mark.parametrize(("source", "column"), [("s->exists(a.b | a)", 39), ("s->exists((a) | a)", 38)])
def test_iterator_variables_must_be_plain_names(source, column):
    with pytest.raises(AtlSyntaxError, match="iterator variables must be plain names") as caught:
        expr(source)
    assert (caught.value.line, caught.value.column) == (3, column)


def test_iterate():
    got = expr("s->iterate(e; acc : Integer = 0 | acc + e)")
    assert got == a.IterateExp(
        V("s"),
        ("e",),
        a.VariableDeclaration("acc", a.PrimitiveType("Integer"), I(0)),
        B("+", V("acc"), V("e")),
    )


def test_iterator_named_iterate_needs_quotes():
    assert expr('s->"iterate"(e | e)') == a.IteratorExp(V("s"), "iterate", ("e",), V("e"))


# ---------------------------------------------------------------------- literals
def test_primitive_literals():
    got = expr("Sequence{'it', 3, 1.25, true, false, OclUndefined, #red, #\"in\", self, thisModule, super}")
    assert isinstance(got, a.CollectionExp)
    assert got.elements == (
        a.StringExp("it"),
        I(3),
        a.RealExp(1.25),
        a.BooleanExp(True),
        a.BooleanExp(False),
        a.OclUndefinedExp(),
        a.EnumLiteralExp("red"),
        a.EnumLiteralExp("in"),
        V("self"),
        V("thisModule"),
        a.SuperExp(),
    )


def test_no_quote_doubling_in_strings():
    with pytest.raises(AtlSyntaxError, match="unexpected string 's'"):
        expr("'it''s'")


def test_string_with_escapes_and_comment_marks():
    assert expr(r"'a\'b -- not a comment\n'") == a.StringExp("a'b -- not a comment\n")


def test_integer_then_call():
    assert expr("2.toString()") == a.OperationCallExp(I(2), "toString", (), False)


@pytest.mark.parametrize("kind", ["Sequence", "Set", "Bag", "OrderedSet"])
def test_collection_literals(kind):
    assert expr(f"{kind}{{}}") == a.CollectionExp(kind, ())  # type: ignore[arg-type]
    assert expr(f"{kind}{{1, a}}") == a.CollectionExp(kind, (I(1), V("a")))  # type: ignore[arg-type]


def test_map_literal():
    assert expr("Map{(1, 'a'), (2, b)}") == a.MapExp(
        (a.MapElement(I(1), a.StringExp("a")), a.MapElement(I(2), V("b")))
    )
    assert expr("Map{}") == a.MapExp(())


def test_tuple_literal_parts_may_be_keywords_and_typed():
    got = expr('Tuple{from = 1, to : Integer = 2, "a" = 3}')
    assert got == a.TupleExp(
        (
            a.TuplePart("from", None, I(1)),
            a.TuplePart("to", a.PrimitiveType("Integer"), I(2)),
            a.TuplePart("a", None, I(3)),
        )
    )


@pytest.mark.parametrize("source", ["Sequence{1,}", "Tuple{a = 1,}"])
def test_no_trailing_commas(source):
    with pytest.raises(AtlSyntaxError):
        expr(source)


# ---------------------------------------------------------------------- types as expressions
def test_every_type_form():
    got = expr(
        'Sequence{MM!C, MM!"pkg::C", Integer, Real, Boolean, String, OclAny, OclType, Set(MM!C), Bag(Real), '
        "OrderedSet(String), Sequence(Integer), Collection(OclAny),"
        " Map(String, TupleType(a : Integer, b : MM!D)), TupleType()}"
    )
    assert isinstance(got, a.CollectionExp)
    C = a.ModelElementType("MM", "C")
    assert got.elements == (
        C,
        a.ModelElementType("MM", "pkg::C"),
        a.PrimitiveType("Integer"),
        a.PrimitiveType("Real"),
        a.PrimitiveType("Boolean"),
        a.PrimitiveType("String"),
        a.OclAnyType(),
        a.OclTypeType(),
        a.CollectionType("Set", C),
        a.CollectionType("Bag", a.PrimitiveType("Real")),
        a.CollectionType("OrderedSet", a.PrimitiveType("String")),
        a.CollectionType("Sequence", a.PrimitiveType("Integer")),
        a.CollectionType("Collection", a.OclAnyType()),
        a.MapType(
            a.PrimitiveType("String"),
            a.TupleType(
                (
                    a.TupleTypeAttribute("a", a.PrimitiveType("Integer")),
                    a.TupleTypeAttribute("b", a.ModelElementType("MM", "D")),
                )
            ),
        ),
        a.TupleType(()),
    )
    assert got.elements[1].simple_name == "C"  # type: ignore[union-attr]


def test_types_in_calls():
    got = expr("MM!C.allInstances()->select(x | x.oclIsKindOf(MM ! D))")
    source = a.OperationCallExp(a.ModelElementType("MM", "C"), "allInstances", (), False)
    body = a.OperationCallExp(V("x"), "oclIsKindOf", (a.ModelElementType("MM", "D"),), False)
    assert got == a.IteratorExp(source, "select", ("x",), body)


def test_quoted_names_are_unquoted_everywhere():
    assert expr('"for"."rule"') == nav(V("for"), "rule")


@pytest.mark.parametrize("source", ["a != b", "a == b", "a[1]", "f(1)", "from"])
def test_non_atl_syntax_is_rejected(source):
    with pytest.raises(AtlSyntaxError):
        expr(source)


# ---------------------------------------------------------------------- positions
def test_positions_point_at_the_identifying_token():
    got = expr("a.b->c(x)\n  + 1")
    assert isinstance(got, a.BinaryExp)
    assert (got.line, got.column) == (4, 3)  # the operator
    call = got.left
    assert isinstance(call, a.OperationCallExp)
    assert (call.line, call.column) == (3, 32)  # `c` after `->`
    assert isinstance(call.source, a.NavigationExp)
    assert (call.source.line, call.source.column) == (3, 29)  # `b`
    assert (call.source.source.line, call.source.source.column) == (3, 27)  # `a`
