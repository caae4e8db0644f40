"""The forward mapping, checked by hand on small packages, and its refusals."""

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
from benchmark.tracks.roundtrip.models.forward import ForwardMappingError, forward, sql_type
from benchmark.tracks.roundtrip.models.sqlmodel import (
    SqlColumn,
    SqlForeignKey,
    SqlPrimaryKey,
    SqlSchema,
    SqlTable,
)


def package(*classifiers):  # type: ignore[no-untyped-def]
    return EcorePackage("shop", "http://example.org/shop", "shop", tuple(classifiers))


def table_of(schema: SqlSchema, name: str) -> SqlTable:
    found = schema.table(name)
    assert found is not None, f"no table {name}; tables: {[t.name for t in schema.tables]}"
    return found


ID = SqlColumn("id", "INTEGER", nullable=False, unique=False)


@pytest.mark.parametrize(
    ("ecore_type", "sql"),
    [
        ("EString", "VARCHAR(255)"),
        ("EInt", "INTEGER"),
        ("EInteger", "INTEGER"),
        ("EShort", "INTEGER"),
        ("ELong", "BIGINT"),
        ("EBoolean", "BOOLEAN"),
        ("EDouble", "DOUBLE"),
        ("EFloat", "DOUBLE"),
        ("EDate", "DATE"),
        ("EChar", "VARCHAR(255)"),
    ],
)
def test_type_map(ecore_type: str, sql: str) -> None:
    assert sql_type(package(), ecore_type) == sql


def test_enum_and_datatype_types() -> None:
    pkg = package(
        EcoreEnum("Status", (EcoreLiteral("NEW"),)),
        EcoreDataType("Amount", "java.lang.Integer"),
        EcoreDataType("Url", "java.net.URL"),
    )
    assert sql_type(pkg, "Status") == "VARCHAR(64)"
    assert sql_type(pkg, "Amount") == "INTEGER"
    assert sql_type(pkg, "Url") == "VARCHAR(255)"


def test_class_attributes_and_inheritance() -> None:
    schema = forward(
        package(
            EcoreClass(
                "Product", abstract=True, features=(EcoreAttribute("sku", "EString", 1, 1, is_id=True),)
            ),
            EcoreClass(
                "Book",
                supertypes=("Product",),
                features=(
                    EcoreAttribute("pages", "EInt"),
                    EcoreAttribute("tags", "EString", 0, -1),
                    EcoreAttribute("rank", "EInt", derived=True, transient=True, volatile=True),
                    EcoreAttribute("cache", "EString", transient=True),
                ),
            ),
        )
    )
    assert [t.name for t in schema.tables] == ["Product", "Book", "Book_tags"]
    assert table_of(schema, "Product") == SqlTable(
        "Product",
        (ID, SqlColumn("sku", "VARCHAR(255)", nullable=False, unique=True)),
        SqlPrimaryKey(("id",)),
        (),
    )
    assert table_of(schema, "Book") == SqlTable(
        "Book",
        (ID, SqlColumn("pages", "INTEGER", nullable=True, unique=False)),
        SqlPrimaryKey(("id",)),
        (SqlForeignKey("fk_Book_id_Product", ("id",), "Product", ("id",)),),
    )
    assert table_of(schema, "Book_tags") == SqlTable(
        "Book_tags",
        (SqlColumn("owner_id", "INTEGER", False, False), SqlColumn("value", "VARCHAR(255)", False, False)),
        None,
        (SqlForeignKey("fk_Book_tags_owner_id_Book", ("owner_id",), "Book", ("id",)),),
    )


def test_multiple_inheritance_gives_one_foreign_key_per_supertype() -> None:
    schema = forward(package(EcoreClass("A"), EcoreClass("B"), EcoreClass("C", supertypes=("A", "B"))))
    keys = table_of(schema, "C").foreign_keys
    assert [(k.columns, k.referenced_table) for k in keys] == [(("id",), "A"), (("id",), "B")]


def test_references() -> None:
    schema = forward(
        package(
            EcoreClass(
                "Order",
                features=(
                    EcoreReference("customer", "Customer", lower=1),
                    EcoreReference("lines", "Line", upper=-1, containment=True),
                    EcoreReference("gifts", "Customer", upper=-1),
                    EcoreReference("audit", "Customer", transient=True),
                ),
            ),
            EcoreClass("Customer"),
            EcoreClass("Line"),
        )
    )
    order = table_of(schema, "Order")
    assert SqlColumn("customer_id", "INTEGER", nullable=False, unique=False) in order.columns
    assert order.column("audit_id") is None
    assert [(k.columns, k.referenced_table) for k in order.foreign_keys] == [(("customer_id",), "Customer")]
    line = table_of(schema, "Line")
    assert SqlColumn("lines_owner_id", "INTEGER", nullable=True, unique=False) in line.columns
    assert [(k.columns, k.referenced_table) for k in line.foreign_keys] == [(("lines_owner_id",), "Order")]
    join = table_of(schema, "Order_gifts")
    assert [c.name for c in join.columns] == ["owner_id", "target_id"]
    assert join.primary_key == SqlPrimaryKey(("owner_id", "target_id"))
    assert [(k.columns, k.referenced_table) for k in join.foreign_keys] == [
        (("owner_id",), "Order"),
        (("target_id",), "Customer"),
    ]


def test_a_pair_maps_once_through_the_reference_declared_first() -> None:
    schema = forward(
        package(
            EcoreClass("Author", features=(EcoreReference("books", "Book", upper=-1, opposite="authors"),)),
            EcoreClass("Book", features=(EcoreReference("authors", "Author", upper=-1, opposite="books"),)),
        )
    )
    assert [t.name for t in schema.tables] == ["Author", "Book", "Author_books"]


def test_a_containment_pair_maps_through_the_containment_even_when_declared_second() -> None:
    schema = forward(
        package(
            EcoreClass("Line", features=(EcoreReference("order", "Order", opposite="lines"),)),
            EcoreClass(
                "Order",
                features=(EcoreReference("lines", "Line", upper=-1, containment=True, opposite="order"),),
            ),
        )
    )
    line = table_of(schema, "Line")
    assert [c.name for c in line.columns] == ["id", "lines_owner_id"]
    assert line.column("order_id") is None


@pytest.mark.parametrize(
    ("pkg", "message"),
    [
        (package(EcoreClass("Order_Line")), "contains '_'"),
        (package(EcoreClass("A", features=(EcoreAttribute("first_name", "EString"),))), "contains '_'"),
        (
            package(EcoreClass("A", features=(EcoreAttribute("id", "EString"),))),
            "column A.id would be produced twice",
        ),
        (package(EcoreClass("A", features=(EcoreReference("b", "Missing"),))), "not a class of the package"),
        (package(EcoreClass("A", supertypes=("Missing",))), "supertype"),
        (
            package(EcoreClass("A", features=(EcoreReference("b", "A", opposite="nothing"),))),
            "does not exist",
        ),
        (
            package(
                EcoreClass(
                    "A",
                    features=(
                        EcoreReference("b", "A", containment=True, opposite="c"),
                        EcoreReference("c", "A", containment=True, opposite="b"),
                    ),
                ),
            ),
            "both references",
        ),
    ],
)
def test_refusals(pkg: EcorePackage, message: str) -> None:
    with pytest.raises(ForwardMappingError, match=message):
        forward(pkg)


def test_two_containments_with_one_name_into_one_class_clash() -> None:
    pkg = package(
        EcoreClass("Shelf", features=(EcoreReference("items", "Thing", upper=-1, containment=True),)),
        EcoreClass("Box", features=(EcoreReference("items", "Thing", upper=-1, containment=True),)),
        EcoreClass("Thing"),
    )
    with pytest.raises(ForwardMappingError, match="column Thing.items_owner_id would be produced twice"):
        forward(pkg)
