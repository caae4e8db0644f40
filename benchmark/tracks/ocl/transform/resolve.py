"""What every name in the model's expressions means, as the type checker decided it.

A transformation rewrites ``x.age`` only when ``x.age`` reads the attribute ``Person::age`` -- the same
text may be a role, a tuple part, the collect shorthand over a collection of persons, or an attribute of
another class. That decision is the checker's (:mod:`benchmark.lang.ocl.compiler`, USE's rules), so
instead of repeating it this module runs the checker and records its answers: :class:`RecordingRuntime`
compiles the model (operation bodies, derived and initial values, invariants) and any further invariants
with a :class:`~benchmark.lang.ocl.compiler.Compiler` whose lookups also write down, per AST node (by
identity), the attribute or navigation chosen and whether it was reached through the collect shorthand.

Pre- and postconditions are not compiled by the judge; they are compiled here (with ``self``, the
parameters and ``result`` in scope) so they can be rewritten too. ``@pre`` cannot be compiled, so a
postcondition using it is refused with a positioned error rather than left half-rewritten.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from benchmark.lang.ocl import ast
from benchmark.lang.ocl.compiler import Compiled, Compiler, Runtime
from benchmark.lang.ocl.model import Attribute, Class, Invariant, Model, Navigation
from benchmark.lang.ocl.types import CollectionType, Type
from benchmark.lang.ocl.values import Obj


@dataclass(frozen=True)
class AttributeUse:
    """``node`` reads attribute ``attribute`` declared in ``owner``; ``collect``: ``xs.attr`` shorthand."""

    owner: Class
    attribute: Attribute
    collect: bool


@dataclass(frozen=True)
class NavigationUse:
    """``node`` navigates ``navigation``; ``collect``: the collect shorthand ``xs.role``."""

    navigation: Navigation
    collect: bool


Use = AttributeUse | NavigationUse


class Resolutions:
    """Recorded meanings, keyed by the identity of AST nodes (equal nodes at two places differ)."""

    def __init__(self) -> None:
        self._uses: dict[int, Use] = {}
        self._nodes: list[ast.Node] = []  # keeps recorded nodes alive, so their ids stay unique
        self._collect: set[int] = set()
        self.read_attributes: set[tuple[str, str]] = set()  # (owner, attribute) read by an invariant
        self.navigated: set[str] = set()  # association names navigated by an invariant
        self.in_invariant = False

    def get(self, node: ast.Node) -> Use | None:
        return self._uses.get(id(node))

    def _record(self, node: ast.Node, use: Use) -> None:
        self._uses[id(node)] = use
        self._nodes.append(node)
        if self.in_invariant:
            if isinstance(use, AttributeUse):
                self.read_attributes.add((use.owner.name, use.attribute.name))
            else:
                self.navigated.add(use.navigation.association.name)

    def attribute(self, node: ast.Node, cls: Class, name: str) -> None:
        attr = cls.attribute(name)
        assert attr is not None
        owner = next(c for c in cls.ancestors if any(a is attr for a in c.attributes))
        self._record(node, AttributeUse(owner, attr, id(node) in self._collect))

    def navigation(self, node: ast.Node, nav: Navigation) -> None:
        self._record(node, NavigationUse(nav, id(node) in self._collect))

    def mark_collect(self, node: ast.Node) -> None:
        self._collect.add(id(node))
        self._nodes.append(node)


class _RecordingCompiler(Compiler):
    """The checker, unchanged, plus a note of each attribute and navigation it resolves."""

    def __init__(self, runtime: RecordingRuntime, **kwargs: Any) -> None:
        super().__init__(runtime, **kwargs)
        self.record = runtime.resolutions

    def _object_feature(
        self, source: Compiled, cls: Class, name: str, roles: tuple[str, ...], node: ast.Expr
    ) -> Compiled:
        result = super()._object_feature(source, cls, name, roles, node)
        # the checker tries the attribute first, then a role, then a standard operation
        if self.record.get(node) is None and not roles and cls.attribute(name) is not None:
            self.record.attribute(node, cls, name)
        return result

    def _navigation(self, cls: Class, name: str, roles: tuple[str, ...], node: ast.Expr) -> Navigation | None:
        nav = super()._navigation(cls, name, roles, node)
        if nav is not None:
            self.record.navigation(node, nav)
        return nav

    def _collect_shorthand(self, source: Compiled, st: CollectionType, name: str, *args: Any) -> Compiled:
        node = args[-1]
        self.record.mark_collect(node)
        return super()._collect_shorthand(source, st, name, *args)


class RecordingRuntime(Runtime):
    """A :class:`Runtime` whose compilers record :class:`Resolutions` (see the module docstring)."""

    def __init__(self, model: Model, extra: Iterable[Invariant] = ()) -> None:
        self.resolutions = Resolutions()
        super().__init__(model)
        for inv in extra:
            self.compile_invariant(inv)
        for cls in model.classes.values():
            for op in cls.operations:
                for cond in op.conditions:
                    self._compile_condition(cls, op.params, op.result, cond.expr)

    def compiler(self, *, file: str | None, objects: Mapping[str, Obj] | None = None) -> Compiler:
        return _RecordingCompiler(self, objects=objects, file=file)

    def compile_invariant(self, inv: Invariant):  # type: ignore[no-untyped-def]
        self.resolutions.in_invariant = True
        try:
            return super().compile_invariant(inv)
        finally:
            self.resolutions.in_invariant = False

    def _compile_condition(
        self, cls: Class, params: Iterable[Any], result: Type | None, expr: ast.Expr
    ) -> None:
        variables: dict[str, Type] = {"self": cls.type}
        variables.update({p.name: p.type for p in params})
        if result is not None:
            variables["result"] = result
        compiler = self.compiler(file=self.file)
        compiler.implicit.append((1, cls.type))  # compile_query gives ``self``, the first variable, slot 1
        compiler.compile_query(expr, variables)


def resolve(model: Model, extra: Iterable[Invariant] = ()) -> Resolutions:
    """Compile ``model`` and ``extra`` invariants (raising the checker's errors) and return the record."""
    return RecordingRuntime(model, extra).resolutions
