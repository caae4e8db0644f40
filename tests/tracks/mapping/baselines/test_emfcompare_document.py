"""The EMFCompare baseline's jJodel export: mappings, the raw ``matches`` list, names, the registry."""

from __future__ import annotations

from collections.abc import Callable

from benchmark.lang.ecore import LoadedMetamodel
from benchmark.tracks.mapping.baselines import BASELINES
from benchmark.tracks.mapping.baselines.emfcompare.document import MODEL, PROVIDER, emf_compare

STRING = "ecore:EDataType http://www.eclipse.org/emf/2002/Ecore#//EString"
Loader = Callable[[str, str], LoadedMetamodel]
Package = Callable[[str, str], str]


def _attribute(name: str) -> str:
    return f'<eStructuralFeatures xsi:type="ecore:EAttribute" name="{name}" eType="{STRING}"/>'


def test_feature_mappings_name_their_owners_even_when_those_are_unmatched(
    load_ecore: Loader, ecore_package: Package
) -> None:
    novel = f'<eClassifiers xsi:type="ecore:EClass" name="Novel">{_attribute("title")}</eClassifiers>'
    magazine = f'<eClassifiers xsi:type="ecore:EClass" name="Magazine">{_attribute("title")}</eClassifiers>'
    left = load_ecore("shop.ecore", ecore_package('name="shop"', novel))
    right = load_ecore("store.ecore", ecore_package('name="store"', magazine))
    document = emf_compare(left, right)
    assert document["analysis"] == {"provider": PROVIDER, "model": MODEL, "modelLabel": PROVIDER}
    assert document["transformation"] == {"name": "shop2store", "source": "shop", "target": "store"}
    # Novel and Magazine are not matched (see test_emfcompare_matches): no class mapping, but the title
    # attributes are, and their mapping names the owning classes.
    assert document["mappings"] == [
        {
            "kind": "attribute",
            "source": {"class": "Novel", "feature": "title"},
            "target": {"class": "Magazine", "feature": "title"},
            "confidence": "high",
            "provider": "EMFCompare",
            "reason": "EMF Compare distance 350 (threshold 360)",
        }
    ]
    assert document["matches"] == [
        {"metaclass": "EAttribute", "source": "shop/Novel/title", "target": "store/Magazine/title"}
    ]


def test_matches_cover_every_metaclass_with_documented_names(
    load_ecore: Loader, ecore_package: Package
) -> None:
    body = f"""
      <eClassifiers xsi:type="ecore:EClass" name="Loan">
        <eAnnotations source="doc"><details key="note" value="kept"/></eAnnotations>
        <eOperations name="extend"><eParameters name="days" eType="{STRING}"/></eOperations>
        <eStructuralFeatures xsi:type="ecore:EReference" name="next" eType="#//Loan"/>
        {_attribute("due")}
      </eClassifiers>
      <eClassifiers xsi:type="ecore:EEnum" name="State"><eLiterals name="OPEN"/></eClassifiers>
      <eSubpackages name="sub"><eClassifiers xsi:type="ecore:EDataType" name="Day"/></eSubpackages>"""
    left = load_ecore("a.ecore", ecore_package('name="lib"', body))
    right = load_ecore("b.ecore", ecore_package('name="lib"', body))
    document = emf_compare(left, right)
    names = [(m["metaclass"], m["source"]) for m in document["matches"]]
    assert names == [
        ("EPackage", "lib"),
        ("EClass", "lib/Loan"),
        ("EAnnotation", "lib/Loan/@doc#0"),
        ("EStringToStringMapEntry", "lib/Loan/@doc#0/[note]"),
        ("EOperation", "lib/Loan/extend(days)"),
        ("EParameter", "lib/Loan/extend(days)/days"),
        ("EReference", "lib/Loan/next"),
        ("EAttribute", "lib/Loan/due"),
        ("EEnum", "lib/State"),
        ("EEnumLiteral", "lib/State/OPEN"),
        ("EPackage", "lib/sub"),
        ("EDataType", "lib/sub/Day"),
    ]
    assert all(m["source"] == m["target"] for m in document["matches"])
    kinds = [(m["kind"], m["source"]["class"], m["source"]["feature"]) for m in document["mappings"]]
    assert kinds == [("class", "Loan", None), ("attribute", "Loan", "next"), ("attribute", "Loan", "due")]
    assert {m["reason"] for m in document["mappings"]} == {"identical"}


def test_registered_as_emfcompare(load_ecore: Loader, ecore_package: Package) -> None:
    loaded = load_ecore(
        "one.ecore", ecore_package('name="one"', '<eClassifiers xsi:type="ecore:EClass" name="A"/>')
    )
    document = BASELINES["EMFCompare"](loaded, loaded)
    assert document["analysis"]["provider"] == "EMFCompare"
    assert [m["kind"] for m in document["mappings"]] == ["class"]
