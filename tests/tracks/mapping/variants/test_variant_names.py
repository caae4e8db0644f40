"""Every name, every variant: the mapping track's task variants on any metamodel a user can load.

Real metamodels hold names that are not identifiers (the Bugzilla metamodel's operating systems
``ost_Windows 3.1``, ``ost_OS/2``), digits first, accents and other scripts, keywords of ATL, OCL and KM3,
the same name in both metamodels, names equal to what a renaming makes up (``C01``, ``RegisteredBook``),
and thousands of names. On every such pair of metamodels (Hypothesis, ``named_metamodel_pairs``: pyecore
metamodels built from generated names) every variant must:

* end (a renaming that loops is a failure here, not a hung session: ``ends_within``);
* give every name of both metamodels a valid new name (an ASCII identifier that is no keyword of ATL
  or KM3, so written unquoted in both, and no name either metamodel has) or keep it, recording why in
  the renaming (the ``kept`` list every run file of the variant records);
* give unique new names (one namespace of one metamodel never renames two names alike) and move a name
  shared by both metamodels together (``synonym``);
* be reversible: the inverse renaming gives the original views back, the recorded JSON reads back as the
  same renaming, and the same seed draws the same renaming;
* write metamodel files that read back as the renamed views wherever the original's files read back as
  the original views (``atlbench variant export`` writes them).
"""

from __future__ import annotations

import re
from dataclasses import replace

import pytest
from deadline import ends_within
from ecore_strategies import named_metamodel_pairs
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from pyecore.ecore import EAttribute, EClass, EEnum, EPackage, EReference, EString
from variant_laws import check_names, check_reversible

from benchmark.lang.ecore.build import build_view
from benchmark.lang.ecore.errors import MetamodelError
from benchmark.lang.ecore.km3 import load_km3_text
from benchmark.lang.ecore.loader import LoadedMetamodel
from benchmark.lang.ecore.pyecore_loading import load_ecore_data
from benchmark.lang.ecore.view import MetamodelView
from benchmark.lang.ecore.write import ecore_text, km3_text
from benchmark.tracks.mapping.variants.apply import rename_view
from benchmark.tracks.mapping.variants.names import NAME_ONLY, OPAQUE, SHUFFLED, SYNONYM
from benchmark.tracks.mapping.variants.renaming import (
    Renaming,
    view_names,
)
from benchmark.tracks.mapping.variants.rules import draw_renaming

#: every variant but ``original`` (the task as it is)
VARIANTS = (SYNONYM, OPAQUE, SHUFFLED, NAME_ONLY)
#: a renaming of a few dozen names takes milliseconds; this bound only turns a loop into a failure
BOUND = 60.0
SETTINGS = settings(
    max_examples=80,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.filter_too_much],
)


def view_of(roots: tuple[EPackage, ...], file: str = "generated.ecore") -> MetamodelView:
    return build_view(LoadedMetamodel(file, roots))


def drawn(variant: str, source: MetamodelView, target: MetamodelView, seed: int) -> Renaming | None:
    with ends_within(BOUND, f"the {variant} renaming of {source.name!r} and {target.name!r}"):
        return draw_renaming(variant, source, target, seed)


def read_back(text: str, suffix: str) -> MetamodelView:
    file = f"written{suffix}"
    roots = load_km3_text(text, file) if suffix == ".km3" else load_ecore_data(file, text.encode("utf-8"))
    return view_of(tuple(roots), file)


@SETTINGS
@given(pair=named_metamodel_pairs(), variant=st.sampled_from(VARIANTS), seed=st.integers(0, 2**31))
def test_every_variant_ends_and_renames_every_name_validly_uniquely_and_reversibly(
    pair, variant: str, seed: int
) -> None:
    source, target = view_of(pair[0], "source.ecore"), view_of(pair[1], "target.ecore")
    renaming = drawn(variant, source, target, seed)
    assert renaming is not None
    if variant == NAME_ONLY:
        assert renaming.source is None and renaming.target is None
        return
    check_names(renaming, source, target)
    check_reversible(renaming, source, target)
    assert drawn(variant, source, target, seed) == renaming  # reproducible


@SETTINGS
@given(pair=named_metamodel_pairs(max_classes=3), variant=st.sampled_from((SYNONYM, OPAQUE)))
def test_the_renamed_metamodels_written_as_files_read_back_as_the_renamed_views(pair, variant: str) -> None:
    """What ``atlbench variant export`` writes for a person: the renamed metamodel as .ecore reads back as
    the renamed view, and as .km3 with the same names, on every metamodel whose own files read back so
    (the writers' handling of odd original structures, such as a package and its class of one name, is
    no part of the variants; a renaming must not make such a structure)."""
    source, target = view_of(pair[0], "source.ecore"), view_of(pair[1], "target.ecore")
    assume(round_trips(source))
    renaming = drawn(variant, source, target, 0)
    assert renaming is not None and renaming.source is not None
    renamed = rename_view(source, renaming.source)
    assert read_back(ecore_text(renamed), ".ecore") == replace(renamed, file="written.ecore")
    # KM3 has its own defaults (ordered, unique) and declares Ecore's types: the names must read back
    assert names_of(read_back(km3_text(renamed), ".km3")) == names_of(renamed)


def round_trips(view: MetamodelView) -> bool:
    try:
        ecore = read_back(ecore_text(view), ".ecore")
        km3 = read_back(km3_text(view), ".km3")
    except (MetamodelError, RuntimeError):
        return False
    return ecore == replace(view, file="written.ecore") and names_of(km3) == names_of(view)


def names_of(view: MetamodelView) -> tuple[object, ...]:
    return (
        [
            (c.qualified_name, c.supertypes, [(f.name, f.type_name, f.opposite) for f in c.features])
            for c in view.classes
        ],
        [(e.qualified_name, e.literals) for e in view.enums],
    )


# ------------------------------------------------------------------------------- the Bugzilla shape

#: the shape of the Bugzilla metamodel's operating systems (the Zoo's Bugzilla2XML; names written here
#: for the test): enumeration literals with spaces, dots, slashes and hyphens
BUGZILLA_LITERALS = (
    "ost_All", "ost_Windows 3.1", "ost_Windows XP", "ost_Mac OS X 10.0", "ost_OS/2", "ost_HP-UX",
)  # fmt: skip


def bugzilla_shaped() -> tuple[MetamodelView, MetamodelView]:
    source = EPackage("Bugzilla", nsURI="http://example.org/bugzilla", nsPrefix="bugzilla")
    system = EEnum("OperatingSystemType", literals=list(BUGZILLA_LITERALS))
    bug = EClass("Bug")
    bug.eStructuralFeatures.append(EAttribute("op_sys", system))
    bug.eStructuralFeatures.append(EAttribute("bug_id", EString))
    source.eClassifiers.extend([bug, system])
    target = EPackage("XML", nsURI="http://example.org/xml", nsPrefix="xml")
    node, element = EClass("Node"), EClass("Element")
    element.eSuperTypes.append(node)
    node.eStructuralFeatures.append(EAttribute("name", EString))
    element.eStructuralFeatures.append(EReference("children", node, upper=-1, containment=True))
    target.eClassifiers.extend([node, element])
    return view_of((source,), "Bugzilla.ecore"), view_of((target,), "XML.ecore")


@pytest.mark.parametrize("variant", VARIANTS)
def test_the_bugzilla_shape_ends_in_every_variant_and_renames_its_literals(variant: str) -> None:
    source, target = bugzilla_shaped()
    renaming = drawn(variant, source, target, 0)
    assert renaming is not None
    if variant == NAME_ONLY:
        return
    check_names(renaming, source, target)
    check_reversible(renaming, source, target)
    if variant in (SYNONYM, OPAQUE):
        assert renaming.source is not None
        assert set(renaming.source.literals) == set(BUGZILLA_LITERALS)
    if variant == SYNONYM:
        assert renaming.source is not None
        literals, fallbacks = renaming.source.literals, renaming.source.fallbacks
        # renamed from its identifier form: the words in order, each separator one "_", a word of the
        # table replaced by a synonym ("Windows") ...
        assert re.fullmatch(r"ost_[A-Z][a-z]+_3_1", literals["ost_Windows 3.1"])
        assert ("literal", "ost_Windows 3.1") not in fallbacks
        # ... and a literal none of whose words the table knows qualified, as a fallback
        assert literals["ost_HP-UX"].startswith("ost_HP_UX") and ("literal", "ost_HP-UX") in fallbacks


# ---------------------------------------------------------------------------------- thousands of names


def crowded() -> tuple[MetamodelView, MetamodelView]:
    """Two metamodels of 3,000 names each, many of which spell alike once made identifiers
    (``ost_OS 1.1``, ``ost_OS/1_1``...) or are what a renaming makes up (``Book2``, ``C0042``)."""
    packages = []
    for side in ("Source", "Target"):
        package = EPackage(side, nsURI=f"http://example.org/{side}", nsPrefix=side.lower())
        literals = [f"ost_OS {i // 10}.{i % 10}" for i in range(600)]
        literals += [f"ost_OS/{i // 10}_{i % 10}" for i in range(600)]
        package.eClassifiers.append(EEnum("Systems", literals=literals))
        for i in range(300):
            eclass = EClass(f"Book{i}" if i % 2 else f"C{i:04d}")
            for j in range(5):
                name = f"title {i}.{j}" if j % 2 else f"a{i:02d}{j}"
                eclass.eStructuralFeatures.append(EAttribute(name, EString))
            package.eClassifiers.append(eclass)
        packages.append(package)
    return view_of((packages[0],), "source.ecore"), view_of((packages[1],), "target.ecore")


@pytest.mark.parametrize("variant", (SYNONYM, OPAQUE, SHUFFLED))
def test_thousands_of_names_that_spell_alike_are_renamed_apart(variant: str) -> None:
    source, target = crowded()
    assert sum(len(n) for n in view_names(source).values()) > 3000
    renaming = drawn(variant, source, target, 7)
    assert renaming is not None
    check_names(renaming, source, target)
    check_reversible(renaming, source, target)
