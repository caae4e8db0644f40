"""A metamodel view written back as ``.ecore`` (XMI) or ``.km3`` text.

What for: the mapping track's task variants rename or reorder a metamodel's view
(``docs/VARIANTS.md``), and the renamed metamodel must exist as files a person can open in an editor
(``atlbench variant export``, for jJodel) and a baseline can load (EMF Compare reads pyecore objects).
The text holds what the view holds, which is what the benchmark reads of a metamodel: packages (name,
nsURI, nsPrefix, nesting), classes (abstract, interface, supertypes), features (kind, type, bounds,
ordered, unique, containment, opposite, derived, id), enumerations and their literals, data types (with
their instance class). Operations, annotations, default values and the transient/volatile/changeable
flags are not in a view and are not written. An ``eOpposite`` is written as the view has it; pyecore
makes opposites mutual when it loads them, so a metamodel whose opposites are not (UML.ecore's redefined
``ownedAttribute``) reads back with them mutual.

Both writers are laws, tested on every bundled metamodel: the written ``.ecore`` loads to the same view
(:func:`~benchmark.lang.ecore.build.load_metamodel`), and so does the written ``.km3`` of a view read from
KM3. A view read from ``.ecore`` written as KM3 differs only where the two notations differ (the
``validation/README.md`` lists it: KM3's ``ordered``/``unique`` defaults, and a ``PrimitiveTypes`` package
declaring the Ecore types the features use, since KM3 has no others); a KM3 ``reference`` cannot say
``unique`` is false, and ``interface``, ``derived`` and ``id`` have no KM3 keyword.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from xml.sax.saxutils import quoteattr

from benchmark.lang.ecore.errors import MetamodelError
from benchmark.lang.ecore.view import UNBOUNDED, ClassView, FeatureView, MetamodelView, PackageView

ECORE_NS_URI = "http://www.eclipse.org/emf/2002/Ecore"
QUALIFIER = "::"
#: The package a KM3 text declares the types its features use but its view does not define (Ecore's).
KM3_TYPES_PACKAGE = "PrimitiveTypes"
KM3_KEYWORDS = frozenset(
    {
        "package",
        "class",
        "abstract",
        "extends",
        "attribute",
        "reference",
        "operation",
        "datatype",
        "enumeration",
        "literal",
        "ordered",
        "unique",
        "container",
        "oppositeOf",
        "subsets",
    }
)
_SIMPLE_NAME = re.compile(r"[^\W\d]\w*\Z")


def _well_known_types() -> dict[str, str]:
    """Type name -> the namespace URI of the well-known package defining it, as the loader resolves them
    (:mod:`benchmark.lang.ecore.ecore_io`): Ecore's own classifiers (``EString``, ``EInt``, ``EObject``...,
    with the ones pyecore lacks), then UML2's primitive types (``Boolean``, ``Real``...)."""
    from pyecore import ecore

    from benchmark.lang.ecore.ecore_io import UML_TYPES_NS_URI, ecore_supplement, uml_types_package

    known = {c.name: UML_TYPES_NS_URI for c in uml_types_package().eClassifiers}
    known |= {c.name: ECORE_NS_URI for c in ecore_supplement().eClassifiers}
    known |= {
        name: ECORE_NS_URI
        for name in dir(ecore)
        if name.startswith("E") and hasattr(getattr(ecore, name), "eClass")
    }
    return known


# ------------------------------------------------------------------------------------------- where


class _Places:
    """Where each classifier and package of a view sits, so references can be written as paths."""

    def __init__(self, view: MetamodelView) -> None:
        self.view = view
        self.roots = [p for p in view.packages if QUALIFIER not in p.qualified_name]
        self.packages = {p.qualified_name: p for p in view.packages}
        self.kinds: dict[str, str] = {}  # qualified name -> class | enum | datatype
        self.by_simple: dict[str, list[str]] = {}
        for kind, items in (("class", view.classes), ("enum", view.enums), ("datatype", view.datatypes)):
            for item in items:
                self.kinds.setdefault(item.qualified_name, kind)
                self.by_simple.setdefault(item.name, []).append(item.qualified_name)

    def resolve(self, name: str, package: str, what: str) -> str | None:
        """The qualified name of classifier ``name`` used in ``package`` (its own package first, then
        enclosing ones, as the KM3 reader and EMF resolve); ``None`` when the view does not define it."""
        if QUALIFIER in name:
            return name if name in self.kinds else None
        candidates = self.by_simple.get(name, [])
        if len(candidates) <= 1:
            return candidates[0] if candidates else None
        parts = package.split(QUALIFIER)
        for depth in range(len(parts), -1, -1):
            prefix = QUALIFIER.join(parts[:depth])
            for candidate in candidates:
                if candidate.rpartition(QUALIFIER)[0] == prefix:
                    return candidate
        raise MetamodelError(
            f"{what}: type name {name!r} is ambiguous ({', '.join(candidates)}); cannot write it",
            file=self.view.file,
        )

    def fragment(self, qualified: str) -> str:
        """EMF's name-based URI fragment: ``#//Sub/Name`` for a single root, ``/1/Sub/Name`` for the
        second root of an ``xmi:XMI`` file."""
        parts = qualified.split(QUALIFIER)
        if len(self.roots) == 1:
            return "#//" + "/".join(parts[1:])
        index = next(i for i, root in enumerate(self.roots) if root.name == parts[0])
        return f"/{index}/" + "/".join(parts[1:])


def _type_reference(places: _Places, feature: FeatureView, package: str, known: dict[str, str]) -> str:
    found = places.resolve(feature.type_name, package, f"{feature.owner}.{feature.name}")
    if found is not None:
        return places.fragment(found)
    if feature.type_name in known:
        metaclass = "ecore:EClass" if feature.kind == "reference" else "ecore:EDataType"
        return f"{metaclass} {known[feature.type_name]}#//{feature.type_name}"
    raise MetamodelError(
        f"{feature.owner}.{feature.name}: type {feature.type_name!r} is neither defined in the metamodel "
        "nor an Ecore or UML type; cannot write it",
        file=places.view.file,
    )


# ------------------------------------------------------------------------------------------- .ecore


def _feature_xml(places: _Places, feature: FeatureView, package: str, known: dict[str, str]) -> str:
    metaclass = "ecore:EReference" if feature.kind == "reference" else "ecore:EAttribute"
    attributes = [f'xsi:type="{metaclass}"', f"name={quoteattr(feature.name)}"]
    if not feature.ordered:
        attributes.append('ordered="false"')
    if not feature.unique:
        attributes.append('unique="false"')
    if feature.lower != 0:
        attributes.append(f'lowerBound="{feature.lower}"')
    if feature.upper != 1:
        attributes.append(f'upperBound="{feature.upper}"')
    if feature.derived:
        attributes.append('derived="true"')
    attributes.append(f"eType={quoteattr(_type_reference(places, feature, package, known))}")
    if feature.kind == "reference":
        if feature.containment:
            attributes.append('containment="true"')
        if feature.opposite:
            target = places.resolve(feature.type_name, package, f"{feature.owner}.{feature.name}")
            if target is None:
                raise MetamodelError(
                    f"{feature.owner}.{feature.name}: its opposite {feature.opposite!r} is in a type the "
                    "metamodel does not define; cannot write it",
                    file=places.view.file,
                )
            attributes.append(f"eOpposite={quoteattr(_opposite_path(places, target, feature.opposite))}")
    elif feature.is_id:
        attributes.append('iD="true"')
    return f"<eStructuralFeatures {' '.join(attributes)}/>"


def _opposite_path(places: _Places, target: str, opposite: str) -> str:
    """The path of the opposite reference: in the class that declares it (the target class or, when it
    is inherited, one of the target's supertypes)."""
    target_class = next(c for c in places.view.classes if c.qualified_name == target)
    declared = target_class.feature(opposite)
    owner = target
    if declared is not None and declared.owner != target_class.name:
        owner = places.resolve(declared.owner, target_class.package, target) or target
    return places.fragment(owner) + "/" + opposite


def _class_xml(places: _Places, cls: ClassView, known: dict[str, str], indent: str) -> Iterator[str]:
    attributes = ['xsi:type="ecore:EClass"', f"name={quoteattr(cls.name)}"]
    if cls.abstract:
        attributes.append('abstract="true"')
    if cls.interface:
        attributes.append('interface="true"')
    if cls.supertypes:
        paths = []
        for supertype in cls.supertypes:
            found = places.resolve(supertype, cls.package, cls.name)
            if found is None and supertype in known:  # EModelElement...: UML.ecore extends Ecore's classes
                paths.append(f"{known[supertype]}#//{supertype}")
                continue
            if found is None or places.kinds[found] != "class":
                raise MetamodelError(
                    f"{cls.name}: supertype {supertype!r} is not a class of the metamodel; cannot write it",
                    file=places.view.file,
                )
            paths.append(places.fragment(found))
        attributes.append(f"eSuperTypes={quoteattr(' '.join(paths))}")
    if not cls.features:
        yield f"{indent}<eClassifiers {' '.join(attributes)}/>"
        return
    yield f"{indent}<eClassifiers {' '.join(attributes)}>"
    for feature in cls.features:
        yield f"{indent}  {_feature_xml(places, feature, cls.package, known)}"
    yield f"{indent}</eClassifiers>"


def _package_xml(
    places: _Places, package: PackageView, known: dict[str, str], indent: str, tag: str, head: str = ""
) -> Iterator[str]:
    attributes = [f"name={quoteattr(package.name)}"]
    if package.ns_uri is not None:
        attributes.append(f"nsURI={quoteattr(package.ns_uri)}")
    if package.ns_prefix is not None:
        attributes.append(f"nsPrefix={quoteattr(package.ns_prefix)}")
    yield f"{indent}<{tag}{head} {' '.join(attributes)}>"
    inner = indent + "  "
    classes = {c.qualified_name: c for c in places.view.classes}
    enums = {e.qualified_name: e for e in places.view.enums}
    datatypes = {d.qualified_name: d for d in places.view.datatypes}
    for name in package.classifiers:
        qualified = f"{package.qualified_name}{QUALIFIER}{name}"
        if qualified in classes:
            yield from _class_xml(places, classes[qualified], known, inner)
        elif qualified in enums:
            literals = enums[qualified].literals
            start = f'{inner}<eClassifiers xsi:type="ecore:EEnum" name={quoteattr(name)}'
            if not literals:
                yield start + "/>"
                continue
            yield start + ">"
            for index, literal in enumerate(literals):
                value = f' value="{index}"' if index else ""
                yield f"{inner}  <eLiterals name={quoteattr(literal)}{value}/>"
            yield f"{inner}</eClassifiers>"
        elif qualified in datatypes:
            instance = datatypes[qualified].instance_type
            extra = f" instanceClassName={quoteattr(instance)}" if instance else ""
            yield f'{inner}<eClassifiers xsi:type="ecore:EDataType" name={quoteattr(name)}{extra}/>'
    for sub in package.subpackages:
        child = places.packages[f"{package.qualified_name}{QUALIFIER}{sub}"]
        yield from _package_xml(places, child, known, inner, "eSubpackages")
    yield f"{indent}</{tag}>"


def ecore_text(view: MetamodelView) -> str:
    """The view as an ``.ecore`` file: one ``ecore:EPackage`` root, or an ``xmi:XMI`` of several."""
    places = _Places(view)
    known = _well_known_types()
    namespaces = (
        'xmi:version="2.0" xmlns:xmi="http://www.omg.org/XMI" '
        'xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" '
        f'xmlns:ecore="{ECORE_NS_URI}"'
    )
    lines = ['<?xml version="1.0" encoding="UTF-8"?>']
    if len(places.roots) == 1:
        lines += _package_xml(places, places.roots[0], known, "", "ecore:EPackage", f" {namespaces}")
    else:
        lines.append(f"<xmi:XMI {namespaces}>")
        for root in places.roots:
            lines += _package_xml(places, root, known, "  ", "ecore:EPackage")
        lines.append("</xmi:XMI>")
    return "\n".join(lines) + "\n"


# --------------------------------------------------------------------------------------------- .km3


def km3_name(name: str) -> str:
    """A name as KM3 writes it: bare when it is an identifier and no keyword, else double-quoted."""
    if _SIMPLE_NAME.match(name) and name not in KM3_KEYWORDS:
        return name
    return '"' + name.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _multiplicity(feature: FeatureView) -> str:
    lower, upper = feature.lower, feature.upper
    if (lower, upper) == (1, 1):
        return ""
    if upper == UNBOUNDED:
        return "[*]" if lower == 0 else f"[{lower}-*]"
    return f"[{lower}-{upper}]"


def _undeclared(places: _Places) -> tuple[str, ...]:
    """The feature types no package of the view defines (Ecore's ``EString``...), in order of use."""
    found: dict[str, None] = {}
    for cls in places.view.classes:
        for feature in cls.features:
            if places.resolve(feature.type_name, cls.package, f"{cls.name}.{feature.name}") is None:
                found[feature.type_name] = None
    return tuple(found)


def _km3_type(places: _Places, feature: FeatureView, package: str) -> str:
    found = places.resolve(feature.type_name, package, f"{feature.owner}.{feature.name}")
    if found is not None and len(places.by_simple.get(feature.type_name, [])) > 1:
        return QUALIFIER.join(km3_name(part) for part in found.split(QUALIFIER))
    return km3_name(feature.type_name)


def _km3_feature(places: _Places, feature: FeatureView, package: str) -> str:
    type_text = _km3_type(places, feature, package)
    modifiers = []
    if feature.ordered:
        modifiers.append("ordered")
    if feature.kind == "attribute":
        if feature.unique:
            modifiers.append("unique")
        head = f"attribute {km3_name(feature.name)}{_multiplicity(feature)}"
        return " ".join([head, *modifiers]) + f" : {type_text};"
    if feature.containment:
        modifiers.append("container")
    head = f"reference {km3_name(feature.name)}{_multiplicity(feature)}"
    opposite = f" oppositeOf {km3_name(feature.opposite)}" if feature.opposite else ""
    return " ".join([head, *modifiers]) + f" : {type_text}{opposite};"


def _km3_package(
    places: _Places, package: PackageView, indent: str, extra_types: tuple[str, ...] = ()
) -> Iterator[str]:
    if package.ns_uri is not None:
        yield f"{indent}-- @nsURI {package.ns_uri}"
    if package.ns_prefix is not None:
        yield f"{indent}-- @nsPrefix {package.ns_prefix}"
    yield f"{indent}package {km3_name(package.name)} {{"
    inner = indent + "\t"
    classes = {c.qualified_name: c for c in places.view.classes}
    enums = {e.qualified_name: e for e in places.view.enums}
    datatypes = {d.qualified_name for d in places.view.datatypes}
    for name in package.classifiers:
        qualified = f"{package.qualified_name}{QUALIFIER}{name}"
        yield ""
        if qualified in classes:
            cls = classes[qualified]
            head = ("abstract " if cls.abstract else "") + f"class {km3_name(cls.name)}"
            if cls.supertypes:
                head += " extends " + ", ".join(km3_name(s) for s in cls.supertypes)
            yield f"{inner}{head} {{"
            for feature in cls.features:
                yield f"{inner}\t{_km3_feature(places, feature, cls.package)}"
            yield f"{inner}}}"
        elif qualified in enums:
            yield f"{inner}enumeration {km3_name(name)} {{"
            for literal in enums[qualified].literals:
                yield f"{inner}\tliteral {km3_name(literal)};"
            yield f"{inner}}}"
        elif qualified in datatypes:
            yield f"{inner}datatype {km3_name(name)};"
    for name in extra_types:
        yield f"{inner}datatype {km3_name(name)};"
    for sub in package.subpackages:
        yield ""
        yield from _km3_package(places, places.packages[f"{package.qualified_name}{QUALIFIER}{sub}"], inner)
    yield f"{indent}}}"


def km3_text(view: MetamodelView) -> str:
    """The view as a ``.km3`` file; types no package of the view defines (Ecore's ``EString``...) are
    declared as data types of its ``PrimitiveTypes`` package (one is added at the end when it has none)."""
    places = _Places(view)
    undeclared = _undeclared(places)
    has_types_package = any(root.name == KM3_TYPES_PACKAGE for root in places.roots)
    lines: list[str] = []
    for root in places.roots:
        if lines:
            lines.append("")
        extra = undeclared if root.name == KM3_TYPES_PACKAGE else ()
        lines += _km3_package(places, root, "", extra)
    if undeclared and not has_types_package:
        lines += ["", f"package {KM3_TYPES_PACKAGE} {{"]
        lines += [f"\tdatatype {km3_name(name)};" for name in undeclared]
        lines.append("}")
    return "\n".join(lines) + "\n"


__all__ = ["KM3_TYPES_PACKAGE", "ecore_text", "km3_name", "km3_text"]
