"""Build the read-only :class:`~benchmark.lang.ecore.view.MetamodelView` from loaded pyecore objects.

Everything notation-specific has been settled by the loader (KM3 became the Ecore structure its tooling
writes), so this module only reads Ecore: one code path for both notations is what makes their views
compare equal.
"""

from __future__ import annotations

from collections import deque
from pathlib import Path
from typing import Any

from pyecore.ecore import EAttribute, EClass, EDataType, EEnum, EPackage, EReference

from benchmark.lang.ecore.loader import LoadedMetamodel, load_resource
from benchmark.lang.ecore.view import (
    ClassView,
    DataTypeView,
    EnumView,
    FeatureView,
    MetamodelView,
    PackageView,
)

QUALIFIER = "::"


def all_supertypes(eclass: EClass) -> list[EClass]:
    """Transitive supertypes, nearest first (breadth first over ``eSuperTypes``), each once."""
    result: list[EClass] = []
    seen: set[int] = {id(eclass)}
    queue: deque[EClass] = deque(eclass.eSuperTypes)
    while queue:
        supertype = queue.popleft()
        if id(supertype) in seen:
            continue
        seen.add(id(supertype))
        result.append(supertype)
        queue.extend(supertype.eSuperTypes)
    return result


def type_name(typed: Any) -> str:
    """Simple name of a feature's type; a generic-only type (``EJavaClass<?>``) gives its classifier's."""
    etype = typed.eType
    if etype is None:
        generic = getattr(typed, "eGenericType", None)
        if generic is not None:
            etype = generic.eClassifier or generic.eTypeParameter
    if isinstance(etype, type):  # pyecore's static Ecore types features with Python classes
        etype = getattr(etype, "eClass", etype)
    return (getattr(etype, "name", None) or "") if etype is not None else ""


class _Builder:
    def __init__(self) -> None:
        self.features: dict[int, FeatureView] = {}
        self.packages: list[PackageView] = []
        self.classes: list[ClassView] = []
        self.enums: list[EnumView] = []
        self.datatypes: list[DataTypeView] = []

    def feature(self, feature: Any) -> FeatureView:
        cached = self.features.get(id(feature))
        if cached is not None:
            return cached
        owner = feature.eContainingClass
        is_reference = isinstance(feature, EReference)
        opposite = feature.eOpposite if is_reference else None
        view = FeatureView(
            name=feature.name or "",
            owner=(owner.name or "") if owner is not None else "",
            kind="reference" if is_reference else "attribute",
            type_name=type_name(feature),
            lower=int(feature.lowerBound),
            upper=int(feature.upperBound),
            ordered=bool(feature.ordered),
            unique=bool(feature.unique),
            containment=bool(feature.containment) if is_reference else False,
            opposite=(opposite.name if opposite is not None else None),
            derived=bool(feature.derived),
            is_id=bool(feature.iD) if isinstance(feature, EAttribute) else False,
        )
        self.features[id(feature)] = view
        return view

    def eclass(self, eclass: EClass, package: str) -> ClassView:
        supertypes = all_supertypes(eclass)
        own = tuple(self.feature(f) for f in eclass.eStructuralFeatures)
        inherited = tuple(self.feature(f) for s in supertypes for f in s.eStructuralFeatures)
        return ClassView(
            name=eclass.name or "",
            qualified_name=f"{package}{QUALIFIER}{eclass.name}",
            package=package,
            abstract=bool(eclass.abstract),
            interface=bool(eclass.interface),
            supertypes=tuple(s.name or "" for s in eclass.eSuperTypes),
            all_supertypes=tuple(s.name or "" for s in supertypes),
            features=own,
            all_features=own + inherited,
        )

    def package(self, package: EPackage, parent: str | None) -> None:
        qualified = f"{parent}{QUALIFIER}{package.name}" if parent else (package.name or "")
        self.packages.append(
            PackageView(
                name=package.name or "",
                qualified_name=qualified,
                ns_uri=package.nsURI or None,
                ns_prefix=package.nsPrefix or None,
                classifiers=tuple(c.name or "" for c in package.eClassifiers),
                subpackages=tuple(p.name or "" for p in package.eSubpackages),
            )
        )
        for classifier in package.eClassifiers:
            name = classifier.name or ""
            qualified_name = f"{qualified}{QUALIFIER}{name}"
            if isinstance(classifier, EClass):
                self.classes.append(self.eclass(classifier, qualified))
            elif isinstance(classifier, EEnum):
                literals = tuple(literal.name or "" for literal in classifier.eLiterals)
                self.enums.append(EnumView(name, qualified_name, qualified, literals))
            elif isinstance(classifier, EDataType):
                instance = classifier.instanceClassName or None
                self.datatypes.append(DataTypeView(name, qualified_name, qualified, instance))
        for subpackage in package.eSubpackages:
            self.package(subpackage, qualified)


def _defines_class(package: EPackage) -> bool:
    return any(isinstance(c, EClass) for c in package.eClassifiers) or any(
        _defines_class(p) for p in package.eSubpackages
    )


def main_package_name(loaded: LoadedMetamodel) -> str:
    """The first root package defining a class (KM3 files put ``PrimitiveTypes`` first or last)."""
    for root in loaded.roots:
        if _defines_class(root):
            return root.name or ""
    if loaded.roots:
        return loaded.roots[0].name or ""
    return Path(loaded.file).stem


def build_view(loaded: LoadedMetamodel) -> MetamodelView:
    builder = _Builder()
    for root in loaded.roots:
        builder.package(root, None)
    return MetamodelView(
        name=main_package_name(loaded),
        file=loaded.file,
        packages=tuple(builder.packages),
        classes=tuple(builder.classes),
        enums=tuple(builder.enums),
        datatypes=tuple(builder.datatypes),
    )


def load_metamodel(path: str | Path) -> MetamodelView:
    """The view of an ``.ecore`` or ``.km3`` file (see :func:`~benchmark.lang.ecore.loader.load_resource`)."""
    return build_view(load_resource(path))
