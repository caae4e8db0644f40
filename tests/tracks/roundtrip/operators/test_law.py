"""The commutation law forward(apply_s(S)) == apply_t(forward(S)), over generated metamodels."""

from __future__ import annotations

import pytest
from ecore_strategies import ecore_packages
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from benchmark.tracks.roundtrip.models.ecore_io import write_ecore
from benchmark.tracks.roundtrip.models.ecoremodel import EcorePackage
from benchmark.tracks.roundtrip.models.forward import forward
from benchmark.tracks.roundtrip.models.lines import ecore_lines, sql_lines
from benchmark.tracks.roundtrip.models.sql_io import write_sql
from benchmark.tracks.roundtrip.operators import OPERATOR_NAMES, OperatorNotApplicable, operator
from benchmark.tracks.roundtrip.operators.witness import diff_lines, witness_problems

LAW_SETTINGS = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def canonical(lines):  # type: ignore[no-untyped-def]
    return sorted(line.identity for line in lines)


@pytest.mark.parametrize("name", OPERATOR_NAMES)
@LAW_SETTINGS
@given(package=ecore_packages(), seed=st.integers(min_value=0, max_value=10_000))
def test_commutation_law(name: str, package: EcorePackage, seed: int) -> None:
    op = operator(name)
    schema = forward(package)
    targets_s = sorted(set(op.targets_s(package)))
    assert targets_s == sorted(set(op.targets_t(schema))), "both sides must offer the same targets"
    if not targets_s:  # no target on one side means none on the other, and both sides say so
        with pytest.raises(OperatorNotApplicable):
            op.apply_s(package, seed)
        with pytest.raises(OperatorNotApplicable):
            op.apply_t(schema, seed)
    assume(targets_s)
    target = op.pick_s(package, seed)
    assert op.pick_t(schema, seed) == target
    try:
        delta_s = op.edit_s(package, target)
    except OperatorNotApplicable:
        assume(False)
        raise
    delta_t = op.apply_t(schema, seed)
    assert canonical(sql_lines(forward(delta_s))) == canonical(sql_lines(delta_t))
    assert write_sql(forward(delta_s)) == write_sql(delta_t)
    write_ecore(delta_s)  # the edited package is still writable (types and opposites resolve)
    s_diff = diff_lines(ecore_lines(package), ecore_lines(delta_s))
    t_diff = diff_lines(sql_lines(schema), sql_lines(delta_t))
    assert witness_problems(op, "S", target, s_diff) == []
    assert witness_problems(op, "T", target, t_diff) == []


def test_law_check_detects_a_broken_t_side(monkeypatch: pytest.MonkeyPatch) -> None:
    """The law is not vacuous: a T side that forgets the NOT NULL breaks it on a package that has a target."""
    from benchmark.tracks.roundtrip.models.ecoremodel import EcoreAttribute, EcoreClass

    op = operator("make_mandatory")
    package = EcorePackage(
        "p", classifiers=(EcoreClass("Alpha", features=(EcoreAttribute("size", "EInt"),)),)
    )
    schema = forward(package)
    monkeypatch.setattr(type(op), "edit_t", lambda self, schema, target: schema)
    assert write_sql(forward(op.apply_s(package, 0))) != write_sql(op.apply_t(schema, 0))


def _shuffled(package: EcorePackage, data: st.DataObject) -> EcorePackage:
    """The package with classifiers, features, literals and supertypes in another order."""
    from dataclasses import replace

    from benchmark.tracks.roundtrip.models.ecoremodel import EcoreClass, EcoreEnum

    def permute(items: tuple, label: str) -> tuple:  # type: ignore[type-arg]
        return tuple(data.draw(st.permutations(items), label=label)) if items else items

    classifiers = []
    for classifier in permute(package.classifiers, "classifiers"):
        if isinstance(classifier, EcoreClass):
            classifier = replace(
                classifier,
                features=permute(classifier.features, classifier.name),
                supertypes=permute(classifier.supertypes, f"{classifier.name} supertypes"),
            )
        elif isinstance(classifier, EcoreEnum):
            classifier = replace(classifier, literals=permute(classifier.literals, classifier.name))
        classifiers.append(classifier)
    return replace(package, classifiers=tuple(classifiers))


@LAW_SETTINGS
@given(package=ecore_packages(), data=st.data())
def test_packages_with_the_same_lines_map_to_the_same_schema(
    package: EcorePackage, data: st.DataObject
) -> None:
    """The lines carry everything the forward mapping reads: an S' whose lines are all Cr maps to T'."""
    other = _shuffled(package, data)
    assume(canonical(ecore_lines(other)) == canonical(ecore_lines(package)))
    assert write_sql(forward(other)) == write_sql(forward(package))


def test_declaration_order_of_a_pair_shows_in_the_lines() -> None:
    """Rule 9 maps a non-containment pair through the reference declared first; swapping the classes
    changes the schema, and the lines say so (``mapped``) instead of being equal."""
    from benchmark.tracks.roundtrip.models.ecoremodel import EcoreClass, EcoreReference

    book = EcoreClass("Book", features=(EcoreReference("author", "Author", opposite="books"),))
    author = EcoreClass("Author", features=(EcoreReference("books", "Book", upper=-1, opposite="author"),))
    first, second = (
        EcorePackage("p", classifiers=(book, author)),
        EcorePackage("p", classifiers=(author, book)),
    )
    assert write_sql(forward(first)) != write_sql(forward(second))

    def mapped(package: EcorePackage) -> dict[str, str]:
        return {
            line.key: next(p.normalized for p in line.properties if p.name == "mapped")
            for line in ecore_lines(package)
            if line.kind == "reference"
        }

    assert mapped(first) == {"Book/author": "true", "Author/books": "false"}
    assert mapped(second) == {"Book/author": "false", "Author/books": "true"}
