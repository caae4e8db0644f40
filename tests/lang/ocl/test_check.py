"""Invariant checking as USE's ``check`` does it, and structure (multiplicity, whole/part) reports."""

from __future__ import annotations

import pytest

from benchmark.lang.ocl.check import FAILED, OK
from benchmark.lang.ocl.engine import OclEngine
from benchmark.lang.ocl.errors import EvaluationError, ModelError, OclTypeError
from benchmark.lang.ocl.state import ObjectState


def test_invariants_ok_only_when_defined_and_true(engine: OclEngine, state: ObjectState) -> None:
    report = engine.check(state)
    verdicts = {r.name: r.status for r in report.invariants}
    assert verdicts == {
        "Person::nameDefined": OK,
        "Student::adult": FAILED,  # ben is 17
        "Student::gpaRange": FAILED,  # ben's gpa is undefined: undefined is not "defined and true"
        "Course::hasTitle": OK,
        "Course::creditsPositive": FAILED,  # c3.credits undefined
        "Professor::teachesSomething": OK,
        "Person::inv1": OK,  # USE names an unnamed invariant inv1, inv2, ... per model
    }
    failed = next(r for r in report.invariants if r.name == "Student::adult")
    assert failed.value == "false : Boolean"
    assert not report.ok


def test_multiplicity_violations_are_reported_separately(engine: OclEngine, state: ObjectState) -> None:
    report = engine.check(state)
    assert [v.to_json() for v in report.structure] == [
        {
            "kind": "multiplicity",
            "association": "HeldIn",
            "object": "c3",
            "class": "Course",
            "end": "room",
            "count": 0,
            "multiplicity": "1",
            "message": "Multiplicity constraint violation in association `HeldIn':\n"
            "  Object `c3' of class `Course' is connected to 0 objects of class `Room'\n"
            "  at association end `room' but the multiplicity is specified as `1'.",
        }
    ]
    # the violation does not change any invariant verdict
    assert report.to_json()["invariants"]["Course::hasTitle"] == OK


def test_check_text_looks_like_use(engine: OclEngine, state: ObjectState) -> None:
    text = engine.check(state).to_text()
    assert text.startswith(
        "checking structure...\nMultiplicity constraint violation in association `HeldIn':"
    )
    assert "checking invariant (6) `Student::adult': FAILED.\n  -> false : Boolean\n" in text
    assert text.endswith("checked 7 invariants, 3 failures.\n")


def test_check_lists_invariants_in_uses_order_not_the_models(engine: OclEngine, state: ObjectState) -> None:
    """USE keeps invariants in a TreeMap keyed by ``Class::name``: alphabetical, upper case first."""
    names = [r.name for r in engine.check(state).invariants]
    assert names == [
        "Course::creditsPositive",
        "Course::hasTitle",
        "Person::inv1",
        "Person::nameDefined",
        "Professor::teachesSomething",
        "Student::adult",
        "Student::gpaRange",
    ]
    assert engine.invariant_names() == names
    small = OclEngine.from_text(
        "model M\nclass b\nend\nclass B\nend\nconstraints\ncontext b inv a: true\n"
        "context B inv z: true\ncontext B inv Y: true\n"
    )
    assert [r.name for r in small.check(small.state_from_text("")).invariants] == ["B::Y", "B::z", "b::a"]


def test_ternary_multiplicity_is_checked_per_tuple_of_the_other_ends(engine: OclEngine) -> None:
    state = engine.state_from_text(
        "!new Student('s')\n!new Course('c')\n!new Room('r1')\n!new Room('r2')\n"
        "!insert (s, c, r1) into Exam\n!insert (s, c, r2) into Exam\n"
    )
    exam = [v for v in engine.check(state).structure if v.association == "Exam"]
    assert len(exam) == 1
    assert exam[0].details == {"objects": ["s", "c"], "end": "examRoom", "count": 2, "multiplicity": "0..1"}


def test_composition_part_cannot_be_shared(engine: OclEngine) -> None:
    state = engine.state_from_text(
        "!new Department('d1')\n!new Department('d2')\n!new Room('r')\n"
        "!insert (d1, r) into Owns\n!insert (d2, r) into Owns\n"
    )
    kinds = [(v.kind, v.association) for v in engine.check(state).structure]
    assert ("shared-part", "Owns") in kinds
    assert ("multiplicity", "Owns") in kinds  # r has two owners but owner is [1]


def test_navigation_with_too_many_links_is_na_and_failed() -> None:
    engine = OclEngine.from_text(
        "model M\nclass A\nend\nclass B\nend\n"
        "association R between\n  A[0..1] role a\n  B[*] role bs\nend\n"
        "constraints\ncontext B inv hasA: self.a.isDefined()\n"
    )
    state = engine.state_from_text(
        "!new A('a1')\n!new A('a2')\n!new B('b')\n!insert (a1, b) into R\n!insert (a2, b) into R\n"
    )
    (result,) = engine.check(state).invariants
    assert result.status == FAILED
    assert result.reason == "expected link set size 1 at association end `a', found: 2"
    with pytest.raises(EvaluationError, match="found: 2"):
        engine.evaluate("b.a", state)
    with pytest.raises(EvaluationError):
        engine.evaluate("b.a->size()", state)  # the navigation itself fails before the Set is built


def test_invariant_with_several_context_variables_ranges_over_pairs() -> None:
    engine = OclEngine.from_text(
        "model M\nclass P\nattributes\n  id : Integer\nend\n"
        "constraints\ncontext a, b : P inv distinctIds: a <> b implies a.id <> b.id\n"
    )
    ok = engine.state_from_text("!new P('p')\n!p.id := 1\n!new P('q')\n!q.id := 2\n")
    bad = engine.state_from_text("!new P('p')\n!p.id := 1\n!new P('q')\n!q.id := 1\n")
    assert engine.check(ok).invariants[0].status == OK
    assert engine.check(bad).invariants[0].status == FAILED


def test_invariant_over_no_instances_is_ok(engine: OclEngine) -> None:
    empty = engine.state_from_text("")
    assert all(r.ok for r in engine.check(empty).invariants)


def test_extra_constraints_are_added_like_use_constraints_load() -> None:
    engine = OclEngine.from_text(
        "model M\nclass P\nattributes\n  id : Integer\nend\nconstraints\ncontext P inv: true\n"
    )
    names = engine.add_constraints(
        "context P inv positive: self.id > 0\ncontext P inv: self.id < 10\n", file="extra.ocl"
    )
    assert names == ["P::positive", "P::inv2"]
    state = engine.state_from_text("!new P('p')\n!p.id := 12\n")
    assert engine.check(state).to_json()["invariants"] == {
        "P::inv1": OK,
        "P::positive": OK,
        "P::inv2": FAILED,
    }


def test_extra_constraints_errors_are_positioned_and_leave_the_model_unchanged() -> None:
    engine = OclEngine.from_text("model M\nclass P\nend\n")
    with pytest.raises(OclTypeError) as caught:
        engine.add_constraints(
            "constraints\ncontext P inv ok: true\ncontext P inv bad: self.nope\n", file="x.ocl"
        )
    assert (caught.value.file, caught.value.line, caught.value.column) == ("x.ocl", 3, 25)
    assert engine.invariant_names() == [] and engine.model.invariants == []
    with pytest.raises(ModelError, match="undefined class `Q'"):
        engine.add_constraints("context P inv fine: true\ncontext Q inv: true", file="y.ocl")
    assert engine.model.invariants == [] and engine.model.next_invariant_name() == "inv1"


def test_endless_recursion_is_an_evaluation_error_not_a_crash() -> None:
    engine = OclEngine.from_text(
        "model M\nclass A\noperations\n  loop() : Integer = self.loop() + 1\nend\n"
        "constraints\ncontext A inv ends: self.loop() > 0\n"
    )
    state = engine.state_from_text("!new A('a')\n")
    with pytest.raises(EvaluationError, match="recursion too deep"):
        engine.evaluate("a.loop()", state)
    (result,) = engine.check(state).invariants
    assert result.status == FAILED and result.reason is not None
