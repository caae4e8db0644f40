"""Attribute-level deltas: add_attribute, delete_attribute, rename_attribute, change_attribute_type."""

from __future__ import annotations

from dataclasses import replace

from benchmark.tracks.roundtrip.models.ecoremodel import EcoreAttribute, EcorePackage
from benchmark.tracks.roundtrip.models.forward import VALUE_COLUMN, builtin_sql_type, sql_type
from benchmark.tracks.roundtrip.models.sqlmodel import SqlColumn, SqlSchema, SqlTable
from benchmark.tracks.roundtrip.models.sqlview import (
    aux_feature,
    aux_owner,
    class_tables,
    is_attribute_column,
    is_value_table,
    table_features,
)
from benchmark.tracks.roundtrip.models.synonyms import sql_type_family
from benchmark.tracks.roundtrip.operators.base import DeltaOperator, Target, appears, changes, disappears
from benchmark.tracks.roundtrip.operators.common import (
    persistent_attributes,
    replace_feature,
    taken,
    with_derived_fk_names,
)

# (name, type) of the attribute add_attribute introduces; names no bundled domain uses.
NEW_ATTRIBUTES: tuple[tuple[str, str], ...] = (
    ("archived", "EBoolean"),
    ("createdOn", "EDate"),
    ("externalCode", "ELong"),
    ("internalNotes", "EString"),
    ("sortOrder", "EInt"),
    ("weighting", "EDouble"),
)
ATTRIBUTE_RENAME_SUFFIXES = ("Data", "Text", "Value")
# The types change_attribute_type can switch to, one per SQL type class.
TYPE_CHOICES: tuple[str, ...] = ("EBoolean", "EDate", "EDouble", "EInt", "ELong", "EString")


def _attribute_targets_t(schema: SqlSchema) -> list[tuple[str, str, SqlColumn]]:
    """(class table, attribute, column holding its values) for every attribute the schema shows."""
    found = [(t.name, c.name, c) for t in class_tables(schema) for c in t.columns if is_attribute_column(c)]
    for table in schema.tables:
        owner, feature = aux_owner(table), aux_feature(table)
        if is_value_table(table) and owner is not None and feature is not None:
            found.append((owner, feature, table.require_column(VALUE_COLUMN)))
    return found


def _attribute(operator: DeltaOperator, package: EcorePackage, target: Target) -> EcoreAttribute:
    """The attribute ``target[1]`` of class ``target[0]``."""
    found = package.eclass(target[0]).feature(target[1])
    if not isinstance(found, EcoreAttribute):
        raise operator.not_applicable(target, "no such attribute")
    return found


def _value_table(schema: SqlSchema, owner: str, attribute: str) -> SqlTable | None:
    return next(
        (
            t
            for t in schema.tables
            if is_value_table(t) and aux_owner(t) == owner and aux_feature(t) == attribute
        ),
        None,
    )


class AddAttribute(DeltaOperator):
    name = "add_attribute"
    summary = "add a single-valued optional attribute to a class"
    target_parts = ("class", "attribute", "type")
    witnesses = (appears("S", "attribute {0}/{1}"), appears("T", "column {0}/{1}"))

    def targets_s(self, package: EcorePackage) -> list[Target]:
        return [(c.name, a, t) for c in package.classes for a, t in NEW_ATTRIBUTES]

    def targets_t(self, schema: SqlSchema) -> list[Target]:
        return [(t.name, a, ty) for t in class_tables(schema) for a, ty in NEW_ATTRIBUTES]

    def edit_s(self, package: EcorePackage, target: Target) -> EcorePackage:
        owner, name, type_name = target
        if taken(package.feature_names_in_hierarchy(owner), name):
            raise self.not_applicable(target, f"{owner} or a class related by inheritance already has {name}")
        eclass = package.eclass(owner)
        return package.replace_classifier(
            owner, replace(eclass, features=(*eclass.features, EcoreAttribute(name, type_name)))
        )

    def edit_t(self, schema: SqlSchema, target: Target) -> SqlSchema:
        owner, name, type_name = target
        table = schema.require_table(owner)
        if taken(table_features(schema, table), name):
            raise self.not_applicable(target, f"table {owner} already shows a feature {name}")
        return schema.replace_table(
            owner, replace(table, columns=(*table.columns, SqlColumn(name, builtin_sql_type(type_name))))
        )


class DeleteAttribute(DeltaOperator):
    name = "delete_attribute"
    summary = "delete an attribute (single-valued: its column; many-valued: its value table)"
    target_parts = ("class", "attribute")
    witnesses = (
        disappears("S", "attribute {0}/{1}"),
        disappears("T", "column {0}/{1}", required=False),
        disappears("T", "table {0}_{1}", required=False),
        disappears("T", "column {0}_{1}/*", required=False),
        disappears("T", "foreign key {0}_{1}(*)", required=False),
    )

    def targets_s(self, package: EcorePackage) -> list[Target]:
        return [(c.name, a.name) for c, a in persistent_attributes(package)]

    def targets_t(self, schema: SqlSchema) -> list[Target]:
        return [(owner, name) for owner, name, _ in _attribute_targets_t(schema)]

    def edit_s(self, package: EcorePackage, target: Target) -> EcorePackage:
        owner, name = target
        return replace_feature(package, owner, name, None)

    def edit_t(self, schema: SqlSchema, target: Target) -> SqlSchema:
        owner, name = target
        table = schema.require_table(owner)
        if table.column(name) is not None:
            return schema.replace_table(owner, table.without_column(name))
        values = _value_table(schema, owner, name)
        if values is None:
            raise self.not_applicable(target, "no column or value table holds this attribute")
        return schema.replace_table(values.name, None)


class RenameAttribute(DeltaOperator):
    name = "rename_attribute"
    summary = "rename an attribute (a suffix Data, Text or Value is appended)"
    target_parts = ("class", "attribute", "new name")
    witnesses = (
        disappears("S", "attribute {0}/{1}"),
        appears("S", "attribute {0}/{2}"),
        disappears("T", "column {0}/{1}", required=False),
        appears("T", "column {0}/{2}", required=False),
        disappears("T", "table {0}_{1}", required=False),
        appears("T", "table {0}_{2}", required=False),
        disappears("T", "column {0}_{1}/*", required=False),
        appears("T", "column {0}_{2}/*", required=False),
        disappears("T", "foreign key {0}_{1}(*)", required=False),
        appears("T", "foreign key {0}_{2}(*)", required=False),
    )

    def targets_s(self, package: EcorePackage) -> list[Target]:
        return [
            (c.name, a.name, a.name + s)
            for c, a in persistent_attributes(package)
            for s in ATTRIBUTE_RENAME_SUFFIXES
        ]

    def targets_t(self, schema: SqlSchema) -> list[Target]:
        return [(o, n, n + s) for o, n, _ in _attribute_targets_t(schema) for s in ATTRIBUTE_RENAME_SUFFIXES]

    def edit_s(self, package: EcorePackage, target: Target) -> EcorePackage:
        owner, old, new = target
        if taken(package.feature_names_in_hierarchy(owner), new):
            raise self.not_applicable(target, f"{owner} or a class related by inheritance already has {new}")
        attribute = _attribute(self, package, target)
        return replace_feature(package, owner, old, replace(attribute, name=new))

    def edit_t(self, schema: SqlSchema, target: Target) -> SqlSchema:
        owner, old, new = target
        table = schema.require_table(owner)
        if taken(table_features(schema, table), new):
            raise self.not_applicable(target, f"table {owner} already shows a feature {new}")
        column = table.column(old)
        if column is not None:
            return schema.replace_table(owner, table.replace_column(old, replace(column, name=new)))
        values = _value_table(schema, owner, old)
        if values is None:
            raise self.not_applicable(target, "no column or value table holds this attribute")
        return schema.replace_table(
            values.name, with_derived_fk_names(replace(values, name=f"{owner}_{new}"))
        )


class ChangeAttributeType(DeltaOperator):
    name = "change_attribute_type"
    summary = (
        "give an attribute a type whose SQL type differs (EBoolean, EDate, EDouble, EInt, ELong, EString)"
    )
    target_parts = ("class", "attribute", "new type")
    witnesses = (
        changes("S", "attribute {0}/{1}"),
        changes("T", "column {0}/{1}", required=False),
        changes("T", "column {0}_{1}/value", required=False),
    )

    @staticmethod
    def _choices(current_sql_type: str) -> list[str]:
        current = sql_type_family(current_sql_type)
        return [t for t in TYPE_CHOICES if sql_type_family(builtin_sql_type(t)) != current]

    def targets_s(self, package: EcorePackage) -> list[Target]:
        return [
            (c.name, a.name, t)
            for c, a in persistent_attributes(package)
            for t in self._choices(sql_type(package, a.type))
        ]

    def targets_t(self, schema: SqlSchema) -> list[Target]:
        return [
            (o, n, t) for o, n, column in _attribute_targets_t(schema) for t in self._choices(column.type)
        ]

    def edit_s(self, package: EcorePackage, target: Target) -> EcorePackage:
        owner, name, type_name = target
        attribute = _attribute(self, package, target)
        return replace_feature(package, owner, name, replace(attribute, type=type_name))

    def edit_t(self, schema: SqlSchema, target: Target) -> SqlSchema:
        owner, name, type_name = target
        table = schema.require_table(owner)
        new_type = builtin_sql_type(type_name)
        column = table.column(name)
        if column is not None:
            return schema.replace_table(owner, table.replace_column(name, replace(column, type=new_type)))
        values = _value_table(schema, owner, name)
        if values is None:
            raise self.not_applicable(target, "no column or value table holds this attribute")
        value = values.require_column(VALUE_COLUMN)
        return schema.replace_table(
            values.name, values.replace_column(VALUE_COLUMN, replace(value, type=new_type))
        )
