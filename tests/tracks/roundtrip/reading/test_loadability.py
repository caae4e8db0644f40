"""Loadability: every failure has its reason, and a failed file is still read for partial credit."""

from __future__ import annotations

import types
from pathlib import Path

import pytest

from benchmark.tracks.roundtrip.reading.models import ECORE, SQL, read_model
from benchmark.tracks.roundtrip.scoring.scorer import score

SQL_URI = "http://atl-binding-bench.org/roundtrip/sql/1.0"


def sql_variant(models: types.SimpleNamespace, old: str, new: str) -> str:
    assert old in models.EXPECTED_T, old
    return models.EXPECTED_T.replace(old, new)


SQL_FAILURES = [
    # (name, old, new, reason fragment, lines still read leniently)
    ("wrong namespace", SQL_URI, "http://example.org/sql", f"namespace {SQL_URI} is not declared", 7),
    (
        "unknown attribute",
        'name="year" type="INTEGER"',
        'name="year" size="4" type="INTEGER"',
        "unknown feature 'size' for class Column (line 6)",
        7,
    ),
    (
        "unknown element",
        "    <primaryKey",
        '    <index columns="Book.id"/>\n    <primaryKey',
        "unknown feature 'index' for class Table (line 8)",
        7,
    ),
    (
        "unknown attribute on the root",
        'name="lib"',
        'name="lib" owner="me"',
        "unknown feature 'owner' for class Schema",
        7,
    ),
    ("unknown class", "<tables ", '<tables xsi:type="sql:View" ', "unknown class 'sql:View' in xsi:type", 7),
    (
        "missing root",
        "sql:Schema",
        "sql:Table",
        "missing root: the root object is a Table, expected Schema",
        7,
    ),
    ("missing xmi:version", 'xmi:version="2.0" ', "", "no xmi:version attribute", 7),
    ("dangling reference", 'columns="Book.id"', 'columns="Book.isbn"', "dangling reference", 7),
    (
        "invalid boolean",
        'nullable="true" unique="false"/>\n    <primaryKey',
        'nullable="maybe" unique="false"/>\n    <primaryKey',
        "invalid value for Column.nullable: 'maybe' is not a boolean",
        7,
    ),
    (
        "external reference",
        'columns="Book.id"',
        'columns="other.sql.xmi#Book.id"',
        "points into another resource",
        7,
    ),
    ("broken XML", "  </tables>\n</sql:Schema>\n", "", "not well-formed XML", 7),
]


@pytest.mark.parametrize(
    ("name", "old", "new", "reason", "lines"), SQL_FAILURES, ids=[f[0] for f in SQL_FAILURES]
)
def test_sql_loadability_failures(
    tmp_path: Path, models: types.SimpleNamespace, name: str, old: str, new: str, reason: str, lines: int
) -> None:
    path = models.write(tmp_path, "out.sql.xmi", sql_variant(models, old, new))
    read = read_model(path, SQL)
    assert not read.loadable
    assert read.load_error is not None and reason in str(read.load_error)
    assert read.read_as == "plain XML"
    assert len(read.lines) == lines


def test_a_file_that_does_not_load_still_earns_partial_credit(
    tmp_path: Path, models: types.SimpleNamespace
) -> None:
    output = sql_variant(models, SQL_URI, "http://example.org/sql")
    report = score(
        models.write(tmp_path, "T.sql.xmi", models.BASE_T),
        models.write(tmp_path, "DeltaT.sql.xmi", models.EXPECTED_T),
        models.write(tmp_path, "out.sql.xmi", output),
    )
    assert not report.loadable
    assert report.counts.cr == 7 and report.counts.equivalent() and report.delta_detected
    assert not report.equivalent  # an unloadable file is never equivalent, however many lines are right
    assert report.to_json()["loadError"].startswith("the expected metamodel's namespace")


def test_truncated_file_keeps_what_precedes_the_break(tmp_path: Path, models: types.SimpleNamespace) -> None:
    text = models.EXPECTED_T
    cut = text.index('    <columns xmi:id="Book.pages"')
    read = read_model(models.write(tmp_path, "out.sql.xmi", text[:cut]), SQL)
    assert not read.loadable and str(read.load_error).startswith("not well-formed XML")
    assert [line.key for line in read.lines] == ["lib", "Book", "Book/id", "Book/title", "Book/year"]


def test_doctype_is_refused_and_nothing_is_read(tmp_path: Path, models: types.SimpleNamespace) -> None:
    text = models.EXPECTED_T.replace("<sql:Schema", '<!DOCTYPE lolz [<!ENTITY lol "lol">]>\n<sql:Schema', 1)
    read = read_model(models.write(tmp_path, "out.sql.xmi", text), SQL)
    assert not read.loadable and "refusing XML with entity declarations" in str(read.load_error)
    assert read.read_as == "nothing" and read.lines == ()


def test_empty_file(tmp_path: Path) -> None:
    path = tmp_path / "out.sql.xmi"
    path.write_text("  \n", encoding="utf-8")
    read = read_model(path, SQL)
    assert (read.loadable, read.load_error, read.read_as, read.lines) == (False, "empty file", "nothing", ())


def test_empty_xmi_wrapper_is_a_missing_root(tmp_path: Path) -> None:
    text = f'<xmi:XMI xmi:version="2.0" xmlns:xmi="http://www.omg.org/XMI" xmlns:sql="{SQL_URI}"/>'
    path = tmp_path / "out.sql.xmi"
    path.write_text(text, encoding="utf-8")
    read = read_model(path, SQL)
    assert not read.loadable and str(read.load_error).startswith(
        "missing root: the document contains no model element"
    )


ECORE_URI = "http://www.eclipse.org/emf/2002/Ecore"
ECORE_FAILURES = [
    (
        "wrong namespace",
        f'xmlns:ecore="{ECORE_URI}"',
        'xmlns:ecore="http://www.eclipse.org/emf/2002/Ecore2"',
        f"namespace {ECORE_URI} is not declared",
        11,
    ),
    (
        "unknown attribute",
        'name="Person"',
        'name="Person" colour="red"',
        "unknown feature 'colour' for class EClass",
        11,
    ),
    (
        "unknown element",
        '    <eLiterals name="A"/>',
        '    <eLiteral name="A"/>',
        "unknown feature 'eLiteral' for class EEnum",
        10,
    ),
    (
        "unknown class",
        '"ecore:EClass" name="Person"',
        '"ecore:EKlass" name="Person"',
        "unknown class 'ecore:EKlass'",
        11,
    ),
    (
        "abstract without type",
        'xsi:type="ecore:EAttribute" name="name"',
        'name="name"',
        "needs an xsi:type",
        11,
    ),
    ("missing root", "ecore:EPackage", "ecore:EClass", "the root object is a EClass, expected EPackage", 13),
    ("dangling reference", 'eType="#//Person"', 'eType="#//Human"', "dangling reference", 11),
    ("derived feature set", 'name="Person"', 'name="Person" eAttributes="#//Person/name"', "is derived", 11),
    ("broken XML", "</ecore:EPackage>", "</ecore:EPackag>", "not well-formed XML", 11),
]


@pytest.mark.parametrize(
    ("name", "old", "new", "reason", "lines"), ECORE_FAILURES, ids=[f[0] for f in ECORE_FAILURES]
)
def test_ecore_loadability_failures(
    tmp_path: Path, models: types.SimpleNamespace, name: str, old: str, new: str, reason: str, lines: int
) -> None:
    assert old in models.EXPECTED_S, old
    path = models.write(tmp_path, "out.ecore", models.EXPECTED_S.replace(old, new))
    read = read_model(path, ECORE)
    assert not read.loadable
    assert read.load_error is not None and reason in read.load_error, read.load_error
    assert len(read.lines) == lines


def test_loadable_variants(tmp_path: Path, models: types.SimpleNamespace) -> None:
    """Loadable is not picky about the form: an xmi:XMI wrapper and EMF positional references load."""
    header, rest = models.EXPECTED_S.split("\n", 2)[1], models.EXPECTED_S.split("\n", 2)[2]
    namespaces = header[header.index("xmlns:xmi") : header.index(" name=")]
    wrapped = (
        f'<xmi:XMI xmi:version="2.0" {namespaces}>\n'
        '<ecore:EPackage name="lib" nsURI="http://example.org/lib" nsPrefix="lib">\n' + rest + "</xmi:XMI>\n"
    )
    read = read_model(models.write(tmp_path, "wrapped.ecore", wrapped), ECORE)
    assert read.loadable, read.load_error
    assert len(read.lines) == 11
    positional = models.EXPECTED_T.replace('columns="Book.id"', 'columns="//@tables.0/@columns.0"')
    read = read_model(models.write(tmp_path, "positional.sql.xmi", positional), SQL)
    assert read.loadable, read.load_error


def test_xsi_declared_below_the_root_gets_a_clear_reason(
    tmp_path: Path, models: types.SimpleNamespace
) -> None:
    xsi = ' xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"'
    moved = models.EXPECTED_S.replace(xsi, "").replace(" xsi:type=", f"{xsi} xsi:type=")
    read = read_model(models.write(tmp_path, "out.ecore", moved), ECORE)
    assert not read.loadable and "xmlns:xsi declared on the root element" in str(read.load_error)
    assert str(read.load_error).endswith("(line 3)")
    assert len(read.lines) == 11


def test_undeclared_prefixes_are_read_leniently(tmp_path: Path, models: types.SimpleNamespace) -> None:
    """No xmlns:xsi at all: not well-formed for a namespace-aware parser, yet every line is recovered."""
    broken = models.EXPECTED_S.replace(' xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"', "")
    read = read_model(models.write(tmp_path, "out.ecore", broken), ECORE)
    assert not read.loadable and str(read.load_error).startswith("not well-formed XML")
    lenient = [line.text for line in read.lines]
    strict = [
        line.text for line in read_model(models.write(tmp_path, "ok.ecore", models.EXPECTED_S), ECORE).lines
    ]
    assert lenient == strict


def test_sloppy_references_are_resolved_leniently(tmp_path: Path, models: types.SimpleNamespace) -> None:
    """An LLM-style file: no xmi:ids, references by plain names, a misspelt namespace: not loadable, but
    every line it got right is Cr."""
    sloppy = """<?xml version="1.0"?>
<sql:Schema xmlns:sql="http://example.org/sql" name="lib">
  <tables name="Book">
    <columns name="id" type="INTEGER" nullable="false" unique="false"/>
    <columns name="title" type="VARCHAR(255)" nullable="false" unique="false"/>
    <columns name="year" type="INTEGER" nullable="true" unique="false"/>
    <columns name="pages" type="INTEGER" nullable="true" unique="false"/>
    <primaryKey columns="id"/>
    <foreignKeys name="fk" columns="Book.year" referencedTable="Book"/>
  </tables>
</sql:Schema>
"""
    report = score(
        models.write(tmp_path, "T.sql.xmi", models.BASE_T),
        models.write(tmp_path, "DeltaT.sql.xmi", models.EXPECTED_T),
        models.write(tmp_path, "out.sql.xmi", sloppy),
    )
    assert not report.loadable and "xmi:version" in str(report.load_error)
    assert (report.counts.cr, report.counts.ad, report.counts.miss) == (7, 1, 0)
    (extra,) = [line for line in report.lines if line.verdict == "Ad"]
    assert extra.output is not None
    assert extra.output.text == "foreign key Book(year); references=Book; referencedColumns=[]; name=fk"


def test_a_type_given_as_egenerictype_reads_the_same_strictly_and_leniently(
    tmp_path: Path, models: types.SimpleNamespace
) -> None:
    """EMF writes ``<eGenericType eClassifier=...>`` instead of ``eType`` for generic features (and some
    tools for every feature); the type is the same either way."""
    string = '"ecore:EDataType http://www.eclipse.org/emf/2002/Ecore#//EString"'
    plain = f'<eStructuralFeatures xsi:type="ecore:EAttribute" name="name" eType={string}/>'
    assert plain in models.EXPECTED_S
    generic = models.EXPECTED_S.replace(
        plain,
        '<eStructuralFeatures xsi:type="ecore:EAttribute" name="name">'
        f"<eGenericType eClassifier={string}/></eStructuralFeatures>",
    )
    read = read_model(models.write(tmp_path, "generic.ecore", generic), ECORE)
    assert read.loadable, read.load_error
    expected = read_model(models.write(tmp_path, "plain.ecore", models.EXPECTED_S), ECORE)
    assert [line.text for line in read.lines] == [line.text for line in expected.lines]


@pytest.mark.parametrize("side", ["sql", "ecore"])
def test_xml_comments_inside_the_root_are_legal(
    tmp_path: Path, models: types.SimpleNamespace, side: str
) -> None:
    """A comment anywhere (the inverse stage is asked to flag things in comments) keeps the file loadable
    and changes no line."""
    if side == "sql":
        base, expected, kind = models.BASE_T, models.EXPECTED_T, SQL
        commented = expected.replace("  <tables", "  <!-- flagged: pages is new -->\n  <tables", 1).replace(
            "    <primaryKey", "    <!-- a comment\n         in a table -->\n    <primaryKey", 1
        )
    else:
        base, expected, kind = models.BASE_S, models.EXPECTED_S, ECORE
        commented = expected.replace(
            "  <eClassifiers", "  <!-- flagged: pageCount renamed -->\n  <eClassifiers", 1
        ).replace("    <eLiterals", "    <?pi here?>\n    <!-- in an enum -->\n    <eLiterals", 1)
    assert commented.count("<!--") == 2
    read = read_model(models.write(tmp_path, "out.xml", commented), kind)
    assert read.loadable, read.load_error
    assert read.lines == read_model(models.write(tmp_path, "plain.xml", expected), kind).lines
    report = score(
        models.write(tmp_path, "b.xml", base), models.write(tmp_path, "e.xml", expected), read.file
    )
    assert report.equivalent and report.loadable
