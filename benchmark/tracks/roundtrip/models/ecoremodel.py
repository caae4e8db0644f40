"""The part of an Ecore metamodel the round-trip track works on, as immutable values.

The delta operators, the forward mapping and the scorer all need to copy, compare and rebuild
metamodels. pyecore objects are mutable, carry their resource and compare by identity, so they are read
once (:mod:`benchmark.tracks.roundtrip.models.ecore_io`) into these frozen dataclasses, transformed as plain
values, and written back by our own canonical writer. Types, supertypes and opposites are held by *name*:
within one package a classifier name is unique, and names are what both the canonical lines and the SQL side
see.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, replace

UNBOUNDED = -1
ECORE_NS_URI = "http://www.eclipse.org/emf/2002/Ecore"


@dataclass(frozen=True)
class EcoreAttribute:
    """An EAttribute. ``type`` is an Ecore datatype name (``EString``) or a datatype/enum of the package."""

    name: str
    type: str
    lower: int = 0
    upper: int = 1
    is_id: bool = False
    derived: bool = False
    transient: bool = False
    volatile: bool = False

    @property
    def many(self) -> bool:
        return self.upper > 1 or self.upper < 0  # -1 unbounded, -2 unspecified

    @property
    def persistent(self) -> bool:
        """Derived, transient and volatile features hold no state of their own: nothing maps them."""
        return not (self.derived or self.transient or self.volatile)


@dataclass(frozen=True)
class EcoreReference:
    """An EReference. ``type`` is a class name; ``opposite`` the name of the opposite feature in it."""

    name: str
    type: str
    lower: int = 0
    upper: int = 1
    containment: bool = False
    opposite: str | None = None
    derived: bool = False
    transient: bool = False
    volatile: bool = False

    @property
    def many(self) -> bool:
        return self.upper > 1 or self.upper < 0  # -1 unbounded, -2 unspecified

    @property
    def persistent(self) -> bool:
        return not (self.derived or self.transient or self.volatile)


EcoreFeature = EcoreAttribute | EcoreReference


@dataclass(frozen=True)
class EcoreClass:
    name: str
    abstract: bool = False
    interface: bool = False
    supertypes: tuple[str, ...] = ()
    features: tuple[EcoreFeature, ...] = ()

    def feature(self, name: str) -> EcoreFeature | None:
        return next((f for f in self.features if f.name == name), None)

    def replace_feature(self, name: str, new: EcoreFeature | None) -> EcoreClass:
        """This class with feature ``name`` replaced by ``new`` (removed when ``new`` is None)."""
        if self.feature(name) is None:
            raise KeyError(f"{self.name} has no feature {name!r}")
        kept = (f for f in self.features if f.name != name or new is not None)
        return replace(self, features=tuple(new if new is not None and f.name == name else f for f in kept))


@dataclass(frozen=True)
class EcoreLiteral:
    name: str
    value: int = 0


@dataclass(frozen=True)
class EcoreEnum:
    name: str
    literals: tuple[EcoreLiteral, ...] = ()


@dataclass(frozen=True)
class EcoreDataType:
    name: str
    instance_class_name: str | None = None


EcoreClassifier = EcoreClass | EcoreEnum | EcoreDataType


@dataclass(frozen=True)
class EcorePackage:
    """One EPackage with its classifiers in declaration order (declaration order is meaningful:
    the forward mapping maps a bidirectional pair through the reference declared first)."""

    name: str
    ns_uri: str | None = None
    ns_prefix: str | None = None
    classifiers: tuple[EcoreClassifier, ...] = ()

    # -- lookups ---------------------------------------------------------------------------------
    @property
    def classes(self) -> tuple[EcoreClass, ...]:
        return tuple(c for c in self.classifiers if isinstance(c, EcoreClass))

    @property
    def enums(self) -> tuple[EcoreEnum, ...]:
        return tuple(c for c in self.classifiers if isinstance(c, EcoreEnum))

    def classifier(self, name: str) -> EcoreClassifier | None:
        return next((c for c in self.classifiers if c.name == name), None)

    def eclass(self, name: str) -> EcoreClass:
        found = self.classifier(name)
        if not isinstance(found, EcoreClass):
            raise KeyError(f"package {self.name!r} has no class {name!r}")
        return found

    def subclasses(self, name: str) -> tuple[EcoreClass, ...]:
        """Direct subclasses, declaration order."""
        return tuple(c for c in self.classes if name in c.supertypes)

    def all_supertypes(self, name: str) -> tuple[str, ...]:
        """Transitive supertypes, nearest first, each once (cycles are tolerated, not followed)."""
        seen: list[str] = []
        frontier = list(self.eclass(name).supertypes)
        while frontier:
            current = frontier.pop(0)
            if current in seen or current == name:
                continue
            seen.append(current)
            found = self.classifier(current)
            if isinstance(found, EcoreClass):
                frontier.extend(found.supertypes)
        return tuple(seen)

    def all_subtypes(self, name: str) -> tuple[str, ...]:
        return tuple(c.name for c in self.classes if name in self.all_supertypes(c.name))

    def all_features(self, name: str) -> tuple[EcoreFeature, ...]:
        """Own features first, then inherited ones (nearest supertype first)."""
        result = list(self.eclass(name).features)
        for supertype in self.all_supertypes(name):
            found = self.classifier(supertype)
            if isinstance(found, EcoreClass):
                result.extend(found.features)
        return tuple(result)

    def feature_names_in_hierarchy(self, name: str) -> frozenset[str]:
        """Names a new feature of class ``name`` must avoid: every feature visible in the class or in
        any of its subclasses (a subclass would otherwise inherit two features with one name)."""
        names: set[str] = set()
        for member in (name, *self.all_subtypes(name)):
            names.update(f.name for f in self.all_features(member))
        return frozenset(names)

    def iter_features(self) -> Iterator[tuple[EcoreClass, EcoreFeature]]:
        """(owner, feature) in declaration order: classes in package order, features in class order."""
        for eclass in self.classes:
            for feature in eclass.features:
                yield eclass, feature

    # -- rebuilding ------------------------------------------------------------------------------
    def replace_classifier(self, name: str, new: EcoreClassifier | None) -> EcorePackage:
        """This package with classifier ``name`` replaced by ``new`` (removed when ``new`` is None)."""
        if self.classifier(name) is None:
            raise KeyError(f"package {self.name!r} has no classifier {name!r}")
        kept = (c for c in self.classifiers if c.name != name or new is not None)
        return replace(
            self, classifiers=tuple(new if new is not None and c.name == name else c for c in kept)
        )

    def add_classifier(self, new: EcoreClassifier) -> EcorePackage:
        return replace(self, classifiers=(*self.classifiers, new))
