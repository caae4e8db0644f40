"""The reference forward mapping Ecore -> SQL (``docs/ROUNDTRIP.md`` states it rule by rule).

One table per class, joined inheritance, one column per single-valued attribute or reference, auxiliary
tables for many-valued attributes and references. The mapping is a function of the package alone and
deterministic, so ``forward(S)`` *is* the T of every bundled pair, and the delta operators' T side can be
checked against it (``forward(apply_S(S)) == apply_T(forward(S))``).

The mapping names generated columns and tables with ``_`` as separator (``author_id``,
``Book_tags``); class and feature names must therefore not contain ``_`` themselves, which is also the
Ecore naming convention. Anything the mapping cannot represent unambiguously raises
:class:`ForwardMappingError` instead of producing a schema that would be silently wrong.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from benchmark.core.errors import BenchmarkError
from benchmark.tracks.roundtrip.models.ecoremodel import (
    EcoreAttribute,
    EcoreClass,
    EcoreDataType,
    EcoreEnum,
    EcorePackage,
    EcoreReference,
)
from benchmark.tracks.roundtrip.models.sqlmodel import (
    SqlColumn,
    SqlForeignKey,
    SqlPrimaryKey,
    SqlSchema,
    SqlTable,
)
from benchmark.tracks.roundtrip.models.synonyms import canonical_ecore_type

ID_COLUMN = "id"
OWNER_COLUMN = "owner_id"
TARGET_COLUMN = "target_id"
VALUE_COLUMN = "value"
REFERENCE_SUFFIX = "_id"
CONTAINER_SUFFIX = "_owner_id"
KEY_TYPE = "INTEGER"
ENUM_SQL_TYPE = "VARCHAR(64)"
FALLBACK_SQL_TYPE = "VARCHAR(255)"

# The documented type map, keyed by the canonical Ecore type (see synonyms.ECORE_TYPE_SYNONYMS).
SQL_TYPE_MAP: dict[str, str] = {
    "EString": "VARCHAR(255)",
    "EInt": "INTEGER",
    "EShort": "INTEGER",
    "ELong": "BIGINT",
    "EBoolean": "BOOLEAN",
    "EDouble": "DOUBLE",
    "EFloat": "DOUBLE",
    "EDate": "DATE",
}


class ForwardMappingError(BenchmarkError):
    """The package uses something the reference mapping cannot represent unambiguously."""


def sql_type(package: EcorePackage, type_name: str) -> str:
    """SQL type of an attribute typed ``type_name``: the type map, VARCHAR(64) for an enum, and for a
    package datatype the map entry of its instance class; anything else is stored as text."""
    local = package.classifier(type_name)
    if isinstance(local, EcoreEnum):
        return ENUM_SQL_TYPE
    if isinstance(local, EcoreDataType):
        canonical = canonical_ecore_type(local.instance_class_name or "")
        return SQL_TYPE_MAP.get(canonical or "", FALLBACK_SQL_TYPE)
    if isinstance(local, EcoreClass):
        raise ForwardMappingError(f"attribute typed by class {type_name!r}", field=type_name)
    return builtin_sql_type(type_name)


def builtin_sql_type(type_name: str) -> str:
    """SQL type of an Ecore datatype (``EString``, ``Integer``, ...) through the type map."""
    return SQL_TYPE_MAP.get(canonical_ecore_type(type_name) or "", FALLBACK_SQL_TYPE)


def fk_name(table: str, columns: tuple[str, ...], referenced_table: str) -> str:
    """Constraint names are derived, so renaming a table renames its constraints predictably."""
    return f"fk_{table}_{'_'.join(columns)}_{referenced_table}"


def foreign_key(table: str, columns: tuple[str, ...], referenced_table: str) -> SqlForeignKey:
    return SqlForeignKey(fk_name(table, columns, referenced_table), columns, referenced_table, (ID_COLUMN,))


def key_column(name: str, *, nullable: bool = False) -> SqlColumn:
    return SqlColumn(name, KEY_TYPE, nullable=nullable, unique=False)


def class_table(name: str) -> SqlTable:
    """A fresh class table: only the ``id`` primary key."""
    return SqlTable(name, (key_column(ID_COLUMN),), SqlPrimaryKey((ID_COLUMN,)), ())


def value_table(owner: str, attribute: str, value_type: str) -> SqlTable:
    """The table ``<owner>_<attribute>`` of a many-valued attribute: owner key + value."""
    name = f"{owner}_{attribute}"
    columns = (key_column(OWNER_COLUMN), SqlColumn(VALUE_COLUMN, value_type, nullable=False, unique=False))
    return SqlTable(name, columns, None, (foreign_key(name, (OWNER_COLUMN,), owner),))


def join_table(owner: str, reference: str, target: str) -> SqlTable:
    """The table ``<owner>_<reference>`` of a many-valued non-containment reference."""
    name = f"{owner}_{reference}"
    columns = (key_column(OWNER_COLUMN), key_column(TARGET_COLUMN))
    keys = (foreign_key(name, (OWNER_COLUMN,), owner), foreign_key(name, (TARGET_COLUMN,), target))
    return SqlTable(name, columns, SqlPrimaryKey((OWNER_COLUMN, TARGET_COLUMN)), keys)


def attribute_column(package: EcorePackage, attribute: EcoreAttribute) -> SqlColumn:
    return SqlColumn(attribute.name, sql_type(package, attribute.type), attribute.lower == 0, attribute.is_id)


# -- which reference of a bidirectional pair is mapped -------------------------------------------------
def _declaring_class(package: EcorePackage, class_name: str, feature_name: str) -> EcoreClass | None:
    """The class that declares ``feature_name`` as seen from ``class_name`` (itself or a supertype)."""
    for candidate in (class_name, *package.all_supertypes(class_name)):
        found = package.classifier(candidate)
        if isinstance(found, EcoreClass) and found.feature(feature_name) is not None:
            return found
    return None


def opposite_of(package: EcorePackage, reference: EcoreReference) -> tuple[EcoreClass, EcoreReference] | None:
    """(declaring class, opposite reference) or None; a dangling opposite is an error."""
    if reference.opposite is None:
        return None
    owner = _declaring_class(package, reference.type, reference.opposite)
    opposite = owner.feature(reference.opposite) if owner is not None else None
    if owner is None or not isinstance(opposite, EcoreReference):
        raise ForwardMappingError(
            f"eOpposite {reference.type}.{reference.opposite} of {reference.name!r} does not exist",
            field=reference.name,
        )
    return owner, opposite


def is_mapped(package: EcorePackage, owner: EcoreClass, reference: EcoreReference) -> bool:
    """Whether this reference (rather than its opposite) produces the SQL structure of its pair.

    A pair maps once: through its containment reference when it has one (the container reference is the
    containment's inverse), otherwise through the reference declared first (package order of the
    declaring classes, then feature order).
    """
    if not reference.persistent:
        return False
    if reference.containment:
        return True
    pair = opposite_of(package, reference)
    if pair is None:
        return True
    other_owner, other = pair
    if not other.persistent:
        return True
    if other.containment:
        return False
    order = [c.name for c in package.classes]

    def position(cls: EcoreClass, ref: EcoreReference) -> tuple[int, int]:
        return order.index(cls.name), [f.name for f in cls.features].index(ref.name)

    return position(owner, reference) < position(other_owner, other)


# -- the mapping -------------------------------------------------------------------------------------
@dataclass
class _TableBuilder:
    name: str
    origin: str
    columns: list[SqlColumn] = field(default_factory=list)
    primary_key: SqlPrimaryKey | None = None
    foreign_keys: list[SqlForeignKey] = field(default_factory=list)

    def add_column(self, column: SqlColumn, origin: str) -> None:
        if any(c.name == column.name for c in self.columns):
            raise ForwardMappingError(
                f"column {self.name}.{column.name} would be produced twice (again by {origin})", field=origin
            )
        self.columns.append(column)

    def freeze(self) -> SqlTable:
        return SqlTable(self.name, tuple(self.columns), self.primary_key, tuple(self.foreign_keys))


def _check_names(package: EcorePackage) -> None:
    for eclass in package.classes:
        if not eclass.name or "_" in eclass.name:
            raise ForwardMappingError(
                f"class name {eclass.name!r} is empty or contains '_'", field=eclass.name
            )
        for feature in eclass.features:
            if feature.persistent and (not feature.name or "_" in feature.name):
                raise ForwardMappingError(
                    f"feature name {feature.name!r} is empty or contains '_'",
                    field=f"{eclass.name}.{feature.name}",
                )
        for supertype in eclass.supertypes:
            if not isinstance(package.classifier(supertype), EcoreClass):
                raise ForwardMappingError(
                    f"supertype {supertype!r} is not a class of the package", field=eclass.name
                )


def forward(package: EcorePackage) -> SqlSchema:
    """The SQL schema of a package (see the module docstring and ``docs/ROUNDTRIP.md``)."""
    _check_names(package)
    tables: dict[str, _TableBuilder] = {}

    def new_table(table: SqlTable, origin: str) -> None:
        if table.name in tables:
            raise ForwardMappingError(
                f"table {table.name} would be produced twice (by {tables[table.name].origin} and {origin})",
                field=origin,
            )
        builder = _TableBuilder(
            table.name, origin, list(table.columns), table.primary_key, list(table.foreign_keys)
        )
        tables[table.name] = builder

    for eclass in package.classes:
        new_table(class_table(eclass.name), eclass.name)
    for eclass in package.classes:
        for supertype in eclass.supertypes:
            tables[eclass.name].foreign_keys.append(foreign_key(eclass.name, (ID_COLUMN,), supertype))
    for eclass, feature in package.iter_features():
        origin = f"{eclass.name}.{feature.name}"
        if not feature.persistent:
            continue
        if isinstance(feature, EcoreAttribute):
            if feature.many:
                new_table(value_table(eclass.name, feature.name, sql_type(package, feature.type)), origin)
            else:
                tables[eclass.name].add_column(attribute_column(package, feature), origin)
            continue
        if not isinstance(package.classifier(feature.type), EcoreClass):
            raise ForwardMappingError(
                f"reference type {feature.type!r} is not a class of the package", field=origin
            )
        pair = opposite_of(package, feature)
        if pair is not None and feature.containment and pair[1].containment:
            raise ForwardMappingError("both references of an eOpposite pair are containments", field=origin)
        if not is_mapped(package, eclass, feature):
            continue
        if feature.containment:
            column = f"{feature.name}{CONTAINER_SUFFIX}"
            contained = tables[feature.type]
            contained.add_column(key_column(column, nullable=True), origin)
            contained.foreign_keys.append(foreign_key(feature.type, (column,), eclass.name))
        elif feature.many:
            new_table(join_table(eclass.name, feature.name, feature.type), origin)
        else:
            column = f"{feature.name}{REFERENCE_SUFFIX}"
            tables[eclass.name].add_column(key_column(column, nullable=feature.lower == 0), origin)
            tables[eclass.name].foreign_keys.append(foreign_key(eclass.name, (column,), feature.type))
    return SqlSchema(package.name, tuple(builder.freeze() for builder in tables.values()))
