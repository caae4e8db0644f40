"""Canonical lines: the unit the round-trip scorer counts.

A model becomes a list of lines, one per element that matters (``docs/ROUNDTRIP.md`` lists them), each a
*key* that identifies the element and *properties* that describe it::

    class Book; abstract=false; supertypes=[Item]
    attribute Book/title; type=EString; lower=1; upper=1
    reference Book/authors; type=Author; lower=0; upper=-1; containment=false; opposite=books
    enum Genre
    literal Genre/FICTION
    table Book
    column Book/title; type=VARCHAR; nullable=false; unique=false
    primary key Book; columns=[id]
    foreign key Book(author_id); references=Author

Comparison uses the *normalized* forms: names trimmed and case-folded, types through the synonym tables,
unbounded upper bounds as -1, unordered lists (supertypes, key columns) sorted. The shown text keeps the
model's spelling of names and the canonical spelling of types.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from benchmark.tracks.roundtrip.ecoremodel import EcoreAttribute, EcoreClass, EcoreEnum, EcorePackage
from benchmark.tracks.roundtrip.sqlmodel import SqlSchema
from benchmark.tracks.roundtrip.synonyms import canonical_ecore_type, normalize_ecore_type, normalize_sql_type

ECORE_LINE_KINDS = ("class", "attribute", "reference", "enum", "literal")
SQL_LINE_KINDS = ("table", "column", "primary key", "foreign key")


@dataclass(frozen=True)
class Property:
    name: str
    shown: str
    normalized: str


@dataclass(frozen=True)
class CanonicalLine:
    kind: str
    key: str  # as shown, e.g. "Book/title"
    normalized_key: str  # kind + folded key: what identifies the element across models
    properties: tuple[Property, ...] = ()

    @property
    def text(self) -> str:
        return f"{self.kind} {self.key}" + "".join(f"; {p.name}={p.shown}" for p in self.properties)

    @property
    def identity(self) -> tuple[str, tuple[tuple[str, str], ...]]:
        """Everything compared: two lines with equal identities are the same line."""
        return self.normalized_key, tuple((p.name, p.normalized) for p in self.properties)

    def differences(self, other: CanonicalLine) -> tuple[str, ...]:
        """Names of the properties whose normalized values differ (same key assumed)."""
        theirs = {p.name: p.normalized for p in other.properties}
        return tuple(p.name for p in self.properties if theirs.get(p.name) != p.normalized)


def fold(name: str) -> str:
    """Keys compare case-insensitively after trimming."""
    return name.strip().casefold()


def _line(kind: str, parts: Iterable[str], properties: Iterable[Property] = ()) -> CanonicalLine:
    parts = [p.strip() for p in parts]
    return CanonicalLine(
        kind, "/".join(parts), f"{kind} " + "/".join(fold(p) for p in parts), tuple(properties)
    )


def _flag(name: str, value: bool) -> Property:
    text = "true" if value else "false"
    return Property(name, text, text)


def _bound(name: str, value: int) -> Property:
    return Property(name, str(value), "-1" if value < 0 else str(value))


def _name_list(name: str, names: Iterable[str]) -> Property:
    names = [n.strip() for n in names]
    return Property(name, "[" + ", ".join(names) + "]", ",".join(sorted(fold(n) for n in names)))


def _name(name: str, value: str | None) -> Property:
    shown = value.strip() if value else ""
    return Property(name, shown or "none", fold(shown))


def _ecore_type(value: str) -> Property:
    canonical = canonical_ecore_type(value)
    return Property("type", canonical or value.strip(), normalize_ecore_type(value))


# -- Ecore -------------------------------------------------------------------------------------------
def ecore_lines(packages: EcorePackage | Iterable[EcorePackage]) -> tuple[CanonicalLine, ...]:
    """The lines of one or several packages (classifiers in declaration order, features after their class;
    datatypes and packages themselves have no line)."""
    if isinstance(packages, EcorePackage):
        packages = (packages,)
    lines: list[CanonicalLine] = []
    for package in packages:
        for classifier in package.classifiers:
            if isinstance(classifier, EcoreClass):
                lines.append(
                    _line(
                        "class",
                        [classifier.name],
                        [
                            _flag("abstract", classifier.abstract),
                            _name_list("supertypes", classifier.supertypes),
                        ],
                    )
                )
                for feature in classifier.features:
                    parts = [classifier.name, feature.name]
                    if isinstance(feature, EcoreAttribute):
                        props = [
                            _ecore_type(feature.type),
                            _bound("lower", feature.lower),
                            _bound("upper", feature.upper),
                        ]
                        lines.append(_line("attribute", parts, props))
                    else:
                        props = [
                            _name("type", feature.type),
                            _bound("lower", feature.lower),
                            _bound("upper", feature.upper),
                            _flag("containment", feature.containment),
                            _name("opposite", feature.opposite),
                        ]
                        lines.append(_line("reference", parts, props))
            elif isinstance(classifier, EcoreEnum):
                lines.append(_line("enum", [classifier.name]))
                lines.extend(_line("literal", [classifier.name, lit.name]) for lit in classifier.literals)
    return tuple(lines)


# -- SQL -----------------------------------------------------------------------------------------------
def sql_lines(schema: SqlSchema) -> tuple[CanonicalLine, ...]:
    """The lines of a schema, table by table (table, columns, primary key, foreign keys)."""
    lines: list[CanonicalLine] = []
    for table in schema.tables:
        lines.append(_line("table", [table.name]))
        for column in table.columns:
            sql_type = normalize_sql_type(column.type)
            props = [
                Property("type", sql_type, sql_type),
                _flag("nullable", column.nullable),
                _flag("unique", column.unique),
            ]
            lines.append(_line("column", [table.name, column.name], props))
        if table.primary_key is not None:
            lines.append(
                _line("primary key", [table.name], [_name_list("columns", table.primary_key.columns)])
            )
        for fk in table.foreign_keys:
            columns = [c.strip() for c in fk.columns]
            shown = f"{table.name.strip()}({', '.join(columns)})"
            normalized = f"foreign key {fold(table.name)}(" + ",".join(sorted(fold(c) for c in columns)) + ")"
            lines.append(
                CanonicalLine("foreign key", shown, normalized, (_name("references", fk.referenced_table),))
            )
    return tuple(lines)
