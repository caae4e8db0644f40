"""Canonical lines: rendering, keys, normalization and the type synonym tables."""

from __future__ import annotations

import pytest

from benchmark.tracks.roundtrip.ecoremodel import (
    EcoreAttribute,
    EcoreClass,
    EcoreEnum,
    EcoreLiteral,
    EcorePackage,
    EcoreReference,
)
from benchmark.tracks.roundtrip.lines import ecore_lines, sql_lines
from benchmark.tracks.roundtrip.sqlmodel import SqlColumn, SqlForeignKey, SqlPrimaryKey, SqlSchema, SqlTable
from benchmark.tracks.roundtrip.synonyms import normalize_ecore_type, normalize_sql_type


def test_ecore_lines_render_every_kind() -> None:
    package = EcorePackage(
        "p",
        classifiers=(
            EcoreClass("Item", abstract=True),
            EcoreClass(
                "Book",
                supertypes=("Item",),
                features=(
                    EcoreAttribute("isbn", "EString", 1, 1, is_id=True),
                    EcoreReference("authors", "Author", 0, -1, opposite="works"),
                ),
            ),
            EcoreEnum("Genre", (EcoreLiteral("FICTION"), EcoreLiteral("POETRY", 1))),
        ),
    )
    assert [line.text for line in ecore_lines(package)] == [
        "class Item; abstract=true; supertypes=[]",
        "class Book; abstract=false; supertypes=[Item]",
        "attribute Book/isbn; type=EString; lower=1; upper=1",
        "reference Book/authors; type=Author; lower=0; upper=-1; containment=false; opposite=works",
        "enum Genre",
        "literal Genre/FICTION",
        "literal Genre/POETRY",
    ]


def test_sql_lines_render_every_kind() -> None:
    schema = SqlSchema(
        "s",
        (
            SqlTable(
                "Book",
                (SqlColumn("id", "INTEGER", False), SqlColumn("author_id", "int", True)),
                SqlPrimaryKey(("id",)),
                (SqlForeignKey("fk", ("author_id",), "Author"),),
            ),
        ),
    )
    assert [line.text for line in sql_lines(schema)] == [
        "table Book",
        "column Book/id; type=INTEGER; nullable=false; unique=false",
        "column Book/author_id; type=INTEGER; nullable=true; unique=false",
        "primary key Book; columns=[id]",
        "foreign key Book(author_id); references=Author",
    ]


def test_keys_and_names_compare_case_insensitively_after_trimming() -> None:
    (upper,) = ecore_lines(EcorePackage("p", classifiers=(EcoreClass(" BOOK ", supertypes=("Item",)),)))
    (lower,) = ecore_lines(EcorePackage("p", classifiers=(EcoreClass("book", supertypes=(" item",)),)))
    assert upper.identity == lower.identity
    assert upper.key == "BOOK"  # shown trimmed, spelling kept


def test_unordered_properties_and_unbounded_uppers_normalize() -> None:
    (a,) = ecore_lines(EcorePackage("p", classifiers=(EcoreClass("C", supertypes=("A", "B")),)))
    (b,) = ecore_lines(EcorePackage("p", classifiers=(EcoreClass("C", supertypes=("B", "A")),)))
    assert a.identity == b.identity
    many = [EcoreAttribute("x", "EInt", upper=-1), EcoreAttribute("x", "EInt", upper=-2)]
    lines = [ecore_lines(EcorePackage("p", classifiers=(EcoreClass("C", features=(f,)),)))[1] for f in many]
    assert lines[0].identity == lines[1].identity
    key_a = sql_lines(SqlSchema("s", (SqlTable("T", (), SqlPrimaryKey(("a", "b"))),)))[1]
    key_b = sql_lines(SqlSchema("s", (SqlTable("T", (), SqlPrimaryKey(("B", "A"))),)))[1]
    assert key_a.identity == key_b.identity


def test_attribute_and_reference_with_one_name_are_different_lines() -> None:
    attribute = ecore_lines(
        EcorePackage("p", classifiers=(EcoreClass("C", features=(EcoreAttribute("x", "EInt"),)),))
    )
    reference = ecore_lines(
        EcorePackage("p", classifiers=(EcoreClass("C", features=(EcoreReference("x", "C"),)),))
    )
    assert attribute[1].normalized_key != reference[1].normalized_key


def test_foreign_key_key_is_the_set_of_columns() -> None:
    def key(columns: tuple[str, ...]) -> str:
        schema = SqlSchema("s", (SqlTable("T", (), None, (SqlForeignKey("x", columns, "U"),)),))
        return sql_lines(schema)[1].normalized_key

    assert key(("a", "B")) == key(("b", "A")) == "foreign key t(a,b)"


@pytest.mark.parametrize(
    ("spellings", "canonical"),
    [
        (
            ("VARCHAR(255)", "varchar(64)", "TEXT", "String", "CHARACTER VARYING(10)", "nvarchar", "clob"),
            "VARCHAR",
        ),
        (("INT", "integer", "Int4", "SMALLINT"), "INTEGER"),
        (("BIGINT", "int8", "LONG"), "BIGINT"),
        (("BOOLEAN", "bool", "BIT"), "BOOLEAN"),
        (("DOUBLE", "double precision", "FLOAT", "REAL"), "DOUBLE"),
        (("DATE", "DATETIME", "timestamp"), "DATE"),
        (("DECIMAL(10, 2)", "decimal"), "DECIMAL"),
    ],
)
def test_sql_type_synonyms(spellings: tuple[str, ...], canonical: str) -> None:
    assert {normalize_sql_type(s) for s in spellings} == {canonical}


@pytest.mark.parametrize(
    ("spellings", "canonical"),
    [
        (("EString", "String", "string", " java.lang.String "), "EString"),
        (("EInt", "EInteger", "EIntegerObject", "Integer", "int"), "EInt"),
        (("EBoolean", "Boolean", "EBooleanObject", "boolean"), "EBoolean"),
        (("EDouble", "Double", "Real", "EDoubleObject"), "EDouble"),
        (("ELong", "Long", "ELongObject"), "ELong"),
        (("EDate", "Date", "java.util.Date"), "EDate"),
        (("Genre", "GENRE", " genre"), "genre"),
    ],
)
def test_ecore_type_synonyms(spellings: tuple[str, ...], canonical: str) -> None:
    assert {normalize_ecore_type(s) for s in spellings} == {canonical}


def test_distinct_types_stay_distinct() -> None:
    assert normalize_sql_type("INTEGER") != normalize_sql_type("BIGINT")
    assert normalize_sql_type("VARCHAR(10)") != normalize_sql_type("CHAR(10)")
    assert normalize_ecore_type("EInt") != normalize_ecore_type("ELong")
    assert normalize_ecore_type("EFloat") != normalize_ecore_type("EDouble")
