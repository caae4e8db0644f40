"""Ecore metamodels in and out: pyecore roots -> :class:`EcorePackage`, and a canonical ``.ecore`` writer.

Reading goes through the metamodel layer's loader (hardened XML, then pyecore), so the round-trip track
loads Ecore exactly like the rest of the suite. Writing is ours: the same package always gives the same
bytes (EMF's attribute order, two-space indentation, defaults omitted), which is what makes
``atlbench roundtrip generate`` reproducible.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

import pyecore.ecore as ecore

from benchmark.core.errors import InputFormatError
from benchmark.core.wording import plural
from benchmark.lang.ecore.build import type_name
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
from benchmark.tracks.roundtrip.models.xmltext import (
    XMI_NS_URI,
    XML_DECLARATION,
    XSI_NS_URI,
    attributes,
    element,
)


# -- reading ------------------------------------------------------------------------------------------
def load_ecore_roots(path: str | Path) -> tuple[Any, ...]:
    """The root objects of an ``.ecore`` file, loaded with pyecore after the XML safety checks."""
    from benchmark.lang.ecore.pyecore_loading import load_ecore_file

    return load_ecore_file(path)


def _feature(feature: Any) -> EcoreFeature:
    common: dict[str, Any] = {
        "name": str(feature.name or ""),
        "type": type_name(feature),  # the metamodel layer's reading: eType, else eGenericType
        "lower": int(feature.lowerBound),
        "upper": int(feature.upperBound),
        "derived": bool(feature.derived),
        "transient": bool(feature.transient),
        "volatile": bool(feature.volatile),
    }
    if isinstance(feature, ecore.EReference):
        opposite = feature.eOpposite
        return EcoreReference(
            **common,
            containment=bool(feature.containment),
            opposite=str(opposite.name) if opposite is not None else None,
        )
    return EcoreAttribute(**common, is_id=bool(feature.iD))


def _classifier(classifier: Any) -> EcoreClassifier | None:
    name = str(classifier.name or "")
    if isinstance(classifier, ecore.EClass):
        return EcoreClass(
            name=name,
            abstract=bool(classifier.abstract),
            interface=bool(classifier.interface),
            supertypes=tuple(str(s.name or "") for s in classifier.eSuperTypes),
            features=tuple(_feature(f) for f in classifier.eStructuralFeatures),
        )
    if isinstance(classifier, ecore.EEnum):  # before EDataType: EEnum is one
        return EcoreEnum(
            name=name,
            literals=tuple(
                EcoreLiteral(str(lit.name or ""), int(lit.value or 0)) for lit in classifier.eLiterals
            ),
        )
    if isinstance(classifier, ecore.EDataType):
        return EcoreDataType(name=name, instance_class_name=classifier.instanceClassName)
    return None


def _walk_packages(package: Any) -> Iterator[Any]:
    yield package
    for sub in package.eSubpackages:
        yield from _walk_packages(sub)


def packages_from_pyecore(roots: Iterable[Any]) -> tuple[EcorePackage, ...]:
    """Every EPackage among the roots (subpackages flattened after their parent), as values."""
    result: list[EcorePackage] = []
    for root in roots:
        if not isinstance(root, ecore.EPackage):
            continue
        for package in _walk_packages(root):
            classifiers = tuple(c for c in map(_classifier, package.eClassifiers) if c is not None)
            result.append(
                EcorePackage(
                    name=str(package.name or ""),
                    ns_uri=package.nsURI,
                    ns_prefix=package.nsPrefix,
                    classifiers=classifiers,
                )
            )
    return tuple(result)


def read_ecore(path: str | Path) -> EcorePackage:
    """A metamodel file that must hold exactly one EPackage (no subpackages): the track's own inputs."""
    roots = load_ecore_roots(path)
    packages = [r for r in roots if isinstance(r, ecore.EPackage)]
    if len(packages) != 1 or len(roots) != 1:
        raise InputFormatError(
            f"expected exactly one root EPackage, found {plural(len(roots), 'root')}, "
            f"{plural(len(packages), 'package')}",
            file=str(path),
        )
    if packages[0].eSubpackages:
        raise InputFormatError("subpackages are not supported by the round-trip track", file=str(path))
    return packages_from_pyecore(packages)[0]


# -- writing ------------------------------------------------------------------------------------------
ECORE_TYPE_PREFIX = f"{ECORE_NS_URI}#//"


def _is_builtin_type(name: str) -> bool:
    return isinstance(getattr(ecore, name, None), ecore.EClassifier) and name.startswith("E")


def _type_reference(package: EcorePackage, name: str, where: str) -> str:
    local = package.classifier(name)
    if local is not None:
        return f"#//{name}"
    if _is_builtin_type(name):
        builtin = getattr(ecore, name)
        kind = "EClass" if isinstance(builtin, ecore.EClass) else "EDataType"
        return f"ecore:{kind} {ECORE_TYPE_PREFIX}{name}"
    raise InputFormatError(
        f"type {name!r} is neither a classifier of the package nor an Ecore type", field=where
    )


def _feature_element(package: EcorePackage, owner: EcoreClass, feature: EcoreFeature) -> list[str]:
    where = f"{owner.name}.{feature.name}"
    pairs: list[tuple[str, str | None]] = [
        ("xsi:type", "ecore:EReference" if isinstance(feature, EcoreReference) else "ecore:EAttribute"),
        ("name", feature.name),
        ("lowerBound", str(feature.lower) if feature.lower != 0 else None),
        ("upperBound", str(feature.upper) if feature.upper != 1 else None),
        ("eType", _type_reference(package, feature.type, where)),
        ("volatile", "true" if feature.volatile else None),
        ("transient", "true" if feature.transient else None),
        ("derived", "true" if feature.derived else None),
    ]
    if isinstance(feature, EcoreReference):
        pairs.append(("containment", "true" if feature.containment else None))
        pairs.append(("eOpposite", f"#//{feature.type}/{feature.opposite}" if feature.opposite else None))
    else:
        pairs.append(("iD", "true" if feature.is_id else None))
    return element(2, "eStructuralFeatures", pairs, [])


def _classifier_element(package: EcorePackage, classifier: EcoreClassifier) -> list[str]:
    if isinstance(classifier, EcoreClass):
        supertypes = " ".join(_type_reference(package, s, classifier.name) for s in classifier.supertypes)
        pairs: list[tuple[str, str | None]] = [
            ("xsi:type", "ecore:EClass"),
            ("name", classifier.name),
            ("abstract", "true" if classifier.abstract else None),
            ("interface", "true" if classifier.interface else None),
            ("eSuperTypes", supertypes or None),
        ]
        children = [line for f in classifier.features for line in _feature_element(package, classifier, f)]
        return element(1, "eClassifiers", pairs, children)
    if isinstance(classifier, EcoreEnum):
        literals = [
            line
            for lit in classifier.literals
            for line in element(
                2, "eLiterals", [("name", lit.name), ("value", str(lit.value) if lit.value else None)], []
            )
        ]
        return element(1, "eClassifiers", [("xsi:type", "ecore:EEnum"), ("name", classifier.name)], literals)
    pairs = [
        ("xsi:type", "ecore:EDataType"),
        ("name", classifier.name),
        ("instanceClassName", classifier.instance_class_name),
    ]
    return element(1, "eClassifiers", pairs, [])


def write_ecore(package: EcorePackage) -> str:
    """The canonical ``.ecore`` text of a package (the same package always gives the same bytes)."""
    head = (
        f'<ecore:EPackage xmi:version="2.0" xmlns:xmi="{XMI_NS_URI}" xmlns:xsi="{XSI_NS_URI}"\n'
        f'    xmlns:ecore="{ECORE_NS_URI}"'
        + attributes([("name", package.name), ("nsURI", package.ns_uri), ("nsPrefix", package.ns_prefix)])
    )
    body = [line for c in package.classifiers for line in _classifier_element(package, c)]
    if not body:
        return f"{XML_DECLARATION}\n{head}/>\n"
    return "\n".join([XML_DECLARATION, head + ">", *body, "</ecore:EPackage>"]) + "\n"
