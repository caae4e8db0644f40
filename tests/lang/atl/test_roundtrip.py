"""Printer round trip: random ASTs printed to ATL text parse back to the same AST (positions aside)."""

from __future__ import annotations

import math

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from benchmark.lang.atl import ast, parse
from benchmark.lang.atl.lexer import KEYWORDS
from benchmark.lang.atl.printer import quote_name, string_literal, to_atl

from .conftest import parse_expression

# Names: plain ones, keywords (printed quoted), and arbitrary text (quoted, escaped).
plain_names = st.from_regex(r"[A-Za-z_][A-Za-z0-9_]{0,6}", fullmatch=True)
names = st.one_of(
    plain_names,
    plain_names,
    st.sampled_from(sorted(KEYWORDS)),
    st.sampled_from(
        ["self", "thisModule", "default", "pkg::Class", "a b", 'q"uote', "back\\slash", "\u00e9t\u00e9"]
    ),
    st.text(min_size=1, max_size=6),
)
texts = st.text(max_size=12)
reals = st.floats(min_value=0, max_value=1e12, allow_nan=False, allow_infinity=False).filter(
    lambda value: math.isfinite(value)
)


def _collection_kinds(values: tuple[str, ...]) -> st.SearchStrategy[str]:
    return st.sampled_from(values)


types: st.SearchStrategy[ast.Type] = st.recursive(
    st.one_of(
        st.builds(ast.ModelElementType, names, names),
        st.builds(ast.PrimitiveType, st.sampled_from(["Integer", "Real", "Boolean", "String"])),
        st.builds(ast.OclAnyType),
        st.builds(ast.OclTypeType),
    ),
    lambda inner: st.one_of(
        st.builds(
            ast.CollectionType,
            _collection_kinds(("Sequence", "Set", "Bag", "OrderedSet", "Collection")),
            inner,
        ),
        st.builds(ast.MapType, inner, inner),
        st.builds(
            ast.TupleType, st.lists(st.builds(ast.TupleTypeAttribute, names, inner), max_size=3).map(tuple)
        ),
    ),
    max_leaves=4,
)

leaves: st.SearchStrategy[ast.Expr] = st.one_of(
    st.builds(ast.VariableExp, names),
    st.builds(ast.IntegerExp, st.integers(min_value=0, max_value=10**12)),
    st.builds(ast.RealExp, reals),
    st.builds(ast.StringExp, texts),
    st.builds(ast.BooleanExp, st.booleans()),
    st.builds(ast.OclUndefinedExp),
    st.builds(ast.SuperExp),
    st.builds(ast.EnumLiteralExp, names),
    types,
)

binary_operators = st.sampled_from([op for level in ast.BINARY_OPERATOR_LEVELS for op in level])
iterator_names = st.lists(names, min_size=1, max_size=3).map(tuple)


def _compound(inner: st.SearchStrategy[ast.Expr]) -> st.SearchStrategy[ast.Expr]:
    arguments = st.lists(inner, max_size=3).map(tuple)
    declaration = st.builds(ast.VariableDeclaration, names, types, inner)
    return st.one_of(
        st.builds(ast.NavigationExp, inner, names),
        st.builds(ast.OperationCallExp, inner, names, arguments, st.booleans()),
        st.builds(ast.IteratorExp, inner, names, iterator_names, inner),
        st.builds(ast.IterateExp, inner, iterator_names, declaration, inner),
        st.builds(ast.BinaryExp, binary_operators, inner, inner),
        st.builds(ast.UnaryExp, st.sampled_from(["not", "-"]), inner),
        st.builds(ast.LetExp, declaration, inner),
        st.builds(ast.IfExp, inner, inner, inner),
        st.builds(ast.CollectionExp, st.sampled_from(["Sequence", "Set", "Bag", "OrderedSet"]), arguments),
        st.builds(ast.MapExp, st.lists(st.builds(ast.MapElement, inner, inner), max_size=2).map(tuple)),
        st.builds(
            ast.TupleExp,
            st.lists(st.builds(ast.TuplePart, names, st.none() | types, inner), max_size=3).map(tuple),
        ),
    )


expressions: st.SearchStrategy[ast.Expr] = st.recursive(leaves, _compound, max_leaves=12)

statements: st.SearchStrategy[ast.Statement] = st.recursive(
    st.one_of(
        st.builds(ast.ExpressionStat, expressions),
        st.builds(ast.BindingStat, expressions, expressions, st.booleans()),
    ),
    lambda inner: st.one_of(
        st.builds(
            ast.IfStat,
            expressions,
            st.lists(inner, max_size=2).map(tuple),
            st.lists(inner, max_size=2).map(tuple),
        ),
        st.builds(ast.ForStat, names, expressions, st.lists(inner, max_size=2).map(tuple)),
    ),
    max_leaves=4,
)

bindings = st.lists(st.builds(ast.Binding, names, expressions, st.booleans()), max_size=3).map(tuple)
out_elements = st.one_of(
    st.builds(
        ast.SimpleOutPatternElement,
        names,
        types,
        st.none() | names,
        st.none() | names,
        st.lists(expressions, max_size=2).map(tuple),
        bindings,
    ),
    st.builds(ast.ForEachOutPatternElement, names, types, names, expressions, st.none() | names, bindings),
)
out_patterns = st.none() | st.builds(
    ast.OutPattern, st.lists(out_elements, max_size=3).map(tuple), st.booleans()
)
action_blocks = st.none() | st.builds(ast.ActionBlock, st.lists(statements, max_size=3).map(tuple))
variables = st.lists(st.builds(ast.VariableDeclaration, names, types, expressions), max_size=2).map(tuple)
parameters = st.lists(st.builds(ast.Parameter, names, types), max_size=3).map(tuple)


@st.composite
def matched_rules(draw: st.DrawFn) -> ast.MatchedRule:
    lazy = draw(st.booleans())
    in_pattern = ast.InPattern(
        tuple(
            draw(
                st.lists(
                    st.builds(ast.InPatternElement, names, types, st.lists(names, max_size=2).map(tuple)),
                    min_size=1,
                    max_size=3,
                )
            )
        ),
        draw(st.none() | expressions),
    )
    return ast.MatchedRule(
        draw(names),
        draw(st.none() | names),
        draw(st.booleans()),
        draw(st.booleans()),
        False if lazy else draw(st.booleans()),
        lazy,
        draw(st.booleans()) if lazy else False,
        in_pattern,
        draw(variables),
        draw(out_patterns),
        draw(action_blocks),
    )


called_rules = st.builds(
    ast.CalledRule, names, st.booleans(), st.booleans(), parameters, variables, out_patterns, action_blocks
)


@st.composite
def helpers(draw: st.DrawFn) -> ast.Helper:
    operation = draw(st.booleans())
    return ast.Helper(
        draw(st.none() | types),
        draw(names),
        operation,
        draw(parameters) if operation else (),
        draw(types),
        draw(expressions),
    )


tags = st.from_regex(r"[A-Za-z]{1,8}", fullmatch=True)
values = st.from_regex(r"[A-Za-z0-9=/:._]{1,12}", fullmatch=True)
header_annotations = st.lists(
    st.builds(lambda tag, value: ast.HeaderAnnotation(tag, value, f"-- @{tag} {value}"), tags, values),
    max_size=3,
).map(tuple)
models = st.lists(st.builds(ast.ModelDecl, names, names), min_size=1, max_size=2).map(tuple)
libraries = st.lists(st.builds(ast.LibraryRef, names), max_size=2).map(tuple)

modules = st.builds(
    ast.Module,
    names,
    models,
    models,
    st.booleans(),
    libraries,
    st.lists(st.one_of(helpers(), matched_rules(), called_rules), max_size=4).map(tuple),
    annotations=header_annotations,
)
queries = st.builds(
    ast.Query,
    names,
    expressions,
    libraries,
    st.lists(helpers(), max_size=2).map(tuple),
    annotations=header_annotations,
)
libraries_units = st.builds(
    ast.Library, names, libraries, st.lists(helpers(), max_size=2).map(tuple), annotations=header_annotations
)
units = st.one_of(modules, modules, queries, libraries_units)

SETTINGS = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@SETTINGS
@given(units)
def test_printed_units_parse_back_to_the_same_ast(unit):
    text = to_atl(unit)
    assert parse(text) == unit, text


@SETTINGS
@given(expressions)
def test_printed_expressions_parse_back(expression):
    assert parse_expression(to_atl(expression)) == expression


@pytest.mark.parametrize(
    ("name", "printed"),
    [
        ("a", "a"),
        ("from", '"from"'),
        ("a b", '"a b"'),
        ('q"', '"q\\""'),
        ("self", "self"),
        ("\u00e9", "\u00e9"),
    ],
)
def test_quote_name(name, printed):
    assert quote_name(name) == printed


def test_string_literal_escapes():
    assert string_literal("it's\n\\ -- x") == "'it\\'s\\n\\\\ -- x'"


@pytest.mark.parametrize(
    "source",
    [
        "(a + b) * c",
        "a - (b - c)",
        "a - b - c",
        "(not a).b",
        "not a.b",
        "1 + (let x : Integer = 1 in x)",
        "- (- 1)",
    ],
)
def test_printer_parenthesises_exactly_where_needed(source):
    expression = parse_expression(source)
    assert to_atl(expression) == source


def test_printer_rejects_what_atl_cannot_write():
    with pytest.raises(ValueError):
        to_atl(ast.IntegerExp(-1))
    with pytest.raises(ValueError):
        to_atl(ast.RealExp(float("nan")))
