"""Canonical lines: rendering, keys, normalization and the type synonym tables."""

from __future__ import annotations

import pytest

from benchmark.tracks.roundtrip.models.ecoremodel import (
    EcoreAttribute,
    EcoreClass,
    EcoreDataType,
    EcoreEnum,
    EcoreLiteral,
    EcorePackage,
    EcoreReference,
)
from benchmark.tracks.roundtrip.models.lines import ecore_lines, has_schema_image, sql_lines
from benchmark.tracks.roundtrip.models.sqlmodel import (
    SqlColumn,
    SqlForeignKey,
    SqlPrimaryKey,
    SqlSchema,
    SqlTable,
)
from benchmark.tracks.roundtrip.models.synonyms import normalize_ecore_type, normalize_sql_type


def test_ecore_lines_render_every_kind() -> None:
    package = EcorePackage(
        "p",
        "http://example.org/p",
        "p",
        classifiers=(
            EcoreClass("Item", abstract=True),
            EcoreClass(
                "Book",
                supertypes=("Item",),
                features=(
                    EcoreAttribute("isbn", "EString", 1, 1, is_id=True),
                    EcoreAttribute("label", "EString", derived=True, volatile=True),
                    EcoreReference("authors", "Author", 0, -1, opposite="works"),
                ),
            ),
            EcoreClass("Author", features=(EcoreReference("works", "Book", 0, -1, opposite="authors"),)),
            EcoreDataType("Money", "java.math.BigDecimal"),
            EcoreEnum("Genre", (EcoreLiteral("FICTION"), EcoreLiteral("POETRY", 1))),
        ),
    )
    flags = "derived=false; transient=false; volatile=false"
    assert [line.text for line in ecore_lines(package)] == [
        "package p; nsURI=http://example.org/p; nsPrefix=p",
        "class Item; abstract=true; supertypes=[]",
        "class Book; abstract=false; supertypes=[Item]",
        f"attribute Book/isbn; type=EString; lower=1; upper=1; iD=true; {flags}",
        "attribute Book/label; type=EString; lower=0; upper=1; iD=false; derived=true; transient=false; "
        "volatile=true",
        "reference Book/authors; type=Author; lower=0; upper=-1; containment=false; opposite=works; "
        f"{flags}; mapped=true",
        "class Author; abstract=false; supertypes=[]",
        "reference Author/works; type=Book; lower=0; upper=-1; containment=false; opposite=authors; "
        f"{flags}; mapped=false",  # the pair maps through Book.authors, declared first
        "datatype Money; instanceClassName=java.math.BigDecimal",
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
                (SqlForeignKey("fk_Book_author_id_Author", ("author_id",), "Author", ("id",)),),
            ),
        ),
    )
    assert [line.text for line in sql_lines(schema)] == [
        "schema s",
        "table Book",
        "column Book/id; type=INTEGER; nullable=false; unique=false",
        "column Book/author_id; type=INTEGER; nullable=true; unique=false",
        "primary key Book; columns=[id]",
        "foreign key Book(author_id); references=Author; referencedColumns=[id]; "
        "name=fk_Book_author_id_Author",
    ]


def _class_line(name: str, supertype: str):  # type: ignore[no-untyped-def]
    return ecore_lines(EcorePackage("p", classifiers=(EcoreClass(name, supertypes=(supertype,)),)))[1]


def test_ecore_names_are_case_sensitive_and_trimmed() -> None:
    upper, lower = _class_line(" BOOK ", "Item"), _class_line("book", "Item")
    assert upper.normalized_key != lower.normalized_key
    assert upper.identity == _class_line("BOOK", " Item ").identity  # trimmed, spelling kept
    assert upper.key == "BOOK"
    assert _class_line("Book", "item").differences(_class_line("Book", "Item")) == ("supertypes",)


def _table_line(name: str):  # type: ignore[no-untyped-def]
    return sql_lines(SqlSchema("s", (SqlTable(name),)))[1]


def test_unquoted_sql_identifiers_ignore_case_quoted_ones_do_not() -> None:
    assert _table_line(" BOOK ").identity == _table_line("book").identity
    assert _table_line('"Book"').identity != _table_line('"book"').identity
    assert _table_line('"book"').identity == _table_line("BOOK").identity  # folded as PostgreSQL does
    assert _table_line("[Book]").identity == _table_line("`Book`").identity == _table_line('"Book"').identity


def test_referenced_columns_pair_with_the_columns_in_any_order() -> None:
    def line(columns: tuple[str, ...], referenced: tuple[str, ...]):  # type: ignore[no-untyped-def]
        schema = SqlSchema("s", (SqlTable("T", (), None, (SqlForeignKey("x", columns, "U", referenced),)),))
        return sql_lines(schema)[2]

    assert line(("a", "b"), ("x", "y")).identity == line(("b", "a"), ("y", "x")).identity
    assert line(("a", "b"), ("x", "y")).differences(line(("a", "b"), ("y", "x"))) == ("referencedColumns",)


def test_lines_carry_what_the_forward_mapping_reads() -> None:
    def attribute(**flags: bool):  # type: ignore[no-untyped-def]
        package = EcorePackage(
            "p", classifiers=(EcoreClass("C", features=(EcoreAttribute("x", "EInt", **flags),)),)
        )
        return ecore_lines(package)[2]

    plain = attribute()
    for flag, field in (
        ("is_id", "iD"),
        ("derived", "derived"),
        ("transient", "transient"),
        ("volatile", "volatile"),
    ):
        assert plain.differences(attribute(**{flag: True})) == (field,)
    renamed = ecore_lines(EcorePackage("q", "http://example.org/p", "p"))[0]
    moved = ecore_lines(EcorePackage("p", "http://example.org/q", "p"))[0]
    assert renamed.normalized_key != moved.normalized_key
    assert moved.differences(ecore_lines(EcorePackage("p", "http://example.org/p", "q"))[0]) == (
        "nsURI",
        "nsPrefix",
    )

    def datatype(instance: str):  # type: ignore[no-untyped-def]
        return ecore_lines(EcorePackage("p", classifiers=(EcoreDataType("Money", instance),)))[1]

    assert datatype("java.lang.Double").differences(datatype("java.math.BigDecimal")) == (
        "instanceClassName",
    )


def test_which_lines_have_an_image_in_the_schema() -> None:
    package = EcorePackage(
        "p",
        classifiers=(
            EcoreClass(
                "A",
                features=(
                    EcoreAttribute("x", "EInt"),
                    EcoreAttribute("y", "EInt", transient=True),
                    EcoreReference("bs", "B", upper=-1, opposite="a"),
                    EcoreReference("cache", "B", derived=True),
                ),
            ),
            EcoreClass("B", features=(EcoreReference("a", "A", opposite="bs"),)),
            EcoreDataType("Money", "java.lang.Double"),
            EcoreEnum("E", (EcoreLiteral("L"),)),
        ),
    )
    images = {line.key: has_schema_image(line) for line in ecore_lines(package)}
    assert images == {
        "p": True,
        "A": True,
        "A/x": True,
        "A/y": False,
        "A/bs": True,
        "A/cache": False,
        "B": True,
        "B/a": False,  # the unmapped side of the pair: T cannot show it
        "Money": False,
        "E": False,
        "E/L": False,
    }
    assert all(
        has_schema_image(line)
        for line in sql_lines(SqlSchema("s", (SqlTable("T", (SqlColumn("c", "INT"),)),)))
    )


def test_unordered_properties_and_unbounded_uppers_normalize() -> None:
    _, a = ecore_lines(EcorePackage("p", classifiers=(EcoreClass("C", supertypes=("A", "B")),)))
    _, b = ecore_lines(EcorePackage("p", classifiers=(EcoreClass("C", supertypes=("B", "A")),)))
    assert a.identity == b.identity
    many = [EcoreAttribute("x", "EInt", upper=-1), EcoreAttribute("x", "EInt", upper=-2)]
    lines = [ecore_lines(EcorePackage("p", classifiers=(EcoreClass("C", features=(f,)),)))[2] for f in many]
    assert lines[0].identity == lines[1].identity
    key_a = sql_lines(SqlSchema("s", (SqlTable("T", (), SqlPrimaryKey(("a", "b"))),)))[2]
    key_b = sql_lines(SqlSchema("s", (SqlTable("T", (), SqlPrimaryKey(("B", "A"))),)))[2]
    assert key_a.identity == key_b.identity


def test_attribute_and_reference_with_one_name_are_different_lines() -> None:
    attribute = ecore_lines(
        EcorePackage("p", classifiers=(EcoreClass("C", features=(EcoreAttribute("x", "EInt"),)),))
    )
    reference = ecore_lines(
        EcorePackage("p", classifiers=(EcoreClass("C", features=(EcoreReference("x", "C"),)),))
    )
    assert attribute[2].normalized_key != reference[2].normalized_key


def test_foreign_key_key_is_the_set_of_columns() -> None:
    def key(columns: tuple[str, ...]) -> str:
        schema = SqlSchema("s", (SqlTable("T", (), None, (SqlForeignKey("x", columns, "U"),)),))
        return sql_lines(schema)[2].normalized_key

    assert key(("a", "B")) == key(("b", "A")) == "foreign key t(a,b)"


@pytest.mark.parametrize(
    ("spellings", "canonical"),
    [
        (("VARCHAR", "TEXT", "String", "character varying", "nvarchar", "clob"), "VARCHAR"),
        (("VARCHAR(255)", "varchar( 255 )", "CHARACTER VARYING(255)", "nvarchar(255)"), "VARCHAR(255)"),
        (("VARCHAR(64)", "Varchar2(64)"), "VARCHAR(64)"),
        (("INT", "integer", "Int4", "SMALLINT", "int(11)"), "INTEGER"),
        (("BIGINT", "int8", "LONG"), "BIGINT"),
        (("BOOLEAN", "bool", "BIT"), "BOOLEAN"),
        (("DOUBLE", "double precision", "FLOAT", "REAL"), "DOUBLE"),
        (("DATE", "DATETIME", "timestamp", "TIMESTAMP(6)"), "DATE"),
        (("DECIMAL(10, 2)", "decimal(10,2)"), "DECIMAL(10,2)"),
        (("DECIMAL", "decimal"), "DECIMAL"),
    ],
)
def test_sql_type_synonyms(spellings: tuple[str, ...], canonical: str) -> None:
    assert {normalize_sql_type(s) for s in spellings} == {canonical}


@pytest.mark.parametrize(
    ("spellings", "canonical"),
    [
        (("EString", "String", " java.lang.String "), "EString"),
        (("EInt", "EInteger", "EIntegerObject", "Integer", "int"), "EInt"),
        (("EBoolean", "Boolean", "EBooleanObject", "boolean"), "EBoolean"),
        (("EDouble", "Double", "Real", "EDoubleObject"), "EDouble"),
        (("ELong", "Long", "ELongObject"), "ELong"),
        (("EDate", "Date", "java.util.Date"), "EDate"),
        (("Genre", " Genre "), "Genre"),
    ],
)
def test_ecore_type_synonyms(spellings: tuple[str, ...], canonical: str) -> None:
    assert {normalize_ecore_type(s) for s in spellings} == {canonical}


def test_distinct_types_stay_distinct() -> None:
    # the forward mapping's enum and string columns: the length is what tells them apart
    assert normalize_sql_type("VARCHAR(64)") != normalize_sql_type("VARCHAR(255)")
    assert normalize_sql_type("TEXT") != normalize_sql_type("VARCHAR(255)")
    assert normalize_sql_type("DECIMAL(10,2)") != normalize_sql_type("DECIMAL(12,2)")
    assert normalize_ecore_type("string") != normalize_ecore_type("EString")  # Ecore names are case-sensitive
    assert normalize_ecore_type("Genre") != normalize_ecore_type("genre")
    assert normalize_sql_type("INTEGER") != normalize_sql_type("BIGINT")
    assert normalize_sql_type("VARCHAR(10)") != normalize_sql_type("CHAR(10)")
    assert normalize_ecore_type("EInt") != normalize_ecore_type("ELong")
    assert normalize_ecore_type("EFloat") != normalize_ecore_type("EDouble")
