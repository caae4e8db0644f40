"""Canonical lines: the unit the round-trip scorer counts.

A model becomes a list of lines, one per element that matters (``docs/ROUNDTRIP.md`` §7 lists them), each a
*key* that identifies the element and *properties* that describe it::

    package library; nsURI=http://example.org/library; nsPrefix=library
    class Book; abstract=false; supertypes=[Item]
    attribute Book/title; type=EString; lower=1; upper=1; iD=false; derived=false; transient=false; ...
    reference Book/authors; type=Author; lower=0; upper=-1; containment=false; opposite=books; ...
    datatype Money; instanceClassName=java.math.BigDecimal
    enum Genre
    literal Genre/FICTION
    schema library
    table Book
    column Book/title; type=VARCHAR(255); nullable=false; unique=false
    primary key Book; columns=[id]
    foreign key Book(author_id); references=Author; referencedColumns=[id]; name=fk_Book_author_id_Author

The lines carry everything the forward mapping reads (``iD``, derived/transient/volatile, which side of a
bidirectional pair is mapped, datatypes' instance classes, the package's name) and everything a schema
states (constraint names, referenced columns), so that two packages with the same lines map to the same
schema (tested with hypothesis) and two schemas with the same lines are the same schema.

Comparison uses the *normalized* forms: Ecore names are compared exactly (trimmed: Ecore is
case-sensitive); SQL identifiers are case-folded unless quoted (``"Book"``, `` `Book` ``, ``[Book]`` keep
their case, without the quotes), as an SQL database folds unquoted identifiers; types go through the
synonym tables; unbounded upper bounds are -1; unordered lists (supertypes, key columns) are sorted. The
shown text keeps the model's spelling of names and the canonical spelling of types.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from functools import cache, lru_cache
from operator import itemgetter
from typing import NamedTuple

from benchmark.tracks.roundtrip.models.ecoremodel import (
    EcoreAttribute,
    EcoreClass,
    EcoreDataType,
    EcoreEnum,
    EcorePackage,
    EcoreReference,
)
from benchmark.tracks.roundtrip.models.sqlmodel import SqlSchema
from benchmark.tracks.roundtrip.models.synonyms import (
    canonical_ecore_type,
    normalize_ecore_type,
    normalize_sql_type,
)

ECORE_LINE_KINDS = ("package", "class", "attribute", "reference", "datatype", "enum", "literal")
SQL_LINE_KINDS = ("schema", "table", "column", "primary key", "foreign key")
_QUOTES = {'"': '"', "`": "`", "[": "]"}


class Property(NamedTuple):
    """One property of a line: its name, its value as shown, and as compared. A named tuple: a model's
    lines hold a few hundred thousand of them in a session, made and compared far more cheaply so (and,
    holding only strings, left alone by the garbage collector)."""

    name: str
    shown: str
    normalized: str


_COMPARED = itemgetter(0, 2)  # (name, normalized) of a Property


@dataclass(frozen=True, slots=True)
class CanonicalLine:
    kind: str
    key: str  # as shown, e.g. "Book/title"
    normalized_key: str  # kind + folded key: what identifies the element across models
    properties: tuple[Property, ...] = ()
    #: everything compared: two lines with equal identities are the same line (made with the line: the
    #: matcher asks for it of every line, many times)
    identity: tuple[str, tuple[tuple[str, str], ...]] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "identity", (self.normalized_key, tuple(map(_COMPARED, self.properties))))

    @property
    def text(self) -> str:
        return f"{self.kind} {self.key}" + "".join(f"; {p.name}={p.shown}" for p in self.properties)

    def differences(self, other: CanonicalLine) -> tuple[str, ...]:
        """Names of the properties whose normalized values differ (same key assumed)."""
        theirs = {p.name: p.normalized for p in other.properties}
        return tuple(p.name for p in self.properties if theirs.get(p.name) != p.normalized)


@lru_cache(maxsize=8192)  # every model of a study names the same tables and columns
def fold(name: str) -> str:
    """An SQL identifier as compared: trimmed and case-folded, or, when quoted, its exact text."""
    text = name.strip()
    if len(text) >= 2 and _QUOTES.get(text[0]) == text[-1]:
        return text[1:-1]
    return text.casefold()


def exact(name: str) -> str:
    """An Ecore name as compared: trimmed, case kept."""
    return name.strip()


Normalizer = Callable[[str], str]


def _line(
    kind: str, parts: Iterable[str], properties: Iterable[Property] = (), *, names: Normalizer = exact
) -> CanonicalLine:
    parts = [p.strip() for p in parts]
    return CanonicalLine(kind, "/".join(parts), f"{kind} " + "/".join(map(names, parts)), tuple(properties))


def _flag(name: str, value: bool) -> Property:
    return _flag_of(name, bool(value))


@cache  # a few names, two values: one Property each, shared by every line
def _flag_of(name: str, value: bool) -> Property:
    text = "true" if value else "false"
    return Property(name, text, text)


@lru_cache(maxsize=1024, typed=True)  # lower and upper bounds: a few values, shared by every line
def _bound(name: str, value: int) -> Property:
    return Property(name, str(value), "-1" if value < 0 else str(value))


def _name_list(name: str, values: Iterable[str], names: Normalizer, *, ordered: bool = False) -> Property:
    values = [n.strip() for n in values]
    normalized = [names(n) for n in values]
    return Property(
        name, "[" + ", ".join(values) + "]", ",".join(normalized if ordered else sorted(normalized))
    )


def _name(name: str, value: str | None, names: Normalizer) -> Property:
    shown = value.strip() if value else ""
    return Property(name, shown or "none", names(shown))


def _text(name: str, value: str | None) -> Property:
    """A value compared exactly (nsURI, nsPrefix, instance class names)."""
    shown = value.strip() if value else ""
    return Property(name, shown or "none", shown)


@lru_cache(maxsize=1024)  # the same few types in every model
def _ecore_type(value: str) -> Property:
    canonical = canonical_ecore_type(value)
    return Property("type", canonical or value.strip(), normalize_ecore_type(value))


def _persistence(feature: EcoreAttribute | EcoreReference) -> list[Property]:
    return [
        _flag("derived", feature.derived),
        _flag("transient", feature.transient),
        _flag("volatile", feature.volatile),
    ]


def _mapped(package: EcorePackage, owner: EcoreClass, reference: EcoreReference) -> bool:
    """The forward mapping's rule 9 for this reference; a reference whose opposite cannot be found is
    taken as mapped (it would be, were the opposite removed; the opposite is a property of its own)."""
    from benchmark.tracks.roundtrip.models.forward import ForwardMappingError, is_mapped

    try:
        return is_mapped(package, owner, reference)
    except (ForwardMappingError, KeyError, ValueError):
        return reference.persistent


# -- Ecore -------------------------------------------------------------------------------------------
def ecore_lines(packages: EcorePackage | Iterable[EcorePackage]) -> tuple[CanonicalLine, ...]:
    """The lines of one or several packages (the package, then its classifiers in declaration order,
    features after their class)."""
    if isinstance(packages, EcorePackage):
        packages = (packages,)
    lines: list[CanonicalLine] = []
    for package in packages:
        lines.append(
            _line(
                "package",
                [package.name],
                [_text("nsURI", package.ns_uri), _text("nsPrefix", package.ns_prefix)],
            )
        )
        for classifier in package.classifiers:
            if isinstance(classifier, EcoreClass):
                lines.append(
                    _line(
                        "class",
                        [classifier.name],
                        [
                            _flag("abstract", classifier.abstract),
                            _name_list("supertypes", classifier.supertypes, exact),
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
                            _flag("iD", feature.is_id),
                            *_persistence(feature),
                        ]
                        lines.append(_line("attribute", parts, props))
                    else:
                        props = [
                            _name("type", feature.type, exact),
                            _bound("lower", feature.lower),
                            _bound("upper", feature.upper),
                            _flag("containment", feature.containment),
                            _name("opposite", feature.opposite, exact),
                            *_persistence(feature),
                            _flag("mapped", _mapped(package, classifier, feature)),
                        ]
                        lines.append(_line("reference", parts, props))
            elif isinstance(classifier, EcoreEnum):
                lines.append(_line("enum", [classifier.name]))
                lines.extend(_line("literal", [classifier.name, lit.name]) for lit in classifier.literals)
            elif isinstance(classifier, EcoreDataType):
                lines.append(
                    _line(
                        "datatype",
                        [classifier.name],
                        [_text("instanceClassName", classifier.instance_class_name)],
                    )
                )
    return tuple(lines)


# -- SQL -----------------------------------------------------------------------------------------------
def sql_lines(schema: SqlSchema) -> tuple[CanonicalLine, ...]:
    """The lines of a schema: the schema, then table by table (table, columns, primary key, foreign
    keys)."""
    lines: list[CanonicalLine] = [_line("schema", [schema.name], names=fold)]
    for table in schema.tables:
        lines.append(_line("table", [table.name], names=fold))
        for column in table.columns:
            sql_type = normalize_sql_type(column.type)
            props = [
                Property("type", sql_type, sql_type),
                _flag("nullable", column.nullable),
                _flag("unique", column.unique),
            ]
            lines.append(_line("column", [table.name, column.name], props, names=fold))
        if table.primary_key is not None:
            key = [_name_list("columns", table.primary_key.columns, fold)]
            lines.append(_line("primary key", [table.name], key, names=fold))
        for fk in table.foreign_keys:
            columns = [c.strip() for c in fk.columns]
            shown = f"{table.name.strip()}({', '.join(columns)})"
            normalized = f"foreign key {fold(table.name)}(" + ",".join(sorted(fold(c) for c in columns)) + ")"
            # referenced columns pair with the columns position by position: listed in the key's order
            order = sorted(range(len(columns)), key=lambda i: fold(columns[i]))
            referenced = [fk.referenced_columns[i] for i in order if i < len(fk.referenced_columns)]
            referenced += list(fk.referenced_columns[len(columns) :])
            props = (
                _name("references", fk.referenced_table, fold),
                _name_list("referencedColumns", referenced, fold, ordered=True),
                _name("name", fk.name, fold),
            )
            lines.append(CanonicalLine("foreign key", shown, normalized, props))
    return tuple(lines)


# -- what a line means for the schema ------------------------------------------------------------------
_WITHOUT_STATE = ("derived", "transient", "volatile")


def has_schema_image(line: CanonicalLine) -> bool:
    """Whether the forward mapping gives this line an image in the schema, so that adding it changes the
    schema's meaning (``Ad[harmful]``). Every SQL line is the schema itself. Ecore lines with no image:
    derived, transient and volatile features, the unmapped side of a bidirectional pair (``mapped=false``:
    T cannot show it), enums and their literals and datatypes (an attribute typed by one is a line of its
    own)."""
    if line.kind in ("enum", "literal", "datatype"):
        return False
    values = {p.name: p.normalized for p in line.properties}
    if line.kind == "attribute":
        return not any(values.get(flag) == "true" for flag in _WITHOUT_STATE)
    if line.kind == "reference":
        return values.get("mapped") == "true"
    return True
