"""Reference- and bound-level deltas: add_reference, to_many, make_mandatory."""

from __future__ import annotations

from dataclasses import replace

from benchmark.tracks.roundtrip.models.ecoremodel import (
    EcoreAttribute,
    EcoreFeature,
    EcorePackage,
    EcoreReference,
)
from benchmark.tracks.roundtrip.models.forward import REFERENCE_SUFFIX, foreign_key, join_table, key_column
from benchmark.tracks.roundtrip.models.sqlmodel import SqlSchema
from benchmark.tracks.roundtrip.models.sqlview import (
    class_tables,
    is_attribute_column,
    is_reference_column,
    reference_name,
    table_features,
)
from benchmark.tracks.roundtrip.operators.base import DeltaOperator, Target, appears, changes, disappears
from benchmark.tracks.roundtrip.operators.common import column_references, replace_feature, taken

NEW_REFERENCE_PREFIX = "related"


class AddReference(DeltaOperator):
    name = "add_reference"
    summary = "add an optional single-valued reference related<Target> (a new foreign key)"
    target_parts = ("class", "reference", "target class")
    witnesses = (
        appears("S", "reference {0}/{1}"),
        appears("T", "column {0}/{1}_id"),
        appears("T", "foreign key {0}({1}_id)"),
    )

    def targets_s(self, package: EcorePackage) -> list[Target]:
        names = [c.name for c in package.classes]
        return [(c, NEW_REFERENCE_PREFIX + d, d) for c in names for d in names]

    def targets_t(self, schema: SqlSchema) -> list[Target]:
        names = [t.name for t in class_tables(schema)]
        return [(c, NEW_REFERENCE_PREFIX + d, d) for c in names for d in names]

    def edit_s(self, package: EcorePackage, target: Target) -> EcorePackage:
        owner, name, referenced = target
        if taken(package.feature_names_in_hierarchy(owner), name):
            raise self.not_applicable(target, f"{owner} or a class related by inheritance already has {name}")
        eclass = package.eclass(owner)
        reference = EcoreReference(name, referenced)
        return package.replace_classifier(owner, replace(eclass, features=(*eclass.features, reference)))

    def edit_t(self, schema: SqlSchema, target: Target) -> SqlSchema:
        owner, name, referenced = target
        table = schema.require_table(owner)
        if taken(table_features(schema, table), name):
            raise self.not_applicable(target, f"table {owner} already shows a feature {name}")
        column = f"{name}{REFERENCE_SUFFIX}"
        table = replace(
            table,
            columns=(*table.columns, key_column(column, nullable=True)),
            foreign_keys=(*table.foreign_keys, foreign_key(owner, (column,), referenced)),
        )
        return schema.replace_table(owner, table)


class ToMany(DeltaOperator):
    """A single-valued reference becomes many-valued: its foreign-key column becomes a join table.

    Only references that own a ``<ref>_id`` column qualify (mapped, not containment); a bidirectional
    pair keeps being mapped through the same reference, so the pair's other side is left as it is.
    """

    name = "to_many"
    summary = "a single-valued reference becomes many-valued (foreign key -> join table)"
    target_parts = ("class", "reference")
    witnesses = (
        changes("S", "reference {0}/{1}"),
        disappears("T", "column {0}/{1}_id"),
        disappears("T", "foreign key {0}({1}_id)"),
        appears("T", "table {0}_{1}"),
        appears("T", "column {0}_{1}/owner_id"),
        appears("T", "column {0}_{1}/target_id"),
        appears("T", "primary key {0}_{1}"),
        appears("T", "foreign key {0}_{1}(owner_id)"),
        appears("T", "foreign key {0}_{1}(target_id)"),
    )

    def targets_s(self, package: EcorePackage) -> list[Target]:
        return [(c.name, r.name) for c, r in column_references(package)]

    def targets_t(self, schema: SqlSchema) -> list[Target]:
        return [
            (t.name, reference_name(c))
            for t in class_tables(schema)
            for c in t.columns
            if is_reference_column(c)
        ]

    def edit_s(self, package: EcorePackage, target: Target) -> EcorePackage:
        owner, name = target
        reference = package.eclass(owner).feature(name)
        if not isinstance(reference, EcoreReference):
            raise self.not_applicable(target, "no such reference")
        return replace_feature(package, owner, name, replace(reference, upper=-1))

    def edit_t(self, schema: SqlSchema, target: Target) -> SqlSchema:
        owner, name = target
        table = schema.require_table(owner)
        column = f"{name}{REFERENCE_SUFFIX}"
        keys = table.foreign_key_on((column,))
        if len(keys) != 1:
            raise self.not_applicable(
                target, f"column {owner}.{column} has {len(keys)} foreign keys, expected 1"
            )
        schema = schema.replace_table(owner, table.without_column(column))
        return schema.add_table(join_table(owner, name, keys[0].referenced_table))


class MakeMandatory(DeltaOperator):
    name = "make_mandatory"
    summary = "an optional single-valued attribute or reference becomes mandatory (nullable -> NOT NULL)"
    target_parts = ("class", "feature")
    witnesses = (
        changes("S", "attribute {0}/{1}", required=False),
        changes("S", "reference {0}/{1}", required=False),
        changes("T", "column {0}/{1}", required=False),
        changes("T", "column {0}/{1}_id", required=False),
    )

    def targets_s(self, package: EcorePackage) -> list[Target]:
        features: list[tuple[str, EcoreFeature]] = [
            (c.name, f)
            for c, f in package.iter_features()
            if isinstance(f, EcoreAttribute) and f.persistent and not f.many
        ]
        features += [(c.name, r) for c, r in column_references(package)]
        return [(owner, f.name) for owner, f in features if f.lower == 0]

    def targets_t(self, schema: SqlSchema) -> list[Target]:
        result: list[Target] = []
        for table in class_tables(schema):
            for column in table.columns:
                if not column.nullable:
                    continue
                if is_attribute_column(column):
                    result.append((table.name, column.name))
                elif is_reference_column(column):
                    result.append((table.name, reference_name(column)))
        return result

    def edit_s(self, package: EcorePackage, target: Target) -> EcorePackage:
        owner, name = target
        feature = package.eclass(owner).feature(name)
        if feature is None:
            raise self.not_applicable(target, "no such feature")
        return replace_feature(package, owner, name, replace(feature, lower=1))

    def edit_t(self, schema: SqlSchema, target: Target) -> SqlSchema:
        owner, name = target
        table = schema.require_table(owner)
        column = table.column(name) or table.column(f"{name}{REFERENCE_SUFFIX}")
        if column is None:
            raise self.not_applicable(target, "no column holds this feature")
        return schema.replace_table(owner, table.replace_column(column.name, replace(column, nullable=False)))
