"""A metamodel view written as ``.ecore`` and ``.km3`` and read back: the laws of
:mod:`benchmark.lang.ecore.write`, on every bundled metamodel of the mapping track and on names KM3 must
quote."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from benchmark.lang.ecore import load_metamodel
from benchmark.lang.ecore.view import ClassView, FeatureView, MetamodelView, PackageView
from benchmark.lang.ecore.write import KM3_TYPES_PACKAGE, ecore_text, km3_name, km3_text

VALIDATION = Path(__file__).resolve().parents[3] / "validation"
MAPPING_METAMODELS = sorted(
    p for p in VALIDATION.glob("*/*") if p.suffix in (".ecore", ".km3") and p.parent.name != "roundtrip"
)


def _read_back(text: str, suffix: str, tmp_path: Path) -> MetamodelView:
    path = tmp_path / f"written{suffix}"
    path.write_text(text, encoding="utf-8")
    return load_metamodel(path)


@pytest.mark.parametrize("path", MAPPING_METAMODELS, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_the_written_ecore_reads_back_as_the_same_view(path: Path, tmp_path: Path) -> None:
    view = load_metamodel(path)
    assert replace(_read_back(ecore_text(view), ".ecore", tmp_path), file=view.file) == view


@pytest.mark.parametrize("path", [p for p in MAPPING_METAMODELS if p.suffix == ".km3"], ids=lambda p: p.name)
def test_the_written_km3_of_a_km3_view_reads_back_as_the_same_view(path: Path, tmp_path: Path) -> None:
    view = load_metamodel(path)
    assert replace(_read_back(km3_text(view), ".km3", tmp_path), file=view.file) == view


def test_an_ecore_view_written_as_km3_differs_only_by_notation(tmp_path: Path) -> None:
    """Book.ecore uses Ecore's types: KM3 declares them in a PrimitiveTypes package, and its features
    take KM3's defaults for ordered and unique; everything else is the same."""
    view = load_metamodel(VALIDATION / "book2publication" / "Book.ecore")
    text = km3_text(view)
    assert f"package {KM3_TYPES_PACKAGE} {{\n\tdatatype EString;\n\tdatatype EInt;\n}}" in text
    back = _read_back(text, ".km3", tmp_path)
    assert [c.name for c in back.classes] == [c.name for c in view.classes]
    for written, read in zip(view.classes, back.classes, strict=True):
        assert written.supertypes == read.supertypes
        for a, b in zip(written.features, read.features, strict=True):
            assert replace(a, ordered=b.ordered, unique=b.unique) == b
    assert [p.ns_uri for p in back.packages][:1] == [view.packages[0].ns_uri]


def test_names_that_are_km3_keywords_or_not_identifiers_are_quoted(tmp_path: Path) -> None:
    assert km3_name("title") == "title"
    assert km3_name("class") == '"class"' and km3_name("oppositeOf") == '"oppositeOf"'
    assert km3_name('odd "name"') == '"odd \\"name\\""'
    feature = FeatureView("class", "package", "reference", "package", 0, -1, True, True, True, "reference")
    back_ref = FeatureView("reference", "package", "reference", "package", 0, 1, True, True, False, "class")
    package_class = ClassView(
        "package", "M::package", "M", features=(feature, back_ref), all_features=(feature, back_ref)
    )
    view = MetamodelView(
        "M",
        "<memory>",
        packages=(PackageView("M", "M", "urn:m", "m", classifiers=("package",)),),
        classes=(package_class,),
    )
    for text, suffix in ((km3_text(view), ".km3"), (ecore_text(view), ".ecore")):
        back = _read_back(text, suffix, tmp_path)
        assert [(f.name, f.type_name, f.opposite) for f in back.classes[0].features] == [
            ("class", "package", "reference"),
            ("reference", "package", "class"),
        ]
