"""SQL-XMI in and out: pyecore instances of ``sql.ecore`` -> :class:`SqlSchema`, and the canonical writer.

The writer fixes one order for everything (tables by name; primary-key columns first, then the other
columns by name; foreign keys by columns and referenced table), so two schemas with the same content give
the same bytes however they were built. That is what lets the bundled ``Delta_<op>_T`` files be produced
by the T-side operator and checked byte for byte against the forward mapping of ``Delta_<op>_S``.

Cross references use ``xmi:id``s: a table's id is its name, a column's is ``<table>.<column>``. They are
readable, stable under insertions (unlike EMF's positional ``//@tables.3``), and EMF and pyecore both
resolve them.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from benchmark.core.errors import InputFormatError
from benchmark.tracks.roundtrip.models.sqlmeta import SQL_NS_PREFIX, SQL_NS_URI, SQL_ROOT_CLASS, sql_package
from benchmark.tracks.roundtrip.models.sqlmodel import (
    SqlColumn,
    SqlForeignKey,
    SqlPrimaryKey,
    SqlSchema,
    SqlTable,
)
from benchmark.tracks.roundtrip.models.xmltext import (
    XMI_NS_URI,
    XML_DECLARATION,
    attributes,
    boolean,
    element,
)


# -- reading ------------------------------------------------------------------------------------------
def _names(objects: Any) -> tuple[str, ...]:
    return tuple(str(o.name or "") for o in objects if o is not None)


def schema_from_pyecore(root: Any) -> SqlSchema:
    """A loaded ``Schema`` object as a value."""
    tables: list[SqlTable] = []
    for table in root.tables:
        columns = tuple(
            SqlColumn(
                name=str(c.name or ""),
                type=str(c.type or ""),
                nullable=bool(c.nullable),
                unique=bool(c.unique),
            )
            for c in table.columns
        )
        primary_key = (
            SqlPrimaryKey(_names(table.primaryKey.columns)) if table.primaryKey is not None else None
        )
        foreign_keys = tuple(
            SqlForeignKey(
                name=str(fk.name or ""),
                columns=_names(fk.columns),
                referenced_table=str(fk.referencedTable.name or "") if fk.referencedTable is not None else "",
                referenced_columns=_names(fk.referencedColumns),
            )
            for fk in table.foreignKeys
        )
        tables.append(SqlTable(str(table.name or ""), columns, primary_key, foreign_keys))
    return SqlSchema(name=str(root.name or ""), tables=tuple(tables))


def read_sql(path: str | Path) -> SqlSchema:
    """A SQL-XMI file the track wrote itself (strict: it must load with pyecore)."""
    from benchmark.lang.ecore.pyecore_loading import load_instance_file

    try:
        roots = load_instance_file(path, {SQL_NS_URI: sql_package()})
    except InputFormatError:
        raise
    except Exception as error:  # pyecore reports problems as plain exceptions
        raise InputFormatError(
            f"cannot load SQL-XMI: {type(error).__name__}: {error}", file=str(path)
        ) from None
    if len(roots) != 1 or roots[0].eClass.name != SQL_ROOT_CLASS:
        raise InputFormatError(f"expected one {SQL_NS_PREFIX}:{SQL_ROOT_CLASS} root", file=str(path))
    return schema_from_pyecore(roots[0])


# -- canonical order and writing -------------------------------------------------------------------------
def _name_key(name: str) -> tuple[str, str]:
    return (name.casefold(), name)


def canonical_table(table: SqlTable) -> SqlTable:
    """Primary-key columns first (key order), then the rest by name; foreign keys by columns, target."""
    key_columns = table.primary_key.columns if table.primary_key is not None else ()
    first = [c for name in key_columns for c in table.columns if c.name == name]
    rest = sorted((c for c in table.columns if c.name not in key_columns), key=lambda c: _name_key(c.name))
    foreign_keys = sorted(
        table.foreign_keys,
        key=lambda fk: (tuple(map(_name_key, fk.columns)), _name_key(fk.referenced_table), fk.name),
    )
    return SqlTable(table.name, tuple(first + rest), table.primary_key, tuple(foreign_keys))


def canonical_schema(schema: SqlSchema) -> SqlSchema:
    tables = sorted((canonical_table(t) for t in schema.tables), key=lambda t: _name_key(t.name))
    return SqlSchema(schema.name, tuple(tables))


def _column_ids(table: str, columns: tuple[str, ...]) -> str:
    return " ".join(f"{table}.{c}" for c in columns)


def _table_element(table: SqlTable) -> list[str]:
    children: list[str] = []
    for column in table.columns:
        pairs: list[tuple[str, str | None]] = [
            ("xmi:id", f"{table.name}.{column.name}"),
            ("name", column.name),
            ("type", column.type),
            ("nullable", boolean(column.nullable)),
            ("unique", boolean(column.unique)),
        ]
        children += element(2, "columns", pairs, [])
    if table.primary_key is not None:
        children += element(
            2, "primaryKey", [("columns", _column_ids(table.name, table.primary_key.columns))], []
        )
    for fk in table.foreign_keys:
        pairs = [
            ("name", fk.name),
            ("columns", _column_ids(table.name, fk.columns)),
            ("referencedTable", fk.referenced_table),
            ("referencedColumns", _column_ids(fk.referenced_table, fk.referenced_columns) or None),
        ]
        children += element(2, "foreignKeys", pairs, [])
    return element(1, "tables", [("xmi:id", table.name), ("name", table.name)], children)


def write_sql(schema: SqlSchema) -> str:
    """The canonical SQL-XMI text of a schema (content-equal schemas give identical bytes)."""
    schema = canonical_schema(schema)
    head = (
        f'<{SQL_NS_PREFIX}:{SQL_ROOT_CLASS} xmi:version="2.0" xmlns:xmi="{XMI_NS_URI}" '
        f'xmlns:{SQL_NS_PREFIX}="{SQL_NS_URI}"' + attributes([("name", schema.name)])
    )
    body = [line for t in schema.tables for line in _table_element(t)]
    if not body:
        return f"{XML_DECLARATION}\n{head}/>\n"
    return "\n".join([XML_DECLARATION, head + ">", *body, f"</{SQL_NS_PREFIX}:{SQL_ROOT_CLASS}>"]) + "\n"
