"""A read-only view of a metamodel, the same whether it came from ``.ecore`` or ``.km3``.

Consumers (comparator, ground-truth checks, LLM prompt, baselines that work on names) need names, kinds
and bounds, not pyecore objects: the view freezes exactly that, so that two notations of one metamodel
compare equal and the JSON given to an LLM is one documented shape (``docs/METAMODEL_VIEW.md``).
Builders live in :mod:`benchmark.lang.ecore.build`; this module only holds the data and its lookups.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from benchmark.core.errors import BenchmarkError

UNBOUNDED = -1


class UnknownNameError(BenchmarkError):
    """A class or feature name that the metamodel does not define."""


class AmbiguousNameError(BenchmarkError):
    """A simple name defined in several packages; the message lists the qualified candidates."""


@dataclass(frozen=True)
class FeatureView:
    """A structural feature. ``owner`` is the simple name of the class that declares it."""

    name: str
    owner: str
    kind: str  # "attribute" | "reference"
    type_name: str
    lower: int = 0
    upper: int = 1
    ordered: bool = True
    unique: bool = True
    containment: bool = False
    opposite: str | None = None
    derived: bool = False
    is_id: bool = False

    @property
    def many(self) -> bool:
        return self.upper == UNBOUNDED or self.upper > 1

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "name": self.name,
            "kind": self.kind,
            "type": self.type_name,
            "lower": self.lower,
            "upper": self.upper,
            "ordered": self.ordered,
            "unique": self.unique,
        }
        if self.kind == "reference":
            data["containment"] = self.containment
            data["opposite"] = self.opposite
        if self.derived:
            data["derived"] = True
        if self.is_id:
            data["id"] = True
        return data


@dataclass(frozen=True)
class ClassView:
    name: str
    qualified_name: str  # package path joined with "::", e.g. "uml::kernel::Class"
    package: str
    abstract: bool = False
    interface: bool = False
    supertypes: tuple[str, ...] = ()  # direct, simple names, declaration order
    all_supertypes: tuple[str, ...] = ()  # transitive, nearest first, no duplicates
    features: tuple[FeatureView, ...] = ()  # own, declaration order
    all_features: tuple[FeatureView, ...] = ()  # own first, then inherited (nearest supertype first)

    def feature(self, name: str) -> FeatureView | None:
        """Own or inherited feature by name; ``None`` when the class has no such feature."""
        for candidate in self.all_features:
            if candidate.name == name:
                return candidate
        return None

    def to_json(self) -> dict[str, Any]:
        own = {f.name for f in self.features}
        return {
            "name": self.name,
            "qualifiedName": self.qualified_name,
            "abstract": self.abstract,
            "interface": self.interface,
            "supertypes": list(self.supertypes),
            "allSupertypes": list(self.all_supertypes),
            "features": [f.to_json() for f in self.features],
            "inheritedFeatures": [
                {**f.to_json(), "from": f.owner} for f in self.all_features if f.name not in own
            ],
        }


@dataclass(frozen=True)
class EnumView:
    name: str
    qualified_name: str
    package: str
    literals: tuple[str, ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "qualifiedName": self.qualified_name, "literals": list(self.literals)}


@dataclass(frozen=True)
class DataTypeView:
    name: str
    qualified_name: str
    package: str
    instance_type: str | None = None  # e.g. "java.lang.String", or None for KM3 datatypes

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "qualifiedName": self.qualified_name, "instanceType": self.instance_type}


@dataclass(frozen=True)
class PackageView:
    name: str
    qualified_name: str
    ns_uri: str | None = None
    ns_prefix: str | None = None
    classifiers: tuple[str, ...] = ()  # simple names, declaration order
    subpackages: tuple[str, ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "qualifiedName": self.qualified_name,
            "nsURI": self.ns_uri,
            "nsPrefix": self.ns_prefix,
            "classifiers": list(self.classifiers),
            "subpackages": list(self.subpackages),
        }


@dataclass(frozen=True)
class MetamodelView:
    """Everything a metamodel file defines, with simple-name lookups.

    ``name`` is the main package's name (the first root package that defines a class), ``file`` the path
    it was read from (for error messages).
    """

    name: str
    file: str
    packages: tuple[PackageView, ...] = ()
    classes: tuple[ClassView, ...] = ()
    enums: tuple[EnumView, ...] = ()
    datatypes: tuple[DataTypeView, ...] = ()
    _index: dict[str, tuple[ClassView, ...]] = field(default_factory=dict, repr=False, compare=False)

    def __post_init__(self) -> None:
        index: dict[str, list[ClassView]] = {}
        for cls in self.classes:
            index.setdefault(cls.name, []).append(cls)
            if cls.qualified_name != cls.name:
                index.setdefault(cls.qualified_name, []).append(cls)
        object.__setattr__(self, "_index", {k: tuple(v) for k, v in index.items()})

    def find_class(self, name: str) -> ClassView | None:
        """The class with this simple (or ``::``-qualified) name, ``None`` if absent.

        Raises :class:`AmbiguousNameError` when several packages define the simple name.
        """
        matches = self._index.get(name, ())
        if len(matches) > 1:
            candidates = ", ".join(sorted(c.qualified_name for c in matches))
            raise AmbiguousNameError(
                f"class name {name!r} is ambiguous; qualify it as one of: {candidates}", file=self.file
            )
        return matches[0] if matches else None

    def get_class(self, name: str) -> ClassView:
        found = self.find_class(name)
        if found is None:
            raise UnknownNameError(f"metamodel {self.name!r} has no class {name!r}", file=self.file)
        return found

    def has_class(self, name: str) -> bool:
        return name in self._index

    def find_feature(self, class_name: str, feature_name: str) -> FeatureView | None:
        """Own or inherited feature of a class; ``None`` when class or feature is unknown."""
        matches = self._index.get(class_name, ())
        for cls in matches:
            found = cls.feature(feature_name)
            if found is not None:
                return found
        return None

    def feature_kind(self, class_name: str, feature_name: str) -> str:
        """``attribute``, ``reference`` or ``unknown`` (the comparator's split by feature kind)."""
        found = self.find_feature(class_name, feature_name)
        return found.kind if found is not None else "unknown"

    def to_json(self) -> dict[str, Any]:
        """The documented JSON shape (``docs/METAMODEL_VIEW.md``), also embedded in LLM prompts."""
        return {
            "name": self.name,
            "packages": [p.to_json() for p in self.packages],
            "classes": [c.to_json() for c in self.classes],
            "enumerations": [e.to_json() for e in self.enums],
            "datatypes": [d.to_json() for d in self.datatypes],
        }
