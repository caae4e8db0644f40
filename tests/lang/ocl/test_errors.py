"""Bad expressions, models and states are rejected with the file, line and column of the culprit."""

from __future__ import annotations

import pytest

from benchmark.core.errors import BenchmarkError
from benchmark.lang.ocl.engine import OclEngine
from benchmark.lang.ocl.errors import ModelError, OclSyntaxError, OclTypeError, StateError
from benchmark.lang.ocl.parser import parse_expression
from benchmark.lang.ocl.state import ObjectState
from benchmark.lang.ocl.use_io import parse_use

# (expression, error class, column, a fragment of the message); all on line 1
EXPRESSION_ERRORS = [
    ("ann.foo", OclTypeError, 5, "`foo' is neither an attribute nor a role name of class `Student'"),
    ("zzz + 1", OclTypeError, 1, "undefined variable `zzz'"),
    ("'abc'.substring(1)", OclTypeError, 7, "wrong number of arguments for `substring': expected 2, found 1"),
    ("1 + 'a'", OclTypeError, 3, "undefined operation `Integer.+(String)'"),
    ("'abc'.startsWith('a')", OclTypeError, 7, "undefined operation named `startsWith'"),
    ("ann.greeting(1)", OclTypeError, 5, "type of argument 1 `Integer' does not conform"),
    ("ann.greeting()", OclTypeError, 5, "expected 1 argument(s), found 0"),
    ("Set{1}->select(x | x)", OclTypeError, 20, "argument expression of `select' must have boolean type"),
    ("ann->size()", OclTypeError, 6, "may only be applied if the object results from a navigation"),
    ("ann.mentor->select(m | true)", OclTypeError, 13, "source of `select' expression must be a collection"),
    ("#violet", OclTypeError, 1, "undefined enumeration literal `violet'"),
    ("Term::winter", OclTypeError, 1, "undefined enumeration literal `winter' for enumeration `Term'"),
    ("if 1 then 2 else 3 endif", OclTypeError, 4, "Boolean expression expected"),
    ("if true then 1 else 'a' endif", OclTypeError, 1, None),  # lcs(Integer, String) = OclAny: accepted
    ("let x : Integer = 'a' in x", OclTypeError, 5, "does not match declared type `Integer'"),
    ("not ben.age > 18", OclTypeError, 1, "undefined operation `Integer.not()'"),  # not binds tighter than >
    ("Sequence{1..'a'}", OclTypeError, 13, "range bounds must be Integer"),
    ("Nobody.allInstances", OclTypeError, 1, "undefined class `Nobody'"),
    ("Integer.allInstances", OclTypeError, 1, "expected an object type"),
    ("Set{1}->sortedBy(x | Set{x})", OclTypeError, 22, "argument of sortedBy must have basic type"),
    ("Set{1}->iterate(x; acc : String = 0 | acc)", OclTypeError, 35, "initialization expression has type"),
    ("Set{1}->forAll(x, x | true)", OclTypeError, 19, "double declared variable `x'"),
    ("Set{1}->select(x, y | true)", OclTypeError, 9, "only one element variable"),
    ("ann.oclAsType(Nope)", OclTypeError, 15, "undefined type `Nope'"),
    # ExpAsType: the target must conform to the source's static type (a downcast), else no cast at all
    ("1.oclAsType(String)", OclTypeError, 13, "Target type `String' is not a subtype of the source"),
    ("pia.oclAsType(Student)", OclTypeError, 15, "`Student' is not a subtype of the source expression's"),
    ("ann.oclAsType(Person)", OclTypeError, 15, "`Person' is not a subtype of the source expression's"),
    ("1.oclAsType(Real)", OclTypeError, 13, "the source expression's type `Integer'"),
    ("Set{1}->oclAsType(Bag(Integer))", OclTypeError, 19, "`Bag(Integer)' is not a subtype"),
    (
        "Person.byUseId(1)",
        OclTypeError,
        1,
        "Person.byUseId(expression) requires an expression of type `String'",
    ),
    ("Set{1}.foo", OclTypeError, 8, "undefined operation `Integer.foo' in shorthand notation for collect"),
    ("Set{Set{1}}.size()", OclTypeError, 13, None),  # Set(Integer).size() exists: accepted shorthand
    ("Set{1}.size()", OclTypeError, 8, "maybe you meant `->'"),
    ("Tuple{a = 1}->size()", OclTypeError, 15, "collection operation not applicable to tuple type"),
    ("pia.courses[lecturer]", OclTypeError, 5, None),  # binary association: qualification is accepted
    ("@nobody", OclTypeError, 1, "undefined object `@nobody'"),
    ("ann.age@pre", OclTypeError, 5, "modifier @pre is only allowed in postconditions"),
]


@pytest.mark.parametrize(
    ("expr", "error", "column", "message"), EXPRESSION_ERRORS, ids=[e for e, *_ in EXPRESSION_ERRORS]
)
def test_expression_errors_are_positioned(
    engine: OclEngine, state: ObjectState, expr: str, error: type[Exception], column: int, message: str | None
) -> None:
    if message is None:  # USE accepts these; make sure we do too
        engine.compile(expr, state, file="<expr>")
        return
    with pytest.raises(error) as caught:
        engine.compile(expr, state, file="<expr>")
    assert message in caught.value.message
    assert (caught.value.file, caught.value.line, caught.value.column) == ("<expr>", 1, column)


SYNTAX_ERRORS = [
    ("1 +", 1, 4, "unexpected end of input"),
    ("Set{1,", 1, 7, "unexpected end of input"),
    ("self.", 1, 6, "unexpected end of input"),
    ("a and\n  or b", 2, 3, "unexpected `or' (a reserved word"),
    ("let in = 1 in in", 1, 5, "unexpected `in' (a reserved word"),
    ("'unterminated", 1, 1, "unexpected character"),
    ("x->select(1 | true)", 1, 11, "iterator variable of `select' must be a name"),
    ("x->size(a | b)", 1, 11, "`size' is not an iterator"),
    ("99999999999", 1, 1, "out of range"),
    ("7 mod 2", 1, 3, "unexpected `mod'"),  # USE has no infix mod: write 7.mod(2)
]


@pytest.mark.parametrize(
    ("text", "line", "column", "message"), SYNTAX_ERRORS, ids=[t for t, *_ in SYNTAX_ERRORS]
)
def test_syntax_errors_are_positioned(text: str, line: int, column: int, message: str) -> None:
    with pytest.raises(OclSyntaxError) as caught:
        parse_expression(text, file="e.ocl")
    assert message in caught.value.message
    assert (caught.value.line, caught.value.column) == (line, column)
    assert str(caught.value).startswith(f"e.ocl:{line}:{column}: ")


MODEL_HEAD = "model M\nclass A\nattributes\n  x : Integer\nend\n"

MODEL_ERRORS = [
    ("class B < Nope\nend\n", ModelError, 6, "undefined superclass `Nope'"),
    ("class B < C\nend\nclass C < B\nend\n", ModelError, 6, "inheritance cycle"),
    ("class A\nend\n", ModelError, 6, "already contains a type `A'"),
    ("class B < A\nattributes\n  x : Integer\nend\n", ModelError, 8, "already defined in superclass `A'"),
    ("class B\nattributes\n  y : Nope\nend\n", ModelError, 8, "undefined type `Nope'"),
    ("association R between\n  A[*] role a\n  Nope[1]\nend\n", ModelError, 8, "undefined class `Nope'"),
    ("association R between\n  A[*] role r\n  A[1] role r\nend\n", ModelError, 8, "ambiguous role name `r'"),
    ("association R between\n  A[2..1]\n  A[1]\nend\n", OclSyntaxError, 7, "invalid multiplicity range"),
    ("constraints\ncontext A inv: self.y > 0\n", OclTypeError, 7, "`y' is neither an attribute"),
    ("constraints\ncontext A inv: self.x\n", OclTypeError, 7, "an invariant must be a Boolean expression"),
    ("constraints\ncontext A inv n: true\ncontext A inv n: false\n", ModelError, 8, "duplicate definition"),
    ("constraints\ncontext Nope inv: true\n", ModelError, 7, "undefined class `Nope'"),
    (
        "class B\noperations\n  f() : Integer = 'a'\nend\n",
        OclTypeError,
        8,
        "does not conform to the declared",
    ),
    ("class B\noperations\n  f() begin end\nend\n", OclSyntaxError, 8, "unexpected `begin'"),
    ("class B\nend\nend\n", OclSyntaxError, 8, "unexpected `end'"),
    # USE's ASTOperation and ASTPrePost (found by the differential test against USE's shell tests)
    (
        "class B\noperations\n  f() = 1\nend\n",
        ModelError,
        8,
        "Missing return type for OCL query operation `f'.",
    ),
    (
        "class B\noperations\n  f(p : Integer) : Integer = p\nend\nconstraints\n"
        "context B::f(q : Integer) : Integer pre: true\n",
        ModelError,
        11,
        "This signature of operation `f' does not match its previous declaration in class `B'.",
    ),
    (
        "class B\noperations\n  f(p : Integer) : Integer = p\nend\nconstraints\n"
        "context B::f(p : Integer) : String pre: true\n",
        ModelError,
        11,
        "Expected result type `Integer', found `String'.",
    ),
    # USE's t18/t19: one name inherited with two types (or two signatures) from two parents
    (
        "class B\nattributes\n  x : String\nend\nclass C < A, B\nend\n",
        ModelError,
        10,
        "Inheritance conflict: attribute x occurs with different types in the base classes of C",
    ),
    (
        "class B\noperations\n  f(p : Integer) : Integer = p\nend\n"
        "class P\noperations\n  f(p : String) : Integer = 1\nend\n"
        "class C < B, P\nend\n",
        ModelError,
        14,
        "Inheritance conflict: operation f occurs with different signatures in the base classes of C",
    ),
]


def test_a_pre_or_postcondition_context_must_repeat_the_parameter_names_not_their_types() -> None:
    """USE's ASTPrePost compares the parameter lists with VarDecl.equals, which compares names only."""
    engine = OclEngine(
        parse_use(
            MODEL_HEAD + "class B\noperations\n  f(p : Integer) : Integer = p\nend\nconstraints\n"
            "context B::f(p : Real) : Integer pre: p > 0\n",
            file="m.use",
        )
    )
    assert [c.kind for c in engine.model.classes["B"].operations[0].conditions] == ["pre"]


def test_one_name_inherited_twice_with_one_type_is_no_conflict() -> None:
    """A diamond (the same attribute reached through two parents) and one signature from two parents are
    fine for USE."""
    engine = OclEngine(
        parse_use(
            MODEL_HEAD
            + "class B < A\noperations\n  f(p : Integer) : Integer = p\nend\n"
            + "class C < A\noperations\n  f(p : Integer) : Integer = p + 1\nend\n"
            + "class D < B, C\nend\n",
            file="m.use",
        )
    )
    assert engine.model.classes["D"].attribute("x") is engine.model.classes["A"].attribute("x")


@pytest.mark.parametrize(
    ("tail", "error", "line", "message"), MODEL_ERRORS, ids=[m for *_, m in MODEL_ERRORS]
)
def test_model_errors_are_positioned(tail: str, error: type[Exception], line: int, message: str) -> None:
    with pytest.raises(error) as caught:
        OclEngine(parse_use(MODEL_HEAD + tail, file="m.use"))
    assert message in caught.value.message
    assert caught.value.file == "m.use"
    assert caught.value.line == line
    assert caught.value.column is not None


STATE_ERRORS = [
    ("!new Nope('x')", 1, "undefined class `Nope'"),
    ("!new Person('x')", 1, "abstract class `Person'"),
    ("!new Student('ann')\n!new Student('ann')", 2, "an object named `ann' already exists"),
    ("!set zed.age := 1", 1, "undefined object `zed'"),
    ("!new Student('s')\n!s.agee := 1", 2, "has no attribute `agee'"),
    ("!new Student('s')\n!s.age := 'old'", 2, "type mismatch in assignment"),
    ("!new Student('s')\n!new Room('r')\n!insert (s, r) into Teaches", 3, "cannot be at end `lecturer'"),
    ("!new Student('s')\n!insert (s) into Teaches", 2, "unexpected `)'"),
    ("!new Student('s')\n!insert (s, s) into Nope", 2, "undefined association `Nope'"),
    (
        "!new Student('s')\n!new Course('c')\n!insert (s, c) into Enrollment\n!insert (s, c) into Enrollment",
        4,
        "already exists",
    ),
    (
        "!new Course('c')\n!new Professor('p')\n!insert (p, c) into Teaches\n!insert (p, c) into Teaches",
        4,
        "already exists",
    ),
    ("!new Course('c')\n!new Professor('p')\n!delete (p, c) from Teaches", 3, "there is no link"),
    ("!new Enrollment('e')", 1, "need `between (...)'"),
    ("!new Student('s')\n!destroy s\n!s.age := 1", 3, "undefined object `s'"),
    ("!new Student(42)", 1, "the object name must be a String"),
    ("!destroy 1", 1, "Expected `1' to be an object type, found `Integer'."),
    ("!destroy Set{1, 2}", 1, "to be an object type, found `Set(Integer)'."),
    ("reset", 1, "unexpected"),
]


@pytest.mark.parametrize(("text", "line", "message"), STATE_ERRORS, ids=[m for *_, m in STATE_ERRORS])
def test_state_errors_are_positioned(engine: OclEngine, text: str, line: int, message: str) -> None:
    with pytest.raises((StateError, OclSyntaxError, OclTypeError)) as caught:
        engine.state_from_text(text, file="s.soil")
    assert message in caught.value.message
    assert (caught.value.file, caught.value.line) == ("s.soil", line)
    assert caught.value.column is not None


def test_all_errors_are_benchmark_errors_for_the_cli() -> None:
    for cls in (OclSyntaxError, OclTypeError, ModelError, StateError):
        assert issubclass(cls, BenchmarkError)


def test_errors_in_text_without_a_file_are_not_blamed_on_the_model_file(
    engine: OclEngine, state: ObjectState
) -> None:
    """The campus model was read as ``campus.use``; an expression or a state given as text is not in it."""
    with pytest.raises(OclTypeError) as caught:
        engine.compile("ann.foo", state)
    assert (caught.value.file, caught.value.line, caught.value.column) == (None, 1, 5)
    with pytest.raises(OclTypeError) as caught:
        engine.state_from_text("!new Student('s')\n!s.age := s.nope")
    assert (caught.value.file, caught.value.line, caught.value.column) == (None, 2, 13)
    with pytest.raises(OclTypeError) as caught:
        engine.compile("ann.foo", state, file="query.ocl")
    assert caught.value.file == "query.ocl"
