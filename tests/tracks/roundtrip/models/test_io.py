"""Canonical writers against real loading: what we write, pyecore reads back unchanged."""

from __future__ import annotations

import tempfile
from pathlib import Path

import pytest
from ecore_strategies import ecore_packages
from hypothesis import HealthCheck, given, settings
from lxml import etree

from benchmark.core.errors import InputFormatError
from benchmark.tracks.roundtrip.models.ecore_io import read_ecore, write_ecore
from benchmark.tracks.roundtrip.models.ecoremodel import EcorePackage
from benchmark.tracks.roundtrip.models.forward import forward
from benchmark.tracks.roundtrip.models.sql_io import canonical_schema, read_sql, write_sql
from benchmark.tracks.roundtrip.models.sqlmeta import SQL_METAMODEL_FILE, SQL_NS_URI, sql_package
from benchmark.tracks.roundtrip.reading.lenient import lenient_ecore, lenient_sql

IO_SETTINGS = settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def test_sql_metamodel_has_the_documented_shape() -> None:
    package = sql_package()
    assert package.nsURI == SQL_NS_URI and package.nsPrefix == "sql"
    shape = {c.name: sorted(f.name for f in c.eStructuralFeatures) for c in package.eClassifiers}
    assert shape == {
        "Schema": ["name", "tables"],
        "Table": ["columns", "foreignKeys", "name", "primaryKey"],
        "Column": ["name", "nullable", "type", "unique"],
        "PrimaryKey": ["columns"],
        "ForeignKey": ["columns", "name", "referencedColumns", "referencedTable"],
    }
    assert SQL_METAMODEL_FILE.suffix == ".ecore"


@IO_SETTINGS
@given(package=ecore_packages())
def test_written_ecore_loads_back_unchanged(package: EcorePackage) -> None:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "generated.ecore"
        path.write_text(write_ecore(package), encoding="utf-8")
        assert read_ecore(path) == package
        (lenient,) = lenient_ecore(etree.parse(str(path)).getroot())
        assert lenient == package


@IO_SETTINGS
@given(package=ecore_packages())
def test_written_sql_loads_back_unchanged(package: EcorePackage) -> None:
    schema = forward(package)
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "generated.sql.xmi"
        path.write_text(write_sql(schema), encoding="utf-8")
        assert read_sql(path) == canonical_schema(schema)
        assert lenient_sql(etree.parse(str(path)).getroot()) == canonical_schema(schema)


def test_writer_escapes_attribute_values(tmp_path: Path) -> None:
    from benchmark.tracks.roundtrip.models.ecoremodel import EcoreClass

    package = EcorePackage('a&b<"c">', "http://example.org/x?a=1&b=2", "x", (EcoreClass("A"),))
    path = tmp_path / "escaped.ecore"
    path.write_text(write_ecore(package), encoding="utf-8")
    assert read_ecore(path) == package


def test_a_file_with_two_root_packages_is_refused_with_the_counts_in_english(tmp_path: Path) -> None:
    two = tmp_path / "two.ecore"
    two.write_text(
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        '<xmi:XMI xmi:version="2.0" xmlns:xmi="http://www.omg.org/XMI" '
        'xmlns:ecore="http://www.eclipse.org/emf/2002/Ecore">\n'
        '  <ecore:EPackage name="a" nsURI="http://a" nsPrefix="a"/>\n'
        '  <ecore:EPackage name="b" nsURI="http://b" nsPrefix="b"/>\n'
        "</xmi:XMI>\n",
        encoding="utf-8",
    )
    with pytest.raises(InputFormatError, match="found 2 roots, 2 packages") as caught:
        read_ecore(two)
    assert "two.ecore" in str(caught.value)
