"""OCL types as USE defines them: conformance, least common supertype and printing.

USE's type rules decide what the checker accepts and which result types operations have (``1 + 2.0`` is
Real, ``Set{1, 2.5}`` is ``Set(Real)``, collections do not conform to ``OclAny``, ``OclVoid`` conforms to
everything). The printed forms (``Set(Integer)``, ``Tuple(a:Integer,b:String)``) are USE's, because
``ocl eval`` prints values the way USE's shell does.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Protocol

COLLECTION_KINDS = ("Collection", "Set", "Bag", "Sequence", "OrderedSet")


class Classifier(Protocol):
    """What the type algebra needs of a model class (:class:`benchmark.lang.ocl.model.Class` has it).

    Declared here so that this module, and :mod:`benchmark.lang.ocl.values`, do not import the model
    module, which imports them: types < model < values is a layering, not a cycle.
    """

    name: str
    ancestors: tuple[Classifier, ...]  # the class itself first
    ancestor_names: frozenset[str]
    type: ClassType


class Type:
    """Base of all OCL types; instances are immutable and compare by value."""

    __slots__ = ()

    def conforms_to(self, other: Type) -> bool:
        raise NotImplementedError

    def supertypes(self) -> frozenset[Type]:
        """All supertypes including the type itself (USE's ``allSupertypes``)."""
        raise NotImplementedError

    # -- classification helpers used by the operation table --------------------------------------
    @property
    def is_void(self) -> bool:
        return False

    @property
    def is_collection(self) -> bool:
        return False

    def lcs(self, other: Type) -> Type | None:
        """USE's ``getLeastCommonSupertype``: ``None`` when the two types have none."""
        if self == other:
            return other
        if other.is_void:
            return self
        if other.is_collection:
            return None
        common = self.supertypes() & other.supertypes()
        if not common:
            return None
        if len(common) == 1:
            return next(iter(common))
        if len(common) == 2 and OCL_ANY in common:
            return next(t for t in common if t != OCL_ANY)
        for candidate in sorted(common, key=str):
            if all(candidate.conforms_to(t) for t in common):
                return candidate
        return None


class _Named(Type):
    __slots__ = ("name",)

    def __init__(self, name: str) -> None:
        self.name = name

    def __str__(self) -> str:
        return self.name

    def __repr__(self) -> str:
        return f"<{self.name}>"

    def __eq__(self, other: object) -> bool:
        return type(other) is type(self) and other.name == self.name  # type: ignore[attr-defined]

    def __hash__(self) -> int:
        return hash((type(self).__name__, self.name))


class VoidType(_Named):
    """``OclVoid``: the type of ``null``; conforms to every type."""

    __slots__ = ()

    @property
    def is_void(self) -> bool:
        return True

    def conforms_to(self, other: Type) -> bool:
        return True

    def supertypes(self) -> frozenset[Type]:
        return frozenset({self})

    def lcs(self, other: Type) -> Type | None:
        return other


class AnyType(_Named):
    """``OclAny``: supertype of every non-collection type."""

    __slots__ = ()

    def conforms_to(self, other: Type) -> bool:
        return other == OCL_ANY

    def supertypes(self) -> frozenset[Type]:
        return frozenset({self})


class BasicType(_Named):
    """Integer, Real, Boolean, String. Integer conforms to Real."""

    __slots__ = ()

    def conforms_to(self, other: Type) -> bool:
        if other == self or other == OCL_ANY:
            return True
        return self.name == "Integer" and other == REAL

    def supertypes(self) -> frozenset[Type]:
        if self.name == "Integer":
            return frozenset({self, REAL, OCL_ANY})
        return frozenset({self, OCL_ANY})


class EnumType(Type):
    """A model enumeration. It builds its values, one :class:`EnumValue` per literal, so identity is
    equality for enumeration values (the only place where they are made)."""

    __slots__ = ("name", "literals", "values")

    def __init__(self, name: str, literals: Iterable[str]) -> None:
        self.name = name
        self.literals: tuple[str, ...] = tuple(literals)
        self.values: Mapping[str, EnumValue] = {lit: EnumValue(self, lit) for lit in self.literals}

    def __str__(self) -> str:
        return self.name

    def __repr__(self) -> str:
        return f"<enum {self.name}>"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, EnumType) and other.name == self.name

    def __hash__(self) -> int:
        return hash(("enum", self.name))

    def conforms_to(self, other: Type) -> bool:
        return other == self or other == OCL_ANY

    def supertypes(self) -> frozenset[Type]:
        return frozenset({self, OCL_ANY})


class EnumValue:
    """An enumeration literal as a runtime value; made only by its :class:`EnumType`."""

    __slots__ = ("type", "literal")

    def __init__(self, enum_type: EnumType, literal: str) -> None:
        self.type = enum_type
        self.literal = literal

    def __repr__(self) -> str:
        return f"{self.type.name}::{self.literal}"


class ClassType(Type):
    """A model class (association classes included); conforms to its ancestors and ``OclAny``."""

    __slots__ = ("cls",)

    def __init__(self, cls: Classifier) -> None:
        self.cls = cls

    @property
    def name(self) -> str:
        return self.cls.name

    def __str__(self) -> str:
        return self.cls.name

    def __repr__(self) -> str:
        return f"<class {self.cls.name}>"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, ClassType) and other.cls.name == self.cls.name

    def __hash__(self) -> int:
        return hash(("class", self.cls.name))

    def conforms_to(self, other: Type) -> bool:
        if other == OCL_ANY:
            return True
        return isinstance(other, ClassType) and other.cls.name in self.cls.ancestor_names

    def supertypes(self) -> frozenset[Type]:
        return frozenset({*(c.type for c in self.cls.ancestors), OCL_ANY})


class CollectionType(Type):
    """``Collection(T)`` (abstract), ``Set(T)``, ``Bag(T)``, ``Sequence(T)``, ``OrderedSet(T)``."""

    __slots__ = ("kind", "elem")

    def __init__(self, kind: str, elem: Type) -> None:
        if kind not in COLLECTION_KINDS:
            raise ValueError(f"unknown collection kind {kind!r}")
        self.kind = kind
        self.elem = elem

    def __str__(self) -> str:
        return f"{self.kind}({self.elem})"

    def __repr__(self) -> str:
        return f"<{self}>"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, CollectionType) and other.kind == self.kind and other.elem == self.elem

    def __hash__(self) -> int:
        return hash((self.kind, self.elem))

    @property
    def is_collection(self) -> bool:
        return True

    def conforms_to(self, other: Type) -> bool:
        if not isinstance(other, CollectionType):
            return False
        if other.kind != "Collection" and other.kind != self.kind:
            return False
        return self.elem.conforms_to(other.elem)

    def supertypes(self) -> frozenset[Type]:
        elem_supers = self.elem.supertypes() if not self.elem.is_void else frozenset({self.elem})
        result: set[Type] = {CollectionType("Collection", t) for t in elem_supers}
        if self.kind != "Collection":
            result |= {CollectionType(self.kind, t) for t in elem_supers}
        return frozenset(result)

    def lcs(self, other: Type) -> Type | None:
        if other.is_void:
            return self
        if not isinstance(other, CollectionType):
            return None
        elem = self.elem.lcs(other.elem)
        if elem is None:
            return None
        return CollectionType(self.kind if self.kind == other.kind else "Collection", elem)

    def with_elem(self, elem: Type) -> CollectionType:
        return CollectionType(self.kind, elem)


class TupleType(Type):
    """``Tuple(a:T1,b:T2)``; parts keep declaration order for printing, compare as a name->type map."""

    __slots__ = ("parts", "_map")

    def __init__(self, parts: Iterable[tuple[str, Type]]) -> None:
        self.parts: tuple[tuple[str, Type], ...] = tuple(parts)
        self._map = dict(self.parts)

    def part(self, name: str) -> Type | None:
        return self._map.get(name)

    def __str__(self) -> str:
        return "Tuple(" + ",".join(f"{n}:{t}" for n, t in self.parts) + ")"

    def __repr__(self) -> str:
        return f"<{self}>"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, TupleType) and other._map == self._map

    def __hash__(self) -> int:
        return hash(frozenset(self._map.items()))

    def conforms_to(self, other: Type) -> bool:
        if other == OCL_ANY:
            return True
        if not isinstance(other, TupleType):
            return False
        for name, t in self.parts:
            o = other.part(name)
            if o is None or not t.conforms_to(o):
                return False
        return True

    def supertypes(self) -> frozenset[Type]:
        result: set[Type] = {self, OCL_ANY}
        options: list[list[tuple[str, Type]]] = []
        for name, t in self.parts:
            sup = [t] if t.is_void or _elem_is_void(t) else list(t.supertypes())
            options.append([(name, s) for s in sup])

        def build(i: int, chosen: list[tuple[str, Type]]) -> None:
            if i == len(options):
                result.add(TupleType(chosen))
                return
            for choice in options[i]:
                build(i + 1, [*chosen, choice])

        build(0, [])
        return frozenset(result)

    def lcs(self, other: Type) -> Type | None:
        if other.is_void:
            return self
        if not isinstance(other, TupleType) or len(other.parts) != len(self.parts):
            return OCL_ANY
        parts: list[tuple[str, Type]] = []
        for name, t in self.parts:
            o = other.part(name)
            if o is None:
                return OCL_ANY
            common = t.lcs(o)
            if common is None:
                return OCL_ANY
            parts.append((name, common))
        return TupleType(parts)


def _elem_is_void(t: Type) -> bool:
    """USE's ``isVoidOrElementTypeIsVoid``."""
    while isinstance(t, CollectionType):
        t = t.elem
    return t.is_void


OCL_VOID = VoidType("OclVoid")
OCL_ANY = AnyType("OclAny")
INTEGER = BasicType("Integer")
REAL = BasicType("Real")
BOOLEAN = BasicType("Boolean")
STRING = BasicType("String")

BASIC_TYPES: dict[str, Type] = {
    "Integer": INTEGER,
    "Real": REAL,
    "Boolean": BOOLEAN,
    "String": STRING,
    "OclAny": OCL_ANY,
    "OclVoid": OCL_VOID,
}


def is_number(t: Type, *, include_void: bool = False) -> bool:
    """USE's ``isKindOfNumber``."""
    return t == INTEGER or t == REAL or (include_void and t.is_void)


def unique_lcs(types: Iterable[Type]) -> Type | None:
    """USE's ``UniqueLeastCommonSupertypeDeterminator``: the element type of a literal or runtime value."""
    distinct = set(types)
    if not distinct:
        return OCL_VOID
    if len(distinct) == 1:
        return next(iter(distinct))
    candidates: set[Type] = set()
    for t in distinct:
        if _elem_is_void(t):
            candidates.add(t)
        else:
            candidates |= t.supertypes()
    common = [c for c in candidates if all(t.conforms_to(c) for t in distinct)]
    result: Type | None = None
    for c in sorted(common, key=str):
        if all(c.conforms_to(o) or o.conforms_to(c) for o in common):
            if result is None or c.conforms_to(result):
                result = c
    return result
