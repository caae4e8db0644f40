"""The NameEquality baseline on a small pair worked out by hand, and the baseline registry."""

from __future__ import annotations

from pathlib import Path

import pytest

from benchmark.core.errors import ConfigurationError
from benchmark.lang.ecore import load_resource
from benchmark.tracks.mapping.baselines import BASELINES, run_baseline
from benchmark.tracks.mapping.baselines.name_equality import name_equality

SOURCE = """
package Families {
    abstract class Named { attribute name : String; }
    class Family extends Named {
        attribute lastName : String;
        reference members[*] container : Member oppositeOf family;
    }
    class Member extends Named {
        attribute firstName : String;
        reference family : Family oppositeOf members;
    }
    class Address { attribute street : String; }
}
package PrimitiveTypes { datatype String; }
"""

TARGET = """
package Persons {
    class Person {
        attribute fullName : String;
        attribute name : String;
    }
    class Member {
        attribute firstName : String;
        attribute name[0-1] : String;
        reference family : Household;
    }
    class Household { attribute street : String; }
    class Named { attribute title : String; }
}
package PrimitiveTypes { datatype String; }
"""


@pytest.fixture
def data() -> Path:
    """The metamodels of the language tests (``tests/lang/ecore/data``)."""
    return Path(__file__).resolve().parents[3] / "lang" / "ecore" / "data"


@pytest.fixture
def pair(tmp_path: Path) -> tuple[Path, Path]:
    source = tmp_path / "Families.km3"
    target = tmp_path / "Persons.km3"
    source.write_text(SOURCE, encoding="utf-8")
    target.write_text(TARGET, encoding="utf-8")
    return source, target


def _pairs(document: dict) -> list[tuple]:
    return [
        (
            m["kind"],
            m["source"]["class"],
            m["source"]["feature"],
            m["target"]["class"],
            m["target"]["feature"],
        )
        for m in document["mappings"]
    ]


def test_same_named_classes_and_their_same_named_features_are_mapped(pair: tuple[Path, Path]) -> None:
    document = name_equality(load_resource(pair[0]), load_resource(pair[1]))
    assert _pairs(document) == [
        ("class", "Named", None, "Named", None),  # Named.name has no counterpart in Persons' Named
        ("class", "Member", None, "Member", None),
        ("attribute", "Member", "firstName", "Member", "firstName"),
        ("attribute", "Member", "family", "Member", "family"),  # names only: the types differ
        ("attribute", "Member", "name", "Member", "name"),  # inherited in the source, own in the target
    ]
    # Address.street and Household.street share a name but not their classes: no mapping.
    assert all(m["confidence"] == "high" and m["provider"] == "NameEquality" for m in document["mappings"])


def test_the_export_is_a_jjodel_document_of_provider_name_equality(pair: tuple[Path, Path]) -> None:
    document = name_equality(load_resource(pair[0]), load_resource(pair[1]))
    assert document["jjodel"] == {"exportType": "suggested-mappings", "schemaVersion": 1}
    assert document["analysis"]["provider"] == "NameEquality"
    assert document["transformation"] == {
        "name": "Families2Persons",
        "source": "Families",
        "target": "Persons",
    }


def test_a_metamodel_against_itself_maps_every_class_and_feature(data: Path) -> None:
    loaded = load_resource(data / "library.km3")
    document = name_equality(loaded, loaded)
    classes = [m for m in document["mappings"] if m["kind"] == "class"]
    features = [m for m in document["mappings"] if m["kind"] == "attribute"]
    assert len(classes) == 6
    # own + inherited features of every class: Named 1, Library 3, Book 8, Chapter 3, Item 1, Member 2
    assert len(features) == 18
    assert all(m["source"] == m["target"] for m in document["mappings"])


def test_registry_runs_baselines_by_name_from_files(pair: tuple[Path, Path]) -> None:
    assert "NameEquality" in BASELINES
    document = run_baseline("NameEquality", pair[0], pair[1], transformation="Families2Persons-v2")
    assert document["transformation"]["name"] == "Families2Persons-v2"
    assert _pairs(document) == _pairs(name_equality(load_resource(pair[0]), load_resource(pair[1])))
    with pytest.raises(ConfigurationError, match="unknown baseline 'Nope'; known baselines: .*NameEquality"):
        run_baseline("Nope", pair[0], pair[1])
