"""Class-level deltas: add_class, delete_class, rename_class."""

from __future__ import annotations

from dataclasses import replace

from benchmark.tracks.roundtrip.models.ecoremodel import (
    EcoreAttribute,
    EcoreClass,
    EcorePackage,
    EcoreReference,
)
from benchmark.tracks.roundtrip.models.forward import builtin_sql_type, class_table, is_mapped
from benchmark.tracks.roundtrip.models.sqlmodel import SqlColumn, SqlSchema
from benchmark.tracks.roundtrip.models.sqlview import aux_owner, class_tables, is_class_table, is_owner_key
from benchmark.tracks.roundtrip.operators.base import DeltaOperator, Target, appears, changes, disappears
from benchmark.tracks.roundtrip.operators.common import (
    rename_class_everywhere,
    rename_table_everywhere,
    taken,
)

# (class, (attribute, type), (attribute, type)): names no bundled domain uses for a class.
NEW_CLASSES: tuple[tuple[str, tuple[str, str], tuple[str, str]], ...] = (
    ("Attachment", ("fileName", "EString"), ("sizeInBytes", "ELong")),
    ("AuditEntry", ("message", "EString"), ("recordedOn", "EDate")),
    ("Bookmark", ("caption", "EString"), ("position", "EInt")),
    ("Comment", ("text", "EString"), ("postedOn", "EDate")),
    ("Feedback", ("remark", "EString"), ("score", "EInt")),
    ("Note", ("content", "EString"), ("pinned", "EBoolean")),
    ("Rating", ("stars", "EInt"), ("weight", "EDouble")),
)
CLASS_RENAME_SUFFIXES = ("Entry", "Item", "Record")


class AddClass(DeltaOperator):
    name = "add_class"
    summary = "a new class with two single-valued optional attributes (no supertype, no reference)"
    target_parts = ("class", "attribute", "type", "attribute", "type")
    witnesses = (
        appears("S", "class {0}"),
        appears("S", "attribute {0}/{1}"),
        appears("S", "attribute {0}/{3}"),
        appears("T", "table {0}"),
        appears("T", "column {0}/id"),
        appears("T", "column {0}/{1}"),
        appears("T", "column {0}/{3}"),
        appears("T", "primary key {0}"),
    )

    def _targets(self) -> list[Target]:
        return [(name, a[0], a[1], b[0], b[1]) for name, a, b in NEW_CLASSES]

    def targets_s(self, package: EcorePackage) -> list[Target]:
        return self._targets()

    def targets_t(self, schema: SqlSchema) -> list[Target]:
        return self._targets()

    def edit_s(self, package: EcorePackage, target: Target) -> EcorePackage:
        name, first, first_type, second, second_type = target
        if taken((c.name for c in package.classifiers), name):
            raise self.not_applicable(target, f"the package already has a classifier {name}")
        attributes = (EcoreAttribute(first, first_type), EcoreAttribute(second, second_type))
        return package.add_classifier(EcoreClass(name, features=attributes))

    def edit_t(self, schema: SqlSchema, target: Target) -> SqlSchema:
        name, first, first_type, second, second_type = target
        if taken((t.name for t in schema.tables), name):
            raise self.not_applicable(target, f"the schema already has a table {name}")
        table = class_table(name)
        columns = (
            *table.columns,
            SqlColumn(first, builtin_sql_type(first_type)),
            SqlColumn(second, builtin_sql_type(second_type)),
        )
        return schema.add_table(replace(table, columns=columns))


class DeleteClass(DeltaOperator):
    """A leaf class that no mapped reference of another class points to.

    References of other classes that are not mapped (derived/transient/volatile ones, and the unmapped
    side of a bidirectional pair whose mapped side belongs to the deleted class) are removed with it:
    they would dangle, and they have no SQL image. The class's own containments disappear from the
    contained tables as ``<ref>_owner_id`` columns.
    """

    name = "delete_class"
    summary = "delete a leaf class that no (mapped) reference of another class points to"
    target_parts = ("class",)
    witnesses = (
        disappears("S", "class {0}"),
        disappears("S", "attribute {0}/*", required=False),
        disappears("S", "reference {0}/*", required=False),
        disappears("S", "reference */*", required=False),
        disappears("T", "table {0}"),
        disappears("T", "column {0}/*"),
        disappears("T", "primary key {0}"),
        disappears("T", "foreign key {0}(*)", required=False),
        disappears("T", "table {0}_*", required=False),
        disappears("T", "column {0}_*/*", required=False),
        disappears("T", "primary key {0}_*", required=False),
        disappears("T", "foreign key {0}_*(*)", required=False),
        disappears("T", "column */*_owner_id", required=False),
        disappears("T", "foreign key *(*_owner_id)", required=False),
    )

    def targets_s(self, package: EcorePackage) -> list[Target]:
        pointed_at = {
            f.type
            for c, f in package.iter_features()
            if isinstance(f, EcoreReference) and f.type != c.name and is_mapped(package, c, f)
        }
        return [
            (c.name,) for c in package.classes if not package.subclasses(c.name) and c.name not in pointed_at
        ]

    def targets_t(self, schema: SqlSchema) -> list[Target]:
        result: list[Target] = []
        for candidate in class_tables(schema):
            name = candidate.name
            contained_elsewhere = any(
                fk.referenced_table != name and is_owner_key(candidate, fk) for fk in candidate.foreign_keys
            )
            referenced = any(
                fk.referenced_table == name and not (is_class_table(table) and is_owner_key(table, fk))
                for table in schema.tables
                if table.name != name and aux_owner(table) != name
                for fk in table.foreign_keys
            )
            if not contained_elsewhere and not referenced:
                result.append((name,))
        return result

    def edit_s(self, package: EcorePackage, target: Target) -> EcorePackage:
        (name,) = target
        package = package.replace_classifier(name, None)
        classifiers = tuple(
            replace(
                c,
                features=tuple(
                    f for f in c.features if not (isinstance(f, EcoreReference) and f.type == name)
                ),
            )
            if isinstance(c, EcoreClass)
            else c
            for c in package.classifiers
        )
        return replace(package, classifiers=classifiers)

    def edit_t(self, schema: SqlSchema, target: Target) -> SqlSchema:
        (name,) = target
        tables = []
        for table in schema.tables:
            if table.name == name or aux_owner(table) == name:
                continue
            for fk in table.foreign_keys:
                if fk.referenced_table == name:  # a containment of the deleted class: <ref>_owner_id
                    table = table.without_column(fk.columns[0])
            tables.append(table)
        return replace(schema, tables=tuple(tables))


class RenameClass(DeltaOperator):
    name = "rename_class"
    summary = "rename a class (a suffix Entry, Item or Record is appended)"
    target_parts = ("class", "new name")
    witnesses = (
        disappears("S", "class {0}"),
        appears("S", "class {1}"),
        disappears("S", "attribute {0}/*", required=False),
        appears("S", "attribute {1}/*", required=False),
        disappears("S", "reference {0}/*", required=False),
        appears("S", "reference {1}/*", required=False),
        changes("S", "class *", required=False),
        changes("S", "reference */*", required=False),
        disappears("T", "table {0}"),
        appears("T", "table {1}"),
        disappears("T", "column {0}/*"),
        appears("T", "column {1}/*"),
        disappears("T", "primary key {0}"),
        appears("T", "primary key {1}"),
        disappears("T", "foreign key {0}(*)", required=False),
        appears("T", "foreign key {1}(*)", required=False),
        disappears("T", "table {0}_*", required=False),
        appears("T", "table {1}_*", required=False),
        disappears("T", "column {0}_*/*", required=False),
        appears("T", "column {1}_*/*", required=False),
        disappears("T", "primary key {0}_*", required=False),
        appears("T", "primary key {1}_*", required=False),
        disappears("T", "foreign key {0}_*(*)", required=False),
        appears("T", "foreign key {1}_*(*)", required=False),
        changes("T", "foreign key *(*)", required=False),
    )

    def targets_s(self, package: EcorePackage) -> list[Target]:
        return [(c.name, c.name + suffix) for c in package.classes for suffix in CLASS_RENAME_SUFFIXES]

    def targets_t(self, schema: SqlSchema) -> list[Target]:
        return [(t.name, t.name + suffix) for t in class_tables(schema) for suffix in CLASS_RENAME_SUFFIXES]

    def edit_s(self, package: EcorePackage, target: Target) -> EcorePackage:
        old, new = target
        if taken((c.name for c in package.classifiers), new):
            raise self.not_applicable(target, f"the package already has a classifier {new}")
        return rename_class_everywhere(package, old, new)

    def edit_t(self, schema: SqlSchema, target: Target) -> SqlSchema:
        old, new = target
        if taken((t.name for t in schema.tables), new):
            raise self.not_applicable(target, f"the schema already has a table {new}")
        return rename_table_everywhere(schema, old, new)
