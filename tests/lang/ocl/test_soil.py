"""SOIL object states: every supported statement form, and the resulting objects, values and links."""

from __future__ import annotations

import pytest

from benchmark.lang.ocl.engine import OclEngine
from benchmark.lang.ocl.errors import OclSyntaxError, StateError
from benchmark.lang.ocl.soil import parse_soil
from benchmark.lang.ocl.state import ObjectState
from benchmark.lang.ocl.values import Obj, OclSet


def test_campus_state(state: ObjectState) -> None:
    assert list(state.objects) == ["ann", "ben", "pia", "pit", "c1", "c2", "c3", "r1", "d1", "e1", "e2", "e3"]
    assert state.objects["ann"].values["tags"] == OclSet(["a", "b"])
    assert state.objects["ben"].values == {"name": "Ben", "age": 17}
    assert [(lk.association.name, [o.name for o in lk.objects]) for lk in state.links][:2] == [
        ("Teaches", ["pia", "c1"]),
        ("Teaches", ["pia", "c2"]),
    ]
    e3 = state.objects["e3"]
    assert e3.link is not None and [o.name for o in e3.link.objects] == ["ben", "c1"]


def test_statement_forms(engine: OclEngine) -> None:
    result = parse_soil(
        "-- comment\n"
        "// another comment\n"
        "new Student('plain')\n"  # the leading `!' is optional
        "!s := new Student\n"  # generated name, bound to a SOIL variable
        "!s.name := 'S'; set s.age := 20\n"  # two statements on one line
        "!n := 3 + 4\n"  # a SOIL variable holding a value
        "!plain.age := n * 2\n"
        "!create p, q : Professor\n"
        "!insert (p, plain) into Mentoring\n"
        "!delete (p, plain) from Mentoring\n"
        "!insert (q, plain) into Mentoring\n"
        "!new Course('c')\n"
        "!new Enrollment('en') between (plain, c)\n"
        "!destroy p\n"
        "?Student.allInstances\n"
        "check\n",
        engine.model,
        runtime=engine.runtime,
    )
    state = result.state
    assert list(state.objects) == ["plain", "Student1", "q", "c", "en"]
    assert result.variables["s"] is state.objects["Student1"] and result.variables["n"] == 7
    assert state.objects["Student1"].values == {"name": "S", "age": 20}
    assert state.objects["plain"].values == {"age": 14}
    assert [(lk.association.name, [o.name for o in lk.objects]) for lk in state.links] == [
        ("Mentoring", ["q", "plain"]),
        ("Enrollment", ["plain", "c"]),
    ]
    assert result.skipped == [(15, "?Student.allInstances"), (16, "check")]
    assert state.objects["c"].values == {} and state.objects["en"].link is state.links[1]


def test_destroy_removes_links_and_link_objects(engine: OclEngine) -> None:
    state = engine.state_from_text(
        "!new Student('s')\n!new Course('c')\n!new Enrollment('e') between (s, c)\n!destroy c\n"
    )
    assert list(state.objects) == ["s"] and state.links == []


def test_a_soil_session_runs_commands_one_at_a_time_like_uses_shell(engine: OclEngine) -> None:
    session = engine.soil_session(file="<input>")
    session.execute("!new Student('s')\n!s.age := 20")
    assert engine.evaluate("s.age", session.state).text == "20 : Integer"
    with pytest.raises(StateError) as caught:
        session.execute("!x := s\n!s.age := 'old'", first_line=7)
    assert caught.value.line == 8  # the statements before the failing one stay done
    assert session.variables["x"] is session.state.objects["s"]
    query = engine.compile("x.age + 1", session.state, soil_variables=session.variables)
    assert engine.evaluate(query, session.state, session.variables).text == "21 : Integer"


def test_insert_into_an_association_class_creates_a_link_object_named_as_use_names_it(
    engine: OclEngine,
) -> None:
    """USE's MLinkInsertionStatement creates the link object; UniqueNameGenerator counts per class and
    never goes back, so a destroyed Enrollment1 leaves its name unused."""
    state = engine.state_from_text(
        "!create s, t : Student\n!new Course('c')\n!insert (s, c) into Enrollment\n!destroy Enrollment1\n"
        "!insert (t, c) into Enrollment\n!Enrollment2.grade := 3\n"
    )
    link_object = state.objects["Enrollment2"]
    assert "Enrollment1" not in state.objects and link_object.values == {"grade": 3}
    assert engine.evaluate("c.enrollment", state).text == "Set{Enrollment2} : Set(Enrollment)"


def test_destroy_takes_collections_of_objects_as_uses_soil(engine: OclEngine) -> None:
    """USE's ASTObjectDestructionStatement: an object, a collection literal, or any collection of objects."""
    state = engine.state_from_text(
        "!create a, b, c : Student\n!create x, y : Course\n!new Room('r')\n"
        "!new Enrollment('e') between (a, x)\n"
        "!destroy Sequence{a, b}, Course.allInstances->select(k | k <> y)\n"
        "!destroy Set{}\n!destroy Room.allInstances->select(false)\n"
    )
    assert list(state.objects) == ["c", "y", "r"] and state.links == []
    linked = OclEngine.from_text(
        "model M\nclass Thing\nend\nassociationclass Link < Thing between\n  Thing[*] role a\n"
        "  Thing[*] role b\nend\n"
    )
    state = linked.state_from_text(
        "!create t, u : Thing\n!new Link('k') between (t, u)\n"
        "!destroy Thing.allInstances\n"  # k goes with t before its turn comes: no error
    )
    assert list(state.objects) == [] and state.links == []


def test_values_are_ocl_expressions_evaluated_in_the_state_so_far(engine: OclEngine) -> None:
    state = engine.state_from_text(
        "!new Student('a')\n!a.age := 20\n!new Student('b')\n!b.age := a.age + 1\n"
        "!b.tags := Set{'x'}->including('y')\n!b.nick := a.nick\n"
    )
    b = state.objects["b"]
    assert b.values["age"] == 21 and b.values["tags"] == OclSet(["x", "y"]) and b.values["nick"] is None


def test_attribute_values_may_be_objects_and_variables_shadow_objects() -> None:
    engine = OclEngine.from_text("model M\nclass A\nattributes\n  friend : A\nend\n")
    state = engine.state_from_text(
        "!new A('x')\n!new A('y')\n!x.friend := y\n!y := new A('z')\n!x.friend := y\n"
    )
    x = state.objects["x"]
    assert isinstance(x.values["friend"], Obj) and x.values["friend"].name == "z"
    assert engine.evaluate("x.friend.friend", state).text == "null : OclVoid"


def test_destroy_sets_references_to_undefined_and_set_goes_through_navigation() -> None:
    engine = OclEngine.from_text(
        "model M\nclass A\nattributes\n  friend : A\n  n : Integer\nend\n"
        "association R between\n  A[0..1] role left\n  A[0..1] role right\nend\n"
    )
    state = engine.state_from_text(
        "!new A('x')\n!new A('y')\n!x.friend := y\n!insert (x, y) into R\n"
        "!set x.right.n := 5\n!let k : Integer = x.right.n + 1\n!x.n := k\n!destroy y\n"
    )
    x = state.objects["x"]
    assert x.values == {"friend": None, "n": 6}  # y's n was 5 before it was destroyed
    assert state.links == []


def test_an_evaluation_that_cannot_finish_is_a_state_error_not_a_crash() -> None:
    """A value or an ``init`` expression that recurses forever or navigates a to-one end with several
    links stops the state with a positioned error (as ``eval`` and ``check`` do), never a traceback."""
    engine = OclEngine.from_text(
        "model M\nclass A\nattributes\n  x : Integer\noperations\n  loop() : Integer = self.loop() + 1\n"
        "end\nclass B\nattributes\n  y : Integer init = self.loop()\noperations\n"
        "  loop() : Integer = self.loop() + 1\nend\nclass C\nattributes\n  z : Integer init = C.allInstances"
        "->any(true).l.x\nend\nassociation R between\n  A[0..1] role l\n  C[*] role m\nend\n"
    )
    two_links = "!new A('a')\n!new C('c')\n!insert (a, c) into R\n!new A('d')\n!insert (d, c) into R\n"
    cases = [
        ("!new A('a')\n!a.x := a.loop()", 2, 11, "recursion too deep"),
        ("!new A('a')\n!create b : B", 2, 9, "recursion too deep"),
        (two_links + "!new C('e')", 6, 2, "found: 2"),
    ]
    for text, line, column, message in cases:
        with pytest.raises(StateError, match=message) as caught:
            engine.state_from_text(text, file="s.soil")
        assert (caught.value.file, caught.value.line, caught.value.column) == ("s.soil", line, column)


def _with_positions(item: object) -> object:
    """A statement (or part of one) as plain data with every position, which ``==`` on AST nodes and
    tokens leaves out."""
    from dataclasses import fields, is_dataclass

    from lark import Token

    if isinstance(item, Token):
        return ("token", item.type, str(item), item.line, item.column, item.end_line, item.end_column)
    if is_dataclass(item):
        return (
            type(item).__name__,
            *((f.name, _with_positions(getattr(item, f.name))) for f in fields(item)),
        )
    if isinstance(item, dict):
        return {k: _with_positions(v) for k, v in item.items()}
    if isinstance(item, (list, tuple)):
        return [_with_positions(x) for x in item]
    return item


def test_shared_statements_are_the_grammars_at_their_line() -> None:
    """A line's statements are built once and moved to where the line is: the same statements, tokens
    and positions as parsing the line at its place, for every line of the bundled states and each form
    the reader supports (collections, tuples, enumerations, several statements on a line)."""
    from pathlib import Path

    from benchmark.lang.ocl.parser import parse_tree, transform
    from benchmark.lang.ocl.soil import _SoilBuilder, _statements

    states = Path(__file__).resolve().parents[3] / "validation" / "ocl"
    lines = {line for f in sorted(states.glob("*/states/*.soil")) for line in f.read_text().splitlines()}
    lines |= {
        "!s.name := 'S'; set s.age := 20",
        "!set ann.tags := Set{'a', 'b'}",
        "!set t.pair := Tuple{a = 1, b = Sequence{2.5, -3}}",
        "!set p.kind := #gold",
        "!set p.kind := Kind::gold",
        "x := new Student('x')",
        "!new Enrolment('e1') between (ann, c1)",
        "!create l : Enrolment between (ben, c2)",
        "!destroy Student.allInstances",
        "v := if true then 1 else 2 endif",
        # the forms read without the grammar, in other layouts, and near misses that need it
        "  new C ( 'x' )  ",
        "\t!set o.a := true ",
        "! set  o.a:=E::x",
        "!set o.a := 1.5e3",
        "!set o.a := 12",
        "!set o.a := Integer",
        "!set o.a := -1",
        "!set o.a := 'it\\'s'",
        "!set o.a := 2147483647",
        "!insert ( a ,b,c ) into R3",
        "insert (a, b) into R",
        "!new AC('l') between (a,b,c)",
        "!set o.a := x -- a comment",
        "!new C('x'); new D('y')",
    }
    statements = [line for line in sorted(lines) if line.strip() and not line.lstrip().startswith("--")]
    assert len(statements) > 1000
    for offset in (0, 6, 411):
        for raw in statements:
            parsed = transform(_SoilBuilder("s.soil"), parse_tree(raw, "soil_line", line_offset=offset))
            assert _with_positions(_statements(raw, offset, "s.soil")) == _with_positions(parsed), raw


def test_an_error_names_its_line_when_the_same_line_read_well_before() -> None:
    engine = OclEngine.from_text("model M\nclass A\nattributes\n  x : Integer\nend\n")
    engine.state_from_text("!new A('a')\n!a.x := 1", file="good.soil")
    with pytest.raises(StateError) as caught:
        engine.state_from_text("!new A('a')\n\n!a.x := 1\n!a.x := 'one'\n!a.y := 1", file="bad.soil")
    assert (caught.value.file, caught.value.line) == ("bad.soil", 4)
    with pytest.raises(OclSyntaxError) as syntax:
        engine.state_from_text("!new A('a')\n!a.x := 1\n!a.x := := 2", file="bad.soil")
    assert (syntax.value.file, syntax.value.line, syntax.value.column) == ("bad.soil", 3, 9)
