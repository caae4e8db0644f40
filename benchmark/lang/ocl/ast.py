"""The OCL expression AST produced by the parser, printed by :mod:`benchmark.lang.ocl.printer`.

Nodes are frozen dataclasses; their ``line``/``column`` are excluded from equality so that a printed and
re-parsed expression equals the original. The AST is syntactic: whether ``x.name`` is an attribute, a
navigation or a collect shorthand is decided by the checker (:mod:`benchmark.lang.ocl.compiler`) against a
model, exactly as USE decides it after parsing.
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class Node:
    line: int = field(default=0, compare=False, kw_only=True, repr=False)
    column: int = field(default=0, compare=False, kw_only=True, repr=False)


# -- type expressions ------------------------------------------------------------------------------------
@dataclass(frozen=True)
class TypeExpr(Node):
    pass


@dataclass(frozen=True)
class SimpleTypeExpr(TypeExpr):
    name: str


@dataclass(frozen=True)
class CollectionTypeExpr(TypeExpr):
    kind: str  # Collection | Set | Bag | Sequence | OrderedSet
    elem: TypeExpr


@dataclass(frozen=True)
class TupleTypeExpr(TypeExpr):
    parts: tuple[tuple[str, TypeExpr], ...]


# -- expressions ---------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Expr(Node):
    pass


@dataclass(frozen=True)
class IntegerLit(Expr):
    value: int


@dataclass(frozen=True)
class RealLit(Expr):
    value: float


@dataclass(frozen=True)
class StringLit(Expr):
    value: str


@dataclass(frozen=True)
class BooleanLit(Expr):
    value: bool


@dataclass(frozen=True)
class NullLit(Expr):
    """``null``, ``Undefined``, ``null(T)``, ``oclUndefined(T)`` -- all the one undefined value."""

    type: TypeExpr | None = None
    spelling: str = "null"


@dataclass(frozen=True)
class EnumLit(Expr):
    """``#lit`` (enum is None) or ``E::lit``."""

    enum: str | None
    literal: str


@dataclass(frozen=True)
class RangeItem(Node):
    """``first..last`` inside a collection literal."""

    first: Expr
    last: Expr


@dataclass(frozen=True)
class CollectionLit(Expr):
    kind: str  # Set | Bag | Sequence | OrderedSet
    items: tuple[Expr | RangeItem, ...]


@dataclass(frozen=True)
class EmptyCollectionLit(Expr):
    """``Set(Integer){}`` or ``oclEmpty(Set(Integer))``."""

    type: CollectionTypeExpr
    spelling: str = "braces"  # braces | oclEmpty


@dataclass(frozen=True)
class TupleItem(Node):
    name: str
    type: TypeExpr | None
    value: Expr


@dataclass(frozen=True)
class TupleLit(Expr):
    items: tuple[TupleItem, ...]


@dataclass(frozen=True)
class ObjectRef(Expr):
    """``@name``: the object of that name in the current state."""

    name: str


@dataclass(frozen=True)
class Name(Expr):
    """A bare identifier: a variable, or an attribute/navigation of the implicit context (``self``).

    ``pre`` marks ``name@pre`` (postconditions only).
    """

    name: str
    pre: bool = False


@dataclass(frozen=True)
class PropertyCall(Expr):
    """``source.name``, ``source->name(args)``, ``name(args)`` (source None).

    ``args`` is None when there are no parentheses (``x.name`` vs ``x.name()``); ``roles`` holds an
    explicit source role (``p.job[employer]``) for ambiguous navigations; ``pre`` marks ``x.name@pre``.
    """

    source: Expr | None
    arrow: bool
    name: str
    args: tuple[Expr, ...] | None = None
    roles: tuple[str, ...] = ()
    pre: bool = False


@dataclass(frozen=True)
class VarDecl(Node):
    name: str
    type: TypeExpr | None = None


@dataclass(frozen=True)
class IteratorCall(Expr):
    """``source->select(x | body)`` and the other iterators; ``variables`` is empty when implicit."""

    source: Expr | None
    arrow: bool
    name: str
    variables: tuple[VarDecl, ...]
    body: Expr


@dataclass(frozen=True)
class Iterate(Expr):
    source: Expr | None
    arrow: bool
    variables: tuple[VarDecl, ...]
    accumulator: VarDecl
    init: Expr
    body: Expr


@dataclass(frozen=True)
class TypeOp(Expr):
    """``oclAsType``, ``oclIsKindOf``, ``oclIsTypeOf``, ``selectByKind``, ``selectByType``."""

    source: Expr | None
    arrow: bool
    name: str
    type: TypeExpr


@dataclass(frozen=True)
class Unary(Expr):
    op: str  # not | - | +
    operand: Expr


@dataclass(frozen=True)
class Binary(Expr):
    op: str
    left: Expr
    right: Expr


@dataclass(frozen=True)
class If(Expr):
    condition: Expr
    then: Expr
    otherwise: Expr


@dataclass(frozen=True)
class LetBinding(Node):
    name: str
    type: TypeExpr | None
    value: Expr


@dataclass(frozen=True)
class Let(Expr):
    bindings: tuple[LetBinding, ...]
    body: Expr


ITERATORS = frozenset(
    {
        "select",
        "reject",
        "collect",
        "collectNested",
        "forAll",
        "exists",
        "isUnique",
        "sortedBy",
        "any",
        "one",
        "closure",
    }
)
TYPE_OPS = frozenset({"oclAsType", "oclIsKindOf", "oclIsTypeOf", "selectByKind", "selectByType"})
