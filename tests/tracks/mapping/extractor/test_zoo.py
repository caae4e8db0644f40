"""Spot checks on public ATL Zoo transformations, when the zoo is present (CI does not have it).

The expected values were checked by hand against the semantics of docs/INTERCHANGE_FORMAT.md. Set
ATLBENCH_ZOO to a local copy of the Zoo (as `atlbench zoo build` reads it)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from benchmark.lang.atl import AtlSyntaxError
from benchmark.tracks.mapping import interchange
from benchmark.tracks.mapping.extractor import extract_file

ZOO = Path(os.environ.get("ATLBENCH_ZOO") or "/nonexistent-atl-zoo")

pytestmark = pytest.mark.skipif(not ZOO.is_dir(), reason="no local ATL Zoo (set ATLBENCH_ZOO to a checkout)")


def _features(document, source, target):
    match = document.class_match(source, target)
    assert match is not None, (source, target)
    return {f.target_feature: f for f in match.feature_matches}


def test_book2publication():
    document = extract_file(ZOO / "Book2Publication/ATLFile/Book2Publication.atl")
    features = _features(document, "Book", "Publication")
    assert features["nbPages"].source_paths == ("chapters", "chapters.nbPages")
    assert features["nbPages"].helpers == ("getSumPages",)
    assert features["authors"].source_paths == ("chapters", "chapters.author")
    assert features["title"].source_paths == ("title",)
    assert document.diagnostics == ()


def test_class2relational_shared_pairs_and_missing_library():
    document = extract_file(ZOO / "Class2Relational/ATLFile/Class2Relational.atl")
    assert sorted(m.key for m in document.class_matches) == [
        ("Attribute", "Column"),
        ("Attribute", "Table"),
        ("Class", "Column"),
        ("Class", "Table"),
        ("DataType", "Type"),
    ]
    column = document.class_match("Attribute", "Column")
    assert len(column.rules) == 4
    assert _features(document, "Attribute", "Column")["name"].source_paths == ("name", "owner", "owner.name")
    assert _features(document, "Class", "Table")["col"].source_paths == ("attr", "attr.multiValued")
    assert _features(document, "Class", "Column")["type"].source_paths == ()  # thisModule attribute
    assert [(d.code, d.line) for d in document.diagnostics] == [
        ("unknown-operation", 73),
        ("unknown-operation", 105),
    ]


def test_grafcet2petrinet_quoted_keyword_features():
    document = extract_file(ZOO / "Grafcet2PetriNet/Transformations/Grafcet2PetriNet.atl")
    features = _features(document, "StepToTransition", "PlaceToTransition")
    assert features["from"].source_paths == ("from",) and features["to"].source_paths == ("to",)
    assert len(document.class_matches) == 5 and document.diagnostics == ()


def test_xml2ant_helpers_over_children():
    document = extract_file(ZOO / "Ant2Maven/transfo/XML2Ant.atl")
    project = _features(document, "Root", "Project")
    assert project["name"].source_paths == ("children", "children.name", "children.value")
    assert project["name"].helpers == ("getAttrVal", "getAttribute", "testAttribute")
    assert project["description"].source_paths == (
        "children",
        "children.children",
        "children.children.value",
        "children.name",
    )
    target = _features(document, "Element", "Target")
    assert "getListAux" in target["depends"].helpers
    assert len(document.class_matches) == 29


def test_every_zoo_document_is_valid_and_byte_stable():
    files = sorted(ZOO.glob("*/**/*.atl"))[:40]  # a sample keeps the suite fast; the bench runs them all
    for path in files:
        try:
            document = extract_file(path)
        except AtlSyntaxError:
            assert "KM32DOT" in str(path)  # rejected by the official parser too
            continue
        text = interchange.dumps(document)
        interchange.validate(document.to_json())
        assert interchange.dumps(extract_file(path)) == text
