"""The UML/USE model layer: classes, attributes, operations, enumerations, associations, constraints.

One in-memory form serves both notations (``.use`` and PlantUML) and the evaluator, so the readers only
build it and the writers only print it. After construction :meth:`Model.finalize` resolves the class
hierarchy and the navigable ends of every class (USE's rules: a missing role name is the class name with
its first letter in lower case; an association class is reached from its participants the same way), and
checks the model the way USE does (duplicate names, inheritance cycles, ambiguous role names).

Expressions (invariants, operation bodies, derived attributes) are kept as parsed ASTs
(:mod:`benchmark.lang.ocl.ast`); they are type checked when the model is compiled for evaluation.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from benchmark.lang.ocl.ast import Expr
from benchmark.lang.ocl.errors import ModelError
from benchmark.lang.ocl.types import BASIC_TYPES, ClassType, CollectionType, EnumType, EnumValue, Type

MANY = -1  # the upper bound of ``*``

ASSOCIATION_KINDS = ("association", "aggregation", "composition")


@dataclass(frozen=True)
class Position:
    """Where an element was read from, for error messages. Never part of model equality."""

    file: str | None = None
    line: int | None = None
    column: int | None = None


NOWHERE = Position()


def use_name_order(name: str) -> bytes:
    """Sort key of USE's ``TreeMap``s of model elements (enumerations, invariants): Java's
    ``String.compareTo`` compares UTF-16 code units, and so do big-endian UTF-16 bytes."""
    return name.encode("utf-16-be", "surrogatepass")


def role_name_for(class_name: str) -> str:
    """USE's default role name: the class name with its first letter in lower case."""
    return class_name[:1].lower() + class_name[1:]


@dataclass(frozen=True)
class Multiplicity:
    """One or more ranges such as ``0..1``, ``*``, ``1..8,10``; an upper bound of ``MANY`` is ``*``."""

    ranges: tuple[tuple[int, int], ...]

    def __post_init__(self) -> None:
        if not self.ranges:
            raise ValueError("a multiplicity needs at least one range")
        for lower, upper in self.ranges:
            if lower < 0 or (upper != MANY and upper < lower):
                raise ValueError(f"invalid multiplicity range {lower}..{upper}")

    @classmethod
    def parse(cls, text: str) -> Multiplicity:
        """Parse ``0..1``, ``*``, ``1..*``, ``1..8,10`` (raises ``ValueError`` on bad text)."""
        ranges: list[tuple[int, int]] = []
        for part in text.replace(" ", "").split(","):
            if not part:
                raise ValueError(f"invalid multiplicity {text!r}")
            bounds = part.split("..")
            if len(bounds) > 2:
                raise ValueError(f"invalid multiplicity {text!r}")
            values = [MANY if b == "*" else int(b) if b.isdigit() else _bad(text) for b in bounds]
            lower, upper = (values[0], values[0]) if len(values) == 1 else (values[0], values[1])
            if lower == MANY:  # ``*`` alone and ``*..*`` mean 0..*
                lower = 0
            if upper != MANY and lower > upper:
                raise ValueError(f"invalid multiplicity range {part!r}: lower bound above upper bound")
            ranges.append((lower, upper))
        return cls(tuple(ranges))

    def contains(self, n: int) -> bool:
        return any(lo <= n and (hi == MANY or n <= hi) for lo, hi in self.ranges)

    @property
    def is_collection(self) -> bool:
        """USE: navigation yields a collection when some range allows more than one object."""
        return any(hi == MANY or hi > 1 for _, hi in self.ranges)

    def __str__(self) -> str:
        parts = []
        for lo, hi in self.ranges:
            if hi == MANY:
                parts.append("*" if lo == 0 else f"{lo}..*")
            else:
                parts.append(str(hi) if lo == hi else f"{lo}..{hi}")
        return ",".join(parts)


def _bad(text: str) -> int:
    raise ValueError(f"invalid multiplicity {text!r}")


@dataclass(eq=False)
class Attribute:
    name: str
    type: Type
    derive: Expr | None = None
    init: Expr | None = None
    position: Position = NOWHERE

    def key(self) -> tuple[object, ...]:
        return (self.name, self.type, self.derive, self.init)


@dataclass(frozen=True)
class Parameter:
    name: str
    type: Type


@dataclass(eq=False)
class Condition:
    """A pre- or postcondition of an operation (kept for round trips; not evaluated)."""

    kind: str  # "pre" | "post"
    name: str | None
    expr: Expr
    position: Position = NOWHERE

    def key(self) -> tuple[object, ...]:
        return (self.kind, self.name, self.expr)


@dataclass(eq=False)
class Operation:
    name: str
    params: tuple[Parameter, ...]
    result: Type | None
    body: Expr | None = None
    conditions: list[Condition] = field(default_factory=list)
    owner: str = ""
    position: Position = NOWHERE

    def key(self) -> tuple[object, ...]:
        return (self.name, self.params, self.result, self.body, tuple(c.key() for c in self.conditions))


@dataclass(eq=False)
class Enumeration:
    name: str
    literals: tuple[str, ...]
    position: Position = NOWHERE
    type: EnumType = field(init=False, repr=False)

    def __post_init__(self) -> None:
        self.type = EnumType(self.name, self.literals)

    @property
    def values(self) -> Mapping[str, EnumValue]:
        """The value of each literal (built by the enumeration's type)."""
        return self.type.values

    def key(self) -> tuple[object, ...]:
        return (self.name, self.literals)


@dataclass(eq=False)
class Class:
    name: str
    abstract: bool = False
    supers: tuple[str, ...] = ()
    attributes: list[Attribute] = field(default_factory=list)
    operations: list[Operation] = field(default_factory=list)
    position: Position = NOWHERE
    association: Association | None = None  # set for association classes
    # resolved by Model.finalize
    ancestors: tuple[Class, ...] = field(default=(), init=False, repr=False)
    ancestor_names: frozenset[str] = field(default=frozenset(), init=False, repr=False)
    descendants: tuple[Class, ...] = field(default=(), init=False, repr=False)
    type: ClassType = field(init=False, repr=False)

    def __post_init__(self) -> None:
        self.type = ClassType(self)
        self._all_attributes: dict[str, Attribute] = {}
        self._navigations: dict[str, list[Navigation]] = {}

    @property
    def is_association_class(self) -> bool:
        return self.association is not None

    def attribute(self, name: str) -> Attribute | None:
        """The attribute ``name`` declared here or inherited."""
        return self._all_attributes.get(name)

    def all_attributes(self) -> list[Attribute]:
        return list(self._all_attributes.values())

    def operation(self, name: str) -> Operation | None:
        """The operation ``name`` declared here or inherited (nearest declaration wins)."""
        for cls in self.ancestors:
            for op in cls.operations:
                if op.name == name:
                    return op
        return None

    def navigations(self, role: str) -> list[Navigation]:
        """Navigations named ``role`` from this class (several only for ambiguous n-ary or reflexive ends)."""
        return self._navigations.get(role, [])

    def navigation_names(self) -> list[str]:
        return list(self._navigations)

    def key(self) -> tuple[object, ...]:
        return (
            self.name,
            self.abstract,
            self.supers,
            tuple(a.key() for a in self.attributes),
            tuple(o.key() for o in self.operations),
            self.association.name if self.association else None,
        )


@dataclass(eq=False)
class AssociationEnd:
    class_name: str
    multiplicity: Multiplicity
    role: str | None = None
    ordered: bool = False
    navigable: bool = True  # PlantUML arrows; USE ignores navigability (every end is navigable)
    position: Position = NOWHERE
    index: int = field(default=0, init=False)
    association: Association = field(init=False, repr=False)

    @property
    def name(self) -> str:
        """The role name, or USE's default (class name with a lower-case first letter)."""
        return self.role if self.role else role_name_for(self.class_name)

    def key(self) -> tuple[object, ...]:
        return (self.class_name, self.multiplicity, self.name, self.ordered, self.navigable)


@dataclass(eq=False)
class Association:
    name: str
    kind: str  # association | aggregation | composition (the first end is the whole)
    ends: list[AssociationEnd]
    is_class: bool = False
    position: Position = NOWHERE

    def __post_init__(self) -> None:
        for i, end in enumerate(self.ends):
            end.index = i
            end.association = self

    @property
    def is_nary(self) -> bool:
        return len(self.ends) > 2

    def key(self) -> tuple[object, ...]:
        return (self.name, self.kind, tuple(e.key() for e in self.ends), self.is_class)


@dataclass(eq=False)
class Invariant:
    class_name: str
    name: str
    expr: Expr
    variables: tuple[str, ...] = ("self",)
    explicit_variables: bool = False  # ``context p : Person`` rather than ``context Person``
    in_class_body: bool = False  # declared in the class's ``constraints`` section
    position: Position = NOWHERE

    @property
    def qualified_name(self) -> str:
        return f"{self.class_name}::{self.name}"

    def key(self) -> tuple[object, ...]:
        return (self.class_name, self.name, self.expr, self.variables if self.explicit_variables else ())


@dataclass(frozen=True)
class Navigation:
    """One way to navigate from a class by a role name.

    ``source_end`` is the end the starting object sits at (``None`` when starting from a link object of an
    association class); ``target_end`` is the end reached (``None`` when reaching the link objects of an
    association class from a participant).
    """

    role: str
    association: Association
    source_end: AssociationEnd | None
    target_end: AssociationEnd | None
    result_type: Type

    def __hash__(self) -> int:
        return id(self)

    def __eq__(self, other: object) -> bool:
        return self is other


@dataclass(eq=False)
class Model:
    name: str
    enumerations: dict[str, Enumeration] = field(default_factory=dict)
    classes: dict[str, Class] = field(default_factory=dict)
    associations: dict[str, Association] = field(default_factory=dict)
    invariants: list[Invariant] = field(default_factory=list)
    file: str | None = None
    invariant_counter: int = 0

    # -- building -----------------------------------------------------------------------------------
    def add_enumeration(self, enum: Enumeration) -> None:
        self._check_new_type_name(enum.name, enum.position)
        if len(set(enum.literals)) != len(enum.literals):
            raise ModelError(f"enumeration `{enum.name}' lists a literal twice", **_pos(enum.position))
        self.enumerations[enum.name] = enum

    def add_class(self, cls: Class) -> None:
        self._check_new_type_name(cls.name, cls.position)
        self.classes[cls.name] = cls

    def add_association(self, assoc: Association) -> None:
        if assoc.name in self.associations:
            raise ModelError(
                f"model already contains an association named `{assoc.name}'", **_pos(assoc.position)
            )
        if not assoc.is_class and assoc.name in self.classes:
            raise ModelError(f"model already contains a class `{assoc.name}'", **_pos(assoc.position))
        if len(assoc.ends) < 2:
            raise ModelError(f"association `{assoc.name}' needs at least two ends", **_pos(assoc.position))
        self.associations[assoc.name] = assoc

    def next_invariant_name(self) -> str:
        """USE names unnamed invariants ``inv1``, ``inv2``... with one counter per model."""
        self.invariant_counter += 1
        return f"inv{self.invariant_counter}"

    def add_invariant(self, inv: Invariant) -> None:
        for other in self.invariants:
            if other.qualified_name == inv.qualified_name:
                raise ModelError(
                    f"duplicate definition of invariant `{inv.name}' in class `{inv.class_name}'",
                    **_pos(inv.position),
                )
        self.invariants.append(inv)

    def _check_new_type_name(self, name: str, position: Position) -> None:
        if name in self.classes or name in self.enumerations:
            raise ModelError(f"model already contains a type `{name}'", **_pos(position))

    # -- lookups ----------------------------------------------------------------------------------
    def type_named(self, name: str) -> Type | None:
        if name in BASIC_TYPES:
            return BASIC_TYPES[name]
        if name in self.classes:
            return self.classes[name].type
        if name in self.enumerations:
            return self.enumerations[name].type
        return None

    def enum_for_literal(self, literal: str) -> Enumeration | None:
        """The enumeration USE takes for ``#literal`` (``MModel.enumTypeForLiteral``): the first, by name,
        of those that declare it -- silently, when several do."""
        found = [e for e in self.enumerations.values() if literal in e.literals]
        return min(found, key=lambda e: use_name_order(e.name)) if found else None

    def invariant(self, qualified_name: str) -> Invariant | None:
        for inv in self.invariants:
            if inv.qualified_name == qualified_name:
                return inv
        return None

    # -- resolution and USE's well-formedness rules -----------------------------------------------
    def finalize(self) -> Model:
        """Resolve the hierarchy and navigations; raise :class:`ModelError` where USE would refuse."""
        self._resolve_hierarchy()
        self._resolve_attributes()
        self._resolve_associations()
        for inv in self.invariants:
            if inv.class_name not in self.classes:
                raise ModelError(
                    f"undefined class `{inv.class_name}' in invariant context", **_pos(inv.position)
                )
        return self

    def _resolve_hierarchy(self) -> None:
        for cls in self.classes.values():
            for sup in cls.supers:
                if sup not in self.classes:
                    raise ModelError(
                        f"undefined superclass `{sup}' of class `{cls.name}'", **_pos(cls.position)
                    )
                if cls.is_association_class and self.classes[sup].is_association_class:
                    raise ModelError(
                        f"association class `{cls.name}' specializes association class `{sup}': "
                        "generalization of associations is not supported",
                        **_pos(cls.position),
                    )
        state: dict[str, int] = {}
        order: list[Class] = []

        def visit(cls: Class, trail: list[str]) -> None:
            mark = state.get(cls.name, 0)
            if mark == 2:
                return
            if mark == 1:
                cycle = " < ".join([*trail[trail.index(cls.name) :], cls.name])
                raise ModelError(f"inheritance cycle: {cycle}", **_pos(cls.position))
            state[cls.name] = 1
            for sup in cls.supers:
                visit(self.classes[sup], [*trail, cls.name])
            state[cls.name] = 2
            order.append(cls)

        for cls in self.classes.values():
            visit(cls, [])
        for cls in order:  # parents first
            seen: dict[str, Class] = {cls.name: cls}
            for sup in cls.supers:
                for anc in self.classes[sup].ancestors:
                    seen.setdefault(anc.name, anc)
            cls.ancestors = tuple(seen.values())
            cls.ancestor_names = frozenset(seen)
        for cls in self.classes.values():
            cls.descendants = tuple(c for c in self.classes.values() if cls.name in c.ancestor_names)

    def _check_inheritance_conflicts(self, cls: Class) -> None:
        """USE's ``ASTClass.checkForInheritanceConflicts``: each parent is compared with the parents
        listed before it; one name inherited with two types, or an operation with two signatures from
        unrelated classes, is an error (overloading along one line of descent is not)."""
        parents = [self.classes[name] for name in cls.supers]
        for i, parent in enumerate(parents):
            for other in parents[:i]:
                theirs = {a.name: a for anc in other.ancestors for a in anc.attributes}
                for anc in parent.ancestors:
                    for attr in anc.attributes:
                        if attr.name in theirs and theirs[attr.name].type != attr.type:
                            raise ModelError(
                                f"Inheritance conflict: attribute {attr.name} occurs with different types "
                                f"in the base classes of {cls.name}",
                                **_pos(cls.position),
                            )
                their_ops = [(anc, op) for anc in other.ancestors for op in anc.operations]
                for anc in parent.ancestors:
                    for op in anc.operations:
                        for their_cls, their_op in their_ops:
                            related = (
                                their_cls.name in anc.ancestor_names or anc.name in their_cls.ancestor_names
                            )
                            if (
                                op.name == their_op.name
                                and _signature(op) != _signature(their_op)
                                and not related
                            ):
                                raise ModelError(
                                    f"Inheritance conflict: operation {op.name} occurs with different "
                                    f"signatures in the base classes of {cls.name}",
                                    **_pos(cls.position),
                                )

    def _resolve_attributes(self) -> None:
        for cls in self.classes.values():
            self._check_inheritance_conflicts(cls)
            own: dict[str, Attribute] = {}
            for attr in cls.attributes:
                if attr.name in own:
                    raise ModelError(
                        f"class `{cls.name}' already contains an attribute named `{attr.name}'",
                        **_pos(attr.position),
                    )
                own[attr.name] = attr
            for anc in cls.ancestors[1:]:
                for attr in anc.attributes:
                    if attr.name in own:
                        raise ModelError(
                            f"attribute `{attr.name}' of class `{cls.name}' is already defined in superclass "
                            f"`{anc.name}'",
                            **_pos(own[attr.name].position),
                        )
            collected: dict[str, Attribute] = {}
            for anc in reversed(cls.ancestors):
                for attr in anc.attributes:
                    collected.setdefault(attr.name, attr)
            cls._all_attributes = collected
            for op in cls.operations:
                op.owner = cls.name

    def _resolve_associations(self) -> None:
        for cls in self.classes.values():
            cls._navigations = {}
        own: dict[str, dict[str, list[Navigation]]] = {name: {} for name in self.classes}
        for assoc in self.associations.values():
            for end in assoc.ends:
                if end.class_name not in self.classes:
                    raise ModelError(
                        f"undefined class `{end.class_name}' in association `{assoc.name}'",
                        **_pos(end.position),
                    )
            for i, end in enumerate(assoc.ends):
                for other in assoc.ends[:i]:
                    # USE: a duplicate role is ambiguous in n-ary associations or when both ends are one class
                    if end.name == other.name and (assoc.is_nary or end.class_name == other.class_name):
                        raise ModelError(
                            f"ambiguous role name `{end.name}' in association `{assoc.name}'",
                            **_pos(end.position),
                        )
            for src in assoc.ends:
                targets = [t for t in assoc.ends if t is not src]
                for dst in targets:
                    own[src.class_name].setdefault(dst.name, []).append(
                        Navigation(dst.name, assoc, src, dst, _end_type(self, assoc, src, dst))
                    )
                if assoc.is_class:
                    ac = self.classes[assoc.name]
                    own[src.class_name].setdefault(role_name_for(assoc.name), []).append(
                        Navigation(role_name_for(assoc.name), assoc, src, None, _link_type(ac, assoc, src))
                    )
            if assoc.is_class:
                ac = self.classes[assoc.name]
                for dst in assoc.ends:
                    own[ac.name].setdefault(dst.name, []).append(
                        Navigation(dst.name, assoc, None, dst, self.classes[dst.class_name].type)
                    )
        for cls in self.classes.values():
            merged: dict[str, list[Navigation]] = {}
            origin: dict[str, str] = {}
            for anc in cls.ancestors:
                for role, navs in own[anc.name].items():
                    if role in merged and origin[role] != anc.name:
                        if all(n.association is not m.association for n in navs for m in merged[role]):
                            raise ModelError(
                                f"association end `{role}' navigable from class `{cls.name}' conflicts "
                                "with the "
                                f"same role name in association `{merged[role][0].association.name}'",
                                **_pos(navs[0].association.position),
                            )
                        continue
                    if role in merged:
                        continue
                    distinct_assocs = {id(n.association) for n in navs}
                    if len(distinct_assocs) > 1:
                        first, second = (
                            navs[0].association,
                            next(n.association for n in navs if n.association is not navs[0].association),
                        )
                        raise ModelError(
                            f"association end `{role}' navigable from class `{anc.name}' conflicts with "
                            "the same "
                            f"role name in association `{first.name}'",
                            **_pos(second.position),
                        )
                    merged[role] = list(navs)
                    origin[role] = anc.name
            cls._navigations = merged


def _end_type(model: Model, assoc: Association, src: AssociationEnd, dst: AssociationEnd) -> Type:
    """USE's ``MAssociationEnd.getType``: collection when the target end allows many, or n-ary."""
    t: Type = model.classes[dst.class_name].type
    if dst.multiplicity.is_collection:
        return CollectionType("OrderedSet" if dst.ordered else "Set", t)
    if assoc.is_nary:
        return CollectionType("Set", t)
    return t


def _link_type(ac: Class, assoc: Association, src: AssociationEnd) -> Type:
    """USE's ``MAssociationClassImpl.getType``: decided by the end opposite to the source."""
    if assoc.is_nary:
        return CollectionType("Set", ac.type)
    other = assoc.ends[1] if src is assoc.ends[0] else assoc.ends[0]
    if other.multiplicity.is_collection:
        return CollectionType("OrderedSet" if other.ordered else "Set", ac.type)
    return ac.type


def _signature(op: Operation) -> tuple[object, ...]:
    """What USE's ``MOperation.signature()`` compares: name, parameter names and types, result type."""
    return (op.name, op.params, op.result)


def _pos(position: Position) -> dict[str, Any]:
    return {"file": position.file, "line": position.line, "column": position.column}


def models_equal(a: Model, b: Model) -> bool:
    """Structural equality used by round-trip tests (positions and order of definitions ignored)."""
    return model_key(a) == model_key(b)


def model_key(m: Model) -> tuple[object, ...]:
    return (
        m.name,
        sorted((e.key() for e in m.enumerations.values()), key=repr),
        sorted((c.key() for c in m.classes.values()), key=repr),
        sorted((a.key() for a in m.associations.values()), key=repr),
        sorted((i.key() for i in m.invariants), key=repr),
    )
