"""Typed AST of ATL: frozen, slotted dataclasses, one class per construct.

The tree mirrors the official ATL metamodel (``ATL.km3``, packages ATL and OCL) closely enough that a reader
of the ATL documentation recognises every node, and departs from it where a Python consumer is better
served: helper operations and attributes are one :class:`Helper` class, lazy rules are
:class:`MatchedRule` with ``lazy=True``, ``.op()`` and ``->op()`` are one :class:`OperationCallExp` with an
``arrow`` flag, names are plain strings (quotes removed: ``"from"`` is ``from``).

Every node has ``line`` and ``column`` (1-based; a tab counts as one column): the position of the token
that identifies the node, which is its first token except for navigations and calls (the feature name
after ``.``/``->``) and binary operators (the operator). Positions do not take part in ``==``, so two trees
parsed from differently laid out texts compare equal when they mean the same program.

Walking the tree: :func:`children` yields the child nodes of a node in source order and :func:`walk`
every node below (and including) a root, depth first; :func:`transform` rebuilds a tree bottom up.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Literal, TypeAlias, TypeVar, dataclass_transform

__all__ = [
    "Node",
    "Unit",
    "CompilationUnit",
    "Module",
    "Query",
    "Library",
    "ModelDecl",
    "LibraryRef",
    "HeaderAnnotation",
    "Leniency",
    "Helper",
    "Parameter",
    "Rule",
    "MatchedRule",
    "CalledRule",
    "VariableDeclaration",
    "InPattern",
    "InPatternElement",
    "OutPattern",
    "OutPatternElement",
    "SimpleOutPatternElement",
    "ForEachOutPatternElement",
    "Binding",
    "ActionBlock",
    "Statement",
    "ExpressionStat",
    "BindingStat",
    "IfStat",
    "ForStat",
    "Expr",
    "VariableExp",
    "SuperExp",
    "OclUndefinedExp",
    "BooleanExp",
    "IntegerExp",
    "RealExp",
    "StringExp",
    "EnumLiteralExp",
    "IfExp",
    "LetExp",
    "CollectionExp",
    "MapExp",
    "MapElement",
    "TupleExp",
    "TuplePart",
    "NavigationExp",
    "OperationCallExp",
    "IteratorExp",
    "IterateExp",
    "UnaryExp",
    "BinaryExp",
    "Type",
    "ModelElementType",
    "PrimitiveType",
    "OclAnyType",
    "OclTypeType",
    "CollectionType",
    "MapType",
    "TupleType",
    "TupleTypeAttribute",
    "ModuleElement",
    "children",
    "walk",
    "transform",
    "to_data",
    "UNARY_OPERATORS",
    "BINARY_OPERATOR_LEVELS",
]

_T = TypeVar("_T")


@dataclass_transform(frozen_default=True, field_specifiers=(field,))
def _node(cls: type[_T]) -> type[_T]:
    """Every node class is a frozen, slotted dataclass."""
    return dataclass(frozen=True, slots=True)(cls)


@_node
class Node:
    """Base of every AST node."""

    # kw_only keeps the positions after every subclass's own fields; compare=False keeps them out of ==.
    line: int = field(default=0, compare=False, kw_only=True, repr=False)
    column: int = field(default=0, compare=False, kw_only=True, repr=False)


# ====================================================================== types
@_node
class Expr(Node):
    """Base of OCL expressions. Types are expressions too (``MM!C.allInstances()``)."""


@_node
class Type(Expr):
    """Base of type expressions (ATL's ``OclType``)."""


@_node
class ModelElementType(Type):
    """``MM!C`` or ``MM!"pkg::C"``: ``metamodel`` is the metamodel name from the module header and ``name``
    the class name as written, qualified when it was (``pkg::C``); see :attr:`simple_name`."""

    metamodel: str
    name: str

    @property
    def simple_name(self) -> str:
        """The class name without package qualification: ``C`` for both ``MM!C`` and ``MM!"pkg::C"``."""
        return self.name.rpartition("::")[2]


@_node
class PrimitiveType(Type):
    """``Integer``, ``Real``, ``Boolean`` or ``String``."""

    name: Literal["Integer", "Real", "Boolean", "String"]


@_node
class OclAnyType(Type):
    """``OclAny``."""


@_node
class OclTypeType(Type):
    """``OclType`` (the type of types)."""


@_node
class CollectionType(Type):
    """``Sequence(T)``, ``Set(T)``, ``Bag(T)``, ``OrderedSet(T)`` or ``Collection(T)``."""

    kind: Literal["Sequence", "Set", "Bag", "OrderedSet", "Collection"]
    element_type: Type


@_node
class MapType(Type):
    """``Map(K, V)``."""

    key_type: Type
    value_type: Type


@_node
class TupleTypeAttribute(Node):
    """``name : T`` inside ``TupleType(...)``."""

    name: str
    type: Type


@_node
class TupleType(Type):
    """``TupleType(a : T, ...)``."""

    attributes: tuple[TupleTypeAttribute, ...]


# ====================================================================== expressions
@_node
class VariableExp(Expr):
    """A variable reference: a pattern, iterator, let, parameter or ``using`` variable, or ``self``,
    ``thisModule`` (ordinary names in ATL)."""

    name: str


@_node
class SuperExp(Expr):
    """``super`` (calls the overridden helper)."""


@_node
class OclUndefinedExp(Expr):
    """``OclUndefined``."""


@_node
class BooleanExp(Expr):
    value: bool


@_node
class IntegerExp(Expr):
    """An integer literal; ``-1`` is a :class:`UnaryExp` applied to ``1``, as in ATL."""

    value: int


@_node
class RealExp(Expr):
    value: float


@_node
class StringExp(Expr):
    """A single-quoted string; ``value`` has its escapes decoded."""

    value: str


@_node
class EnumLiteralExp(Expr):
    """``#name`` or ``#"name"``."""

    name: str


@_node
class IfExp(Expr):
    """``if c then a else b endif``."""

    condition: Expr
    then_expression: Expr
    else_expression: Expr


@_node
class VariableDeclaration(Node):
    """``name : T = init``: a ``let`` variable, an ``iterate`` accumulator or a rule's ``using`` variable."""

    name: str
    type: Type
    init: Expr


@_node
class LetExp(Expr):
    """``let v : T = init in body`` (one variable; ATL nests lets for more)."""

    variable: VariableDeclaration
    body: Expr


@_node
class CollectionExp(Expr):
    """``Sequence{...}``, ``Set{...}``, ``Bag{...}`` or ``OrderedSet{...}``."""

    kind: Literal["Sequence", "Set", "Bag", "OrderedSet"]
    elements: tuple[Expr, ...]


@_node
class MapElement(Node):
    """``(key, value)`` inside ``Map{...}``."""

    key: Expr
    value: Expr


@_node
class MapExp(Expr):
    """``Map{(k, v), ...}``."""

    elements: tuple[MapElement, ...]


@_node
class TuplePart(Node):
    """``name (: T)? = value`` inside ``Tuple{...}``; ``type`` is None when not written."""

    name: str
    type: Type | None
    value: Expr


@_node
class TupleExp(Expr):
    """``Tuple{a = e, ...}``."""

    parts: tuple[TuplePart, ...]


@_node
class NavigationExp(Expr):
    """``source.name``: a feature (attribute, reference or attribute helper) read from ``source``.
    ATL's ``NavigationOrAttributeCallExp``."""

    source: Expr
    name: str


@_node
class OperationCallExp(Expr):
    """``source.name(args)`` (``arrow`` False) or ``source->name(args)`` (``arrow`` True; ATL's
    ``CollectionOperationCallExp``). Helper operations, rule calls (``thisModule.R(x)``) and built-in
    operations (``oclIsKindOf``, ``allInstances``, ``resolveTemp``...) all take this form."""

    source: Expr
    name: str
    arguments: tuple[Expr, ...]
    arrow: bool


@_node
class IteratorExp(Expr):
    """``source->name(v1, v2 | body)``: ``select``, ``collect``, ``exists``... (any name is accepted,
    as in ATL)."""

    source: Expr
    name: str
    iterators: tuple[str, ...]
    body: Expr


@_node
class IterateExp(Expr):
    """``source->iterate(v1, ...; acc : T = init | body)``."""

    source: Expr
    iterators: tuple[str, ...]
    result: VariableDeclaration
    body: Expr


UnaryOperator: TypeAlias = Literal["not", "-"]
BinaryOperator: TypeAlias = Literal[
    "*", "/", "div", "mod", "+", "-", "=", ">", "<", ">=", "<=", "<>", "and", "or", "xor", "implies"
]

UNARY_OPERATORS: tuple[str, ...] = ("not", "-")
#: ATL's binary operator levels, tightest first; every level is left-associative (ATL.tcs ``priority_2..5``).
BINARY_OPERATOR_LEVELS: tuple[tuple[str, ...], ...] = (
    ("*", "/", "div", "mod"),
    ("+", "-"),
    ("=", ">", "<", ">=", "<=", "<>"),
    ("and", "or", "xor", "implies"),
)


@_node
class UnaryExp(Expr):
    """``not e`` or ``-e``; the operand is a postfix expression (``-a.b`` is ``-(a.b)``)."""

    operator: UnaryOperator
    operand: Expr


@_node
class BinaryExp(Expr):
    """``left operator right`` with ATL's flat levels (see :data:`BINARY_OPERATOR_LEVELS`)."""

    operator: BinaryOperator
    left: Expr
    right: Expr


# ====================================================================== statements (do blocks)
@_node
class Statement(Node):
    """Base of imperative statements in ``do { }`` blocks."""


@_node
class ExpressionStat(Statement):
    """``e;``"""

    expression: Expr


@_node
class BindingStat(Statement):
    """``target <- value;`` (``assignment`` True for ``<:=``). The target is any expression."""

    target: Expr
    value: Expr
    assignment: bool


@_node
class IfStat(Statement):
    """``if (c) ... else ...``: a braced block or a single statement on each side; ``else if`` chains are
    an ``else_statements`` holding one :class:`IfStat`."""

    condition: Expr
    then_statements: tuple[Statement, ...]
    else_statements: tuple[Statement, ...]


@_node
class ForStat(Statement):
    """``for (iterator in collection) { ... }``."""

    iterator: str
    collection: Expr
    statements: tuple[Statement, ...]


@_node
class ActionBlock(Node):
    """``do { statements }``."""

    statements: tuple[Statement, ...]


# ====================================================================== rules
@_node
class InPatternElement(Node):
    """``name : T`` or ``name : T in M1, M2`` in a ``from`` section."""

    name: str
    type: Type
    models: tuple[str, ...]


@_node
class InPattern(Node):
    """``from e1, e2 (filter)``: ATL allows one filter, after all the elements."""

    elements: tuple[InPatternElement, ...]
    filter: Expr | None


@_node
class Binding(Node):
    """``property <- value`` (``assignment`` True for ``<:=``) in an output element."""

    property: str
    value: Expr
    assignment: bool


@_node
class _OutPatternElementBase(Node):
    """Base class of the two kinds of output elements (see :data:`OutPatternElement`)."""


@_node
class SimpleOutPatternElement(_OutPatternElementBase):
    """``name : T in M mapsTo v ->(reverse, ...) (bindings)``; the ``in`` model, ``mapsTo`` and reverse
    bindings (ATL 2010) are optional."""

    name: str
    type: Type
    model: str | None
    maps_to: str | None
    reverse_bindings: tuple[Expr, ...]
    bindings: tuple[Binding, ...]


@_node
class ForEachOutPatternElement(_OutPatternElementBase):
    """``name : distinct T foreach (iterator in collection) mapsTo v (bindings)`` (deprecated, still
    common)."""

    name: str
    type: Type
    iterator: str
    collection: Expr
    maps_to: str | None
    bindings: tuple[Binding, ...]


#: An output element; both kinds have ``name``, ``type``, ``maps_to`` and ``bindings``.
OutPatternElement: TypeAlias = SimpleOutPatternElement | ForEachOutPatternElement


@_node
class OutPattern(Node):
    """``to e1, e2``; ``drop`` (ATL 2010) deletes the matched element. The list may be empty."""

    elements: tuple[OutPatternElement, ...]
    drop: bool


@_node
class _RuleBase(Node):
    """Base class of :class:`MatchedRule` and :class:`CalledRule` (see :data:`Rule`)."""

    @property
    def out_elements(self) -> tuple[OutPatternElement, ...]:
        """The output elements (empty without a ``to`` section)."""
        out_pattern: OutPattern | None = getattr(self, "out_pattern", None)
        return out_pattern.elements if out_pattern is not None else ()


@_node
class MatchedRule(_RuleBase):
    """A matched rule (``lazy`` False) or a lazy rule (``lazy`` True; ``unique`` for ``unique lazy``).

    ``super_rule`` is the ``extends`` target. ``nodefault`` only occurs on non-lazy rules, ``unique`` only
    on lazy ones. ``out_pattern`` and ``action_block`` are None when the section is absent."""

    name: str
    super_rule: str | None
    abstract: bool
    refining: bool
    nodefault: bool
    lazy: bool
    unique: bool
    in_pattern: InPattern
    variables: tuple[VariableDeclaration, ...]
    out_pattern: OutPattern | None
    action_block: ActionBlock | None


@_node
class Parameter(Node):
    """``name : T`` of a helper operation or a called rule."""

    name: str
    type: Type


@_node
class CalledRule(_RuleBase):
    """``entrypoint? endpoint? rule R(params) { using? to? do? }`` (no ``from``)."""

    name: str
    entrypoint: bool
    endpoint: bool
    parameters: tuple[Parameter, ...]
    variables: tuple[VariableDeclaration, ...]
    out_pattern: OutPattern | None
    action_block: ActionBlock | None


@_node
class Helper(Node):
    """``helper context C def : name(params) : T = body;`` (``operation`` True) or
    ``helper context C def : name : T = body;`` (an attribute; ``parameters`` is empty). ``context`` is
    None for helpers of the module (``thisModule.name``)."""

    context: Type | None
    name: str
    operation: bool
    parameters: tuple[Parameter, ...]
    type: Type
    body: Expr


#: A rule; both kinds have ``name``, ``variables`` (``using``), ``out_pattern``, ``action_block`` and the
#: ``out_elements`` property.
Rule: TypeAlias = MatchedRule | CalledRule
ModuleElement: TypeAlias = Helper | MatchedRule | CalledRule


# ====================================================================== units
@_node
class ModelDecl(Node):
    """``IN : MM`` in a module header: model name and metamodel name."""

    name: str
    metamodel: str


@_node
class LibraryRef(Node):
    """``uses name;``"""

    name: str


@_node
class HeaderAnnotation(Node):
    """A ``-- @tag ...`` comment line before the unit keyword, as ATL's ``AtlSourceManager`` scans them.

    ``tag`` is the word after ``@`` (``path``, ``nsURI``, ``lib``, ``atlcompiler`` or any other),
    ``value`` the first whitespace-free token after it (``MM=/p/MM.ecore``; empty when there is none) and
    ``text`` the whole line. Only lines whose trimmed text starts with ``-- @`` (exactly one space) count."""

    tag: str
    value: str
    text: str


@_node
class Leniency(Node):
    """A construct the official ATL parser rejects but this parser accepts (see docs/ATL_PARSER.md)."""

    kind: Literal["super-as-name", "unquoted-qualified-name"]
    message: str


_ATL_TAG_VALUE = r"^\s*--\s*@{tag}\s+(\S*)\s*$"


@_node
class CompilationUnit(Node):
    """Base of :class:`Module`, :class:`Query` and :class:`Library` (see the :data:`Unit` alias): the header
    annotations, the leniencies used, and ATL's reading of the annotations."""

    annotations: tuple[HeaderAnnotation, ...] = field(default=(), kw_only=True)
    leniencies: tuple[Leniency, ...] = field(default=(), kw_only=True, compare=False)

    def tagged_values(self, tag: str) -> tuple[str, ...]:
        """The values ATL reads for ``-- @tag`` (exactly ``AtlSourceManager.getTaggedInformations``): every
        header line whose trimmed text starts with ``-- @`` + tag, reduced to the token after the tag when
        the line has the ``-- @tag value`` shape, else kept whole."""
        pattern = re.compile(_ATL_TAG_VALUE.format(tag=re.escape(tag)))
        values: list[str] = []
        for annotation in self.annotations:
            if _java_trim(annotation.text).startswith("-- @" + tag):
                match = pattern.match(annotation.text)
                values.append(match.group(1) if match else annotation.text)
        return tuple(values)

    def _named_values(self, tag: str) -> dict[str, str]:
        # ATL keeps `NAME=value` entries that split on '=' into exactly two parts (Java's split drops
        # trailing empty strings) with a non-empty value.
        result: dict[str, str] = {}
        for value in self.tagged_values(tag):
            parts = value.split("=")
            while parts and parts[-1] == "":
                parts.pop()
            if len(parts) == 2 and parts[1].strip():
                result[parts[0].strip()] = parts[1].strip()
        return result

    @property
    def metamodel_paths(self) -> dict[str, str]:
        """``-- @path MM=/Project/MM.ecore`` entries: metamodel name -> workspace path."""
        return self._named_values("path")

    @property
    def metamodel_uris(self) -> dict[str, str]:
        """``-- @nsURI MM=http://...`` entries: metamodel name -> namespace URI."""
        return self._named_values("nsURI")

    @property
    def library_paths(self) -> dict[str, str]:
        """``-- @lib NAME=path`` entries."""
        return self._named_values("lib")

    @property
    def compiler(self) -> str | None:
        """The first ``-- @atlcompiler`` value (ATL then defaults to ``atl2006``), or None."""
        values = self.tagged_values("atlcompiler")
        return values[0] if values else None


def _java_trim(text: str) -> str:
    """Java's ``String.trim``: strips every character up to U+0020."""
    start, end = 0, len(text)
    while start < end and text[start] <= " ":
        start += 1
    while end > start and text[end - 1] <= " ":
        end -= 1
    return text[start:end]


@_node
class Module(CompilationUnit):
    """``module M; create OUT : MM2 from IN : MM1; uses L; (helper | rule)*``.

    ``refining`` is True for ``create ... refining ...``. ``elements`` keeps helpers and rules in source
    order; :attr:`helpers` and :attr:`rules` filter it."""

    name: str
    out_models: tuple[ModelDecl, ...]
    in_models: tuple[ModelDecl, ...]
    refining: bool
    libraries: tuple[LibraryRef, ...]
    elements: tuple[ModuleElement, ...]

    @property
    def helpers(self) -> tuple[Helper, ...]:
        return tuple(e for e in self.elements if isinstance(e, Helper))

    @property
    def rules(self) -> tuple[MatchedRule | CalledRule, ...]:
        return tuple(e for e in self.elements if not isinstance(e, Helper))


@_node
class Query(CompilationUnit):
    """``query Q = body; uses L; helper*``."""

    name: str
    body: Expr
    libraries: tuple[LibraryRef, ...]
    helpers: tuple[Helper, ...]


@_node
class Library(CompilationUnit):
    """``library L; uses L2; helper*``."""

    name: str
    libraries: tuple[LibraryRef, ...]
    helpers: tuple[Helper, ...]


#: What :func:`benchmark.lang.atl.parse` returns.
Unit: TypeAlias = Module | Query | Library


# ====================================================================== traversal
_FIELDS_CACHE: dict[type, tuple[str, ...]] = {}


def _child_fields(cls: type) -> tuple[str, ...]:
    names = _FIELDS_CACHE.get(cls)
    if names is None:
        names = tuple(
            f.name
            for f in dataclasses.fields(cls)
            if f.name not in ("line", "column", "annotations", "leniencies")
        )
        _FIELDS_CACHE[cls] = names
    return names


def children(node: Node) -> Iterator[Node]:
    """The nodes directly below ``node``, in field order, which is source order (header annotations and
    leniency notes are not children)."""
    for name in _child_fields(type(node)):
        value = getattr(node, name)
        if isinstance(value, Node):
            yield value
        elif isinstance(value, tuple):
            for item in value:
                if isinstance(item, Node):
                    yield item


def walk(node: Node) -> Iterator[Node]:
    """``node`` and every node below it, depth first, parents before children (iterative: no recursion
    limit on deep expressions)."""
    stack = [node]
    while stack:
        current = stack.pop()
        yield current
        stack.extend(reversed(list(children(current))))


def transform(node: Node, function: Callable[[Node], Node]) -> Node:
    """Rebuild the tree bottom up: the children of every node are transformed first, then ``function`` is
    applied to the node (a copy holding the new children when any changed; positions are kept).
    ``function`` returns its argument to keep a node."""
    changes: dict[str, object] = {}
    for name in _child_fields(type(node)):
        value = getattr(node, name)
        if isinstance(value, Node):
            new_node = transform(value, function)
            if new_node is not value:
                changes[name] = new_node
        elif isinstance(value, tuple) and any(isinstance(item, Node) for item in value):
            new_items = tuple(transform(item, function) if isinstance(item, Node) else item for item in value)
            if any(a is not b for a, b in zip(new_items, value, strict=True)):
                changes[name] = new_items
    if changes:
        node = dataclasses.replace(node, **changes)  # type: ignore[arg-type]
    return function(node)


def to_data(node: Node, *, positions: bool = True) -> dict[str, object]:
    """Plain JSON data for a tree: ``{"node": "ClassName", "line": .., "column": .., field: value...}``
    (tuples become lists, nested nodes dicts). ``positions=False`` leaves out line and column."""

    def convert(value: object) -> object:
        if isinstance(value, Node):
            return to_data(value, positions=positions)
        if isinstance(value, tuple):
            return [convert(item) for item in value]
        return value

    data: dict[str, object] = {"node": type(node).__name__}
    if positions:
        data["line"] = node.line
        data["column"] = node.column
    for item in dataclasses.fields(node):
        if item.name not in ("line", "column"):
            data[item.name] = convert(getattr(node, item.name))
    return data
