"""Edits and queries several operators share, one per side."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace

from benchmark.tracks.roundtrip.models.ecoremodel import (
    EcoreAttribute,
    EcoreClass,
    EcoreFeature,
    EcorePackage,
    EcoreReference,
)
from benchmark.tracks.roundtrip.models.forward import fk_name, is_mapped
from benchmark.tracks.roundtrip.models.lines import fold
from benchmark.tracks.roundtrip.models.sqlmodel import SqlSchema, SqlTable
from benchmark.tracks.roundtrip.models.sqlview import aux_feature, aux_owner


def taken(existing: Iterable[str], name: str) -> bool:
    """Whether ``name`` clashes with an existing name (SQL identifiers and line keys ignore case)."""
    wanted = fold(name)
    return any(fold(e) == wanted for e in existing)


# -- Ecore side ---------------------------------------------------------------------------------------
def persistent_attributes(package: EcorePackage) -> list[tuple[EcoreClass, EcoreAttribute]]:
    return [(c, f) for c, f in package.iter_features() if isinstance(f, EcoreAttribute) and f.persistent]


def column_references(package: EcorePackage) -> list[tuple[EcoreClass, EcoreReference]]:
    """The references that map to a ``<ref>_id`` column: mapped, single-valued, not containment."""
    return [
        (c, f)
        for c, f in package.iter_features()
        if isinstance(f, EcoreReference) and not f.containment and not f.many and is_mapped(package, c, f)
    ]


def replace_feature(package: EcorePackage, owner: str, name: str, new: EcoreFeature | None) -> EcorePackage:
    """The package with feature ``owner.name`` replaced by ``new`` (removed when None)."""
    return package.replace_classifier(owner, package.eclass(owner).replace_feature(name, new))


def rename_class_everywhere(package: EcorePackage, old: str, new: str) -> EcorePackage:
    """Rename a class and every mention of it (supertype lists, reference types)."""

    def renamed(name: str) -> str:
        return new if name == old else name

    classifiers = []
    for classifier in package.classifiers:
        if isinstance(classifier, EcoreClass):
            features = tuple(
                replace(f, type=renamed(f.type)) if isinstance(f, EcoreReference) else f
                for f in classifier.features
            )
            classifier = replace(
                classifier,
                name=renamed(classifier.name),
                supertypes=tuple(renamed(s) for s in classifier.supertypes),
                features=features,
            )
        classifiers.append(classifier)
    return replace(package, classifiers=tuple(classifiers))


# -- SQL side -----------------------------------------------------------------------------------------
def with_derived_fk_names(table: SqlTable) -> SqlTable:
    """Foreign-key names follow their table, columns and target (``forward.fk_name``)."""
    keys = tuple(
        replace(fk, name=fk_name(table.name, fk.columns, fk.referenced_table)) for fk in table.foreign_keys
    )
    return replace(table, foreign_keys=keys)


def rename_table_everywhere(schema: SqlSchema, old: str, new: str) -> SqlSchema:
    """Rename a class table, its auxiliary tables (``old_f`` -> ``new_f``) and every foreign key to it."""
    tables = []
    for table in schema.tables:
        name = table.name
        if name == old:
            name = new
        elif aux_owner(table) == old and (feature := aux_feature(table)) is not None:
            name = f"{new}_{feature}"
        keys = tuple(
            replace(fk, referenced_table=new) if fk.referenced_table == old else fk
            for fk in table.foreign_keys
        )
        changed = name != table.name or keys != table.foreign_keys
        table = replace(table, name=name, foreign_keys=keys)
        tables.append(with_derived_fk_names(table) if changed else table)
    return replace(schema, tables=tuple(tables))
