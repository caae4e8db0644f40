"""A SQL schema (an instance of the track's ``sql.ecore``) as immutable values.

Cross references (primary-key columns, foreign-key columns, referenced table and columns) are held by
name, relative to the owning table or to the referenced table. That is all the canonical lines need, and
it lets the delta operators rename a table by rewriting names rather than chasing object identity.
"""

from __future__ import annotations

from dataclasses import dataclass, replace


@dataclass(frozen=True)
class SqlColumn:
    name: str
    type: str
    nullable: bool = True
    unique: bool = False


@dataclass(frozen=True)
class SqlPrimaryKey:
    columns: tuple[str, ...]


@dataclass(frozen=True)
class SqlForeignKey:
    name: str
    columns: tuple[str, ...]
    referenced_table: str
    referenced_columns: tuple[str, ...] = ()


@dataclass(frozen=True)
class SqlTable:
    name: str
    columns: tuple[SqlColumn, ...] = ()
    primary_key: SqlPrimaryKey | None = None
    foreign_keys: tuple[SqlForeignKey, ...] = ()

    def column(self, name: str) -> SqlColumn | None:
        return next((c for c in self.columns if c.name == name), None)

    def require_column(self, name: str) -> SqlColumn:
        found = self.column(name)
        if found is None:
            raise KeyError(f"table {self.name!r} has no column {name!r}")
        return found

    def foreign_key_on(self, columns: tuple[str, ...]) -> tuple[SqlForeignKey, ...]:
        return tuple(fk for fk in self.foreign_keys if fk.columns == columns)

    def without_column(self, name: str) -> SqlTable:
        """Drop a column together with every foreign key that uses it."""
        if self.column(name) is None:
            raise KeyError(f"table {self.name!r} has no column {name!r}")
        return replace(
            self,
            columns=tuple(c for c in self.columns if c.name != name),
            foreign_keys=tuple(fk for fk in self.foreign_keys if name not in fk.columns),
        )

    def replace_column(self, name: str, new: SqlColumn) -> SqlTable:
        if self.column(name) is None:
            raise KeyError(f"table {self.name!r} has no column {name!r}")
        return replace(self, columns=tuple(new if c.name == name else c for c in self.columns))


@dataclass(frozen=True)
class SqlSchema:
    name: str
    tables: tuple[SqlTable, ...] = ()

    def table(self, name: str) -> SqlTable | None:
        return next((t for t in self.tables if t.name == name), None)

    def require_table(self, name: str) -> SqlTable:
        found = self.table(name)
        if found is None:
            raise KeyError(f"schema {self.name!r} has no table {name!r}")
        return found

    def replace_table(self, name: str, new: SqlTable | None) -> SqlSchema:
        """This schema with table ``name`` replaced by ``new`` (removed when ``new`` is None)."""
        self.require_table(name)
        kept = (t for t in self.tables if t.name != name or new is not None)
        return replace(self, tables=tuple(new if new is not None and t.name == name else t for t in kept))

    def add_table(self, new: SqlTable) -> SqlSchema:
        return replace(self, tables=(*self.tables, new))
