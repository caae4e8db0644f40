"""The direct reader gives what pyecore gives: the same lines, loadability and reason, document by document.

Every document is read twice, once as the track reads it (directly from the element tree when
:mod:`benchmark.tracks.roundtrip.reading.direct` can, else with pyecore) and once with pyecore only; the two
:class:`ReadModel` values must be equal. The documents are bundled references and answers, and mutations
of them that touch each rule of the direct reader (booleans and integers as pyecore converts them,
defaults, opposites set on both ends, references of every form, ids, namespaces), some read directly,
some left to pyecore: the test also checks that both kinds occur, so that it keeps testing something.
"""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest

from benchmark.core.xmlguard import parse_xml_safely
from benchmark.tracks.roundtrip.reading.answer import extract_model
from benchmark.tracks.roundtrip.reading.direct import NotDirect
from benchmark.tracks.roundtrip.reading.models import ECORE, SQL, ModelKind, read_model_data

ROOT = Path(__file__).resolve().parents[4] / "validation" / "roundtrip"
ECORE_BASE = (ROOT / "S_library.ecore").read_text(encoding="utf-8")
SQL_BASE = (ROOT / "T_library.sql.xmi").read_text(encoding="utf-8")
E = "ecore:EDataType http://www.eclipse.org/emf/2002/Ecore#//"
OPPOSITE = 'eType="#//Author" eOpposite="#//Author/works"'

# (name, old text, new text): each replaces the first occurrence in the base document
ECORE_MUTATIONS = [
    ("as bundled", "", ""),
    ("boolean True", 'iD="true"', 'iD="True"'),
    ("boolean TRUE is false for pyecore", 'iD="true"', 'iD="TRUE"'),
    ("boolean with a space", 'abstract="true"', 'abstract=" true"'),
    ("integer with a plus", 'lowerBound="1"', 'lowerBound="+1"'),
    ("integer with spaces", 'upperBound="-1"', 'upperBound=" -1 "'),
    ("literal value negative", 'value="1"', 'value="-3"'),
    ("no name on a class", 'name="Magazine" ', ""),
    ("no name on a feature", 'name="pages" ', ""),
    ("no name on the package", 'name="library" ', ""),
    ("no name on an enum", 'name="Genre"', ""),
    ("no name on a literal", '<eLiterals name="FICTION"/>', "<eLiterals/>"),
    ("empty name on a class", 'name="Magazine"', 'name=""'),
    ("no nsURI", 'nsURI="http://atl-binding-bench.org/roundtrip/library" ', ""),
    ("one-sided opposite", ' eOpposite="#//LibraryItem/writtenBy"', ""),
    ("opposite on the other side only", ' eOpposite="#//Author/works"', ""),
    ("opposite chained to a third reference", 'eOpposite="#//Author/works"', 'eOpposite="#//Loan/item"'),
    ("opposite to itself", 'eOpposite="#//Author/works"', 'eOpposite="#//LibraryItem/writtenBy"'),
    ("opposite to an attribute", 'eOpposite="#//Author/works"', 'eOpposite="#//Author/fullName"'),
    ("opposite to nothing", 'eOpposite="#//Author/works"', 'eOpposite="#//Author/nothing"'),
    (
        "opposite with a type prefix",
        'eOpposite="#//Author/works"',
        'eOpposite="ecore:EReference #//Author/works"',
    ),
    ("opposite on an enum", 'eOpposite="#//Author/works"', 'eOpposite="#//Genre/FICTION"'),
    ("empty opposite", 'eOpposite="#//Author/works"', 'eOpposite=""'),
    ("unknown local type", 'eType="#//Member"', 'eType="#//Membre"'),
    ("local type with a prefix", 'eType="#//Member"', 'eType="ecore:EClass #//Member"'),
    ("empty type", 'eType="#//Member"', 'eType=""'),
    ("type with two spaces", 'eType="#//Member"', 'eType="a  #//Member"'),
    ("type by position", 'eType="#//Member"', 'eType="//@eClassifiers.5"'),
    ("unknown Ecore type", f'eType="{E}EInt"', f'eType="{E}EInteger_"'),
    (
        "Ecore class as a type",
        'eType="#//Member"',
        'eType="ecore:EClass http://www.eclipse.org/emf/2002/Ecore#//EObject"',
    ),
    ("Ecore type absent from pyecore", f'eType="{E}EInt"', f'eType="{E}EEList"'),
    ("other Ecore type", f'eType="{E}EInt"', f'eType="{E}EJavaObject"'),
    (
        "Ecore type without a prefix",
        f'eType="{E}EInt"',
        'eType="http://www.eclipse.org/emf/2002/Ecore#//EInt"',
    ),
    ("enum as a reference type", 'eType="#//Member"', 'eType="#//Genre"'),
    ("class as an attribute type", 'eType="#//Genre"', 'eType="#//Author"'),
    ("attribute without a type", f'name="email" eType="{E}EString"', 'name="email"'),
    ("containment True", 'containment="true"', 'containment="True"'),
    ("no classifiers", "<eClassifiers", "<eClassifiersX"),
    ("duplicate class name", 'name="Magazine"', 'name="Book"'),
    ("supertype twice", 'eSuperTypes="#//LibraryItem"', 'eSuperTypes="#//LibraryItem #//LibraryItem"'),
    ("supertype is an enum", 'eSuperTypes="#//LibraryItem"', 'eSuperTypes="#//Genre"'),
    ("two supertypes", 'eSuperTypes="#//LibraryItem"', 'eSuperTypes="#//LibraryItem #//Author"'),
    ("empty supertypes", 'eSuperTypes="#//LibraryItem"', 'eSuperTypes=""'),
    ("name with a dot", 'name="Loan"', 'name="Lo.an"'),
    ("interface", 'abstract="true"', 'abstract="true" interface="true"'),
    (
        "flags the lines ignore",
        'name="pages"',
        'name="pages" ordered="false" unique="false" changeable="false"',
    ),
    ("default literal", 'name="pages"', 'name="pages" defaultValueLiteral="100"'),
    ("resolve proxies", 'name="member"', 'name="member" resolveProxies="false"'),
    (
        "data type",
        '<eClassifiers xsi:type="ecore:EEnum"',
        '<eClassifiers xsi:type="ecore:EDataType" name="Money" instanceClassName="java.math.BigDecimal"/>'
        '\n  <eClassifiers xsi:type="ecore:EEnum"',
    ),
    ("enum with an instance class", 'name="Genre"', 'name="Genre" instanceClassName="x.Genre"'),
    ("annotation", "  </eClassifiers>", '    <eAnnotations source="x"/>\n  </eClassifiers>'),
    ("operation", "  </eClassifiers>", '    <eOperations name="f"/>\n  </eClassifiers>'),
    (
        "generic type",
        f'<eStructuralFeatures xsi:type="ecore:EAttribute" name="email" eType="{E}EString"/>',
        '<eStructuralFeatures xsi:type="ecore:EAttribute" name="email">'
        f'<eGenericType eClassifier="{E}EString"/></eStructuralFeatures>',
    ),
    ("subpackage", "</ecore:EPackage>", '  <eSubpackages name="sub"/>\n</ecore:EPackage>'),
    (
        "namespace declared below the root",
        '<eClassifiers xsi:type="ecore:EClass" name="Loan">',
        '<eClassifiers xmlns:x="urn:x" xsi:type="ecore:EClass" name="Loan">',
    ),
    (
        "other prefix for Ecore",
        'xmlns:ecore="http://www.eclipse.org/emf/2002/Ecore"',
        'xmlns:ecore="http://www.eclipse.org/emf/2002/Ecore" xmlns:e="http://www.eclipse.org/emf/2002/Ecore"',
    ),
    (
        "xsi:type with another prefix",
        '<eClassifiers xsi:type="ecore:EClass" name="Loan">',
        '<eClassifiers xsi:type="e:EClass" name="Loan">',
    ),
    ("xmi:id on a class", 'name="Loan"', 'name="Loan" xmi:id="L"'),
    ("comment", "  <eClassifiers", "  <!-- a comment -->\n  <eClassifiers"),
]
SQL_MUTATIONS = [
    ("as bundled", "", ""),
    ("boolean True", 'nullable="true"', 'nullable="True"'),
    ("boolean TRUE is false for pyecore", 'nullable="true"', 'nullable="TRUE"'),
    ("boolean with a space", 'unique="false"', 'unique=" true"'),
    ("nullable by default", ' nullable="false"', ""),
    ("unique by default", ' unique="false"', ""),
    ("no name on the schema", 'name="library"', ""),
    ("no type", 'type="INTEGER" ', ""),
    ("dangling key column", 'columns="Author.id"', 'columns="Author.nothing"'),
    ("table as a key column", 'columns="Author.id"', 'columns="Author"'),
    ("column twice in a key", 'columns="Author.id"', 'columns="Author.id Author.id"'),
    ("empty key", 'columns="Author.id"', 'columns=""'),
    ("positional key column", 'columns="Author.id"', 'columns="//@tables.0/@columns.0"'),
    ("key column with a fragment mark", 'columns="Author.id"', 'columns="#Author.id"'),
    ("column as the referenced table", 'referencedTable="Library"', 'referencedTable="Library.id"'),
    ("empty referenced table", 'referencedTable="Library"', 'referencedTable=""'),
    ("two referenced tables", 'referencedTable="Library"', 'referencedTable="Author Library"'),
    ("no referenced columns", ' referencedColumns="Library.id"', ""),
    ("duplicate id", 'xmi:id="Author.fullName"', 'xmi:id="Author.id"'),
    ("no id on a column", 'xmi:id="Author.fullName" ', ""),
    ("id on the key", '<primaryKey columns="Author.id"', '<primaryKey xmi:id="pk" columns="Author.id"'),
    ("id on the schema", 'name="library"', 'name="library" xmi:id="S"'),
    (
        "two primary keys",
        '<primaryKey columns="Author.id"/>',
        '<primaryKey columns="Author.id"/><primaryKey columns="Author.fullName"/>',
    ),
    ("xsi:type on a table", '<tables xmi:id="Author"', '<tables xsi:type="sql:Table" xmi:id="Author"'),
    (
        "column given by reference",
        '<primaryKey columns="Author.id"/>',
        '<primaryKey><columns href="#Author.id"/></primaryKey>',
    ),
    (
        "namespace declared below the root",
        '<tables xmi:id="Author"',
        '<tables xmlns:x="urn:x" xmi:id="Author"',
    ),
    ("xmi wrapper", "", ""),
    ("foreign key without a name", 'name="fk_Author_authors_owner_id_Library" ', ""),
    (
        "table without columns",
        '<tables xmi:id="Author" name="Author">',
        '<tables xmi:id="Empty" name="Empty"/>\n  <tables xmi:id="Author" name="Author">',
    ),
]


def _mutated(base: str, old: str, new: str) -> str:
    if not old:
        return base
    assert old in base, old
    return base.replace(old, new, 1)


def _read_directly(data: bytes, kind: ModelKind) -> bool:
    try:
        kind.direct(parse_xml_safely(data, "doc"))  # type: ignore[misc]
    except NotDirect:
        return False
    except Exception:
        return False  # not even well-formed: both readers stop before pyecore
    return True


def _both(data: bytes, kind: ModelKind) -> tuple[bool, object, object]:
    """(read directly?, the track's reading, pyecore's reading)."""
    track = read_model_data(data, "doc", kind)
    pyecore = read_model_data(data, "doc", dataclasses.replace(kind, direct=None))
    return _read_directly(data, kind), track, pyecore


def _xmi_wrapped(text: str) -> str:
    head, _, body = text.partition("\n")
    body = body.replace('xmi:version="2.0" ', "", 1)
    return f'{head}\n<xmi:XMI xmi:version="2.0" xmlns:xmi="http://www.omg.org/XMI">\n{body}</xmi:XMI>\n'


@pytest.mark.parametrize(("name", "old", "new"), ECORE_MUTATIONS, ids=[m[0] for m in ECORE_MUTATIONS])
def test_ecore_documents_read_directly_as_pyecore_reads_them(name: str, old: str, new: str) -> None:
    _, track, pyecore = _both(_mutated(ECORE_BASE, old, new).encode(), ECORE)
    assert track == pyecore


@pytest.mark.parametrize(("name", "old", "new"), SQL_MUTATIONS, ids=[m[0] for m in SQL_MUTATIONS])
def test_sql_documents_read_directly_as_pyecore_reads_them(name: str, old: str, new: str) -> None:
    text = _mutated(SQL_BASE, old, new)
    if name == "xmi wrapper":
        text = _xmi_wrapped(text)
    _, track, pyecore = _both(text.encode(), SQL)
    assert track == pyecore


def test_an_ecore_document_in_an_xmi_wrapper_is_read_as_pyecore_reads_it() -> None:
    _, track, pyecore = _both(_xmi_wrapped(ECORE_BASE).encode(), ECORE)
    assert track == pyecore


def test_the_mutations_reach_both_readers() -> None:
    """Each side has documents read directly and documents left to pyecore, loadable and not."""
    for base, mutations, kind in ((ECORE_BASE, ECORE_MUTATIONS, ECORE), (SQL_BASE, SQL_MUTATIONS, SQL)):
        seen = set()
        for _, old, new in mutations:
            data = _mutated(base, old, new).encode()
            seen.add((_read_directly(data, kind), read_model_data(data, "doc", kind).loadable))
        assert {(True, True), (False, True), (False, False)} <= seen


def test_bundled_answers_are_read_directly_as_pyecore_reads_them() -> None:
    """The answers of a domain's run files (every operator, both stages) and its references."""
    documents: list[tuple[bytes, ModelKind]] = []
    for domain in ("hospital",):
        for path in sorted((ROOT / "runs" / domain).glob("*/*.json")):
            run = json.loads(path.read_text(encoding="utf-8"))
            kind = SQL if run["stage"] == "forward" else ECORE
            extracted = extract_model((run.get("answer") or "").encode(), kind.ns_uri, kind.root_classes)
            if extracted.data is not None:
                documents.append((extracted.data, kind))
        documents += [(p.read_bytes(), ECORE) for p in sorted(ROOT.glob(f"*S_{domain}.ecore"))]
        documents += [(p.read_bytes(), SQL) for p in sorted(ROOT.glob(f"*T_{domain}.sql.xmi"))]
    direct = 0
    for data, kind in documents:
        read_directly, track, pyecore = _both(data, kind)
        assert track == pyecore
        direct += read_directly
    assert direct >= 0.9 * len(documents)
