"""Property tests: parse(print(ast)) == ast, evaluator laws on defined values, model write -> read.

Examples are bounded (``max_examples``, ``deadline=None``) so the whole suite stays fast.
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from benchmark.lang.ocl import ast
from benchmark.lang.ocl.engine import OclEngine
from benchmark.lang.ocl.model import (
    Association,
    AssociationEnd,
    Attribute,
    Class,
    Condition,
    Enumeration,
    Invariant,
    Model,
    Multiplicity,
    Operation,
    Parameter,
    model_key,
)
from benchmark.lang.ocl.parser import parse_expression
from benchmark.lang.ocl.printer import print_expr
from benchmark.lang.ocl.puml_io import parse_puml, write_puml
from benchmark.lang.ocl.types import BOOLEAN, INTEGER, REAL, STRING, CollectionType, TupleType, Type
from benchmark.lang.ocl.use_io import parse_use, write_use

SETTINGS = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
# The laws range over small inputs (up to 8 integers in -6..6, a few dozen predicates) and each example
# parses and type checks its expression: 100 examples cover that space well.
LAW_SETTINGS = settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])

NAMES = st.sampled_from(["a", "b", "x", "self", "items", "total2", "Person", "e_1", "$v", "class", "role"])
PROPERTY_NAMES = st.sampled_from(["name", "size", "age", "foo", "sum", "at", "includes"])
ITERATOR_NAMES = st.sampled_from(sorted(ast.ITERATORS))
BINARY_OPS = st.sampled_from(
    ["implies", "or", "xor", "and", "=", "<>", "<", ">", "<=", ">=", "+", "-", "*", "/", "div"]
)
KINDS = st.sampled_from(["Set", "Bag", "Sequence", "OrderedSet"])

simple_types = st.builds(
    ast.SimpleTypeExpr, st.sampled_from(["Integer", "Real", "String", "Person", "Color"])
)
type_exprs = st.recursive(
    simple_types,
    lambda inner: st.one_of(
        st.builds(
            ast.CollectionTypeExpr,
            st.sampled_from(["Collection", "Set", "Bag", "Sequence", "OrderedSet"]),
            inner,
        ),
        st.builds(
            ast.TupleTypeExpr,
            st.lists(
                st.tuples(st.sampled_from(["p", "q", "r"]), inner),
                min_size=1,
                max_size=2,
                unique_by=lambda p: p[0],
            ).map(tuple),
        ),
    ),
    max_leaves=3,
)
concrete_collection_types = st.builds(ast.CollectionTypeExpr, KINDS, type_exprs)

leaves = st.one_of(
    st.builds(ast.IntegerLit, st.integers(0, 2**31 - 1)),
    st.builds(ast.RealLit, st.floats(0, 1e20, allow_nan=False, allow_infinity=False)),
    st.builds(ast.StringLit, st.text(st.characters(codec="utf-8", exclude_categories=("Cs",)), max_size=6)),
    st.builds(ast.BooleanLit, st.booleans()),
    st.just(ast.NullLit()),
    st.just(ast.NullLit(None, "Undefined")),
    st.builds(ast.NullLit, type_exprs, st.sampled_from(["null", "oclUndefined"])),
    st.builds(ast.EnumLit, st.sampled_from([None, "Color"]), st.sampled_from(["red", "green"])),
    st.builds(ast.Name, NAMES, st.booleans()),
    st.builds(ast.ObjectRef, NAMES),
    st.builds(ast.EmptyCollectionLit, concrete_collection_types, st.just("braces")),
    st.builds(
        lambda t: ast.EmptyCollectionLit(t, "oclEmpty"),
        st.builds(ast.CollectionTypeExpr, st.sampled_from(["Collection", "Set"]), type_exprs),
    ),
)


def _decls(n: int) -> st.SearchStrategy[tuple[ast.VarDecl, ...]]:
    return st.lists(
        st.builds(ast.VarDecl, st.sampled_from(["v", "w", "y"]), st.none() | type_exprs),
        min_size=n,
        max_size=n,
        unique_by=lambda d: d.name,
    ).map(tuple)


def _extend(inner: st.SearchStrategy[ast.Expr]) -> st.SearchStrategy[ast.Expr]:
    sourced = st.tuples(inner, st.booleans())
    return st.one_of(
        st.builds(ast.Binary, BINARY_OPS, inner, inner),
        st.builds(ast.Unary, st.sampled_from(["not", "-", "+"]), inner),
        st.builds(ast.If, inner, inner, inner),
        st.builds(
            ast.Let,
            st.lists(
                st.builds(ast.LetBinding, NAMES, st.none() | type_exprs, inner), min_size=1, max_size=2
            ).map(tuple),
            inner,
        ),
        st.builds(
            lambda s, n, args, pre: ast.PropertyCall(s[0], s[1], n, args, (), pre),
            sourced,
            PROPERTY_NAMES,
            st.none() | st.lists(inner, max_size=2).map(tuple),
            st.booleans(),
        ),
        st.builds(
            lambda n, args: ast.PropertyCall(None, False, n, args),
            PROPERTY_NAMES,
            st.lists(inner, max_size=2).map(tuple),
        ),
        st.builds(lambda s, n: ast.PropertyCall(s[0], False, n, None, ("r",)), sourced, PROPERTY_NAMES),
        st.builds(
            lambda s, n, d, b: ast.IteratorCall(s[0], s[1], n, d, b),
            sourced,
            ITERATOR_NAMES,
            st.integers(0, 1).flatmap(_decls),
            inner,
        ),
        st.builds(lambda s, d, b: ast.IteratorCall(s[0], s[1], "forAll", d, b), sourced, _decls(2), inner),
        st.builds(lambda d, b: ast.IteratorCall(None, False, "select", d, b), _decls(1), inner),
        st.builds(
            lambda s, d, t, i, b: ast.Iterate(s[0], s[1], d, ast.VarDecl("acc", t), i, b),
            sourced,
            st.integers(1, 2).flatmap(_decls),
            type_exprs,
            inner,
            inner,
        ),
        st.builds(
            lambda s, n, t: ast.TypeOp(s[0], s[1], n, t),
            sourced,
            st.sampled_from(sorted(ast.TYPE_OPS)),
            type_exprs,
        ),
        st.builds(
            ast.CollectionLit,
            KINDS,
            st.lists(st.one_of(inner, st.builds(ast.RangeItem, inner, inner)), max_size=3).map(tuple),
        ),
        st.builds(
            ast.TupleLit,
            st.lists(
                st.builds(ast.TupleItem, st.sampled_from(["p", "q", "r"]), st.none() | simple_types, inner),
                min_size=1,
                max_size=3,
                unique_by=lambda i: i.name,
            ).map(tuple),
        ),
    )


expressions = st.recursive(leaves, _extend, max_leaves=12)
# Expressions inside generated models: what the model round trips check is where expressions go (bodies,
# derive/init, pre/post, invariants, PlantUML notes), not the printer, which the test just below checks on
# larger trees; small ones keep drawing a model cheap.
model_expressions = st.recursive(leaves, _extend, max_leaves=4)


@pytest.mark.filterwarnings("ignore:Generating overly large repr")
@SETTINGS
@given(expressions)
def test_print_then_parse_gives_the_same_ast(expr: ast.Expr) -> None:
    text = print_expr(expr)
    assert parse_expression(text) == expr, text
    assert print_expr(parse_expression(text)) == text


# ------------------------------------------------------------------------------- evaluator laws
LAW_ENGINE = OclEngine.from_text("model Laws\nclass Dummy\nend\n")
LAW_STATE = LAW_ENGINE.state_from_text("")

predicates = st.one_of(
    st.integers(-5, 5).map(lambda k: f"x > {k}" if k >= 0 else f"x > 0 - {-k}"),
    st.tuples(st.integers(2, 4), st.integers(0, 1)).map(lambda mr: f"x.mod({mr[0]}) = {mr[1]}"),
    st.integers(0, 5).map(lambda k: f"x <> {k}"),
    st.integers(0, 5).map(lambda k: f"x * x <= {k * k}"),
)
int_collections = st.tuples(KINDS, st.lists(st.integers(-6, 6), max_size=8))


def _literal(kind: str, items: list[int]) -> str:
    if not items:  # `Set{}` has element type OclVoid, on which `x > 0` does not type check (as in USE)
        return f"{kind}(Integer){{}}"
    return f"{kind}{{{', '.join(str(i) if i >= 0 else f'0 - {-i}' for i in items)}}}"


def _true(expr: str) -> bool:
    return LAW_ENGINE.evaluate(expr, LAW_STATE).text == "true : Boolean"


@LAW_SETTINGS
@given(int_collections, predicates)
def test_select_and_reject_partition_the_collection(coll: tuple[str, list[int]], p: str) -> None:
    s = _literal(*coll)
    assert _true(f"{s}->select(x | {p})->size() + {s}->reject(x | {p})->size() = {s}->size()")


@LAW_SETTINGS
@given(int_collections, predicates, predicates)
def test_de_morgan(coll: tuple[str, list[int]], p: str, q: str) -> None:
    s = _literal(*coll)
    assert _true(f"{s}->forAll(x | (not ({p} and {q})) = (not ({p}) or not ({q})))")
    assert _true(f"{s}->forAll(x | (not ({p} or {q})) = (not ({p}) and not ({q})))")


@LAW_SETTINGS
@given(int_collections, predicates)
def test_for_all_is_not_exists_not(coll: tuple[str, list[int]], p: str) -> None:
    s = _literal(*coll)
    assert _true(f"{s}->forAll(x | {p}) = not {s}->exists(x | not ({p}))")


@LAW_SETTINGS
@given(st.lists(st.integers(-6, 6), max_size=8), st.integers(-6, 6))
def test_select_agrees_with_python(items: list[int], k: int) -> None:
    s = _literal("Sequence", items)
    bound = str(k) if k >= 0 else f"(0 - {-k})"
    result = LAW_ENGINE.evaluate(f"{s}->select(x | x > {bound})", LAW_STATE).value
    assert list(result) == [i for i in items if i > k]
    total = LAW_ENGINE.evaluate(f"{s}->collect(x | x * 2)->sum()", LAW_STATE).value
    assert total == 2 * sum(items)


# ------------------------------------------------------------------------------- model round trips
BASIC: list[Type] = [INTEGER, REAL, BOOLEAN, STRING]
multiplicities = st.sampled_from(["0..1", "1", "*", "1..*", "2..5", "1..8,10", "3"]).map(Multiplicity.parse)


@st.composite
def models(draw: st.DrawFn, *, for_puml: bool = False) -> Model:
    model = Model(draw(st.sampled_from(["M", "Shop", "Campus2"])))
    enum_count = draw(st.integers(0, 2))
    for i in range(enum_count):
        literals = tuple(f"l{i}_{j}" for j in range(draw(st.integers(1, 3))))
        model.add_enumeration(Enumeration(f"E{i}", literals))
    enum_types = [e.type for e in model.enumerations.values()]
    class_count = draw(st.integers(1, 4))
    attr_counter = 0
    for i in range(class_count):
        supers = (
            tuple(draw(st.lists(st.sampled_from([f"C{j}" for j in range(i)]), max_size=2, unique=True)))
            if i
            else ()
        )
        cls = Class(f"C{i}", abstract=draw(st.booleans()), supers=supers)
        for _ in range(draw(st.integers(0, 3))):
            base = draw(st.sampled_from(BASIC + enum_types))
            t: Type = draw(
                st.sampled_from(
                    [
                        base,
                        CollectionType(draw(st.sampled_from(["Set", "Bag", "Sequence", "OrderedSet"])), base),
                        TupleType([("p", base), ("q", INTEGER)]),
                    ]
                )
            )
            derive = draw(st.none() | model_expressions) if draw(st.booleans()) else None
            init = draw(st.none() | model_expressions) if derive is None else None
            cls.attributes.append(Attribute(f"a{attr_counter}", t, derive=derive, init=init))
            attr_counter += 1
        for k in range(draw(st.integers(0, 2))):
            params = tuple(
                Parameter(f"p{n}", draw(st.sampled_from(BASIC))) for n in range(draw(st.integers(0, 2)))
            )
            result = draw(st.none() | st.sampled_from(BASIC))
            body = draw(st.none() | model_expressions) if result is not None else None  # USE: a query
            conditions = [
                Condition(
                    draw(st.sampled_from(["pre", "post"])),
                    draw(st.none() | st.just("c")),
                    draw(model_expressions),
                )
                for _ in range(draw(st.integers(0, 1)))
            ]
            cls.operations.append(Operation(f"op{i}_{k}", params, result, body, conditions))
        model.add_class(cls)
    class_names = list(model.classes)
    role = 0
    for a in range(draw(st.integers(0, 4))):
        arity = 2 if for_puml and draw(st.booleans()) else draw(st.sampled_from([2, 2, 2, 3]))
        is_class = arity == 2 and draw(st.booleans())
        kind = (
            draw(st.sampled_from(["association", "aggregation", "composition"]))
            if arity == 2
            else "association"
        )
        ends = []
        for _ in range(arity):
            # only PlantUML can say an end is not navigable (USE has no notation for it)
            navigable = draw(st.booleans()) if for_puml and kind == "association" and arity == 2 else True
            ends.append(
                AssociationEnd(
                    draw(st.sampled_from(class_names)),
                    draw(multiplicities),
                    f"r{role}",
                    draw(st.booleans()),
                    navigable,
                )
            )
            role += 1
        if kind == "association" and arity == 2 and not ends[0].navigable and not ends[1].navigable:
            ends[0].navigable = True
        if is_class:
            name = f"Link{a}"
            ac = Class(name, attributes=[Attribute(f"a{attr_counter}", INTEGER)])
            attr_counter += 1
            model.add_class(ac)
            assoc = Association(name, kind, ends, is_class=True)
            model.associations[name] = assoc
            ac.association = assoc
        else:
            model.add_association(Association(f"A{a}", kind, ends))
    model.finalize()
    for i in range(draw(st.integers(0, 3))):
        cls_name = draw(st.sampled_from(list(model.classes)))
        explicit = draw(st.booleans())
        variables = tuple(draw(st.sampled_from([("self",), ("x",), ("x", "y")]))) if explicit else ("self",)
        model.add_invariant(
            Invariant(
                cls_name,
                f"i{i}",
                draw(model_expressions),
                variables,
                explicit_variables=explicit,
                in_class_body=draw(st.booleans()),
            )
        )
    return model


@pytest.mark.filterwarnings("ignore:Generating overly large repr")
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(models())
def test_use_write_then_read_gives_the_same_model(model: Model) -> None:
    text = write_use(model)
    again = parse_use(text)
    assert model_key(again) == model_key(model), text
    assert write_use(again) == text


@pytest.mark.filterwarnings("ignore:Generating overly large repr")
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(models(for_puml=True))
def test_puml_write_then_read_gives_the_same_model(model: Model) -> None:
    text = write_puml(model)
    again = parse_puml(text)
    assert model_key(again) == model_key(model), text
    assert write_puml(again) == text
