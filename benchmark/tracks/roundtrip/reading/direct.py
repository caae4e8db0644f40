"""Reading a conforming XMI tree straight into values, for the forms whose pyecore load is known exactly.

pyecore builds a resource set, an object per element and a notification per feature set; for the small
documents of this track that is most of a stage evaluation's time, and what comes out is read back into
the frozen values of :mod:`~benchmark.tracks.roundtrip.models.ecoremodel` and
:mod:`~benchmark.tracks.roundtrip.models.sqlmodel` straight away. This module reads the element tree the
conformance check has already walked (:mod:`.conformance`) into the same values, as pyecore's XMI loader
and the readers after it (``packages_from_pyecore``, ``schema_from_pyecore``) would, for the documents
that EMF, the track's own writers and most answers produce:

* Ecore: an ``ecore:EPackage`` root holding classes (attributes, references), enums (literals) and data
  types, referring to its classifiers as ``#//Name``, to opposites as ``#//Class/reference`` and to
  Ecore's data types as ``ecore:EDataType http://www.eclipse.org/emf/2002/Ecore#//EString``;
* SQL-XMI: a ``Schema`` root of the bundled ``sql.ecore`` whose references are ``xmi:id``s.

Values are converted as pyecore converts them (a boolean is true when written ``true`` or ``True``, an
integer is Python's ``int`` of the text, an absent feature has the metamodel's default), and opposites are
set on both ends in document order, as pyecore's ``eOpposite`` setter does. Anything else (another
reference form, a reference that resolves to nothing or to an element of the wrong class, an id given
twice, annotations, operations, subpackages, generic types, an ``xmi:XMI`` wrapper, a namespace declared
below the root, an attribute this reader does not know) raises :class:`NotDirect`, and the caller loads
the document with pyecore, which gives the same values or the reason it cannot load it. The two readers
are compared on the bundled data and on mutated documents (``tests/tracks/roundtrip/reading``).
"""

from __future__ import annotations

import re
from functools import cache
from typing import Any

from lxml import etree

from benchmark.tracks.roundtrip.models.ecoremodel import (
    ECORE_NS_URI,
    EcoreAttribute,
    EcoreClass,
    EcoreClassifier,
    EcoreDataType,
    EcoreEnum,
    EcoreFeature,
    EcoreLiteral,
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
from benchmark.tracks.roundtrip.models.xmltext import XMI_NS_URI, XSI_NS_URI


class NotDirect(Exception):
    """The document has something this reader does not read as pyecore would: pyecore loads it."""


_XMI_VERSION = f"{{{XMI_NS_URI}}}version"
_XMI_ID = f"{{{XMI_NS_URI}}}id"
_XSI_TYPE = f"{{{XSI_NS_URI}}}type"
_NAME = r"[^\s/.@%#]+"  # a path segment pyecore's navigation reads as one name
_LOCAL = re.compile(rf"#//({_NAME})")
_MEMBER = re.compile(rf"#//({_NAME})/({_NAME})")
_BUILTIN = re.compile(rf"{re.escape(ECORE_NS_URI)}#//({_NAME})")
_ONE_VALUE = re.compile(r"(?:\S+ )?(\S+)")  # pyecore keeps the last of space-separated tokens
_ID = re.compile(r"[^\s#/]+")


def _boolean(value: str | None, default: bool) -> bool:
    """pyecore's ``EBoolean.from_string``: true only when written ``true`` or ``True``."""
    return default if value is None else value in ("True", "true")


def _integer(value: str | None, default: int) -> int:
    if value is None:
        return default
    try:
        return int(value)
    except ValueError:
        raise NotDirect(f"{value!r} is not an integer") from None


def _children(element: etree._Element) -> list[etree._Element]:
    children = list(element.iterchildren(etree.Element))
    if len(children) != len(element):  # an entity reference (comments and PIs are not parsed)
        raise NotDirect("a node that is not an element")
    return children


def _local(element: etree._Element) -> str:
    """The element's local name (what ``etree.QName(element).localname`` says, without making one)."""
    return element.tag.rpartition("}")[2]


def _checked_root(root: etree._Element, namespaces: dict[str, str]) -> None:
    """pyecore reads the prefixes of the root element only: no element below it may declare others, and
    the prefixes this reader relies on must be the root's."""
    for prefix, uri in namespaces.items():
        if root.nsmap.get(prefix) != uri:
            raise NotDirect(f"prefix {prefix} is not bound to {uri} on the root")
    for element in root.iter():
        if isinstance(element.tag, str) and element.nsmap != root.nsmap:
            raise NotDirect("a namespace declared below the root element")


def _attributes(element: etree._Element, allowed: frozenset[str]) -> dict[str, str]:
    """The element's attributes, when every one is known here (namespaced ones by their full key)."""
    found = dict(element.items())  # (a list of pairs: quicker than through the attrib mapping)
    if not allowed.issuperset(found):
        raise NotDirect(f"attribute {sorted(set(found) - allowed)[0]} of <{_local(element)}>")
    return found


# ------------------------------------------------------------------------------------------------ Ecore

_PACKAGE_ATTRIBUTES = frozenset({"name", "nsURI", "nsPrefix", _XMI_VERSION})
_CLASSIFIER_ATTRIBUTES = {
    "EClass": frozenset({"name", "abstract", "interface", "eSuperTypes", _XSI_TYPE}),
    "EDataType": frozenset({"name", "instanceClassName", "serializable", _XSI_TYPE}),
    "EEnum": frozenset({"name", "serializable", _XSI_TYPE}),
}
_FEATURE_COMMON = {
    "name",
    "lowerBound",
    "upperBound",
    "eType",
    "ordered",
    "unique",
    "changeable",
    "volatile",
    "transient",
    "unsettable",
    "derived",
    "defaultValueLiteral",
    _XSI_TYPE,
}
_FEATURE_ATTRIBUTES = {
    "EAttribute": frozenset(_FEATURE_COMMON | {"iD"}),
    "EReference": frozenset(_FEATURE_COMMON | {"containment", "eOpposite", "resolveProxies"}),
}
_LITERAL_ATTRIBUTES = frozenset({"name", "value", "literal"})


@cache
def _builtin_type(name: str) -> str:
    """The name of Ecore's classifier ``name`` as a feature's type, when it is one of Ecore's data types
    (resolved by pyecore's own Ecore package, as the loader resolves it)."""
    import pyecore.ecore as ecore

    found = ecore.getEClassifier(name)
    if not isinstance(found, ecore.EDataType) or isinstance(found, ecore.EEnum) or found.name != name:
        raise NotDirect(f"{name} is not one of Ecore's data types")
    return name


def _named(attributes: dict[str, str]) -> str:
    """A classifier's, feature's or literal's name: pyecore refuses one without a name."""
    if "name" not in attributes:
        raise NotDirect("an element without a name")
    return attributes["name"]


def _xsi_type(element: etree._Element, prefixes: dict[str, str], kinds: tuple[str, ...]) -> str:
    value = element.get(_XSI_TYPE)
    prefix, colon, kind = (value or "").partition(":")
    if not colon or prefixes.get(prefix) != ECORE_NS_URI or kind not in kinds:
        raise NotDirect(f"xsi:type {value!r}")
    return kind


def _one_value(value: str) -> str:
    found = _ONE_VALUE.fullmatch(value)
    if found is None:
        raise NotDirect(f"reference {value!r}")
    return found.group(1)


class _EcoreReader:
    """One document's package; every resolution as pyecore's XMI loader makes it."""

    def __init__(self, root: etree._Element) -> None:
        self.root = root
        self.prefixes = {prefix: uri for prefix, uri in root.nsmap.items() if prefix}
        self.elements: list[etree._Element] = []
        self.kinds: list[str] = []
        self.first: dict[str, int] = {}  # classifier name -> the first classifier so named
        # (class, feature) of a reference -> its opposite's name, set on both ends in document order
        self.opposites: dict[tuple[int, int], str] = {}

    def package(self) -> EcorePackage:
        root = self.root
        if root.tag != f"{{{ECORE_NS_URI}}}EPackage":
            raise NotDirect("the root is not an EPackage")
        _checked_root(root, {"xmi": XMI_NS_URI, "xsi": XSI_NS_URI})
        attributes = _attributes(root, _PACKAGE_ATTRIBUTES)
        self.elements = _children(root)
        for index, element in enumerate(self.elements):
            if _local(element) != "eClassifiers":
                raise NotDirect(f"<{_local(element)}> in the package")
            self.kinds.append(_xsi_type(element, self.prefixes, ("EClass", "EDataType", "EEnum")))
            name = element.get("name")
            if name is not None:
                self.first.setdefault(name, index)
        drafts = [self.classifier(index) for index in range(len(self.elements))]
        return EcorePackage(
            name=attributes.get("name") or "",
            ns_uri=attributes.get("nsURI"),
            ns_prefix=attributes.get("nsPrefix"),
            classifiers=tuple(self.finished(index, draft) for index, draft in enumerate(drafts)),
        )

    def classifier(self, index: int) -> EcoreClassifier | tuple[dict[str, Any], list[dict[str, Any]]]:
        element, kind = self.elements[index], self.kinds[index]
        attributes = _attributes(element, _CLASSIFIER_ATTRIBUTES[kind])
        name = _named(attributes)
        if kind == "EDataType":
            if _children(element):
                raise NotDirect("a data type with contents")
            return EcoreDataType(name=name, instance_class_name=attributes.get("instanceClassName"))
        if kind == "EEnum":
            literals = []
            for child in _children(element):
                if _local(child) != "eLiterals":
                    raise NotDirect(f"<{_local(child)}> in an enum")
                literal = _attributes(child, _LITERAL_ATTRIBUTES)
                literals.append(EcoreLiteral(_named(literal), _integer(literal.get("value"), 0)))
            return EcoreEnum(name=name, literals=tuple(literals))
        supertypes: list[str] = []
        for token in attributes.get("eSuperTypes", "").split():
            supertype = self.local(token)
            if supertype in supertypes or self.kinds[self.first[supertype]] != "EClass":
                raise NotDirect(f"supertype {token!r}")
            supertypes.append(supertype)
        features = [self.feature(index, position, child) for position, child in enumerate(_children(element))]
        head = {
            "name": name,
            "abstract": _boolean(attributes.get("abstract"), False),
            "interface": _boolean(attributes.get("interface"), False),
            "supertypes": tuple(supertypes),
        }
        return head, features

    def feature(self, owner: int, position: int, element: etree._Element) -> dict[str, Any]:
        if _local(element) != "eStructuralFeatures":
            raise NotDirect(f"<{_local(element)}> in a class")
        kind = _xsi_type(element, self.prefixes, ("EAttribute", "EReference"))
        attributes = _attributes(element, _FEATURE_ATTRIBUTES[kind])
        if _children(element):
            raise NotDirect("a feature with contents (a generic type, annotations)")
        draft: dict[str, Any] = {
            "kind": kind,
            "name": _named(attributes),
            "type": self.type_name(attributes.get("eType")),
            "lower": _integer(attributes.get("lowerBound"), 0),
            "upper": _integer(attributes.get("upperBound"), 1),
            "derived": _boolean(attributes.get("derived"), False),
            "transient": _boolean(attributes.get("transient"), False),
            "volatile": _boolean(attributes.get("volatile"), False),
        }
        if kind == "EAttribute":
            draft["is_id"] = _boolean(attributes.get("iD"), False)
        else:
            draft["containment"] = _boolean(attributes.get("containment"), False)
            if "eOpposite" in attributes:
                self.set_opposite((owner, position), element, attributes["eOpposite"])
        return draft

    def local(self, token: str) -> str:
        """The classifier a ``#//Name`` token names (pyecore: the package's first classifier so named)."""
        found = _LOCAL.fullmatch(token)
        if found is None or found.group(1) not in self.first:
            raise NotDirect(f"reference {token!r}")
        return found.group(1)

    def type_name(self, value: str | None) -> str:
        if not value:  # pyecore skips an empty reference: no type
            return ""
        token = _one_value(value)
        builtin = _BUILTIN.fullmatch(token)
        if builtin is not None:
            return _builtin_type(builtin.group(1))
        return self.local(token)

    def set_opposite(self, reference: tuple[int, int], element: etree._Element, value: str) -> None:
        """pyecore sets an opposite on both ends (``a.eOpposite = b`` also makes ``a`` ``b``'s), in the
        order the document states them: a reference keeps the last opposite set on either end."""
        found = _MEMBER.fullmatch(_one_value(value))
        if found is None or found.group(1) not in self.first or element.get("name") is None:
            raise NotDirect(f"opposite {value!r}")
        owner = self.first[found.group(1)]
        if self.kinds[owner] != "EClass":
            raise NotDirect(f"opposite {value!r} is not in a class")
        features = _children(self.elements[owner])
        position = next((i for i, f in enumerate(features) if f.get("name") == found.group(2)), None)
        if position is None or features[position].get(_XSI_TYPE, "").partition(":")[2] != "EReference":
            raise NotDirect(f"opposite {value!r} is not a reference")
        self.opposites[reference] = found.group(2)
        self.opposites[(owner, position)] = element.get("name") or ""

    def finished(self, index: int, draft: Any) -> EcoreClassifier:
        if not isinstance(draft, tuple):
            return draft
        head, drafts = draft
        features: list[EcoreFeature] = []
        for position, feature in enumerate(drafts):
            values = {k: v for k, v in feature.items() if k != "kind"}
            if feature["kind"] == "EAttribute":
                features.append(EcoreAttribute(**values))
            else:
                features.append(EcoreReference(**values, opposite=self.opposites.get((index, position))))
        return EcoreClass(**head, features=tuple(features))


def direct_ecore(root: etree._Element) -> tuple[EcorePackage, ...]:
    """The package of a conforming ``.ecore`` tree, as pyecore would load and ``packages_from_pyecore``
    read it; :class:`NotDirect` when the tree is not one of the forms read here."""
    return (_EcoreReader(root).package(),)


# -------------------------------------------------------------------------------------------------- SQL

_SCHEMA_ATTRIBUTES = frozenset({"name", _XMI_VERSION})
_TABLE_ATTRIBUTES = frozenset({"name", _XMI_ID})
_COLUMN_ATTRIBUTES = frozenset({"name", "type", "nullable", "unique", _XMI_ID})
_KEY_ATTRIBUTES = frozenset({"columns", _XMI_ID})
_FOREIGN_KEY_ATTRIBUTES = frozenset({"name", "columns", "referencedTable", "referencedColumns", _XMI_ID})
_TABLE_PARTS = ("columns", "primaryKey", "foreignKeys")


class _SqlReader:
    """One schema of the bundled ``sql.ecore``: references by ``xmi:id``, resolved as pyecore resolves
    them (an id names the element that carries it; pyecore refuses an element of another class)."""

    def __init__(self, root: etree._Element, ns_uri: str) -> None:
        self.root = root
        self.ns_uri = ns_uri
        self.ids: dict[str, tuple[str, str]] = {}  # xmi:id -> (class, name of the element carrying it)

    def schema(self) -> SqlSchema:
        root = self.root
        if root.tag != f"{{{self.ns_uri}}}Schema":
            raise NotDirect("the root is not a Schema")
        _checked_root(root, {"xmi": XMI_NS_URI})
        attributes = _attributes(root, _SCHEMA_ATTRIBUTES)
        tables: list[tuple[dict[str, str], list[tuple[str, dict[str, str]]]]] = []
        for table in _children(root):
            if _local(table) != "tables":
                raise NotDirect(f"<{_local(table)}> in the schema")
            table_attributes = self.identify(table, "Table", _TABLE_ATTRIBUTES)
            parts: list[tuple[str, dict[str, str]]] = []  # (part, its attributes), in document order
            for child in _children(table):
                part = _local(child)
                if part not in _TABLE_PARTS:
                    raise NotDirect(f"<{part}> in a table")
                if len(child):  # elements, or an entity reference
                    raise NotDirect(f"contents in <{part}>")
                allowed = {"columns": _COLUMN_ATTRIBUTES, "primaryKey": _KEY_ATTRIBUTES}
                parts.append((part, self.identify(child, part, allowed.get(part, _FOREIGN_KEY_ATTRIBUTES))))
            if sum(1 for part, _ in parts if part == "primaryKey") > 1:
                raise NotDirect("two primary keys in one table")
            tables.append((table_attributes, parts))
        return SqlSchema(
            name=attributes.get("name") or "",
            tables=tuple(self.table(table, parts) for table, parts in tables),
        )

    def identify(self, element: etree._Element, cls: str, allowed: frozenset[str]) -> dict[str, str]:
        """The element's attributes, its ``xmi:id`` (if any) noted as naming it."""
        attributes = _attributes(element, allowed)
        identifier = attributes.get(_XMI_ID)
        if identifier is not None:
            if identifier in self.ids:
                raise NotDirect(f"xmi:id {identifier!r} given twice")
            self.ids[identifier] = (cls, attributes.get("name") or "")
        return attributes

    def table(self, table: dict[str, str], parts: list[tuple[str, dict[str, str]]]) -> SqlTable:
        columns = tuple(
            SqlColumn(
                name=c.get("name") or "",
                type=c.get("type") or "",
                nullable=_boolean(c.get("nullable"), True),
                unique=_boolean(c.get("unique"), False),
            )
            for part, c in parts
            if part == "columns"
        )
        key = next((c for part, c in parts if part == "primaryKey"), None)
        foreign_keys = tuple(
            SqlForeignKey(
                name=fk.get("name") or "",
                columns=self.names(fk.get("columns"), "columns"),
                referenced_table=self.referenced_table(fk.get("referencedTable")),
                referenced_columns=self.names(fk.get("referencedColumns"), "columns"),
            )
            for part, fk in parts
            if part == "foreignKeys"
        )
        return SqlTable(
            name=table.get("name") or "",
            columns=columns,
            primary_key=SqlPrimaryKey(self.names(key.get("columns"), "columns")) if key is not None else None,
            foreign_keys=foreign_keys,
        )

    def resolve(self, token: str, cls: str) -> str:
        found = self.ids.get(token) if _ID.fullmatch(token) else None
        if found is None or found[0] != cls:
            raise NotDirect(f"reference {token!r}")
        return found[1]

    def names(self, value: str | None, cls: str) -> tuple[str, ...]:
        tokens = (value or "").split()
        if len(set(tokens)) != len(tokens):
            raise NotDirect(f"a reference given twice in {value!r}")
        return tuple(self.resolve(token, cls) for token in tokens)

    def referenced_table(self, value: str | None) -> str:
        if not value:  # pyecore skips an empty reference: no table
            return ""
        return self.resolve(value, "Table")


def direct_sql(root: etree._Element, ns_uri: str) -> SqlSchema:
    """The schema of a conforming SQL-XMI tree of the bundled ``sql.ecore`` under ``ns_uri``, as pyecore
    would load and ``schema_from_pyecore`` read it; :class:`NotDirect` when it is not a form read here."""
    return _SqlReader(root, ns_uri).schema()


__all__ = ["NotDirect", "direct_ecore", "direct_sql"]
