"""What the port reads from a metamodel: scope order, EMF defaults, thresholds and positional paths.

Thresholds are ``(weights of the set features + containing-feature weight) x ratio`` with the ratio
0.6 / 0.6 / 0.55 / 0.465 for 1 / 2 / 3 / 4+ set features; weights are name 400, other attributes 100,
references 50; the containing-feature weight is 150 for features, annotations and operations, else 20.
"""

from __future__ import annotations

from collections.abc import Callable

from benchmark.lang.ecore import LoadedMetamodel
from benchmark.tracks.mapping.baselines.emfcompare.distance import proximity
from benchmark.tracks.mapping.baselines.emfcompare.naming import qualified_name
from benchmark.tracks.mapping.baselines.emfcompare.scope import Node, build_scope

STRING = "ecore:EDataType http://www.eclipse.org/emf/2002/Ecore#//EString"

BODY = f"""
  <eAnnotations source="doc"><details key="k" value="v"/></eAnnotations>
  <eClassifiers xsi:type="ecore:EClass" name="Named" abstract="true"/>
  <eClassifiers xsi:type="ecore:EClass" name="Book" eSuperTypes="#//Named">
    <eOperations name="lend"><eParameters name="days" eType="{STRING}"/></eOperations>
    <eStructuralFeatures xsi:type="ecore:EAttribute" name="title" ordered="false" lowerBound="1"
        eType="{STRING}"/>
    <eStructuralFeatures xsi:type="ecore:EReference" name="chapters" upperBound="-1"
        eType="#//Chapter" containment="true" eOpposite="#//Chapter/book"/>
    <eStructuralFeatures xsi:type="ecore:EReference" name="shelf" eType="#//Shelf" resolveProxies="false"/>
  </eClassifiers>
  <eClassifiers xsi:type="ecore:EClass" name="Chapter">
    <eStructuralFeatures xsi:type="ecore:EReference" name="book" lowerBound="1" eType="#//Book"
        eOpposite="#//Book/chapters"/>
  </eClassifiers>
  <eClassifiers xsi:type="ecore:EClass" name="Shelf"/>
  <eClassifiers xsi:type="ecore:EDataType" name="Isbn" instanceClassName="java.lang.String"/>
  <eClassifiers xsi:type="ecore:EDataType" name="Money" serializable="false"/>
  <eClassifiers xsi:type="ecore:EEnum" name="Kind">
    <eLiterals name="NOVEL"/>
    <eLiterals name="ESSAY" value="3" literal="essay"/>
  </eClassifiers>
  <eSubpackages name="extra"><eClassifiers xsi:type="ecore:EClass" name="Note"/></eSubpackages>
"""


def _nodes(
    load_ecore: Callable[[str, str], LoadedMetamodel], ecore_package: Callable[[str, str], str]
) -> dict[str, Node]:
    loaded = load_ecore("library.ecore", ecore_package('name="library"', BODY))
    nodes, _ = build_scope(loaded.roots, 0)
    return {qualified_name(node): node for node in nodes}


def test_scope_is_emf_pre_order_with_annotation_entries(load_ecore, ecore_package) -> None:
    loaded = load_ecore("library.ecore", ecore_package('name="library"', BODY))
    nodes, _ = build_scope(loaded.roots, 0)
    assert [qualified_name(n) for n in nodes] == [
        "library",
        "library/@doc#0",  # EPackage contents: eAnnotations, eClassifiers, eSubpackages
        "library/@doc#0/[k]",  # EMF's EStringToStringMapEntry, which pyecore stores as a dict
        "library/Named",
        "library/Book",
        "library/Book/lend(days)",  # EClass contents: eOperations before eStructuralFeatures
        "library/Book/lend(days)/days",
        "library/Book/title",
        "library/Book/chapters",
        "library/Book/shelf",
        "library/Chapter",
        "library/Chapter/book",
        "library/Shelf",
        "library/Isbn",
        "library/Money",
        "library/Kind",
        "library/Kind/NOVEL",
        "library/Kind/ESSAY",
        "library/extra",
        "library/extra/Note",
    ]


def test_thresholds_follow_the_set_features(load_ecore, ecore_package) -> None:
    nodes = _nodes(load_ecore, ecore_package)
    expected = {
        "library": (400 + 20) * 0.6,  # name
        "library/Named": (400 + 100 + 20) * 0.6,  # name, abstract
        "library/Book": (400 + 50 + 20) * 0.6,  # name, eSuperTypes
        "library/Shelf": (400 + 20) * 0.6,
        # name, ordered=false, lowerBound=1, eType: 4 features
        "library/Book/title": (400 + 100 + 100 + 50 + 150) * 0.465,
        # name, upperBound=-1, eType, containment, eOpposite: resolveProxies defaults to true in EMF
        "library/Book/chapters": (400 + 100 + 50 + 100 + 50 + 150) * 0.465,
        # name, eType, resolveProxies=false
        "library/Book/shelf": (400 + 50 + 100 + 150) * 0.55,
        # name, lowerBound=1, eType, eOpposite
        "library/Chapter/book": (400 + 100 + 50 + 50 + 150) * 0.465,
        # name, instanceClassName (instanceTypeName mirrors it and does not count)
        "library/Isbn": (400 + 100 + 20) * 0.6,
        # name, serializable=false (EMF's default is true)
        "library/Money": (400 + 100 + 20) * 0.6,
        "library/Kind": (400 + 20) * 0.6,  # serializable defaults to true
        "library/Kind/NOVEL": (400 + 20) * 0.6,  # value 0 and no literal: only the name is set
        "library/Kind/ESSAY": (400 + 100 + 100 + 20) * 0.55,  # name, value, literal
        "library/Book/lend(days)": (400 + 150) * 0.6,
        "library/Book/lend(days)/days": (400 + 50 + 20) * 0.6,  # parameters have containing weight 20
        "library/@doc#0": (100 + 150) * 0.6,  # source
        "library/@doc#0/[k]": (100 + 100 + 20) * 0.6,  # key, value
    }
    assert {name: nodes[name].threshold for name in expected} == expected


def test_values_are_read_with_emf_semantics(load_ecore, ecore_package) -> None:
    nodes = _nodes(load_ecore, ecore_package)
    chapters = nodes["library/Book/chapters"]
    attributes = dict(zip((a.name for a in chapters.meta.attributes), chapters.attrs, strict=True))
    assert attributes["resolveProxies"] is True  # absent from the file: EMF's default
    assert attributes["upperBound"] == -1 and attributes["ordered"] is True
    shelf = nodes["library/Book/shelf"]
    assert (
        dict(zip((a.name for a in shelf.meta.attributes), shelf.attrs, strict=True))["resolveProxies"]
        is False
    )
    isbn = nodes["library/Isbn"]
    names = dict(zip((a.name for a in isbn.meta.attributes), isbn.attrs, strict=True))
    assert names["instanceClassName"] == names["instanceTypeName"] == "java.lang.String"
    # EEnumLiteral.getLiteral() falls back to the name when no literal is given.
    novel = nodes["library/Kind/NOVEL"]
    assert novel.attrs == ("NOVEL", 0, "NOVEL")


def test_locations_are_positional_and_every_root_is_zero(load_ecore, ecore_package) -> None:
    nodes = _nodes(load_ecore, ecore_package)
    assert nodes["library"].path == ("0",)
    assert nodes["library/Book/title"].path == ("@eStructuralFeatures.0", "@eClassifiers.1", "0")
    assert nodes["library/extra/Note"].path == ("@eClassifiers.0", "@eSubpackages.0", "0")
    # References point at positions: Book.chapters' eType is the node of Chapter itself.
    eType, eOpposite, _keys = nodes["library/Book/chapters"].refs
    assert eType is nodes["library/Chapter"] and eOpposite is nodes["library/Chapter/book"]
    # A built-in type referenced through the Ecore nsURI stays an unresolved proxy in EMF: ["0"].
    assert nodes["library/Book/title"].refs[0].path == ("0",)


def test_uri_proximity() -> None:
    book = ("@eClassifiers.1", "0")
    assert proximity(book, book) == 0
    assert proximity(book, ("@eClassifiers.2", "0")) == 10  # the leaf differs: nothing in common
    assert proximity(("@eStructuralFeatures.0", *book), book) == 10
    # Leaf-side segments in common: (to_go * 10) // (2 * common + to_go)
    assert proximity(("x", "a"), ("x", "b")) == (2 * 10) // (2 * 1 + 2)
    deep = tuple(f"s{i}" for i in range(10))
    # Ten equal leaf-side segments tolerate one differing ancestor: (2 * 10) // (20 + 2) == 0.
    assert proximity((*deep, "a"), (*deep, "b")) == 0
    assert proximity((*deep[:9], "a"), (*deep[:9], "b")) == 1  # nine are not enough: 20 // 20
