"""The read-only view built from loaded metamodels: kinds, bounds, supertypes, features, lookups."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from benchmark.lang.ecore import (
    AmbiguousNameError,
    MetamodelView,
    UnknownNameError,
    build_view,
    load_metamodel,
    load_resource,
)
from benchmark.lang.ecore.view import UNBOUNDED

TWO_PACKAGES = """
package Shop {
    class Item { attribute price : Real; }
    class Order { reference items[*] : Item; }
}
package Stock {
    class Item { attribute quantity : Integer; }
}
package PrimitiveTypes { datatype Real; datatype Integer; }
"""


@pytest.fixture
def library(data: Path) -> MetamodelView:
    return load_metamodel(data / "library.km3")


@pytest.fixture
def bookstore(data: Path) -> MetamodelView:
    return load_metamodel(data / "bookstore.ecore")


def test_view_lists_packages_classes_enums_and_datatypes(library: MetamodelView) -> None:
    assert library.name == "Library"
    assert [p.qualified_name for p in library.packages] == ["Library", "PrimitiveTypes"]
    assert [c.name for c in library.classes] == ["Named", "Library", "Book", "Chapter", "Item", "Member"]
    assert [(e.name, e.literals) for e in library.enums] == [("Genre", ("novel", "essay", "poetry"))]
    assert [(d.qualified_name, d.instance_type) for d in library.datatypes] == [
        ("PrimitiveTypes::String", None),
        ("PrimitiveTypes::Integer", None),
        ("PrimitiveTypes::Boolean", None),
    ]
    assert library.packages[0].classifiers[-1] == "Genre"


def test_features_carry_kind_type_bounds_containment_and_opposite(library: MetamodelView) -> None:
    book = library.get_class("Book")
    chapters = book.feature("chapters")
    assert chapters is not None
    assert (chapters.kind, chapters.type_name, chapters.lower, chapters.upper) == (
        "reference",
        "Chapter",
        1,
        UNBOUNDED,
    )
    assert chapters.many and chapters.containment and chapters.opposite == "book" and chapters.ordered
    isbn = book.feature("isbn")
    assert isbn is not None and (isbn.kind, isbn.type_name, isbn.lower, isbn.upper) == (
        "attribute",
        "String",
        0,
        1,
    )
    assert not isbn.many and not isbn.ordered and not isbn.unique
    genre = book.feature("genre")
    assert genre is not None and genre.kind == "attribute" and genre.type_name == "Genre"
    assert library.feature_kind("Book", "library") == "reference"
    assert library.feature_kind("Book", "name") == "attribute"  # inherited from Named
    assert library.feature_kind("Book", "nothing") == "unknown"
    assert library.feature_kind("Nothing", "name") == "unknown"


def test_own_features_come_before_inherited_ones_nearest_supertype_first(bookstore: MetamodelView) -> None:
    shelf = bookstore.get_class("Shelf")
    assert shelf.supertypes == ("Named", "Located")
    assert shelf.all_supertypes == ("Named", "Located", "Positioned")  # breadth first: nearest first
    assert [f.name for f in shelf.features] == ["store", "capacity", "kind", "code", "label"]
    assert [(f.name, f.owner) for f in shelf.all_features[len(shelf.features) :]] == [
        ("name", "Named"),
        ("aisle", "Located"),
        ("x", "Positioned"),
        ("name", "Positioned"),
    ]
    name = shelf.feature("name")
    assert name is not None and name.owner == "Named" and name.lower == 1  # the nearest declaration wins
    assert shelf.feature("code") is not None and shelf.feature("code").is_id  # type: ignore[union-attr]
    assert shelf.feature("label") is not None and shelf.feature("label").derived  # type: ignore[union-attr]
    named = bookstore.get_class("Named")
    assert named.abstract and named.interface and named.qualified_name == "bookstore::core::Named"
    assert named.package == "bookstore::core"


def test_inherited_features_show_in_json_with_their_declaring_class(bookstore: MetamodelView) -> None:
    shelf = next(c for c in bookstore.to_json()["classes"] if c["name"] == "Shelf")
    assert [f["name"] for f in shelf["features"]] == ["store", "capacity", "kind", "code", "label"]
    assert [(f["name"], f["from"]) for f in shelf["inheritedFeatures"]] == [
        ("name", "Named"),
        ("aisle", "Located"),
        ("x", "Positioned"),
        ("name", "Positioned"),
    ]
    store = shelf["features"][0]
    assert store == {
        "name": "store",
        "kind": "reference",
        "type": "Store",
        "lower": 1,
        "upper": 1,
        "ordered": True,
        "unique": True,
        "containment": False,
        "opposite": "shelves",
    }
    assert json.loads(json.dumps(bookstore.to_json())) == bookstore.to_json()  # plain JSON values only


def test_external_supertypes_contribute_inherited_features(tmp_path: Path) -> None:
    path = tmp_path / "ext.ecore"
    path.write_text(
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        '<ecore:EPackage xmi:version="2.0" xmlns:xmi="http://www.omg.org/XMI" '
        'xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" '
        'xmlns:ecore="http://www.eclipse.org/emf/2002/Ecore" name="ext">'
        '<eClassifiers xsi:type="ecore:EClass" name="Element" '
        'eSuperTypes="platform:/plugin/org.eclipse.emf.ecore/model/Ecore.ecore#//EModelElement"/>'
        "</ecore:EPackage>\n",
        encoding="utf-8",
    )
    element = load_metamodel(path).get_class("Element")
    assert element.all_supertypes == ("EModelElement",)
    annotations = element.feature("eAnnotations")
    assert annotations is not None
    assert (annotations.owner, annotations.type_name, annotations.containment) == (
        "EModelElement",
        "EAnnotation",
        True,
    )


def test_simple_name_lookup_is_refused_when_ambiguous_and_qualified_names_work(tmp_path: Path) -> None:
    path = tmp_path / "two.km3"
    path.write_text(TWO_PACKAGES, encoding="utf-8")
    view = load_metamodel(path)
    with pytest.raises(
        AmbiguousNameError, match=r"'Item' is ambiguous; qualify it as one of: Shop::Item, Stock::Item"
    ):
        view.find_class("Item")
    assert view.get_class("Stock::Item").feature("quantity") is not None
    assert view.get_class("Shop::Item").feature("quantity") is None
    assert view.get_class("Order").feature("items") is not None
    assert view.has_class("Item") and not view.has_class("Basket")
    with pytest.raises(UnknownNameError, match="has no class 'Basket'"):
        view.get_class("Basket")
    assert view.find_class("Basket") is None


def test_build_view_equals_load_metamodel(data: Path) -> None:
    assert build_view(load_resource(data / "bookstore.ecore")) == load_metamodel(data / "bookstore.ecore")


def test_zoo_metamodels_load_when_the_zoo_is_present() -> None:
    zoo = Path("/work/ext/aymaneo+LLM-Agents-for-Model-Based-Engineering/atl-zoo/Book2Publication")
    if not zoo.is_dir():
        pytest.skip("ATL Zoo not present (optional local corpus)")
    book = load_metamodel(zoo / "Book" / "Book.ecore")
    assert [c.name for c in book.classes] == ["Book", "Chapter"]
    assert book.get_class("Book").feature("chapters").opposite == "book"  # type: ignore[union-attr]
    assert load_metamodel(zoo / "Book" / "Book.km3").get_class("Chapter").feature("nbPages") is not None
