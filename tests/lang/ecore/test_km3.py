"""KM3 text: grammar coverage, the Ecore structure it becomes, and errors with positions."""

from __future__ import annotations

from pathlib import Path

import pytest
from pyecore.ecore import EAttribute, EClass, EDataType, EEnum, EOperation, EReference

from benchmark.lang.ecore import MetamodelError, load_metamodel, load_resource
from benchmark.lang.ecore.km3 import Km3Class, Km3Feature, load_km3_text, parse_km3


def km3(text: str) -> tuple:
    return load_km3_text(text, "test.km3")


def test_km3_and_ecore_notations_of_one_metamodel_give_the_same_view(data: Path) -> None:
    from_km3 = load_metamodel(data / "library.km3")
    from_ecore = load_metamodel(data / "library.ecore")
    assert from_km3.to_json() == from_ecore.to_json()
    assert from_km3 == from_ecore.__class__(**{**from_ecore.__dict__, "file": from_km3.file})


def test_km3_becomes_the_ecore_structure_of_the_km3_tooling(data: Path) -> None:
    library, primitives = load_resource(data / "library.km3").roots
    assert (library.name, library.nsURI, library.nsPrefix) == ("Library", "http://example.org/library", "lib")
    assert primitives.nsURI is None
    book = library.getEClassifier("Book")
    features = {f.name: f for f in book.eStructuralFeatures}
    isbn = features["isbn"]
    assert isinstance(isbn, EAttribute)
    assert (isbn.lowerBound, isbn.upperBound, isbn.ordered, isbn.unique) == (0, 1, False, False)
    tags = features["tags"]
    assert (tags.lowerBound, tags.upperBound, tags.ordered) == (0, -1, True)
    chapters = features["chapters"]
    assert isinstance(chapters, EReference)
    assert (chapters.lowerBound, chapters.upperBound, chapters.containment, chapters.ordered) == (
        1,
        -1,
        True,
        True,
    )
    assert chapters.unique is True  # references keep Ecore's default
    assert chapters.eOpposite is library.getEClassifier("Chapter").findEStructuralFeature("book")
    assert features["default"].name == "default"  # a quoted keyword
    assert features["genre"].eType is library.getEClassifier("Genre")
    assert [s.name for s in book.eSuperTypes] == ["Named", "Item"]
    genre = library.getEClassifier("Genre")
    assert isinstance(genre, EEnum)
    assert [(lit.name, lit.value) for lit in genre.eLiterals] == [("novel", 1), ("essay", 2), ("poetry", 3)]
    member = library.getEClassifier("Member")
    assert member.findEStructuralFeature("borrowed").upperBound == 5
    assert isinstance(primitives.getEClassifier("String"), EDataType)
    assert primitives.getEClassifier("String").instanceClassName is None


def test_an_attribute_typed_by_a_class_becomes_a_containment_reference() -> None:
    (package,) = km3("package P { class A { attribute b : B; } class B {} }")
    b = package.getEClassifier("A").findEStructuralFeature("b")
    assert isinstance(b, EReference) and b.containment and b.eType is package.getEClassifier("B")


def test_nested_packages_qualified_types_operations_and_subsets() -> None:
    (outer,) = km3(
        """
        package Outer {
            class Root {
                reference parts[*] container : Inner::Part;
                reference all[*] subsets parts : Inner::Part;
            }
            package Inner {
                class Part extends Outer::Root {
                    operation weight(unit : String, precise : Boolean) : Integer;
                    operation reset();
                }
                datatype String; datatype Boolean; datatype Integer;
            }
        }
        """
    )
    (inner,) = outer.eSubpackages
    part = inner.getEClassifier("Part")
    assert part.eSuperTypes[0] is outer.getEClassifier("Root")
    assert outer.getEClassifier("Root").findEStructuralFeature("parts").eType is part
    weight, reset = part.eOperations
    assert isinstance(weight, EOperation)
    assert [(p.name, p.eType.name) for p in weight.eParameters] == [
        ("unit", "String"),
        ("precise", "Boolean"),
    ]
    assert weight.eType.name == "Integer" and reset.eType is None and list(reset.eParameters) == []


def test_abstract_and_several_supertypes_and_inherited_opposites() -> None:
    (package,) = km3(
        """
        package P {
            abstract class Node { reference owner[0-1] : Graph oppositeOf nodes; }
            class Leaf extends Node, Named {}
            abstract class Named { attribute name : String; }
            class Graph { reference nodes[*] container : Leaf oppositeOf owner; }
            datatype String;
        }
        """
    )
    leaf = package.getEClassifier("Leaf")
    assert package.getEClassifier("Node").abstract and not leaf.abstract
    assert [s.name for s in leaf.eSuperTypes] == ["Node", "Named"]
    nodes = package.getEClassifier("Graph").findEStructuralFeature("nodes")
    assert nodes.eOpposite is package.getEClassifier("Node").findEStructuralFeature("owner")  # inherited


def test_metadata_comments_right_before_a_package_set_ns_uri_and_prefix() -> None:
    first, second, third = km3(
        "-- @nsURI http://x/a\n-- header text\n\n-- @nsPrefix a\npackage A {}\n"
        "-- @nsURI http://x/b\npackage B { class C {} }\n"
        "package D {}\n"
        "-- @nsURI http://x/late\n"
    )
    assert (first.nsURI, first.nsPrefix) == ("http://x/a", "a")
    assert (second.nsURI, second.nsPrefix) == ("http://x/b", None)
    assert (third.nsURI, third.nsPrefix) == (None, None)  # a comment after a package is not its metadata


def test_comments_are_ignored_anywhere() -> None:
    (package,) = km3("-- head\npackage P { -- after brace\n class A -- here\n { } -- tail\n} -- end")
    assert [c.name for c in package.eClassifiers] == ["A"]


def test_parse_tree_keeps_positions_and_multiplicities() -> None:
    (package,) = parse_km3("package P {\n  class A {\n    reference b[2-7] ordered container : A;\n  }\n}\n")
    (cls,) = package.classifiers
    assert isinstance(cls, Km3Class) and (cls.line, cls.column) == (2, 9)
    (feature,) = cls.features
    assert isinstance(feature, Km3Feature)
    assert (feature.lower, feature.upper, feature.ordered, feature.container) == (2, 7, True, True)
    assert (feature.line, feature.column, feature.type.line, feature.type.column) == (3, 15, 3, 42)


@pytest.mark.parametrize(
    ("text", "line", "column", "message"),
    [
        ("package P {\n  class A {\n    attribute x : ;\n  }\n}\n", 3, 19, "unexpected ';'; expected a name"),
        ("package P {\n  abstact class A {}\n}\n", 2, 3, "unexpected 'abstact'"),
        ("package P {\n  class A {\n    reference r[1..2] : A;\n  }\n}\n", 3, 18, "unexpected character '.'"),
        ("package P {\n  class A {}\n", 3, 1, "unexpected end of file"),
        ("package P {\n  class A {}", 2, 13, "unexpected end of file"),
        ("package P { class A { reference r : A oppositeOf ; } }", 1, 50, "unexpected ';'"),
    ],
)
def test_syntax_errors_report_file_line_and_column(
    text: str, line: int, column: int | None, message: str
) -> None:
    with pytest.raises(MetamodelError) as caught:
        km3(text)
    error = caught.value
    assert message in error.message
    assert error.file == "test.km3"
    assert error.line == line
    if column is not None:
        assert error.column == column


def test_unknown_types_and_opposites_are_errors_at_their_position() -> None:
    with pytest.raises(MetamodelError, match="unknown type 'Missing'") as caught:
        km3("package P {\n  class A {\n    attribute x : Missing;\n  }\n}")
    assert (caught.value.line, caught.value.column) == (3, 19)
    with pytest.raises(MetamodelError, match="has no reference 'back'") as caught:
        km3("package P {\n class A { reference b : B oppositeOf back; }\n class B {}\n}")
    assert caught.value.line == 2


def test_a_type_name_defined_in_two_packages_prefers_the_own_package_else_is_ambiguous() -> None:
    own, other = km3(
        "package A { class Item {} class User { reference i : Item; } }\npackage B { class Item {} }"
    )
    assert own.getEClassifier("User").findEStructuralFeature("i").eType is own.getEClassifier("Item")
    with pytest.raises(MetamodelError, match=r"ambiguous; qualify it as one of: A::Item, B::Item"):
        km3(
            "package A { class Item {} }\n"
            "package B { class Item {} }\n"
            "package C { class U { reference i : Item; } }"
        )


def test_inheritance_cycles_are_refused() -> None:
    with pytest.raises(MetamodelError, match="inheritance cycle"):
        km3("package P { class A extends B {} class B extends A {} }")


def test_extending_a_datatype_is_refused() -> None:
    with pytest.raises(MetamodelError, match="not a class"):
        km3("package P { class A extends S {} datatype S; }")


def test_km3_files_in_latin1_load(tmp_path: Path) -> None:
    path = tmp_path / "latin.km3"
    path.write_bytes("-- modèle\npackage Modèle { class Élément {} }\n".encode("latin-1"))
    (package,) = load_resource(path).roots
    assert package.name == "Modèle" and package.eClassifiers[0].name == "Élément"
    assert isinstance(package.eClassifiers[0], EClass)


def test_km3_through_the_loader_reports_the_path(tmp_path: Path) -> None:
    path = tmp_path / "broken.km3"
    path.write_text("package P {\n  class {}\n}\n", encoding="utf-8")
    with pytest.raises(MetamodelError) as caught:
        load_resource(path)
    assert str(caught.value).startswith(f"{path}:2:9: KM3 syntax error")
