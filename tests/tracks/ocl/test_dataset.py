"""The bundled OCL dataset (validation/ocl): every model loads in both notations, every reference constraint
type checks and agrees with the specification, and every state gets the verdict ``states.json`` records.

The last point is what the robustness study rests on: a generated constraint is judged by the states, so
each state must be classified by the reference exactly as recorded, and each constraint needs states on
both sides (at least two where it holds, non-vacuously, and two where it is violated) to be discriminated.
The feature tags (``covers``) are checked against the constraint's syntax, so that the coverage claim in
the README is not just a list someone typed.
"""

from __future__ import annotations

import dataclasses
import functools
import re
from pathlib import Path

import pytest

from benchmark.lang.ocl import ast
from benchmark.lang.ocl.engine import OclEngine
from benchmark.lang.ocl.model import Model, model_key
from benchmark.lang.ocl.printer import print_expr
from benchmark.lang.ocl.puml_io import read_puml
from benchmark.lang.ocl.state import ObjectState
from benchmark.lang.ocl.types import CollectionType
from benchmark.lang.ocl.use_io import parse_constraints, read_use
from benchmark.tracks.mapping.discovery import Skipped, inspect_folder
from benchmark.tracks.ocl.dataset import CATEGORIES, Dataset, DatasetModel, default_root, load_dataset

MIN_MODELS = 12
MIN_CONSTRAINTS = 100
MIN_PER_MODEL = 8
MIN_EACH_SIDE = 2


@functools.cache
def dataset() -> Dataset:
    return load_dataset()


MODELS = list(dataset().models)


def model(name: str) -> DatasetModel:
    return dataset().models[name]


@functools.cache
def engine(name: str) -> OclEngine:
    return OclEngine.from_file(model(name).use_file)


@functools.cache
def states(name: str) -> dict[str, ObjectState]:
    m = model(name)
    return {state: engine(name).load_state(m.state_path(state)) for state in m.verdicts}


def class_model_differences(a: Model, b: Model) -> list[str]:
    """Where two class models differ (name, enumerations, classes, associations; invariants ignored)."""
    out = [f"model name {a.name} / {b.name}"] if a.name != b.name else []
    for kind in ("enumerations", "classes", "associations"):
        left = {name: x.key() for name, x in getattr(a, kind).items()}
        right = {name: x.key() for name, x in getattr(b, kind).items()}
        out += [
            f"{kind[:-1]} {name}: {left.get(name)} / {right.get(name)}"
            for name in sorted(set(left) | set(right))
            if left.get(name) != right.get(name)
        ]
    return out


# ------------------------------------------------------------------------------------------ the whole set
def test_dataset_size() -> None:
    data = dataset()
    constraints = list(data.constraints())
    assert len(data.models) >= MIN_MODELS, sorted(data.models)
    assert len(constraints) >= MIN_CONSTRAINTS, len(constraints)
    thin = {name: len(m.constraints) for name, m in data.models.items() if len(m.constraints) < MIN_PER_MODEL}
    assert not thin, f"models with fewer than {MIN_PER_MODEL} constraints: {thin}"


def test_every_feature_category_is_covered() -> None:
    used = {category for c in dataset().constraints() for category in c.covers}
    missing = sorted(set(CATEGORIES) - used)
    assert not missing, f"no constraint covers: {missing}"


def test_the_mapping_track_skips_the_folder() -> None:
    """validation/ocl holds no .atl file, so the mapping track's discovery leaves it out (by rule)."""
    found = inspect_folder(default_root())
    assert isinstance(found, Skipped) and found.reason == "no .atl file"


# ------------------------------------------------------------------------------------------- per model
@pytest.mark.parametrize("name", MODELS)
def test_puml_holds_the_class_model_of_the_use_file(name: str) -> None:
    use, puml = read_use(model(name).use_file), read_puml(model(name).puml_file)
    assert puml.invariants == [], "the PlantUML file is shown to the LLM and must not contain the answers"
    assert class_model_differences(puml, use) == []
    assert model_key(puml)[:-1] == model_key(use)[:-1]  # the whole model key, invariants aside
    assert use.classes and use.associations
    assert any(c.is_association_class for c in use.classes.values()), "every model has an association class"
    assert any(c.supers for c in use.classes.values()), "every model has inheritance"


@pytest.mark.parametrize("name", MODELS)
def test_specification_agrees_with_the_use_constraints(name: str) -> None:
    """Same constraints, in the same order, with the same context, name and expression (as parsed)."""
    use = read_use(model(name).use_file)
    empty = read_use(model(name).use_file)
    empty.invariants.clear()
    spec = model(name).constraints
    parsed = [
        parse_constraints(c.ocl, empty, file=f"specification.json:{name}.{c.id}")[0] for c in spec.values()
    ]
    assert [inv.name for inv in parsed] == list(spec), "the invariant name is the constraint id"
    assert [inv.name for inv in use.invariants] == list(spec), "same constraints in the same order"
    differ = [
        f"{a.name}: specification `{print_expr(a.expr)}' / .use `{print_expr(b.expr)}'"
        for a, b in zip(parsed, use.invariants, strict=True)
        if a.key() != b.key()
    ]
    assert not differ, "\n".join(differ)


@pytest.mark.parametrize("name", MODELS)
def test_references_type_check_against_both_notations(name: str) -> None:
    assert sorted(engine(name).invariant_names()) == sorted(  # listed in USE's order (by Class::name)
        f"{read_use(model(name).use_file).invariants[i].class_name}::{cid}"
        for i, cid in enumerate(model(name).constraints)
    )
    shown = OclEngine.from_file(model(name).puml_file)  # what the LLM sees must accept the answers
    for c in model(name).constraints.values():
        shown.add_constraints(c.ocl, file=f"specification.json:{name}.{c.id}")
    assert len(shown.invariant_names()) == len(model(name).constraints)


@pytest.mark.parametrize("name", MODELS)
def test_states_respect_the_multiplicities(name: str) -> None:
    """States are well-formed object diagrams, so a verdict is only ever about the constraints."""
    reports = {state: engine(name).check(s) for state, s in states(name).items()}
    broken = {state: [v.message for v in r.structure] for state, r in reports.items() if r.structure}
    assert not broken, broken


@pytest.mark.parametrize("name", MODELS)
def test_every_state_gets_its_recorded_verdict(name: str) -> None:
    m = model(name)
    wrong = []
    for state, s in states(name).items():
        results = {r.name.split("::", 1)[1]: r for r in engine(name).check(s).invariants}
        for cid, holds in m.verdicts[state].items():
            if results[cid].ok is not holds:
                wrong.append(
                    f"{m.state_path(state)}: {cid} recorded {holds}, evaluates to {results[cid].value}"
                )
    assert not wrong, "\n".join(wrong)


@pytest.mark.parametrize("name", MODELS)
def test_every_constraint_is_discriminated(name: str) -> None:
    """At least two states where the reference holds on instances of its context, two where it fails."""
    m, use = model(name), engine(name).model
    for inv in use.invariants:
        context = use.classes[inv.class_name]
        valid = [s for s in m.states_where(inv.name, True) if states(name)[s].instances(context)]
        invalid = m.states_where(inv.name, False)
        assert len(valid) >= MIN_EACH_SIDE, f"{name}.{inv.name}: non-vacuous valid states {valid}"
        assert len(invalid) >= MIN_EACH_SIDE, f"{name}.{inv.name}: invalid states {invalid}"


@pytest.mark.parametrize("name", MODELS)
def test_no_two_constraints_classify_the_states_alike(name: str) -> None:
    """Each constraint has its own verdict pattern, so a candidate answering another constraint is caught."""
    m = model(name)
    patterns: dict[tuple[bool, ...], str] = {}
    for cid in m.constraints:
        pattern = tuple(m.verdicts[s][cid] for s in m.verdicts)
        assert pattern not in patterns, f"{name}: {cid} and {patterns.get(pattern)} agree on every state"
        patterns[pattern] = cid


@pytest.mark.parametrize("name", MODELS)
def test_feature_tags_are_visible_in_the_constraints(name: str) -> None:
    use = engine(name).model
    wrong = []
    for inv in use.invariants:
        found = features(inv.expr, use, inv.class_name)
        claimed = set(model(name).constraints[inv.name].covers)
        if claimed - found:
            wrong.append(
                f"{name}.{inv.name}: tagged {sorted(claimed - found)} but shows only {sorted(found)}"
            )
    assert not wrong, "\n".join(wrong)


# the statements the states are written in: objects, literal attribute values, links, link objects
SOIL_SUBSET = re.compile(
    r"!new \w+\('\w+'\)( between \(\w+(, \w+)+\))?"
    r"|!set \w+\.\w+ := ('([^'\\]|\\.)*'|-?\d+(\.\d+)?|true|false|\w+::\w+)"
    r"|!insert \(\w+(, \w+)+\) into \w+"
    r"|-- .*"
)
# attributes that are undefined by design in some states (a grade not yet given, a rental not yet returned)
OPTIONAL_ATTRIBUTES = {
    "university": {"Enrollment.grade"},
    "carrental": {"Rental.returnedDay", "Rental.kmDriven"},
}


def test_states_use_plain_soil() -> None:
    """One object creation, attribute assignment or link per line, values as literals, nothing deleted: the
    form the model transformations rewrite (and a reader can follow)."""
    odd = [
        f"{m.state_path(state)}:{number}: {line}"
        for m in dataset().models.values()
        for state in m.verdicts
        for number, line in enumerate(m.state_path(state).read_text(encoding="utf-8").splitlines(), 1)
        if not SOIL_SUBSET.fullmatch(line)
    ]
    assert not odd, "\n".join(odd[:20])


@pytest.mark.parametrize("name", MODELS)
def test_attributes_are_set_except_the_optional_ones(name: str) -> None:
    unset = {
        f"{o.cls.name}.{a.name}"
        for s in states(name).values()
        for o in s.objects.values()
        for a in o.cls.all_attributes()
        if o.values.get(a.name) is None
    }
    assert unset == OPTIONAL_ATTRIBUTES.get(name, set())


def test_state_files_name_what_they_break() -> None:
    """Each state file says in its header which constraints it is meant to violate (for human readers)."""
    for name, m in dataset().models.items():
        for state, verdicts in m.verdicts.items():
            header = [
                line
                for line in m.state_path(state).read_text(encoding="utf-8").splitlines()
                if line.startswith("--")
            ]
            broken = [cid for cid, holds in verdicts.items() if not holds]
            said = next((line for line in header if "meant to" in line), "")
            expected = (
                f"-- meant to violate: {', '.join(broken)}"
                if broken
                else "-- meant to satisfy every constraint of the model"
            )
            assert said == expected, f"{Path(name) / state}: {said!r}"


# ---------------------------------------------------------------------------- syntactic feature detection
STRING_OPERATIONS = frozenset(
    {
        "concat",
        "substring",
        "toUpperCase",
        "toLowerCase",
        "toUpper",
        "toLower",
        "indexOf",
        "characters",
        "equalsIgnoreCase",
        "toInteger",
        "toReal",
        "toBoolean",
        "at",
        "split",
        "toString",
    }
)
UNDEFINED_OPERATIONS = frozenset({"oclIsUndefined", "isDefined", "isUndefined"})
ARITHMETIC = frozenset({"+", "-", "*", "/", "div"})
ORDERING = frozenset({"<", ">", "<=", ">="})


def nodes(node: ast.Node) -> list[ast.Node]:
    found = [node]
    for f in dataclasses.fields(node):
        value = getattr(node, f.name)
        for item in value if isinstance(value, tuple) else (value,):
            if isinstance(item, ast.Node):
                found.extend(nodes(item))
    return found


def features(expr: ast.Expr, m: Model, context: str) -> set[str]:
    """The categories an expression visibly uses (names of navigations resolved against the model)."""
    optional, many, via_class = set(), set(), set()
    for cls in m.classes.values():
        for role in cls.navigation_names():
            for nav in cls.navigations(role):
                if isinstance(nav.result_type, CollectionType):
                    many.add(role)
                elif nav.target_end is not None and nav.target_end.multiplicity.ranges == ((0, 1),):
                    optional.add(role)
                if nav.association.is_class:
                    via_class.add(role)
    found: set[str] = set()
    names: set[str] = set()
    for n in nodes(expr):
        if isinstance(n, ast.IteratorCall):
            found.add(n.name)
        elif isinstance(n, ast.TypeOp):
            found.update({n.name, "inheritance"})
        elif isinstance(n, ast.EnumLit):
            found.add("enumeration")
        elif isinstance(n, ast.StringLit):
            found.add("string")
        elif isinstance(n, ast.NullLit):
            found.add("undefined")
        elif isinstance(n, ast.Binary):
            found.update(
                {"arithmetic"} if n.op in ARITHMETIC else {"comparison"} if n.op in ORDERING else set()
            )
        elif isinstance(n, ast.Unary) and n.op == "-":
            found.add("arithmetic")
        elif isinstance(n, ast.Name):
            names.add(n.name)
        elif isinstance(n, ast.PropertyCall):
            if n.name == "allInstances":
                found.add("allInstances")
            elif n.name in UNDEFINED_OPERATIONS:
                found.add("undefined")
            elif n.name in STRING_OPERATIONS or (n.name == "size" and not n.arrow):
                found.add("string")
            elif n.name == "abs":
                found.add("arithmetic")
            elif n.arrow:
                found.add("collection")
            elif n.args is None:
                names.add(n.name)
    found.update({"navigation-optional"} if names & optional else set())
    found.update({"navigation-many"} if names & many else set())
    cls = m.classes[context]
    if names & via_class or cls.is_association_class:
        found.add("association-class")
    if len(cls.ancestors) > 1 or len(cls.descendants) > 1:
        found.add("inheritance")
    return found


# ------------------------------------------------------------------------------------------ the README
def readme_rows() -> dict[str, list[str]]:
    """The cells of the README's size table by folder (and `**total**`)."""
    rows = {}
    for line in (default_root() / "README.md").read_text(encoding="utf-8").splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) == 10 and (cells[0].strip("`") in MODELS or cells[0] == "**total**"):
            rows[cells[0].strip("`*")] = cells
    return rows


def size_row(name: str) -> list[int]:
    m, use = model(name), read_use(model(name).use_file)
    association_classes = sum(1 for c in use.classes.values() if c.is_association_class)
    soil_lines = sum(
        1
        for state in m.verdicts
        for line in m.state_path(state).read_text(encoding="utf-8").splitlines()
        if not line.startswith("--")
    )
    return [
        len(use.classes) - association_classes,
        len(use.enumerations),
        sum(1 for a in use.associations.values() if not a.is_class),
        association_classes,
        sum(1 for c in use.classes.values() if c.supers),
        len(m.constraints),
        len(m.verdicts),
        sum(1 for verdicts in m.verdicts.values() if all(verdicts.values())),
        soil_lines,
    ]


def test_readme_sizes_match_the_files() -> None:
    rows = readme_rows()
    totals = [0] * 9
    for name in MODELS:
        sizes = size_row(name)
        totals = [t + s for t, s in zip(totals, sizes, strict=True)]
        cells = rows[name]
        shown = [
            *map(int, cells[2:8]),
            *map(int, cells[8].replace("(", " ").rstrip(")").split()),
            int(cells[9]),
        ]
        assert shown == sizes, f"README row {name}: {shown}, the files give {sizes}"
    total = rows["total"]
    assert total[1] == f"{len(MODELS)} models"
    numbers = [int(n) for cell in total[2:] for n in re.findall(r"\d+", cell)]
    assert numbers == totals, f"README total row: {numbers}, the files give {totals}"


def test_readme_category_counts_match_the_tags() -> None:
    counts = {category: 0 for category in CATEGORIES}
    for c in dataset().constraints():
        for category in c.covers:
            counts[category] += 1
    text = (default_root() / "README.md").read_text(encoding="utf-8")
    for line in text.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) != 3 or not cells[0].startswith("`"):
            continue
        names = re.findall(r"`([\w-]+)`", cells[0])
        numbers = [int(n) for n in re.findall(r"\d+", cells[2])]
        assert [counts.pop(n) for n in names] == numbers, line
    assert counts == {}, f"categories missing from the README's table: {sorted(counts)}"
