"""Loading .ecore files: multi-root KM3 style, single root with nsURI, cross-file and platform URIs."""

from __future__ import annotations

import urllib.request
from pathlib import Path

import pytest
from pyecore.ecore import EAttribute, EClass, EDataType, EEnum, EPackage, EProxy, EReference, EString

from benchmark.lang.ecore import LoadedMetamodel, MetamodelError, load_resource
from benchmark.lang.ecore.ecore_io import iter_proper_contents
from benchmark.lang.ecore.loader import clear_cache

ECORE_HEADER = (
    '<?xml version="1.0" encoding="UTF-8"?>\n'
    '<ecore:EPackage xmi:version="2.0" xmlns:xmi="http://www.omg.org/XMI" '
    'xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" '
    'xmlns:ecore="http://www.eclipse.org/emf/2002/Ecore" name="{name}" nsURI="http://example.org/{name}" '
    'nsPrefix="{name}">\n'
)


def write_package(path: Path, name: str, body: str) -> Path:
    path.write_text(ECORE_HEADER.format(name=name) + body + "\n</ecore:EPackage>\n", encoding="utf-8")
    return path


def test_multi_root_file_keeps_roots_in_file_order_and_resolves_positional_fragments(data: Path) -> None:
    loaded = load_resource(data / "library.ecore")
    assert isinstance(loaded, LoadedMetamodel)
    assert loaded.file == str(data / "library.ecore")
    assert [root.name for root in loaded.roots] == ["Library", "PrimitiveTypes"]
    library, primitives = loaded.roots
    book = library.getEClassifier("Book")
    chapter = library.getEClassifier("Chapter")
    string = primitives.getEClassifier("String")
    assert isinstance(book, EClass) and isinstance(string, EDataType)
    assert book.findEStructuralFeature("isbn").eType is string  # eType="/1/String"
    chapters = book.findEStructuralFeature("chapters")
    assert chapters.eOpposite is chapter.findEStructuralFeature("book")  # eOpposite="/0/Chapter/book"
    assert chapter.findEStructuralFeature("book").eOpposite is chapters
    assert [s.name for s in book.eSuperTypes] == ["Named", "Item"]
    assert loaded.xmi_ids == {}


def test_single_root_with_subpackage_and_every_kind_of_ecore_reference(data: Path) -> None:
    (root,) = load_resource(data / "bookstore.ecore").roots
    assert (root.name, root.nsURI, root.nsPrefix) == ("bookstore", "http://example.org/bookstore", "bs")
    (core,) = root.eSubpackages
    shelf = root.getEClassifier("Shelf")
    assert [s.ePackage.name for s in shelf.eSuperTypes] == ["core", "core"]
    features = {f.name: f for f in shelf.eStructuralFeatures}
    # nsURI reference (child element with href), platform:/plugin URI and relative Ecore.ecore path all
    # land on pyecore's own Ecore types, as real objects rather than proxies.
    assert features["code"].eType is EString
    assert features["capacity"].eType.name == "EInt"
    assert root.getEClassifier("Store").findEStructuralFeature("open").eType.name == "EBoolean"
    for obj in iter_proper_contents(list(load_resource(data / "bookstore.ecore").roots)):
        for feature in ("eType", "eOpposite"):
            assert not isinstance(getattr(obj, feature, None), EProxy)
    assert isinstance(root.getEClassifier("ShelfKind"), EEnum)
    assert core.getEClassifier("Named").interface is True


def test_references_into_another_local_file_are_loaded_and_resolved(tmp_path: Path) -> None:
    write_package(
        tmp_path / "base.ecore",
        "base",
        '<eClassifiers xsi:type="ecore:EClass" name="Base">'
        '<eStructuralFeatures xsi:type="ecore:EAttribute" name="id" '
        'eType="ecore:EDataType http://www.eclipse.org/emf/2002/Ecore#//EString"/></eClassifiers>',
    )
    derived = write_package(
        tmp_path / "derived.ecore",
        "derived",
        '<eClassifiers xsi:type="ecore:EClass" name="Derived" eSuperTypes="base.ecore#//Base"/>',
    )
    (root,) = load_resource(derived).roots
    (supertype,) = root.getEClassifier("Derived").eSuperTypes
    assert not isinstance(supertype, EProxy)
    assert supertype.name == "Base" and supertype.ePackage.name == "base"
    assert [f.name for f in root.getEClassifier("Derived").eAllStructuralFeatures()] == ["id"]


def test_a_reference_to_a_missing_file_is_a_load_error(tmp_path: Path) -> None:
    broken = write_package(
        tmp_path / "broken.ecore",
        "broken",
        '<eClassifiers xsi:type="ecore:EClass" name="A" eSuperTypes="missing.ecore#//Base"/>',
    )
    with pytest.raises(MetamodelError, match="missing.ecore") as caught:
        load_resource(broken)
    assert caught.value.file == str(broken)


def test_a_fragment_that_names_nothing_is_a_load_error(tmp_path: Path) -> None:
    broken = write_package(
        tmp_path / "dangling.ecore",
        "dangling",
        '<eClassifiers xsi:type="ecore:EClass" name="A">'
        '<eStructuralFeatures xsi:type="ecore:EReference" name="b" eType="#//Nowhere"/></eClassifiers>',
    )
    with pytest.raises(MetamodelError, match="Nowhere"):
        load_resource(broken)


def test_network_references_are_refused_not_fetched(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def no_network(*args: object, **kwargs: object) -> None:
        raise AssertionError("the loader tried to open a URL")

    monkeypatch.setattr(urllib.request, "urlopen", no_network)
    remote = write_package(
        tmp_path / "remote.ecore",
        "remote",
        '<eClassifiers xsi:type="ecore:EClass" name="A" '
        'eSuperTypes="http://example.invalid/models/other.ecore#//Base"/>',
    )
    with pytest.raises(MetamodelError, match="only local files are read"):
        load_resource(remote)


def test_uml_types_platform_uri_maps_to_a_stand_in_types_package(tmp_path: Path) -> None:
    uml_like = write_package(
        tmp_path / "umlish.ecore",
        "umlish",
        '<eClassifiers xsi:type="ecore:EClass" name="Property">'
        '<eStructuralFeatures xsi:type="ecore:EAttribute" name="isDerived" '
        'eType="ecore:EDataType platform:/plugin/org.eclipse.uml2.types/model/Types.ecore#//Boolean"/>'
        '<eStructuralFeatures xsi:type="ecore:EAttribute" name="cache">'
        '<eGenericType eClassifier="ecore:EDataType http://www.eclipse.org/emf/2002/Ecore#//EMap"/>'
        "</eStructuralFeatures></eClassifiers>",
    )
    (root,) = load_resource(uml_like).roots
    is_derived = root.getEClassifier("Property").findEStructuralFeature("isDerived")
    assert is_derived.eType.name == "Boolean"
    assert is_derived.eType.ePackage.nsURI == "http://www.eclipse.org/uml2/5.0.0/Types"
    cache = root.getEClassifier("Property").findEStructuralFeature("cache")
    assert cache.eGenericType.eClassifier.name == "EMap"  # EMF Ecore type missing from pyecore's Ecore


def test_xmi_ids_are_reported_for_the_objects_that_carry_them(tmp_path: Path) -> None:
    path = tmp_path / "ids.ecore"
    path.write_text(
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        '<xmi:XMI xmi:version="2.0" xmlns:xmi="http://www.omg.org/XMI" '
        'xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" '
        'xmlns:ecore="http://www.eclipse.org/emf/2002/Ecore">\n'
        '<ecore:EPackage xmi:id="p1" name="ids">'
        '<eClassifiers xsi:type="ecore:EClass" xmi:id="c1" name="A">'
        '<eStructuralFeatures xsi:type="ecore:EReference" xmi:id="f1" name="next" eType="c1"/>'
        "</eClassifiers>"
        '<eClassifiers xsi:type="ecore:EClass" name="NoId"/>'
        "</ecore:EPackage></xmi:XMI>\n",
        encoding="utf-8",
    )
    loaded = load_resource(path)
    (package,) = loaded.roots
    a = package.getEClassifier("A")
    next_feature = a.findEStructuralFeature("next")
    assert next_feature.eType is a  # an id reference
    assert dict(loaded.xmi_ids) == {package: "p1", a: "c1", next_feature: "f1"}


def test_instance_models_saved_as_ecore_are_refused_by_name(tmp_path: Path) -> None:
    path = tmp_path / "model.ecore"
    path.write_text(
        '<?xml version="1.0"?>\n<km3:Metamodel xmlns:km3="http://www.eclipse.org/gmt/2005/KM3"/>\n',
        encoding="utf-8",
    )
    with pytest.raises(MetamodelError, match=r"not an Ecore metamodel: the root element is <km3:Metamodel>"):
        load_resource(path)


def test_malformed_xml_reports_its_position(tmp_path: Path) -> None:
    path = tmp_path / "bad.ecore"
    path.write_text('<?xml version="1.0"?>\n<ecore:EPackage name="x">\n  <oops>\n', encoding="utf-8")
    with pytest.raises(MetamodelError, match="not well-formed XML") as caught:
        load_resource(path)
    assert caught.value.line is not None and caught.value.line >= 2


def test_missing_file_is_a_metamodel_error(tmp_path: Path) -> None:
    with pytest.raises(MetamodelError, match="no such metamodel file"):
        load_resource(tmp_path / "nope.ecore")


def test_km3_datatypes_get_python_types_so_instances_can_be_created(data: Path) -> None:
    library, primitives = load_resource(data / "library.ecore").roots
    assert primitives.getEClassifier("String").instanceClassName is None  # the file's value is kept
    chapter = library.getEClassifier("Chapter")()
    chapter.title = "Intro"
    chapter.nbPages = 12
    item = library.getEClassifier("Book")()
    item.available = True
    assert (chapter.title, chapter.nbPages, item.available) == ("Intro", 12, True)
    with pytest.raises(Exception):  # noqa: B017 - pyecore raises BadValueError, a TypeError subclass
        chapter.nbPages = "twelve"
    assert primitives.getEClassifier("Boolean").from_string("true") is True
    assert primitives.getEClassifier("Integer").from_string("7") == 7


def test_loads_are_cached_per_content(tmp_path: Path) -> None:
    clear_cache()
    path = write_package(tmp_path / "c.ecore", "c", '<eClassifiers xsi:type="ecore:EClass" name="A"/>')
    first = load_resource(path)
    assert load_resource(path).roots is first.roots
    write_package(path, "c", '<eClassifiers xsi:type="ecore:EClass" name="B"/>')
    second = load_resource(path)
    assert second.roots is not first.roots
    assert [c.name for c in second.roots[0].eClassifiers] == ["B"]


def test_a_cached_load_is_reused_only_while_the_files_it_references_are_unchanged(tmp_path: Path) -> None:
    clear_cache()
    base = write_package(
        tmp_path / "base.ecore", "base", '<eClassifiers xsi:type="ecore:EClass" name="Base"/>'
    )
    derived = write_package(
        tmp_path / "derived.ecore",
        "derived",
        '<eClassifiers xsi:type="ecore:EClass" name="Derived" eSuperTypes="base.ecore#//Base"/>',
    )
    first = load_resource(derived)
    assert [path for path, _digest in first.dependencies] == [str(base.resolve())]
    assert load_resource(derived).roots is first.roots
    write_package(base, "base", '<eClassifiers xsi:type="ecore:EClass" name="Renamed"/>')
    with pytest.raises(MetamodelError, match="base.ecore#//Base"):
        load_resource(derived)


def test_every_root_is_an_epackage_with_typed_features(data: Path) -> None:
    for name in ("library.ecore", "bookstore.ecore", "library.km3"):
        loaded = load_resource(data / name)
        assert loaded.roots and all(isinstance(root, EPackage) for root in loaded.roots)
        features = [
            o for o in iter_proper_contents(list(loaded.roots)) if isinstance(o, EAttribute | EReference)
        ]
        assert features and all(f.eType is not None for f in features)


def test_referenced_files_go_through_the_xml_guard_too(tmp_path: Path) -> None:
    (tmp_path / "evil.ecore").write_text(
        '<?xml version="1.0"?>\n<!DOCTYPE x [<!ENTITY e "e">]>\n'
        '<ecore:EPackage xmlns:ecore="http://www.eclipse.org/emf/2002/Ecore" name="evil"/>\n',
        encoding="utf-8",
    )
    user = write_package(
        tmp_path / "user.ecore",
        "user",
        '<eClassifiers xsi:type="ecore:EClass" name="A" eSuperTypes="evil.ecore#//Base"/>',
    )
    with pytest.raises(MetamodelError, match="entity declarations"):
        load_resource(user)


def test_loaded_metamodels_can_key_a_cache(data: Path) -> None:
    loaded = load_resource(data / "library.ecore")
    assert {loaded: 1}[load_resource(data / "library.ecore")] == 1


def test_comments_and_processing_instructions_anywhere_in_an_ecore_file_are_ignored(tmp_path: Path) -> None:
    """XML allows comments inside the root element; pyecore's own parse kept them as nodes and failed with
    "Invalid tag name '<cyfunction Comment ...>'" (a mapping-track metamodel with a comment did not load)."""
    body = (
        '  <eClassifiers xsi:type="ecore:EClass" name="Book">\n'
        "    <!-- a comment inside a classifier -->\n"
        '    <eStructuralFeatures xsi:type="ecore:EAttribute" name="title"\n'
        '        eType="ecore:EDataType http://www.eclipse.org/emf/2002/Ecore#//EString"/>\n'
        "  </eClassifiers>\n"
        "  <!-- between classifiers,\n       over two lines -->\n"
        "  <?editor hint?>\n"
        '  <eClassifiers xsi:type="ecore:EClass" name="Shelf"/>'
    )
    clear_cache()
    commented = write_package(tmp_path / "commented.ecore", "p", "  <!-- first -->\n" + body)
    (root,) = load_resource(commented).roots
    assert [c.name for c in root.eClassifiers] == ["Book", "Shelf"]
    assert [f.name for f in root.getEClassifier("Book").eStructuralFeatures] == ["title"]
    assert root.getEClassifier("Book").findEStructuralFeature("title").eType is EString


def test_a_load_error_after_a_comment_keeps_its_line_and_restores_lxmls_default_parser(
    tmp_path: Path,
) -> None:
    from lxml import etree

    before = etree.get_default_parser()
    path = write_package(
        tmp_path / "bad.ecore",
        "bad",
        "  <!-- one\n  two\n  three -->\n"
        '  <eClassifiers xsi:type="ecore:EClass" name="A">\n'
        '    <eStructuralFeatures xsi:type="ecore:EReference" name="r" eType="#//Missing"/>\n'
        "  </eClassifiers>",
    )
    clear_cache()
    with pytest.raises(MetamodelError):
        load_resource(path)
    assert etree.get_default_parser() is before
    # lxml's own default parser, outside a load, still keeps comments: nothing leaked
    assert len(etree.fromstring(b"<a><!--c--></a>")) == 1
