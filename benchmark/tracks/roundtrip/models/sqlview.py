"""Reading the forward mapping's structure back from a SQL schema alone.

The T side of a delta operator must find "the class Book", "the attribute Book.title" or "the reference
Book.author" in a schema without looking at the Ecore model (otherwise the commutation law would hold by
construction). The forward mapping leaves enough structure for that:

* a *class table* has the primary key ``(id)``; every other table is auxiliary and has an ``owner_id``
  foreign key to the class table that owns it, and is named ``<owner>_<feature>``;
* an auxiliary table with a ``value`` column holds a many-valued attribute, one with ``target_id`` a
  many-valued reference;
* in a class table, a column without ``_`` (other than ``id``) holds a single-valued attribute,
  ``<r>_owner_id`` the container of a containment ``r``, any other ``<r>_id`` a single-valued reference.
"""

from __future__ import annotations

from benchmark.tracks.roundtrip.models.forward import (
    CONTAINER_SUFFIX,
    ID_COLUMN,
    OWNER_COLUMN,
    REFERENCE_SUFFIX,
    TARGET_COLUMN,
    VALUE_COLUMN,
)
from benchmark.tracks.roundtrip.models.sqlmodel import SqlColumn, SqlForeignKey, SqlSchema, SqlTable


def is_class_table(table: SqlTable) -> bool:
    return table.primary_key is not None and table.primary_key.columns == (ID_COLUMN,)


def class_tables(schema: SqlSchema) -> tuple[SqlTable, ...]:
    return tuple(t for t in schema.tables if is_class_table(t))


def aux_owner(table: SqlTable) -> str | None:
    """The class table an auxiliary table belongs to (its ``owner_id`` foreign key), else None."""
    if is_class_table(table):
        return None
    keys = table.foreign_key_on((OWNER_COLUMN,))
    return keys[0].referenced_table if keys else None


def aux_feature(table: SqlTable) -> str | None:
    """``tags`` for the table ``Book_tags`` owned by ``Book``."""
    owner = aux_owner(table)
    if owner is None or not table.name.startswith(f"{owner}_"):
        return None
    return table.name[len(owner) + 1 :]


def aux_tables_of(schema: SqlSchema, owner: str) -> tuple[SqlTable, ...]:
    return tuple(t for t in schema.tables if aux_owner(t) == owner)


def is_value_table(table: SqlTable) -> bool:
    return aux_owner(table) is not None and table.column(VALUE_COLUMN) is not None


def is_join_table(table: SqlTable) -> bool:
    return aux_owner(table) is not None and table.column(TARGET_COLUMN) is not None


def is_attribute_column(column: SqlColumn) -> bool:
    return column.name != ID_COLUMN and "_" not in column.name


def is_container_column(column: SqlColumn) -> bool:
    return column.name.endswith(CONTAINER_SUFFIX)


def is_reference_column(column: SqlColumn) -> bool:
    return (
        column.name.endswith(REFERENCE_SUFFIX)
        and column.name != ID_COLUMN
        and not is_container_column(column)
    )


def is_owner_key(table: SqlTable, fk: SqlForeignKey) -> bool:
    """A foreign key on a ``<ref>_owner_id`` column: the table's rows are contained by the target's."""
    column = table.column(fk.columns[0]) if len(fk.columns) == 1 else None
    return column is not None and is_container_column(column)


def reference_name(column: SqlColumn) -> str:
    """``author`` for the column ``author_id``."""
    return column.name[: -len(REFERENCE_SUFFIX)]


def table_features(schema: SqlSchema, table: SqlTable) -> frozenset[str]:
    """Names of the features of the class behind ``table`` that the schema shows: attribute columns,
    reference columns and auxiliary tables."""
    names = {c.name for c in table.columns if is_attribute_column(c)}
    names |= {reference_name(c) for c in table.columns if is_reference_column(c)}
    names |= {feature for t in aux_tables_of(schema, table.name) if (feature := aux_feature(t)) is not None}
    return frozenset(names)
