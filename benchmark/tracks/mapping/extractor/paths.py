"""Source-path analysis: which navigation paths from a rule's input variables an expression reads.

This is the heart of the ground truth (docs/INTERCHANGE_FORMAT.md, "Source paths"). An expression is
evaluated abstractly: instead of model elements, a value is the set of :data:`Path` s it stands for, a path
being ``(variable, feature, feature, ...)`` rooted at a rule's input variable (``("b",)`` is the element
``b`` itself, ``("b", "chapters", "nbPages")`` is ``b.chapters.nbPages``). Evaluating records every path
the expression *reads* (every prefix of a navigation chain) and returns the paths its value stands for,
from which an enclosing navigation continues.

Helpers are expanded in place: the body is evaluated with ``self`` standing for the receiver's paths and
each parameter for its argument's. Expansions are memoised per (helper, receiver paths, argument paths);
a helper already being expanded is not re-entered (it then passes its receiver through, like a standard
operation), and a memoised expansion is reused only where it would have been computed the same way (see
:class:`_Expansion`), so results never depend on the order bindings are analysed in.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from benchmark.lang.atl import ast
from benchmark.tracks.mapping.extractor.operations import (
    COLLECTING_ITERATORS,
    COLLECTING_OPERATIONS,
    NAVIGATING_OPERATIONS,
    RESOLVE_OPERATIONS,
)

__all__ = [
    "Path",
    "Value",
    "EMPTY",
    "Substitution",
    "Scope",
    "Reading",
    "HelperGroup",
    "HelperTable",
    "PathAnalyzer",
]

#: ``(variable, feature, ...)``: a navigation path rooted at an input variable.
Path = tuple[str, ...]
#: The paths an expression's value stands for.
Value = frozenset[Path]
EMPTY: Value = frozenset()
_NO_NAMES: frozenset[str] = frozenset()

THIS_MODULE = "thisModule"
SELF = "self"


@dataclass(frozen=True, slots=True)
class Substitution:
    """What a variable stands for: its ``value`` paths and, for ``using`` and ``foreach`` variables (which
    stand for their expression), the ``reads`` and ``helpers`` of that expression, counted at every use."""

    value: Value
    reads: frozenset[Path] = EMPTY
    helpers: frozenset[str] = _NO_NAMES


#: Variable name -> what it stands for. A name that is not in scope stands for nothing.
Scope = Mapping[str, Substitution]


@dataclass(frozen=True, slots=True)
class Reading:
    """The result of analysing one expression: the paths it reads, the helpers it expanded and the paths
    its value stands for."""

    reads: frozenset[Path]
    helpers: frozenset[str]
    value: Value


#: A helper as the extractor expands it: its kind and name, standing for every definition of that name
#: and kind (``CONTEXT_OPERATION``, ``CONTEXT_ATTRIBUTE``, ``MODULE_OPERATION`` or ``MODULE_ATTRIBUTE``).
HelperGroup = tuple[str, str]
CONTEXT_OPERATION = "context operation"
CONTEXT_ATTRIBUTE = "context attribute"
MODULE_OPERATION = "module operation"
MODULE_ATTRIBUTE = "module attribute"


class HelperTable:
    """The helpers of a unit grouped by kind and name, and the names of its rules.

    A group (all definitions of one name and kind, for whatever contexts) is the unit of expansion, of the
    recursion guard and of memoisation: calling ``x.getTerm`` expands every ``getTerm`` attribute, and a
    ``getTerm`` met inside that expansion is not re-entered, whichever context it would dispatch to."""

    def __init__(self, helpers: tuple[ast.Helper, ...], rule_names: frozenset[str]) -> None:
        self.rule_names = rule_names
        self._groups: dict[HelperGroup, list[ast.Helper]] = {}
        for helper in helpers:
            if helper.context is not None:
                kind = CONTEXT_OPERATION if helper.operation else CONTEXT_ATTRIBUTE
            else:
                kind = MODULE_OPERATION if helper.operation else MODULE_ATTRIBUTE
            self._groups.setdefault((kind, helper.name), []).append(helper)

    def group(self, kind: str, name: str) -> HelperGroup | None:
        """The group of helpers of ``kind`` named ``name``, or None when the unit defines none."""
        key = (kind, name)
        return key if key in self._groups else None

    def definitions(self, group: HelperGroup) -> list[ast.Helper]:
        return self._groups[group]

    def defines_operation(self, name: str) -> bool:
        """Whether a call ``x.name(...)`` or ``thisModule.name(...)`` names something of this unit."""
        groups = self._groups
        return (
            (CONTEXT_OPERATION, name) in groups
            or (MODULE_OPERATION, name) in groups
            or name in self.rule_names
        )


@dataclass(slots=True)
class _Accumulator:
    """What the expression being analysed has read so far, and which helpers it has expanded (``helpers``,
    by name), tried to expand (``reached``) or found already being expanded (``blocked``)."""

    reads: set[Path] = field(default_factory=set)
    helpers: set[str] = field(default_factory=set)
    reached: set[HelperGroup] = field(default_factory=set)
    blocked: set[HelperGroup] = field(default_factory=set)


@dataclass(frozen=True, slots=True)
class _Expansion:
    """A memoised helper expansion.

    ``reached`` and ``blocked`` are the other helpers it tried to expand and the ones among them it found
    on the expansion stack. The expansion would come out the same under any stack whose intersection with
    ``reached`` is exactly ``blocked``; anywhere else it is computed afresh."""

    reads: frozenset[Path]
    helpers: frozenset[str]
    value: Value
    reached: frozenset[HelperGroup]
    blocked: frozenset[HelperGroup]


_ExpansionKey = tuple[HelperGroup, Value, tuple[Value, ...]]


class PathAnalyzer:
    """Analyses expressions of one unit; memoised helper expansions are shared by all its rules."""

    def __init__(self, helpers: HelperTable) -> None:
        self.table = helpers
        self._memo: dict[_ExpansionKey, list[_Expansion]] = {}
        self._stack: set[HelperGroup] = set()
        self._acc = _Accumulator()
        self._dispatch: dict[type, Callable[[Any, Scope], Value]] = {
            ast.VariableExp: self._variable,
            ast.SuperExp: self._super,
            ast.NavigationExp: self._navigation,
            ast.OperationCallExp: self._operation,
            ast.IteratorExp: self._iterator,
            ast.IterateExp: self._iterate,
            ast.LetExp: self._let,
            ast.IfExp: self._if,
            ast.CollectionExp: self._collection,
            ast.MapExp: self._map,
            ast.TupleExp: self._tuple,
            ast.UnaryExp: self._unary,
            ast.BinaryExp: self._binary,
        }

    # ------------------------------------------------------------------------------ public entry
    def analyse(self, expression: ast.Expr, scope: Scope) -> Reading:
        """What ``expression`` reads in ``scope`` (a rule's variables), with helpers expanded."""
        saved, self._acc = self._acc, _Accumulator()
        try:
            value = self._eval(expression, scope)
            return Reading(frozenset(self._acc.reads), frozenset(self._acc.helpers), value)
        finally:
            self._acc = saved

    # ------------------------------------------------------------------------------ evaluation
    def _eval(self, expression: ast.Expr, scope: Scope) -> Value:
        handler = self._dispatch.get(type(expression))
        if handler is None:  # literals, OclUndefined, enum literals, types: no source element
            return EMPTY
        return handler(expression, scope)

    def _variable(self, node: ast.VariableExp, scope: Scope) -> Value:
        substitution = scope.get(node.name)
        if substitution is None:  # thisModule, an output pattern variable, an unknown name
            return EMPTY
        if substitution.reads:
            self._acc.reads.update(substitution.reads)
        if substitution.helpers:
            self._acc.helpers.update(substitution.helpers)
        return substitution.value

    def _super(self, node: ast.Expr, scope: Scope) -> Value:
        # `super.h()` calls the overridden definition on the same receiver.
        substitution = scope.get(SELF)
        return substitution.value if substitution is not None else EMPTY

    @staticmethod
    def _is_this_module(node: ast.Expr, scope: Scope) -> bool:
        return type(node) is ast.VariableExp and node.name == THIS_MODULE and THIS_MODULE not in scope

    def _navigation(self, node: ast.NavigationExp, scope: Scope) -> Value:
        if self._is_this_module(node.source, scope):
            return EMPTY  # an attribute helper of the module: no source element is bound there
        receiver = self._eval(node.source, scope)
        group = self.table.group(CONTEXT_ATTRIBUTE, node.name)
        if group is not None:
            return self._expand(group, receiver, ())
        return self._step(receiver, node.name)

    def _step(self, receiver: Value, feature: str) -> Value:
        if not receiver:
            return EMPTY
        paths = frozenset(path + (feature,) for path in receiver)
        self._acc.reads.update(paths)
        return paths

    def _operation(self, node: ast.OperationCallExp, scope: Scope) -> Value:
        table = self.table
        if self._is_this_module(node.source, scope):
            arguments = tuple(self._eval(argument, scope) for argument in node.arguments)
            group = table.group(MODULE_OPERATION, node.name) or table.group(CONTEXT_OPERATION, node.name)
            if group is not None:
                return self._expand(group, EMPTY, arguments)
            # lazy and called rules, resolveTemp, and anything else on thisModule: a target element
            return EMPTY
        receiver = self._eval(node.source, scope)
        arguments = tuple(self._eval(argument, scope) for argument in node.arguments)
        group = table.group(CONTEXT_OPERATION, node.name) or table.group(MODULE_OPERATION, node.name)
        if group is not None:
            return self._expand(group, receiver, arguments)
        name = node.name
        if name in NAVIGATING_OPERATIONS:
            return self._step(receiver, name + "()")
        if name in RESOLVE_OPERATIONS:
            return EMPTY
        if name in COLLECTING_OPERATIONS:
            return receiver.union(*arguments)
        return receiver  # a standard (or unknown) operation passes its receiver through

    def _iterator(self, node: ast.IteratorExp, scope: Scope) -> Value:
        source = self._eval(node.source, scope)
        inner = dict(scope)
        element = Substitution(source)
        for name in node.iterators:
            inner[name] = element
        body = self._eval(node.body, inner)
        return body if node.name in COLLECTING_ITERATORS else source

    def _iterate(self, node: ast.IterateExp, scope: Scope) -> Value:
        source = self._eval(node.source, scope)
        initial = self._eval(node.result.init, scope)
        inner = dict(scope)
        element = Substitution(source)
        for name in node.iterators:
            inner[name] = element
        inner[node.result.name] = Substitution(initial)
        return self._eval(node.body, inner) | initial

    def _let(self, node: ast.LetExp, scope: Scope) -> Value:
        value = self._eval(node.variable.init, scope)
        inner = dict(scope)
        inner[node.variable.name] = Substitution(value)
        return self._eval(node.body, inner)

    def _if(self, node: ast.IfExp, scope: Scope) -> Value:
        self._eval(node.condition, scope)
        return self._eval(node.then_expression, scope) | self._eval(node.else_expression, scope)

    def _collection(self, node: ast.CollectionExp, scope: Scope) -> Value:
        value = EMPTY
        for element in node.elements:
            value = value | self._eval(element, scope)
        return value

    def _map(self, node: ast.MapExp, scope: Scope) -> Value:
        for element in node.elements:
            self._eval(element.key, scope)
            self._eval(element.value, scope)
        return EMPTY

    def _tuple(self, node: ast.TupleExp, scope: Scope) -> Value:
        for part in node.parts:
            self._eval(part.value, scope)
        return EMPTY

    def _unary(self, node: ast.UnaryExp, scope: Scope) -> Value:
        self._eval(node.operand, scope)
        return EMPTY

    def _binary(self, node: ast.BinaryExp, scope: Scope) -> Value:
        # Operators are left-associative, so long chains (generated `a + b + c + ...`) nest to the left:
        # walk that spine in a loop rather than recursing once per operator.
        rights: list[ast.Expr] = []
        current: ast.Expr = node
        while type(current) is ast.BinaryExp:
            rights.append(current.right)
            current = current.left
        self._eval(current, scope)
        for right in reversed(rights):
            self._eval(right, scope)
        return EMPTY

    # ------------------------------------------------------------------------------ helpers
    def _expand(self, group: HelperGroup, receiver: Value, arguments: tuple[Value, ...]) -> Value:
        """Expand a helper: every definition of its name (several contexts may define one name), with
        ``self`` standing for ``receiver`` and the parameters for ``arguments``."""
        acc = self._acc
        acc.reached.add(group)
        if group in self._stack:
            acc.blocked.add(group)
            return receiver  # not re-entered: read like a standard operation
        key = (group, receiver, arguments)
        expansion = self._memoised(key)
        if expansion is None:
            expansion = self._compute(group, receiver, arguments)
            self._memo.setdefault(key, []).append(expansion)
        acc.reads.update(expansion.reads)
        acc.helpers.update(expansion.helpers)
        acc.reached.update(expansion.reached)
        acc.blocked.update(expansion.blocked)
        return expansion.value

    def _memoised(self, key: _ExpansionKey) -> _Expansion | None:
        for expansion in self._memo.get(key, ()):
            if expansion.reached & self._stack == expansion.blocked:
                return expansion
        return None

    def _compute(self, group: HelperGroup, receiver: Value, arguments: tuple[Value, ...]) -> _Expansion:
        saved, self._acc = self._acc, _Accumulator()
        self._stack.add(group)
        value = EMPTY
        try:
            for helper in self.table.definitions(group):
                scope: dict[str, Substitution] = {}
                if helper.context is not None:
                    scope[SELF] = Substitution(receiver)
                for position, parameter in enumerate(helper.parameters):
                    argument = arguments[position] if position < len(arguments) else EMPTY
                    scope[parameter.name] = Substitution(argument)
                value = value | self._eval(helper.body, scope)
        finally:
            self._stack.discard(group)
            inner, self._acc = self._acc, saved
        inner.helpers.add(group[1])
        inner.reached.discard(group)
        inner.blocked.discard(group)
        return _Expansion(
            reads=frozenset(inner.reads),
            helpers=frozenset(inner.helpers),
            value=value,
            reached=frozenset(inner.reached),
            blocked=frozenset(inner.blocked),
        )
