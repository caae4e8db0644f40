"""The law of the model transformations: they change no verdict.

For every mode, model, invariant and state, the transformed invariant's verdict on the transformed state
equals the original invariant's verdict on the original state (and the state's structure is as valid as
before). Checked three ways:

* on generated models, invariants and states (hypothesis, ``tests/support/ocl_models.py``), through the
  writers: the transformed model, constraints and states are written as ``.use``/constraints/SOIL text
  and read back before they are judged;
* on the small fixture dataset ``tests/lang/ocl/data/transform`` (two models, two layouts, a constraints file,
  a specification, states with undefined values and broken multiplicities), through ``atlbench``'s
  dataset transformation and files, for every mode and two seeds;
* on the bundled dataset ``validation/ocl`` when it exists (it is written by the dataset part of the
  track; the test says so when it skips): in memory for every mode, and once through the files.

Association reification has two forms (a class with two associations, or an association class); the
generated models draw the form, the fixture and the bundled dataset are checked in both for every mode
with an association step.
"""

from __future__ import annotations

import functools
from pathlib import Path

import pytest
from deadline import ends_within
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from ocl_models import Scenario, odd_identifiers, scenarios

from benchmark.lang.ocl.check import check_invariant, check_state
from benchmark.lang.ocl.soil import parse_soil
from benchmark.lang.ocl.soil_writer import write_soil
from benchmark.lang.ocl.use_io import parse_constraints, parse_use, write_constraints, write_use
from benchmark.tracks.ocl.transform.dataset import LoadedDataset, load_dataset, transform_dataset
from benchmark.tracks.ocl.transform.modes import MODES, transform
from benchmark.tracks.ocl.transform.names import is_legal
from benchmark.tracks.ocl.transform.reify_association import ASSOCIATION_CLASS_FORM, FORMS
from benchmark.tracks.ocl.transform.subject import Subject, detached

FIXTURE = Path(__file__).resolve().parents[3] / "lang" / "ocl" / "data" / "transform"
VALIDATION = Path(__file__).resolve().parents[4] / "validation" / "ocl"

# Each example transforms one model twice (a drawn mode and `full') and judges 4 invariants on 2
# states before and after: 40 examples take a few seconds and reach every step and rewrite rule.
LAW_SETTINGS = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])

Verdicts = list[tuple[tuple[str, ...], bool]]

# (mode, association form): every mode in the class form, the modes with an association step in the
# association-class form too
MODE_FORMS = [(m, "class") for m in sorted(MODES)] + [
    (m, ASSOCIATION_CLASS_FORM) for m in sorted(MODES) if "association" in MODES[m]
]


def verdicts(subject: Subject) -> Verdicts:
    """Per state: the status of every invariant (model's, then extra ones) and whether the structure
    holds."""
    runtime = subject.check()
    compiled = runtime.invariants + [runtime.compile_invariant(inv) for inv in subject.extra]
    out = []
    for state in subject.states:
        ctx = runtime.context(state)
        statuses = tuple(check_invariant(ci, ctx).status for ci in compiled)
        out.append((statuses, not check_state(runtime, state).structure))
    return out


def reread(subject: Subject) -> Subject:
    """The subject written as text and read back (what the files hold)."""
    model = parse_use(write_use(subject.model), file="transformed.use")
    extra = (
        parse_constraints(write_constraints(subject.extra), detached(model), file="transformed.ocl")
        if subject.extra
        else []
    )
    states = [
        parse_soil(write_soil(s), model, file=f"state{i}.soil").state for i, s in enumerate(subject.states)
    ]
    return Subject(model, extra, states)


def build(scenario: Scenario) -> Subject:
    """Half of the invariants in the model, half kept outside it (like a constraints file)."""
    model = parse_use(scenario.model.use_text(scenario.invariants[:2]), file="generated.use")
    text = "\n".join(f"context {c} inv {n}: {e}" for c, n, e in scenario.invariants[2:])
    extra = parse_constraints(text, detached(model), file="generated.ocl")
    states = [parse_soil(t, model, file=f"generated{i}.soil").state for i, t in enumerate(scenario.states)]
    return Subject(model, extra, states)


@LAW_SETTINGS
@given(scenarios(), st.sampled_from(sorted(MODES)), st.integers(0, 3), st.sampled_from(FORMS))
def test_law_on_generated_models(scenario: Scenario, mode: str, seed: int, form: str) -> None:
    subject = build(scenario)
    expected = verdicts(subject)
    for each in dict.fromkeys([mode, "full"]):
        transformed, _ = transform(subject, each, seed, association_form=form)
        assert verdicts(reread(transformed)) == expected, f"mode {each}, seed {seed}, {form} form"


@LAW_SETTINGS
@given(scenarios(names=odd_identifiers()), st.sampled_from(("rename", "full")), st.integers(0, 3))
def test_law_on_generated_models_with_names_of_every_legal_shape(
    scenario: Scenario, mode: str, seed: int
) -> None:
    """The renaming ends and keeps every verdict on models whose names are any legal USE name: ``$``
    first, underscores, digits, and names the renaming makes up itself (``RegisteredPerson``,
    ``Person2``); every new name is a legal name that no element of the original model had."""
    subject = build(scenario)
    expected = verdicts(subject)
    with ends_within(60, f"the {mode} transformation"):
        transformed, mapping = transform(subject, mode, seed)
    assert verdicts(reread(transformed)) == expected, f"mode {mode}, seed {seed}"
    model = subject.model
    old = {*model.classes, *model.associations} | {
        a.name for c in model.classes.values() for a in c.attributes
    }
    old |= {e.name for a in model.associations.values() for e in a.ends}
    new = transformed.model
    renamed = {*new.classes, *new.associations} | {a.name for c in new.classes.values() for a in c.attributes}
    renamed |= {e.name for a in new.associations.values() for e in a.ends}
    assert all(is_legal(name) for name in renamed - old)
    if mode == "rename":
        assert not renamed & old, "a new name is an old one"


def dataset_verdicts(root: Path, dataset: LoadedDataset | None = None) -> dict[tuple[str, str], Verdicts]:
    """Verdicts of every model's states, by (model file, state file) relative to ``root``."""
    out = {}
    for loaded, _ in (dataset or load_dataset(root)).models:
        subject = loaded.subject
        for (path, _), verdict in zip(loaded.files.states, verdicts(subject), strict=True):
            out[(str(loaded.files.use.relative_to(root)), str(path.relative_to(root)))] = [verdict]
    return out


def _check_dataset(
    root: Path,
    mode: str,
    seeds: tuple[int, ...],
    tmp_path: Path,
    dataset: LoadedDataset | None = None,
    form: str = "class",
) -> None:
    expected = dataset_verdicts(root, dataset)
    assert expected, f"{root} has no state to judge"
    for seed in seeds:
        out = tmp_path / f"{mode}-{seed}"
        transform_dataset(root, mode, seed, out, association_form=form)
        assert dataset_verdicts(out) == expected, f"mode {mode}, seed {seed}, {form} form"


@pytest.mark.parametrize(("mode", "form"), MODE_FORMS)
def test_law_on_the_fixture_dataset(mode: str, form: str, tmp_path: Path) -> None:
    _check_dataset(FIXTURE, mode, (0, 1), tmp_path, form=form)


def test_the_fixture_dataset_discriminates() -> None:
    """The fixture's states tell its invariants apart, so the law above could fail: every invariant is OK
    on some state and FAILED on another -- except ``booksAsSet``, a tautology on the original model that
    guards the rewriting of ordered ends (it fails if a reified ``books`` is a Sequence, not an
    OrderedSet)."""
    statuses: dict[str, set[str]] = {}
    for loaded, _ in load_dataset(FIXTURE).models:
        subject = loaded.subject
        names = [inv.qualified_name for inv in [*subject.model.invariants, *subject.extra]]
        for found, _ in verdicts(subject):
            for name, status in zip(names, found, strict=True):
                statuses.setdefault(name, set()).add(status)
    assert len(statuses) == 25  # 15 + 2 (library.ocl) + 8; the specification repeats them
    assert {name for name, found in statuses.items() if found != {"OK", "FAILED"}} == {"Branch::booksAsSet"}


@functools.cache
def _bundled_dataset() -> LoadedDataset:
    return load_dataset(VALIDATION)


@functools.cache
def _bundled() -> list[tuple[Subject, Verdicts]]:
    """The bundled dataset's models, read once per process, with their verdicts."""
    return [(loaded.subject, verdicts(loaded.subject)) for loaded, _ in _bundled_dataset().models]


def _require_bundled() -> None:
    if not VALIDATION.is_dir():
        pytest.skip(f"{VALIDATION} does not exist yet (the dataset part of the OCL track writes it)")


@pytest.mark.parametrize(("mode", "form"), MODE_FORMS)
def test_law_on_the_bundled_dataset(mode: str, form: str) -> None:
    """In memory: reading the 13,000 SOIL lines once serves every mode."""
    _require_bundled()
    for subject, expected in _bundled():
        transformed, _ = transform(subject, mode, 0, association_form=form)
        assert verdicts(transformed) == expected, f"{subject.model.name}, mode {mode}, {form} form"


@pytest.mark.parametrize("form", FORMS)
def test_the_bundled_dataset_transformed_on_disk_keeps_its_verdicts(tmp_path: Path, form: str) -> None:
    """Through the files as well, once per association form, in the mode that runs every step."""
    _require_bundled()
    _check_dataset(VALIDATION, "full", (0,), tmp_path, _bundled_dataset(), form)
