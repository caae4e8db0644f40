"""Reading a model file as plain XML, so that a file that does not load can still earn partial credit.

An LLM's file may use a wrong namespace, misspell one attribute, leave a reference dangling or be cut off
mid-element; none of that should cost the lines it got right. These readers look only at local element
and attribute names (namespaces ignored), accept both EMF's reference forms (``#//Author``,
``//@tables.0/@columns.1``) and plain names or ``xmi:id``s, and fall back to defaults for values they
cannot read. They produce the same value models as strict loading, so lines are computed one way.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from lxml import etree

from benchmark.tracks.roundtrip.models.ecoremodel import (
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
from benchmark.tracks.roundtrip.reading.conformance import XMI_NS_URIS, _qname, model_roots

_TYPE_HINT = re.compile(r"^[\w.-]+:[\w.-]+$")  # "ecore:EDataType" before "http://...#//EString"
_POSITION = re.compile(r"^@([\w.-]+?)(?:\.(\d+))?$")
_NAME_INDEX = re.compile(r"^(.+)\.(\d+)$")


def local(element: etree._Element) -> str:
    return _qname(element.tag)[1] if isinstance(element.tag, str) else ""


def _elements(parent: etree._Element) -> Iterator[etree._Element]:
    return (child for child in parent if isinstance(child.tag, str))


def _type_of(element: etree._Element) -> str:
    """Local part of ``xsi:type``/``xmi:type`` (any namespace), or ''."""
    for key, value in element.attrib.items():
        namespace, name = _qname(key)
        if name == "type" and (namespace or ":" in key):
            return value.rpartition(":")[2]
    return ""


def _text(element: etree._Element, name: str) -> str:
    return (element.get(name) or "").strip()


def _flag(element: etree._Element, name: str, default: bool) -> bool:
    value = _text(element, name).lower()
    if value in ("true", "1", "yes"):
        return True
    if value in ("false", "0", "no"):
        return False
    return default


def _int(element: etree._Element, name: str, default: int) -> int:
    value = _text(element, name)
    if value == "*":
        return -1
    try:
        return int(value)
    except ValueError:
        return default


class _References:
    """Resolves reference tokens the ways EMF and LLMs write them."""

    def __init__(self, root: etree._Element) -> None:
        self.roots = model_roots(root)
        self.ids: dict[str, etree._Element] = {}
        for element in root.iter():
            if not isinstance(element.tag, str):
                continue
            for namespace in XMI_NS_URIS:
                identifier = element.get(f"{{{namespace}}}id")
                if identifier is not None:
                    self.ids.setdefault(identifier.strip(), element)

    def tokens(self, value: str) -> list[str]:
        """Reference tokens of an attribute value, without EMF's ``ecore:EDataType`` type hints."""
        return [t for t in value.split() if "#" in t or "/" in t or not _TYPE_HINT.match(t)]

    def _navigate(self, path: str) -> etree._Element | None:
        segments = path.split("/")
        current: etree._Element | None = None
        if path.startswith("//") or not path.startswith("/"):
            current = self.roots[0] if self.roots else None
            segments = [s for s in segments if s]
        else:
            segments = [s for s in segments if s]
            if not segments or not segments[0].isdigit() or int(segments[0]) >= len(self.roots):
                return None
            current = self.roots[int(segments.pop(0))]
        for segment in segments:
            if current is None:
                return None
            position = _POSITION.match(segment)
            if position:
                children = [c for c in _elements(current) if local(c) == position.group(1)]
                index = int(position.group(2) or 0)
                current = children[index] if index < len(children) else None
            else:
                named = [c for c in _elements(current) if _text(c, "name") == segment]
                indexed = _NAME_INDEX.match(segment)
                if not named and indexed:  # EMF's "Name.1": the second element called Name
                    same = [c for c in _elements(current) if _text(c, "name") == indexed.group(1)]
                    index = int(indexed.group(2))
                    named = same[index:]
                current = named[0] if named else None
        return current

    def element(self, token: str) -> etree._Element | None:
        fragment = token.rsplit("#", 1)[-1]
        if fragment in self.ids:
            return self.ids[fragment]
        if "/" in fragment:
            return self._navigate(fragment)
        return None

    def name(self, token: str) -> str:
        """The name of the referenced element, or the token's last name segment."""
        found = self.element(token)
        if found is not None and found.get("name") is not None:
            return _text(found, "name")
        segments = [s for s in token.rsplit("#", 1)[-1].split("/") if s and not s.startswith("@")]
        return segments[-1] if segments else token


# -- Ecore ---------------------------------------------------------------------------------------------
_CLASSIFIER_TAGS = {"eClassifiers", "EClass", "EEnum", "EDataType"}
_FEATURE_TAGS = {"eStructuralFeatures", "eAttributes", "eReferences", "EAttribute", "EReference"}


def _classifier_kind(element: etree._Element) -> str:
    declared = _type_of(element) or local(element)
    for kind in ("EEnum", "EDataType", "EClass"):
        if declared == kind:
            return kind
    children = {local(c) for c in _elements(element)}
    if "eLiterals" in children:
        return "EEnum"
    if element.get("instanceClassName") is not None and not children:
        return "EDataType"
    return "EClass"


def _feature_type(element: etree._Element, refs: _References) -> str:
    tokens = refs.tokens(element.get("eType") or "")
    if tokens:
        return refs.name(tokens[-1])
    generic = next((c for c in _elements(element) if local(c) == "eGenericType"), None)
    if generic is not None and generic.get("eClassifier"):
        return refs.name(refs.tokens(generic.get("eClassifier") or "")[-1])
    return ""


def _feature(element: etree._Element, refs: _References, class_names: set[str]) -> EcoreFeature:
    declared = _type_of(element) or local(element)
    type_name = _feature_type(element, refs)
    if declared in ("EReference", "eReferences"):
        is_reference = True
    elif declared in ("EAttribute", "eAttributes"):
        is_reference = False
    else:
        has_reference_attribute = (
            element.get("containment") is not None or element.get("eOpposite") is not None
        )
        is_reference = has_reference_attribute or type_name in class_names
    name = _text(element, "name")
    lower, upper = _int(element, "lowerBound", 0), _int(element, "upperBound", 1)
    derived, transient = _flag(element, "derived", False), _flag(element, "transient", False)
    volatile = _flag(element, "volatile", False)
    if is_reference:
        opposite_tokens = refs.tokens(element.get("eOpposite") or "")
        return EcoreReference(
            name,
            type_name,
            lower,
            upper,
            containment=_flag(element, "containment", False),
            opposite=refs.name(opposite_tokens[-1]) if opposite_tokens else None,
            derived=derived,
            transient=transient,
            volatile=volatile,
        )
    is_id = _flag(element, "iD", False)
    return EcoreAttribute(name, type_name, lower, upper, is_id, derived, transient, volatile)


def _classifier(element: etree._Element, refs: _References, class_names: set[str]) -> EcoreClassifier:
    kind = _classifier_kind(element)
    name = _text(element, "name")
    if kind == "EEnum":
        literals = tuple(
            EcoreLiteral(_text(c, "name"), _int(c, "value", 0))
            for c in _elements(element)
            if local(c) == "eLiterals"
        )
        return EcoreEnum(name, literals)
    if kind == "EDataType":
        return EcoreDataType(name, element.get("instanceClassName"))
    features = tuple(_feature(c, refs, class_names) for c in _elements(element) if local(c) in _FEATURE_TAGS)
    return EcoreClass(
        name=name,
        abstract=_flag(element, "abstract", False),
        interface=_flag(element, "interface", False),
        supertypes=tuple(refs.name(t) for t in refs.tokens(element.get("eSuperTypes") or "")),
        features=features,
    )


def _is_classifier(element: etree._Element) -> bool:
    return local(element) in _CLASSIFIER_TAGS or _type_of(element) in ("EClass", "EEnum", "EDataType")


def lenient_ecore(root: etree._Element) -> tuple[EcorePackage, ...]:
    """One package per element that holds classifiers (document order); a classifier that is itself the
    root element forms a package of its own."""
    refs = _References(root)
    classifiers = [e for e in root.iter() if isinstance(e.tag, str) and _is_classifier(e)]
    class_names = {_text(e, "name") for e in classifiers if _classifier_kind(e) == "EClass"}
    groups: dict[int, tuple[etree._Element | None, list[etree._Element]]] = {}
    for element in classifiers:
        holder = element.getparent()
        groups.setdefault(id(holder) if holder is not None else 0, (holder, []))[1].append(element)
    packages = []
    for holder, members in groups.values():
        package_name = _text(holder, "name") if holder is not None else ""
        ns_uri = holder.get("nsURI") if holder is not None else None
        ns_prefix = holder.get("nsPrefix") if holder is not None else None
        packages.append(
            EcorePackage(
                package_name, ns_uri, ns_prefix, tuple(_classifier(c, refs, class_names) for c in members)
            )
        )
    return tuple(packages)


# -- SQL -----------------------------------------------------------------------------------------------
def _tagged(parent: etree._Element, *names: str) -> list[etree._Element]:
    return [c for c in _elements(parent) if local(c) in names or _type_of(c) in names]


def _column_names(
    element: etree._Element, attribute: str, refs: _References, table_names: set[str]
) -> tuple[str, ...]:
    tokens = refs.tokens(element.get(attribute) or "")
    tokens += [c.get("href") or "" for c in _elements(element) if local(c) == attribute and c.get("href")]
    names = []
    for token in tokens:
        found = refs.element(token)
        if found is not None and found.get("name") is not None:
            names.append(_text(found, "name"))
            continue
        table, dot, column = token.rsplit("#", 1)[-1].partition(".")
        names.append(column if dot and table in table_names else token)
    return tuple(names)


def lenient_sql(root: etree._Element) -> SqlSchema:
    refs = _References(root)
    schema = next((e for e in root.iter() if isinstance(e.tag, str) and local(e) == "Schema"), root)
    table_elements = [
        e
        for e in schema.iter()
        if isinstance(e.tag, str) and (local(e) == "tables" or _type_of(e) == "Table")
    ]
    table_names = {_text(t, "name") for t in table_elements}
    tables = []
    for element in table_elements:
        columns = tuple(
            SqlColumn(
                name=_text(c, "name"),
                type=_text(c, "type"),
                nullable=_flag(c, "nullable", True),
                unique=_flag(c, "unique", False),
            )
            for c in _tagged(element, "columns", "Column")
        )
        key_element = next(iter(_tagged(element, "primaryKey", "PrimaryKey")), None)
        primary_key = (
            SqlPrimaryKey(_column_names(key_element, "columns", refs, table_names))
            if key_element is not None
            else None
        )
        foreign_keys = []
        for fk in _tagged(element, "foreignKeys", "ForeignKey"):
            table_tokens = refs.tokens(fk.get("referencedTable") or "")
            foreign_keys.append(
                SqlForeignKey(
                    name=_text(fk, "name"),
                    columns=_column_names(fk, "columns", refs, table_names),
                    referenced_table=refs.name(table_tokens[0]) if table_tokens else "",
                    referenced_columns=_column_names(fk, "referencedColumns", refs, table_names),
                )
            )
        tables.append(SqlTable(_text(element, "name"), columns, primary_key, tuple(foreign_keys)))
    return SqlSchema(_text(schema, "name"), tuple(tables))
