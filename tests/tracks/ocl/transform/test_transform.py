"""The transformation steps one by one: what they change, how they name it, what the mapping says.

The law test (``test_transform_law.py``) proves meaning is kept; these tests pin down the rules that
``docs/OCL.md`` states: realistic names, which elements are reified, the shape of the new model and
states, the mapping, and the specification's prose.
"""

from __future__ import annotations

import math
import re

import pytest
from campus import CAMPUS_SOIL, CAMPUS_USE

from benchmark.core.errors import ConfigurationError, InputFormatError
from benchmark.lang.ocl import ast
from benchmark.lang.ocl.check import check_state
from benchmark.lang.ocl.engine import OclEngine
from benchmark.lang.ocl.errors import OclTypeError
from benchmark.lang.ocl.printer import print_expr
from benchmark.lang.ocl.state import ObjectState
from benchmark.lang.words.synonyms import (
    QUALIFIERS,
    SYNONYMS,
    candidates,
    pluralize,
    split_words,
    synonym_of,
    with_synonyms,
)
from benchmark.tracks.ocl.transform.modes import MODES, transform
from benchmark.tracks.ocl.transform.names import is_legal
from benchmark.tracks.ocl.transform.reify_attribute import eligible as eligible_attributes
from benchmark.tracks.ocl.transform.resolve import AttributeUse, resolve
from benchmark.tracks.ocl.transform.rewrite import rewrite
from benchmark.tracks.ocl.transform.selection import SHARE, choose
from benchmark.tracks.ocl.transform.spec import (
    Substitution,
    parse_entries,
    replace_identifiers,
    substitutions,
    transformed_entry,
)
from benchmark.tracks.ocl.transform.subject import Subject


@pytest.fixture(scope="module")
def campus() -> Subject:
    engine = OclEngine.from_text(CAMPUS_USE, file="campus.use")
    return Subject(engine.model, [], [engine.state_from_text(CAMPUS_SOIL, file="campus.soil")])


def _invariants(subject: Subject) -> dict[str, str]:
    return {inv.name: print_expr(inv.expr) for inv in [*subject.model.invariants, *subject.extra]}


# ------------------------------------------------------------------------------------------ resolution
def test_the_recorder_sees_what_the_checker_resolves() -> None:
    """The rewriting relies on the checker's lookups being recorded; a change of the compiler that stops
    them must fail here, by name, rather than as a law violation."""
    engine = OclEngine.from_text(
        CAMPUS_USE
        + "context Course inv shorthand: Course.allInstances().lecturer.salary->sum() >= 0 and credits > 0\n"
    )
    inv = engine.model.invariant("Course::shorthand")
    assert inv is not None
    uses: list[object] = []

    def hook(original: ast.Node, node: ast.Node) -> ast.Node:
        use = resolutions.get(original)
        if use is not None:
            uses.append(use)
        return node

    resolutions = resolve(engine.model)
    rewrite(inv.expr, hook)
    described = sorted(
        (
            type(u).__name__,
            u.owner.name + "::" + u.attribute.name if isinstance(u, AttributeUse) else u.navigation.role,
            u.collect,
        )
        for u in uses
    )
    assert described == [
        ("AttributeUse", "Course::credits", False),
        ("AttributeUse", "Professor::salary", True),
        ("NavigationUse", "lecturer", True),
    ]
    assert ("Person", "age") in resolutions.read_attributes and "Teaches" in resolutions.navigated


# ------------------------------------------------------------------------------------------ synonyms
def test_identifiers_split_into_words() -> None:
    assert split_words("startDate") == ["start", "Date"]
    assert split_words("ISBNCode") == ["ISBN", "Code"]
    assert split_words("first_name") == ["first", "_", "name"]
    assert split_words("HeldIn") == ["Held", "In"]


def test_a_word_keeps_its_synonym_in_every_spelling() -> None:
    singular = synonym_of("course", 0)
    assert singular is not None and singular in SYNONYMS["course"]
    assert synonym_of("Course", 0) == singular[:1].upper() + singular[1:]
    assert synonym_of("courses", 0) == singular + "s"
    assert with_synonyms("courseTitle", 0) == singular + synonym_of("Title", 0)  # type: ignore[operator]
    assert synonym_of("zorblax", 0) is None


def test_an_unknown_identifier_gets_a_qualifier_that_is_a_word() -> None:
    first = next(candidates("Zorblax", "class", 3))
    _, words = QUALIFIERS["class"]
    assert any(first == q + "Zorblax" for q in words)
    role = next(candidates("zorblaxes", "role", 3))
    assert role.endswith("Zorblaxes") and role[:1].islower()


def test_every_new_name_of_a_renaming_is_legal_new_and_made_of_words(campus: Subject) -> None:
    vocabulary = {w.lower() for syns in SYNONYMS.values() for s in syns for w in split_words(pluralize(s))}
    vocabulary |= {w.lower() for syns in SYNONYMS.values() for s in syns for w in split_words(s)}
    vocabulary |= {q.lower() for _, qs in QUALIFIERS.values() for q in qs}
    for seed in range(4):
        new, mapping = transform(campus, "rename", seed)
        assert mapping.renamed, "everything is renamed"
        for old, renamed in mapping.renamed:
            old_name = old[1] if isinstance(old[1], str) else old[1][1]
            new_name = renamed[1] if isinstance(renamed[1], str) else renamed[1][1]
            assert new_name != old_name and is_legal(new_name)
            assert not re.search(r"\d$", new_name), f"a numbered name {new_name} (seed {seed})"
            old_words = {w.lower() for w in split_words(old_name)}
            for word in split_words(new_name):
                assert word.lower() in old_words | vocabulary, f"{word} in {new_name} (seed {seed})"
        assert [inv.name for inv in new.model.invariants] == [inv.name for inv in campus.model.invariants]
        assert {e.literals for e in new.model.enumerations.values()} == {
            e.literals for e in campus.model.enumerations.values()
        }
        assert list(new.states[0].objects) == list(campus.states[0].objects)


def test_renaming_is_deterministic_for_a_seed_and_varies_between_seeds(campus: Subject) -> None:
    first = [transform(campus, "rename", seed)[1].to_json() for seed in range(3)]
    again = [transform(campus, "rename", seed)[1].to_json() for seed in range(3)]
    assert first == again
    assert first[0]["renamed"] != first[1]["renamed"] or first[0]["renamed"] != first[2]["renamed"]


def test_renaming_rewrites_every_kind_of_reference(campus: Subject) -> None:
    new, mapping = transform(campus, "rename", 0)
    renamed = mapping.to_json()["renamed"]
    person, student = renamed["classes"]["Person"], renamed["classes"]["Student"]
    age = renamed["attributes"]["Person::age"].split("::")[1]
    courses = renamed["roles"]["Teaches::courses"].split("::")[1]
    invariants = _invariants(new)
    assert invariants["adult"] == f"self.{age} >= 18"
    assert invariants["teachesSomething"].startswith(f"self.{courses}->notEmpty()")
    assert new.model.invariant(f"{student}::adult") is not None
    assert person in new.model.classes and "Person" not in new.model.classes
    # the association class keeps one name for class and association, and its navigation follows it
    enrollment = renamed["classes"]["Enrollment"]
    assert renamed["associations"]["Enrollment"] == enrollment
    assert enrollment[:1].lower() + enrollment[1:] in new.model.classes[student].navigation_names()


def test_renaming_covers_type_names_all_instances_and_qualified_roles() -> None:
    engine = OclEngine.from_text(
        """model Org
enum Level { junior, senior }
class Employee
attributes
  level : Level
end
association Manages between
  Employee[0..1] role boss
  Employee[*] role staff
end
constraints
context Employee inv seniorBoss:
  self.staff->forAll(b : Employee | b.level = Level::senior and b.oclIsKindOf(Employee))
context Employee inv some:
  Employee.allInstances()->exists(e | e.staff[boss]->size() >= 0)
"""
    )
    new, mapping = transform(Subject(engine.model), "rename", 0)
    renamed = mapping.to_json()["renamed"]
    employee, level = renamed["classes"]["Employee"], renamed["enumerations"]["Level"]
    staff = renamed["roles"]["Manages::staff"].split("::")[1]
    boss = renamed["roles"]["Manages::boss"].split("::")[1]
    text = _invariants(new)
    assert f"b : {employee}" in text["seniorBoss"] and f"{level}::senior" in text["seniorBoss"]
    assert f"oclIsKindOf({employee})" in text["seniorBoss"]
    assert text["some"] == f"{employee}.allInstances()->exists(e | e.{staff}[{boss}]->size() >= 0)"


def test_new_names_never_capture_a_variable() -> None:
    """A bare attribute name must not become the name of an iterator variable in scope."""
    engine = OclEngine.from_text(
        """model M
class Person
attributes
  name : String
end
constraints
context Person inv named:
  Person.allInstances()->forAll(label | label.name <> '' and name <> '')
"""
    )
    for seed in range(6):
        new, mapping = transform(Subject(engine.model), "rename", seed)
        assert mapping.to_json()["renamed"]["attributes"]["Person::name"] != "Person::label"


# ------------------------------------------------------------------------------------------ selection
def test_choose_takes_a_third_preferring_what_the_constraints_use() -> None:
    eligible = [f"a{i}" for i in range(7)]
    used = {"a5", "a6"}
    chosen = choose(eligible, used, seed=0, kind="attribute", model="M")
    assert len(chosen) == math.ceil(SHARE * 7) == 3
    assert used <= set(chosen)
    assert chosen == sorted(chosen, key=eligible.index)
    assert chosen == choose(eligible, used, seed=0, kind="attribute", model="M")
    assert choose([], set(), seed=0, kind="attribute", model="M") == []
    assert len(choose(["x"], set(), seed=0, kind="attribute", model="M")) == 1


def test_reification_picks_the_same_elements_in_every_mode_that_has_it(campus: Subject) -> None:
    def picked(mode: str) -> tuple[list[str], list[str]]:
        data = transform(campus, mode, 2)[1].to_json()
        return (
            [r["old"] for r in data["reified_attributes"]],
            [r["old"] for r in data["reified_associations"]],
        )

    attributes, _ = picked("attribute")
    _, associations = picked("association")
    assert attributes and associations
    assert picked("full") == (attributes, associations)
    assert picked("rename_attribute") == (attributes, [])
    assert picked("attribute_association") == (attributes, associations)


def test_derived_initialised_and_role_named_attributes_are_not_eligible(campus: Subject) -> None:
    found = eligible_attributes(campus.model)
    assert ("Person", "initial") not in found  # derived
    assert ("Room", "seats") not in found  # initialised
    assert ("Person", "age") in found and ("Enrollment", "grade") in found


# ------------------------------------------------------------------------------------------ reification
def test_attribute_reification_moves_each_value_into_an_object_of_its_own(campus: Subject) -> None:
    new, mapping = transform(campus, "attribute", 0)
    record = next(r for r in mapping.to_json()["reified_attributes"] if r["old"] == "Person::age")
    assert record == {
        "old": "Person::age",
        "class": "Age",
        "value": "Age::value",
        "association": "PersonHasAge",
        "role": "PersonHasAge::age",
        "owner_role": "PersonHasAge::person",
    }
    assert new.model.classes["Person"].attribute("age") is None
    assoc = new.model.associations["PersonHasAge"]
    assert [(e.class_name, str(e.multiplicity), e.name) for e in assoc.ends] == [
        ("Person", "1", "person"),
        ("Age", "1", "age"),
    ]
    assert _invariants(new)["adult"] == "self.age.value >= 18"
    state = new.states[0]
    assert state.objects["annAge"].values == {"value": 20}
    persons = [o for o in campus.states[0].objects.values() if "Person" in o.cls.ancestor_names]
    assert len(state.instances(new.model.classes["Age"])) == len(persons)


def test_an_unset_attribute_gives_a_value_object_without_value() -> None:
    engine = OclEngine.from_text(
        "model M\nclass A\nattributes\n  n : Integer\nend\nconstraints\ncontext A inv: self.n.isUndefined()\n"
    )
    state = engine.state_from_text("!new A('a')\n")
    new, _ = transform(Subject(engine.model, [], [state]), "attribute", 0)
    holder = new.states[0].objects["aN"]
    assert holder.values == {} and holder.cls.name == "N"
    assert check_state(new.check(), new.states[0]).invariants[0].ok


def test_association_reification_moves_multiplicities_and_keeps_composition() -> None:
    engine = OclEngine.from_text(
        """model M
class Order
end
class Line
end
composition Has between
  Order[1] role order
  Line[1..*] role lines ordered
end
constraints
context Order inv some: self.lines->size() >= 1
"""
    )
    state = engine.state_from_text(
        "!new Order('o')\n!new Line('l1')\n!new Line('l2')\n!insert (o, l1) into Has\n"
    )
    new, mapping = transform(Subject(engine.model, [], [state]), "association", 0)
    first, second = (new.model.associations[n] for n in ("HasOrder", "HasLines"))
    assert (first.kind, second.kind) == ("composition", "composition")
    assert [(e.class_name, str(e.multiplicity), e.name, e.ordered) for e in first.ends] == [
        ("Order", "1", "order", False),
        ("Has", "1..*", "has", True),
    ]
    assert [(e.class_name, str(e.multiplicity), e.name, e.ordered) for e in second.ends] == [
        ("Has", "1", "has", False),
        ("Line", "1", "lines", False),
    ]
    assert _invariants(new)["some"] == "self.has.lines->asOrderedSet()->size() >= 1"
    # l2 has no order: the structure is as broken after the transformation as before
    before = check_state(OclEngine(engine.model).runtime, state).structure
    after = check_state(new.check(), new.states[0]).structure
    assert len(before) == len(after) == 1
    assert mapping.to_json()["reified_associations"][0]["ends"] == [
        {"old": "Has::order", "role": "HasOrder::order", "link_role": "HasLines::has"},
        {"old": "Has::lines", "role": "HasLines::lines", "link_role": "HasOrder::has"},
    ]


def test_a_reflexive_association_gets_link_roles_saying_their_side() -> None:
    engine = OclEngine.from_text(
        """model M
class Employee
end
association Supervision between
  Employee[0..1] role boss
  Employee[*] role staff
end
constraints
context Employee inv notOwnBoss: self.staff->excludes(self) and self.boss <> self
"""
    )
    new, _ = transform(Subject(engine.model), "association", 0)
    assert _invariants(new)["notOwnBoss"] == (
        "self.supervisionAsBoss.staff->asSet()->excludes(self) and self.supervisionAsStaff.boss <> self"
    )


def test_the_collect_shorthand_over_a_reified_association_is_not_converted() -> None:
    engine = OclEngine.from_text(
        """model M
class A
end
class B
end
association R between
  A[*] role as
  B[*] role bs
end
constraints
context A inv shared: A.allInstances().bs->size() >= self.bs->size()
"""
    )
    new, _ = transform(Subject(engine.model), "association", 0)
    assert _invariants(new)["shared"] == "A.allInstances().r.bs->size() >= self.r.bs->asSet()->size()"


def test_postconditions_are_rewritten_and_pre_values_refused() -> None:
    base = """model M
class Account
attributes
  balance : Integer
operations
  deposit(n : Integer) : Integer
    pre positive: n > 0
    post grows: result = self.balance + n
end
"""
    new, mapping = transform(Subject(OclEngine.from_text(base).model), "rename", 0)
    balance = mapping.to_json()["renamed"]["attributes"]["Account::balance"].split("::")[1]
    account = next(iter(new.model.classes.values()))
    assert print_expr(account.operations[0].conditions[1].expr) == f"result = self.{balance} + n"
    with_pre = OclEngine.from_text(base.replace("self.balance + n", "self.balance@pre + n")).model
    with pytest.raises(OclTypeError, match="@pre"):
        transform(Subject(with_pre), "rename", 0)


def test_an_unknown_mode_is_a_configuration_error(campus: Subject) -> None:
    with pytest.raises(ConfigurationError, match="unknown transformation mode 'renames'"):
        transform(campus, "renames", 0)
    assert len(MODES) == 7


# ------------------------------------------------------------------------------------------ specification
def test_the_specification_follows_the_renaming(campus: Subject) -> None:
    entries = {
        "adult": {"text": "A Student is an adult: age at least 18.", "ocl": "self.age >= 18", "level": 1},
        "hasTitle": {
            "text": "Every Course has a title.",
            "ocl": "context Course inv hasTitle: self.title <> ''",
        },
        "note": {"text": "Courses of the Student are fine."},
    }
    items = parse_entries(
        entries, campus.model, campus.model.invariants, model_key="Campus", file="spec.json"
    )
    new, mapping = transform(Subject(campus.model, [i for it in items for i in it.invariants]), "rename", 0)
    renamed = mapping.to_json()["renamed"]
    subs = substitutions(mapping, campus.model)
    adult = transformed_entry(items[0], new.extra[0:1], subs, campus.model)
    student = renamed["classes"]["Student"]
    age = renamed["attributes"]["Person::age"].split("::")[1]
    article = "an" if student[0].lower() in "aeiou" else "a"
    assert adult == {
        "text": f"{article.capitalize()} {student} is an adult: {age} at least 18.",
        "ocl": f"self.{age} >= 18",
        "level": 1,
    }
    title = transformed_entry(items[1], new.extra[1:2], subs, campus.model)
    course = renamed["classes"]["Course"]
    assert title["ocl"].startswith(f"context {course} inv hasTitle: self.")
    assert transformed_entry(items[2], [], subs, campus.model) == {
        "text": f"Courses of the {student} are fine."
    }


def test_prose_replacement_prefers_the_context_class_and_spares_small_words(campus: Subject) -> None:
    _, mapping = transform(campus, "rename", 0)
    subs = substitutions(mapping, campus.model)
    subs += [Substitution("name", "label", frozenset({"Course"})), Substitution("of", "about", frozenset())]
    person_name = mapping.to_json()["renamed"]["attributes"]["Person::name"].split("::")[1]
    assert replace_identifiers("the name of it", subs, "Student", campus.model) == f"the {person_name} of it"
    assert replace_identifiers("the name of it", subs, "Course", campus.model) == "the label of it"
    assert replace_identifiers("nameless names", subs, "Course", campus.model) == "nameless names"


def test_backticks_mark_the_only_identifiers_of_a_text(campus: Subject) -> None:
    subs = [
        Substitution("Course", "Item", frozenset()),
        Substitution("title", "heading", frozenset({"Course"})),
        Substitution("of", "about", frozenset()),
    ]
    text = "Every course has a title: a `Course` has a `title`, `of` or not, and `self.title <> ''`."
    assert replace_identifiers(text, subs, "Course", campus.model) == (
        "Every course has a title: an `Item` has a `heading`, `about` or not, and `self.heading <> ''`."
    )
    # an article before an unchanged name is the author's, and stays
    assert (
        replace_identifiers("a `Room` and an `Course`", subs, None, campus.model) == "a `Room` and an `Item`"
    )


def test_a_bare_expression_needs_an_invariant_to_take_its_context_from(campus: Subject) -> None:
    with pytest.raises(InputFormatError) as caught:
        parse_entries(
            {"unknown": {"text": "t", "ocl": "self.age > 1"}},
            campus.model,
            [],
            model_key="Campus",
            file="s.json",
        )
    assert caught.value.file == "s.json" and caught.value.field == "$.Campus.unknown.ocl"


def test_a_specification_syntax_error_names_the_entry(campus: Subject) -> None:
    with pytest.raises(Exception) as caught:
        parse_entries(
            {"adult": {"text": "t", "ocl": "self.age >>= 1"}},
            campus.model,
            campus.model.invariants,
            model_key="Campus",
            file="s.json",
        )
    assert getattr(caught.value, "field", None) == "$.Campus.adult.ocl"


def test_states_keep_their_verdicts_in_every_mode(campus: Subject) -> None:
    """A smoke test of the law on the campus state (the law test proves it in general). ``check``
    lists invariants in USE's order, by qualified name, which renaming changes: compare by name."""

    def statuses(runtime, state: ObjectState) -> dict[str, str]:  # type: ignore[no-untyped-def]
        return {r.name.split("::")[1]: r.status for r in check_state(runtime, state).invariants}

    expected = statuses(OclEngine(campus.model).runtime, campus.states[0])
    assert len(expected) == len(campus.model.invariants)
    for mode in MODES:
        new, _ = transform(campus, mode, 0)
        assert statuses(new.check(), new.states[0]) == expected, mode


# ---------------------------------------------------------------------- association-class reification
ASSIGNMENT = """model M
class Professor
attributes
  name : String
end
class Course
attributes
  teaches : Integer
end
association Teaches between
  Professor[0..1] role lecturer
  Course[*] role courses ordered
end
association Supervision between
  Professor[0..1] role boss
  Professor[*] role staff
end
constraints
context Professor inv fewCourses: self.courses->size() <= 2
context Course inv taught: self.lecturer.isDefined()
"""


def test_an_association_becomes_an_association_class_in_that_form() -> None:
    engine = OclEngine.from_text(ASSIGNMENT)
    state = engine.state_from_text(
        "!new Professor('p')\n!new Course('c1')\n!new Course('c2')\n"
        "!insert (p, c1) into Teaches\n!insert (p, c2) into Teaches\n"
    )
    subject = Subject(engine.model, [], [state])
    new, mapping = transform(subject, "association", 0, association_form="association_class")
    model = new.model
    # `teaches' is an attribute of Course: the class (and so its navigation) takes the next free name
    cls = model.classes["Teaches2"]
    assert cls.association is model.associations["Teaches2"] and "Teaches" not in model.associations
    assert [(e.class_name, str(e.multiplicity), e.name, e.ordered) for e in cls.association.ends] == [
        ("Professor", "0..1", "lecturer", False),
        ("Course", "*", "courses", True),
    ]
    assert "Supervision" in model.associations  # reflexive: not eligible in this form
    assert _invariants(new) == {
        "fewCourses": "self.teaches2.courses->asOrderedSet()->size() <= 2",
        "taught": "self.teaches2.lecturer.isDefined()",
    }
    links = [
        (lk.association.name, [o.name for o in lk.objects], lk.link_object.name) for lk in new.states[0].links
    ]
    assert links == [("Teaches2", ["p", "c1"], "teaches21"), ("Teaches2", ["p", "c2"], "teaches22")]
    # the direct navigation stays valid (USE), so an answer that ignores the change still type checks
    runtime = new.check()
    for inv in engine.model.invariants:
        runtime.compile_invariant(inv)
    data = mapping.to_json()
    assert data["association_form"] == "association_class"
    assert data["reified_associations"] == [
        {
            "old": "Teaches",
            "class": "Teaches2",
            "associations": ["Teaches2"],
            "ends": [
                {"old": "Teaches::lecturer", "role": "Teaches2::lecturer"},
                {"old": "Teaches::courses", "role": "Teaches2::courses"},
            ],
        }
    ]
    assert "association_form" not in transform(subject, "association", 0)[1].to_json()  # the default


def test_renaming_after_the_association_class_form_renames_the_class_and_its_navigation() -> None:
    engine = OclEngine.from_text(ASSIGNMENT)
    new, mapping = transform(Subject(engine.model), "full", 0, association_form="association_class")
    (record,) = mapping.to_json()["reified_associations"]
    final = record["class"]
    assert final in new.model.classes and new.model.classes[final].association is not None
    assert final not in ("Teaches", "Teaches2")  # renamed like every class
    navigation = final[:1].lower() + final[1:]
    assert _invariants(new)["taught"].startswith(f"self.{navigation}.")


def test_an_unknown_association_form_is_refused() -> None:
    engine = OclEngine.from_text(ASSIGNMENT)
    with pytest.raises(ConfigurationError, match="association form"):
        transform(Subject(engine.model), "association", 0, association_form="link")
