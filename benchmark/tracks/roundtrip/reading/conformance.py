"""Does an XMI element tree conform to a metamodel? The first problem, with its line, or None.

pyecore is the authority on loading, but it is lenient where a scorer must not be (unknown attributes on
the root element are skipped silently, an ill-formed boolean becomes ``false``), and its messages rarely
give a line. This walk checks what "loads with no unknown feature or class" means, element by element,
against the metamodel's pyecore classes, and says where it fails; pyecore then loads the file to catch
what it cannot (dangling references, wrongly typed values).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache, lru_cache
from typing import Any

import pyecore.ecore as ecore
from lxml import etree

from benchmark.tracks.roundtrip.models.xmltext import XMI_NS_URI, XSI_NS_URI

XMI_NS_URIS = (XMI_NS_URI, "http://www.omg.org/spec/XMI/20131001", "http://www.omg.org/spec/XMI/20110701")
_INTEGER = re.compile(r"^[+-]?\d+$")
_INTEGER_TYPES = {
    "EInt",
    "EInteger",
    "EIntegerObject",
    "ELong",
    "ELongObject",
    "EShort",
    "EShortObject",
    "EByte",
}
_REAL_TYPES = {"EDouble", "EDoubleObject", "EFloat", "EFloatObject", "EBigDecimal"}
_BOOLEAN_TYPES = {"EBoolean", "EBooleanObject"}
_CHECKED_TYPES = _INTEGER_TYPES | _REAL_TYPES | _BOOLEAN_TYPES
_TYPE_KEYS = tuple(f"{{{namespace}}}type" for namespace in (XSI_NS_URI, *XMI_NS_URIS))


@dataclass(frozen=True)
class Problem:
    message: str
    line: int | None = None

    def __str__(self) -> str:
        return f"{self.message} (line {self.line})" if self.line is not None else self.message


def _eclass(value: Any) -> Any:
    """pyecore's static metaclasses are Python classes; their EClass is ``.eClass``."""
    return value.eClass if isinstance(value, type) and hasattr(value, "eClass") else value


@dataclass(frozen=True)
class _Feature:
    """What the walk needs of a pyecore feature, read once: pyecore's attribute access goes through
    descriptors and costs more than the whole check of an element otherwise."""

    name: str
    derived: bool
    many: bool
    is_attribute: bool
    data_valued: bool  # an attribute, or a reference to a data type (an annotation's details entry)
    containment: bool
    type_name: str
    enum: Any  # the EEnum of an enum-typed attribute, else None
    declared: Any  # the feature's type as an EClass (for containments)
    abstract: bool
    checked: bool  # its values can be wrong (a boolean, number or enum type): _value_problem reads them


@cache
def _features(eclass: Any) -> dict[str, _Feature]:
    found: dict[str, _Feature] = {}
    for feature in eclass.eAllStructuralFeatures():
        e_type = feature.eType
        declared = _eclass(e_type)
        is_attribute = isinstance(feature, ecore.EAttribute)
        type_name = str(getattr(e_type, "name", "") or "")
        found[feature.name] = _Feature(
            name=feature.name,
            derived=bool(feature.derived),
            many=bool(feature.many),
            is_attribute=is_attribute,
            data_valued=is_attribute or isinstance(e_type, ecore.EDataType),
            containment=not is_attribute and bool(feature.containment),
            type_name=type_name,
            enum=e_type if isinstance(e_type, ecore.EEnum) else None,
            declared=declared,
            abstract=bool(getattr(declared, "abstract", False)),
            checked=type_name in _CHECKED_TYPES or isinstance(e_type, ecore.EEnum),
        )
    return found


@cache
def _conforms(found: Any, declared: Any) -> bool:
    """Whether class ``found`` may stand where ``declared`` is expected."""
    return declared is ecore.EObject.eClass or found is declared or declared in found.eAllSuperTypes()


@lru_cache(maxsize=4096)  # asked for every attribute and element of every document: the same few names
def _qname(tag: str) -> tuple[str | None, str]:
    """(namespace, local name) of a tag or attribute key; a recovered tree may hold "prefix:name" keys
    whose prefix was never declared, which lxml's QName refuses."""
    if tag.startswith("{"):
        namespace, _, name = tag[1:].partition("}")
        return namespace, name
    return None, tag.rpartition(":")[2]


def _shown(element: etree._Element) -> str:
    _, local = _qname(element.tag)
    return f"{element.prefix}:{local}" if element.prefix else local


def has_xmi_version(root: etree._Element) -> bool:
    return any(_qname(key) == (ns, "version") for key in root.attrib for ns in XMI_NS_URIS)


def declared_namespaces(root: etree._Element) -> set[str]:
    found: set[str] = set()
    for element in root.iter():
        if isinstance(element.tag, str):
            found.update(uri for uri in element.nsmap.values() if uri)
    return found


def model_roots(root: etree._Element) -> list[etree._Element]:
    """The model's root objects: the children of an ``xmi:XMI`` wrapper, else the root element itself."""
    namespace, local = _qname(root.tag)
    if local == "XMI" and namespace in XMI_NS_URIS:
        return [child for child in root if isinstance(child.tag, str)]
    return [root]


def _type_attribute(element: etree._Element) -> str | None:
    for key in _TYPE_KEYS:
        value = element.get(key)
        if value is not None:
            return value
    return None


def _value_problem(feature: _Feature, value: str) -> str | None:
    type_name = feature.type_name
    text = value.strip()
    tokens = text.split() if feature.many else [text]
    for token in tokens:
        if type_name in _BOOLEAN_TYPES and token.lower() not in ("true", "false"):
            return f"{token!r} is not a boolean (true/false)"
        if type_name in _INTEGER_TYPES and not _INTEGER.match(token):
            return f"{token!r} is not an integer"
        if type_name in _REAL_TYPES:
            try:
                float(token)
            except ValueError:
                return f"{token!r} is not a number"
        if feature.enum is not None and feature.enum.getEEnumLiteral(token) is None:
            return f"{token!r} is not a literal of {feature.type_name}"
    return None


def _external_reference(value: str, allowed: frozenset[str]) -> str | None:
    """The first token pointing into another resource (``file.ecore#//X``), unless its URI is allowed."""
    if "#" not in value:  # most references: ids, or nothing that points anywhere
        return None
    for token in value.split():
        if "#" in token:
            uri = token.rsplit("#", 1)[0]
            if uri and uri not in allowed:
                return token
    return None


class _Walk:
    def __init__(
        self, root: etree._Element, metamodels: Mapping[str, Any], allowed_uris: frozenset[str]
    ) -> None:
        self.root_namespaces = root.nsmap
        self.metamodels = metamodels
        self.allowed_uris = allowed_uris
        self._classifiers: dict[tuple[str | None, str], Any | None] = {}

    def classifier(self, namespace: str | None, name: str) -> Any | None:
        """The classifier ``name`` of the metamodel of ``namespace`` (looked up once per document: pyecore
        scans the package's classifiers on every lookup, and a document names the same few classes)."""
        key = (namespace, name)
        if key not in self._classifiers:
            package = self.metamodels.get(namespace or "")
            self._classifiers[key] = package.getEClassifier(name) if package is not None else None
        return self._classifiers[key]

    def child_class(self, child: etree._Element, feature: _Feature) -> Any | Problem:
        declared = feature.declared
        type_value = _type_attribute(child)
        if type_value is None:
            if feature.abstract:
                return Problem(
                    f"<{_shown(child)}> needs an xsi:type: {declared.name} is abstract", child.sourceline
                )
            return declared
        if self.root_namespaces.get("xsi") != XSI_NS_URI:
            return Problem(
                "xsi:type needs xmlns:xsi declared on the root element "
                "(pyecore reads only the root's declarations)",
                child.sourceline,
            )
        prefix, _, name = type_value.rpartition(":")
        namespace = child.nsmap.get(prefix or None)
        found = _eclass(self.classifier(namespace, name))
        if not isinstance(found, ecore.EClass):
            return Problem(f"unknown class {type_value!r} in xsi:type", child.sourceline)
        if not _conforms(found, declared):
            return Problem(
                f"class {found.name} cannot be used for feature {feature.name} (expects {declared.name})",
                child.sourceline,
            )
        return found

    def element(self, element: etree._Element, eclass: Any) -> Problem | None:
        features = _features(eclass)
        for key, value in element.attrib.items():
            namespace, local = _qname(key)
            if namespace is not None:
                continue  # xmi:id, xsi:type, foreign annotations: not features
            feature = features.get(local)
            if feature is None:
                return Problem(f"unknown feature {local!r} for class {eclass.name}", element.sourceline)
            if feature.derived:
                return Problem(
                    f"feature {local!r} of {eclass.name} is derived and cannot be set", element.sourceline
                )
            if feature.is_attribute:
                why = _value_problem(feature, value) if feature.checked else None
                if why is not None:
                    return Problem(f"invalid value for {eclass.name}.{local}: {why}", element.sourceline)
            elif (token := _external_reference(value, self.allowed_uris)) is not None:
                return Problem(f"reference {token!r} points into another resource", element.sourceline)
        for child in element.iterchildren(etree.Element):  # elements only (not entity references)
            _, local = _qname(child.tag)
            feature = features.get(local)
            if feature is None:
                return Problem(f"unknown feature {local!r} for class {eclass.name}", child.sourceline)
            if feature.derived:
                return Problem(
                    f"feature {local!r} of {eclass.name} is derived and cannot be set", child.sourceline
                )
            if feature.data_valued:
                continue  # an element-valued attribute (or an annotation's details entry)
            if not feature.containment:
                href = child.get("href") or ""
                if (token := _external_reference(href, self.allowed_uris)) is not None:
                    return Problem(f"reference {token!r} points into another resource", child.sourceline)
                continue
            child_class = self.child_class(child, feature)
            if isinstance(child_class, Problem):
                return child_class
            problem = self.element(child, child_class)
            if problem is not None:
                return problem
        return None


def conformance_problem(
    root: etree._Element,
    expected_ns: str,
    metamodels: Mapping[str, Any],
    root_classes: tuple[str, ...],
    allowed_uris: frozenset[str] = frozenset(),
) -> Problem | None:
    """The first reason the tree is not a loadable model of the metamodel registered for ``expected_ns``
    (root objects of one of ``root_classes``), or None."""
    if not has_xmi_version(root):
        return Problem("the root element has no xmi:version attribute", root.sourceline)
    if expected_ns not in root.nsmap.values() and expected_ns not in declared_namespaces(root):
        return Problem(f"the expected metamodel's namespace {expected_ns} is not declared", root.sourceline)
    roots = model_roots(root)
    if not roots:
        return Problem("missing root: the document contains no model element", root.sourceline)
    walk = _Walk(root, metamodels, allowed_uris)
    for element in roots:
        namespace, local = _qname(element.tag)
        if namespace != expected_ns:
            return Problem(
                f"missing root: <{_shown(element)}> is not in the namespace {expected_ns}", element.sourceline
            )
        eclass = _eclass(walk.classifier(namespace, local))
        if not isinstance(eclass, ecore.EClass):
            return Problem(f"unknown class {local!r}", element.sourceline)
        if eclass.name not in root_classes:
            expected = " or ".join(root_classes)
            return Problem(
                f"missing root: the root object is a {eclass.name}, expected {expected}", element.sourceline
            )
        problem = walk.element(element, eclass)
        if problem is not None:
            return problem
    return None
