"""Helper expansion corner cases, order independence, byte stability and deep expressions."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from benchmark.lang.atl import parse
from benchmark.tracks.mapping import interchange
from benchmark.tracks.mapping.extractor import ExtractionError, extract

from .conftest import HEADER, binding, extract_text, paths

MUTUAL = (
    "helper context S!A def : h1() : String = self.h2() + self.a;\n"
    "helper context S!A def : h2() : String = self.h1() + self.b;\n"
)


def test_mutual_recursion_does_not_depend_on_binding_order():
    # A memoised expansion of h2 computed inside h1 (where h1 is blocked) must not be reused for a
    # top-level h2, where h1 is expanded: both bindings read a and b, in either order.
    for bindings in ("x <- s.h1(), y <- s.h2()", "y <- s.h2(), x <- s.h1()"):
        document = extract_text(MUTUAL + f"rule R {{ from s : S!A to t : T!X ({bindings}) }}")
        assert paths(document, "A", "X", "x") == ("a", "b")
        assert paths(document, "A", "X", "y") == ("a", "b")
        assert binding(document, "A", "X", "y").helpers == ("h1", "h2")
    alone = extract_text(MUTUAL + "rule R { from s : S!A to t : T!X (y <- s.h2()) }")
    assert paths(alone, "A", "X", "y") == ("a", "b")


def test_recursion_through_navigation_stops_at_the_first_reentry():
    document = extract_text(
        "helper context S!Node def : depth : Integer =\n"
        "  if self.parent.oclIsUndefined() then 0 else self.parent.depth + 1 endif;\n"
        "helper context S!Node def : ancestors() : Sequence(S!Node) =\n"
        "  self.parent->union(self.parent.ancestors());\n"
        "rule R { from s : S!Node to t : T!X (d <- s.depth, a <- s.ancestors()->collect(n | n.name)) }"
    )
    assert paths(document, "Node", "X", "d") == ("parent",)
    # ancestors() re-entered passes its receiver (parent) through; union gathers it with self.parent
    assert paths(document, "Node", "X", "a") == ("parent", "parent.name")


def test_several_context_definitions_of_mutually_recursive_helpers_stay_small():
    contexts = [f"C{i}" for i in range(12)]
    helpers = "".join(
        f"helper context S!{c} def : term : S!V = self.f{i}.term;\n" for i, c in enumerate(contexts)
    )
    document = extract_text(helpers + "rule R { from s : S!C0 to t : T!X (v <- s.term.name) }")
    found = paths(document, "C0", "X", "v")
    # every definition is expanded once, on s; the nested `term` is not re-entered
    assert set(found) == {f"f{i}" for i in range(12)} | {f"f{i}.name" for i in range(12)}


def test_this_module_call_of_a_context_operation_and_dot_call_of_a_module_operation():
    document = extract_text(
        "helper context S!A def : ctx(p : S!B) : String = p.code;\n"
        "helper def : free(p : S!B) : String = p.label;\n"
        "rule R { from s : S!A to t : T!X (a <- thisModule.ctx(s.b), b <- s.free(s.c)) }"
    )
    assert paths(document, "A", "X", "a") == ("b", "b.code")
    assert paths(document, "A", "X", "b") == ("c", "c.label")
    assert document.diagnostics == ()


def test_super_stands_for_self_and_helpers_returning_self_pass_paths_on():
    document = extract_text(
        "helper context S!A def : me() : S!A = self;\n"
        "helper context S!B def : label() : String = super.label() + self.extra;\n"
        "helper context S!A def : label() : String = self.name;\n"
        "rule R { from s : S!A to t : T!X (n <- s.me().owner.name, l <- s.label()) }"
    )
    assert paths(document, "A", "X", "n") == ("owner", "owner.name")
    assert paths(document, "A", "X", "l") == ("extra", "name")


def test_arrow_calls_of_context_helpers_on_collections():
    document = extract_text(
        "helper context Sequence(S!Item) def : total() : Integer = self->collect(i | i.price)->sum();\n"
        "rule R { from s : S!Order to t : T!X (sum <- s.items->total()) }"
    )
    assert paths(document, "Order", "X", "sum") == ("items", "items.price")


def test_helper_arguments_read_even_when_the_parameter_is_unused():
    document = extract_text(
        "helper def : const(x : String, y : S!B) : String = 'k';\n"
        "rule R { from s : S!A to t : T!X (k <- thisModule.const(s.name, s.ref.sub)) }"
    )
    assert paths(document, "A", "X", "k") == ("name", "ref", "ref.sub")
    assert binding(document, "A", "X", "k").helpers == ("const",)


ELEMENTS = [
    "helper context S!A def : label : String = self.name + self.owner.label;",
    "helper context S!B def : label : String = self.code;",
    "helper def : wrap(x : S!A) : String = x.label + x.kids->collect(k | k.label)->sum();",
    MUTUAL.strip().splitlines()[0],
    MUTUAL.strip().splitlines()[1],
    "abstract rule Base { from s : S!A using { n : String = s.name; } to t : T!X (name <- n, kind <- s.k) }",
    "rule Child extends Base { from s : S!A to t : T!X (kind <- s.h1()), u : T!Y (w <- thisModule.wrap(s)) }",
    "rule Grand extends Child { from g : S!A to t : T!X (extra <- g.h2()) }",
    "lazy rule Make { from b : S!B to y : T!Y (w <- b.label) }",
    "rule Other { from a : S!A, b : S!B to y : T!Y (w <- thisModule.Make(b), v <- a.label + b.label) }",
    "rule Call(p : S!A) { to y : T!Y (w <- p.name) }",
]


def _document(order: list[int]) -> str:
    text = HEADER + "\n".join(ELEMENTS[i] for i in order) + "\n"
    return interchange.dumps(extract(parse(text), file="perm.atl"))


def test_extracting_twice_gives_the_same_bytes():
    order = list(range(len(ELEMENTS)))
    first = _document(order)
    assert first == _document(order)
    assert '"diagnostics": []' in first  # positions would differ between orders otherwise


@settings(max_examples=25, deadline=None)
@given(st.permutations(list(range(len(ELEMENTS)))))
def test_document_does_not_depend_on_the_order_of_helpers_and_rules(order):
    assert _document(order) == _document(list(range(len(ELEMENTS))))


def test_deep_expressions():
    depth = 5000
    chain = " + ".join(f"s.c{i}" for i in range(depth))
    nested = "Sequence{" * depth + "s.a" + "}" * depth
    document = extract_text(f"rule R {{ from s : S!A to t : T!X (x <- {chain}, y <- {nested}) }}")
    assert len(paths(document, "A", "X", "x")) == depth
    assert paths(document, "A", "X", "y") == ("a",)


def test_too_deep_is_an_error_with_the_file(monkeypatch):
    from benchmark.tracks.mapping.extractor import document as document_module

    # with a budget below Python's default limit, the default (1000 frames) applies
    monkeypatch.setattr(document_module, "_RECURSION_LIMIT", 400)
    depth = 1500
    unit = parse(
        HEADER + "rule R { from s : S!A to t : T!X (y <- " + "Sequence{" * depth + "s.a" + "}" * depth + ") }"
    )
    with pytest.raises(ExtractionError) as info:
        extract(unit, file="deep.atl")
    assert info.value.file == "deep.atl" and "nested too deeply" in info.value.message
