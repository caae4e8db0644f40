"""Type checking OCL against a model and compiling it to Python closures, following USE's rules.

Each AST node becomes a :class:`Compiled` (its static type and a function ``env -> value``). ``env`` is a
list: slot 0 holds the :class:`EvalContext` (the object state and caches), the other slots hold ``self``,
iterator, ``let`` and accumulator variables, whose slots are fixed at compile time. Parsing and checking
happen once; evaluating an invariant over many states only runs the closures.

The checker decides what each name means the way USE's ``ASTOperationExpression`` does: for ``x.n`` an
attribute, else a role name, else a standard operation; ``coll.n`` is the collect shorthand; ``x->op()``
on a single object is allowed when ``x`` is a navigation and wraps it in a Set; an unqualified name is a
variable or a property of the innermost implicit context (``self``, or the element of an iterator
without a declared variable). Errors name the line and column of the offending token.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from functools import cmp_to_key
from itertools import product
from operator import itemgetter
from typing import Any

from benchmark.lang.ocl import ast
from benchmark.lang.ocl import operations as ops
from benchmark.lang.ocl.errors import OclTypeError
from benchmark.lang.ocl.hashorder import bucket, string_hash
from benchmark.lang.ocl.model import Attribute, Class, Invariant, Model, Navigation, Operation
from benchmark.lang.ocl.state import ObjectState
from benchmark.lang.ocl.types import (
    BOOLEAN,
    INTEGER,
    OCL_VOID,
    REAL,
    STRING,
    ClassType,
    CollectionType,
    TupleType,
    Type,
    is_number,
    unique_lcs,
)
from benchmark.lang.ocl.values import (
    FALSE,
    TRUE,
    Obj,
    OclBag,
    OclBoolean,
    OclCollection,
    OclOrderedSet,
    OclSequence,
    OclSet,
    OclTuple,
    java_compare,
    java_equals,
    make_collection,
    runtime_type,
)

Fn = Callable[[list[Any]], Any]
_DONE = object()


class MultiplicityViolation(Exception):
    """A to-one navigation found several objects (USE's ``MultiplicityViolationException``)."""


# Why an evaluation that hit Python's recursion limit stopped (said the same by eval, check and SOIL).
RECURSION_TOO_DEEP = "recursion too deep (an operation that does not end?)"


@dataclass(frozen=True)
class Compiled:
    type: Type
    fn: Fn
    is_navigation: bool = False


def _const(value: Any) -> Fn:
    return lambda env: value


def _use_instance_order(cls: Class, objects: tuple[Obj, ...]) -> list[Obj]:
    """``C.allInstances`` in the order USE adds them to its set (``objectsOfClassAndSubClasses``): the
    objects of ``C`` itself, then those of each subclass, the subclasses in the order of USE's set of
    classes (by the bucket of their name's hash); objects of one class in creation order."""
    by_class: dict[str, list[Obj]] = {}
    for obj in objects:
        by_class.setdefault(obj.cls.name, []).append(obj)
    others = sorted((n for n in by_class if n != cls.name), key=lambda n: bucket(string_hash(n), 16))
    return by_class.get(cls.name, []) + [o for n in others for o in by_class[n]]


def _ties(r: Any) -> tuple[tuple[Any, ...], tuple[int, ...]] | None:
    """USE's order of a Set or Bag whose elements sharing a bucket may be in another order in USE, with
    the buckets; ``None`` when the order is USE's for sure."""
    if type(r) not in (OclSet, OclBag) or r.known:
        return None
    items, buckets = r.hash_order()
    return (items, buckets) if len(set(buckets)) < len(buckets) else None


def _ties_reversed(items: tuple[Any, ...], buckets: tuple[int, ...]) -> list[Any]:
    """The same order with the elements of each bucket reversed (the other extreme of USE's choice)."""
    out: list[Any] = []
    start = 0
    for end in range(1, len(items) + 1):
        if end == len(items) or buckets[end] != buckets[start]:
            out.extend(reversed(items[start:end]))
            start = end
    return out


# ================================================================================== evaluation context
class EvalContext:
    """Slot 0 of every frame: the state being evaluated and caches valid for it."""

    __slots__ = ("state", "runtime", "_nav", "_inst", "_version", "order_notes")

    def __init__(self, state: ObjectState, runtime: Runtime) -> None:
        self.state = state
        self.runtime = runtime
        self._nav: dict[tuple[int, int], Any] = {}
        self._inst: dict[str, OclSet] = {}
        self._version = state.version
        #: results that depend on the order of elements sharing a hash bucket, which USE decides by how
        #: it built the collection and this evaluator does not reproduce (:mod:`.hashorder`)
        self.order_notes: list[str] = []

    def order_dependent(self, note: str) -> None:
        if note not in self.order_notes:
            self.order_notes.append(note)

    def _fresh(self) -> None:
        if self._version != self.state.version:
            self._nav.clear()
            self._inst.clear()
            self._version = self.state.version

    def instances(self, cls: Class) -> OclSet:
        self._fresh()
        found = self._inst.get(cls.name)
        if found is None:
            found = OclSet(_use_instance_order(cls, self.state.instances(cls)), known=True)
            self._inst[cls.name] = found
        return found

    def navigate(self, nav: Navigation, obj: Obj) -> Any:
        self._fresh()
        key = (id(nav), id(obj))
        try:
            return self._nav[key]
        except KeyError:
            pass
        value = self._navigate(nav, obj)
        self._nav[key] = value
        return value

    def _navigate(self, nav: Navigation, obj: Obj) -> Any:
        src, dst = nav.source_end, nav.target_end
        if src is None:  # from a link object to a participant
            link = obj.link
            return None if link is None else link.objects[dst.index]  # type: ignore[union-attr]
        links = self.state.links_at(src).get(obj, ())
        if dst is None:
            targets = [lk.link_object for lk in links if lk.link_object is not None]
        else:
            targets = [lk.objects[dst.index] for lk in links]
        t = nav.result_type
        if isinstance(t, CollectionType):
            unique = tuple(dict.fromkeys(targets))
            return OclOrderedSet.unchecked(unique) if t.kind == "OrderedSet" else OclSet(unique)
        if not targets:
            return None
        if len(targets) > 1:
            raise MultiplicityViolation(
                f"expected link set size 1 at association end `{nav.role}', found: {len(targets)}"
            )
        return targets[0]


# ================================================================================== compile-time scopes
class _Unit:
    """Slot allocation for one frame (an invariant, an operation body, a query)."""

    def __init__(self) -> None:
        self.size = 1  # slot 0 is the EvalContext

    def new_slot(self) -> int:
        slot = self.size
        self.size += 1
        return slot


class _Scope:
    def __init__(self, parent: _Scope | None = None) -> None:
        self.parent = parent
        self.vars: dict[str, tuple[int, Type]] = {}

    def lookup(self, name: str) -> tuple[int, Type] | None:
        scope: _Scope | None = self
        while scope is not None:
            if name in scope.vars:
                return scope.vars[name]
            scope = scope.parent
        return None

    def child(self) -> _Scope:
        return _Scope(self)


@dataclass(frozen=True)
class CompiledExpression:
    """A checked expression ready to run: ``run(ctx, bindings)`` fills the named slots."""

    expr: ast.Expr
    type: Type
    fn: Fn
    frame_size: int
    slots: dict[str, int]

    def frame(self, ctx: EvalContext) -> list[Any]:
        env: list[Any] = [None] * self.frame_size
        env[0] = ctx
        return env


@dataclass(frozen=True)
class CompiledInvariant:
    invariant: Invariant
    cls: Class
    fn: Fn
    frame_size: int
    slots: tuple[int, ...]


@dataclass
class _OperationImpl:
    operation: Operation
    fn: Fn | None = None
    frame_size: int = 0


class Runtime:
    """A model compiled for evaluation: operation bodies, derived attributes and invariants.

    Type errors in any of them are raised here, when the model is loaded, as USE reports them.
    """

    def __init__(self, model: Model, *, file: str | None = None) -> None:
        self.model = model
        self.file = file or model.file
        self._ops: dict[int, _OperationImpl] = {}
        self._dispatch: dict[tuple[str, str], _OperationImpl | None] = {}
        self._derived: dict[int, tuple[Fn, int]] = {}
        self._init: dict[int, tuple[Fn, int]] = {}
        for cls in model.classes.values():
            for op in cls.operations:
                self._ops[id(op)] = _OperationImpl(op)
        for cls in model.classes.values():
            for op in cls.operations:
                self._compile_operation(cls, op)
            for attr in cls.attributes:
                if attr.derive is not None:
                    self._derived[id(attr)] = self._compile_with_self(
                        cls, attr.derive, attr.type, "derived value"
                    )
                if attr.init is not None:
                    self._init[id(attr)] = self._compile_with_self(cls, attr.init, attr.type, "initial value")
        self.invariants = [self.compile_invariant(inv) for inv in model.invariants]

    # -- building blocks ---------------------------------------------------------------------------
    def compiler(self, *, file: str | None, objects: Mapping[str, Obj] | None = None) -> Compiler:
        """A compiler whose errors name ``file``: the file the compiled text comes from (the model's
        own file for bodies and invariants, the expression's or state's otherwise, None if unknown)."""
        return Compiler(self, objects=objects, file=file)

    def _compile_operation(self, cls: Class, op: Operation) -> None:
        impl = self._ops[id(op)]
        if op.body is None:
            return
        compiler = self.compiler(file=self.file)
        scope = _Scope()
        scope.vars["self"] = (compiler.unit.new_slot(), cls.type)
        for p in op.params:
            scope.vars[p.name] = (compiler.unit.new_slot(), p.type)
        compiler.implicit.append((scope.vars["self"][0], cls.type))
        body = compiler.compile(op.body, scope)
        if op.result is not None and not body.type.conforms_to(op.result):
            raise compiler.error(
                op.body,
                f"type of operation body `{body.type}' does not conform to the declared result type "
                f"`{op.result}'",
            )
        impl.fn = body.fn
        impl.frame_size = compiler.unit.size

    def _compile_with_self(self, cls: Class, expr: ast.Expr, expected: Type, what: str) -> tuple[Fn, int]:
        compiler = self.compiler(file=self.file)
        scope = _Scope()
        slot = compiler.unit.new_slot()
        scope.vars["self"] = (slot, cls.type)
        compiler.implicit.append((slot, cls.type))
        body = compiler.compile(expr, scope)
        if not body.type.conforms_to(expected):
            raise compiler.error(expr, f"type of {what} `{body.type}' does not conform to `{expected}'")
        return body.fn, compiler.unit.size

    def compile_invariant(self, inv: Invariant) -> CompiledInvariant:
        cls = self.model.classes[inv.class_name]
        compiler = self.compiler(file=inv.position.file)
        scope = _Scope()
        slots = []
        for name in inv.variables:
            slot = compiler.unit.new_slot()
            scope.vars[name] = (slot, cls.type)
            compiler.implicit.append((slot, cls.type))
            slots.append(slot)
        body = compiler.compile(inv.expr, scope)
        if body.type != BOOLEAN:
            raise compiler.error(
                inv.expr, f"an invariant must be a Boolean expression, found type `{body.type}'"
            )
        return CompiledInvariant(inv, cls, body.fn, compiler.unit.size, tuple(slots))

    # -- runtime services ----------------------------------------------------------------------------
    def operation(self, cls: Class, name: str) -> _OperationImpl | None:
        """The implementation of ``name`` for an object of ``cls`` (dynamic dispatch, like USE)."""
        key = (cls.name, name)
        if key not in self._dispatch:
            op = cls.operation(name)
            self._dispatch[key] = self._ops.get(id(op)) if op is not None else None
        return self._dispatch[key]

    def derived_value(self, ctx: EvalContext, attr_id: int, obj: Obj) -> Any:
        return self._with_self(self._derived[attr_id], ctx, obj)

    def initial_value(self, ctx: EvalContext, attr: Attribute, obj: Obj) -> Any:
        return self._with_self(self._init[id(attr)], ctx, obj)

    @staticmethod
    def _with_self(compiled: tuple[Fn, int], ctx: EvalContext, obj: Obj) -> Any:
        fn, size = compiled
        env: list[Any] = [None] * size
        env[0] = ctx
        env[1] = obj
        return fn(env)

    def context(self, state: ObjectState) -> EvalContext:
        return EvalContext(state, self)


# ================================================================================== the compiler
class Compiler:
    def __init__(
        self, runtime: Runtime, *, objects: Mapping[str, Obj] | None = None, file: str | None = None
    ):
        self.runtime = runtime
        self.model = runtime.model
        self.objects = objects or {}
        self.file = file
        self.unit = _Unit()
        self.implicit: list[tuple[int, Type]] = []

    def error(self, node: ast.Node | None, message: str) -> OclTypeError:
        line = node.line if node is not None and node.line else None
        column = node.column if node is not None and node.line else None
        return OclTypeError(message, file=self.file, line=line, column=column)

    # -- types ---------------------------------------------------------------------------------------
    def resolve_type(self, t: ast.TypeExpr) -> Type:
        if isinstance(t, ast.SimpleTypeExpr):
            found = self.model.type_named(t.name)
            if found is None:
                raise self.error(t, f"undefined type `{t.name}'")
            return found
        if isinstance(t, ast.CollectionTypeExpr):
            return CollectionType(t.kind, self.resolve_type(t.elem))
        if isinstance(t, ast.TupleTypeExpr):
            return TupleType((n, self.resolve_type(p)) for n, p in t.parts)
        raise TypeError(t)

    # -- entry points --------------------------------------------------------------------------------
    def compile_query(self, expr: ast.Expr, variables: dict[str, Type] | None = None) -> CompiledExpression:
        scope = _Scope()
        slots = {}
        for name, t in (variables or {}).items():
            slot = self.unit.new_slot()
            scope.vars[name] = (slot, t)
            slots[name] = slot
        body = self.compile(expr, scope)
        return CompiledExpression(expr, body.type, body.fn, self.unit.size, slots)

    def compile(self, e: ast.Expr, scope: _Scope) -> Compiled:
        method = getattr(self, "_" + type(e).__name__)
        return method(e, scope)

    # -- literals ------------------------------------------------------------------------------------
    def _IntegerLit(self, e: ast.IntegerLit, scope: _Scope) -> Compiled:
        return Compiled(INTEGER, _const(e.value))

    def _RealLit(self, e: ast.RealLit, scope: _Scope) -> Compiled:
        return Compiled(REAL, _const(e.value))

    def _StringLit(self, e: ast.StringLit, scope: _Scope) -> Compiled:
        return Compiled(STRING, _const(e.value))

    def _BooleanLit(self, e: ast.BooleanLit, scope: _Scope) -> Compiled:
        return Compiled(BOOLEAN, _const(TRUE if e.value else FALSE))

    def _NullLit(self, e: ast.NullLit, scope: _Scope) -> Compiled:
        t = self.resolve_type(e.type) if e.type is not None else OCL_VOID
        return Compiled(t, _const(None))

    def _EnumLit(self, e: ast.EnumLit, scope: _Scope) -> Compiled:
        if e.enum is None:
            found = self.model.enum_for_literal(e.literal)
            if found is None:
                raise self.error(e, f"undefined enumeration literal `{e.literal}'")
            enum = found
        else:
            enum_or_none = self.model.enumerations.get(e.enum)
            if enum_or_none is None:
                raise self.error(e, f"undefined enumeration `{e.enum}'")
            enum = enum_or_none
            if e.literal not in enum.literals:
                raise self.error(e, f"undefined enumeration literal `{e.literal}' for enumeration `{e.enum}'")
        return Compiled(enum.type, _const(enum.values[e.literal]))

    def _CollectionLit(self, e: ast.CollectionLit, scope: _Scope) -> Compiled:
        parts: list[tuple[bool, Fn, Fn | None]] = []
        types: list[Type] = []
        for item in e.items:
            if isinstance(item, ast.RangeItem):
                first, last = self.compile(item.first, scope), self.compile(item.last, scope)
                for bound, node in ((first, item.first), (last, item.last)):
                    if bound.type != INTEGER:
                        raise self.error(node, f"range bounds must be Integer, found `{bound.type}'")
                parts.append((True, first.fn, last.fn))
                types.append(INTEGER)
            else:
                c = self.compile(item, scope)
                parts.append((False, c.fn, None))
                types.append(c.type)
        if not types:
            elem: Type | None = OCL_VOID
        elif len(types) == 1:
            elem = types[0]
        else:
            elem = unique_lcs(types)
        if elem is None:
            raise self.error(e, "no common supertype of the element types: " + ", ".join(map(str, types)))
        kind = e.kind
        if all(not is_range for is_range, _, _ in parts):
            fns = [f for _, f, _ in parts]
            if kind in ("Set", "Bag"):  # added in the literal's order, as USE does
                hashed = OclSet if kind == "Set" else OclBag
                return Compiled(
                    CollectionType(kind, elem), lambda env: hashed([f(env) for f in fns], known=True)
                )
            cls = {"Sequence": OclSequence, "OrderedSet": OclOrderedSet}[kind]
            return Compiled(CollectionType(kind, elem), lambda env: cls([f(env) for f in fns]))  # type: ignore

        def build(env: list[Any]) -> OclCollection:
            values: list[Any] = []
            for is_range, f, g in parts:
                if not is_range:
                    values.append(f(env))
                    continue
                lo = f(env)
                if lo is None:
                    values.append(None)
                    continue
                hi = g(env)  # type: ignore[misc]
                if hi is None:
                    values.append(None)
                    continue
                values.extend(range(lo, hi + 1))
            made = make_collection(kind, values)
            if type(made) in (OclSet, OclBag):
                made.known = True  # type: ignore[attr-defined]  # added in the literal's order, as USE does
            return made

        return Compiled(CollectionType(kind, elem), build)

    def _EmptyCollectionLit(self, e: ast.EmptyCollectionLit, scope: _Scope) -> Compiled:
        t = self.resolve_type(e.type)
        assert isinstance(t, CollectionType)
        if t.kind == "Collection":
            raise self.error(e, "the abstract type `Collection' cannot be instantiated")
        return Compiled(t, _const(make_collection(t.kind, ())))

    def _TupleLit(self, e: ast.TupleLit, scope: _Scope) -> Compiled:
        parts: list[tuple[str, Type]] = []
        fns: list[tuple[str, Fn]] = []
        for item in e.items:
            c = self.compile(item.value, scope)
            t = c.type
            if item.type is not None:
                declared = self.resolve_type(item.type)
                if not c.type.conforms_to(declared):
                    raise self.error(
                        item, f"type `{c.type}' of tuple part `{item.name}' does not conform to `{declared}'"
                    )
                t = declared
            parts.append((item.name, t))
            fns.append((item.name, c.fn))
        tuple_type = TupleType(parts)
        return Compiled(tuple_type, lambda env: OclTuple(tuple_type, {n: f(env) for n, f in fns}))

    def _ObjectRef(self, e: ast.ObjectRef, scope: _Scope) -> Compiled:
        obj = self.objects.get(e.name)
        if obj is None:
            raise self.error(e, f"undefined object `@{e.name}'")
        return Compiled(obj.cls.type, _const(obj))

    # -- names ---------------------------------------------------------------------------------------
    def _Name(self, e: ast.Name, scope: _Scope) -> Compiled:
        if e.pre:
            raise self.error(e, "modifier @pre is only allowed in postconditions")
        hit = scope.lookup(e.name)
        if hit is not None:
            slot, t = hit
            return Compiled(t, itemgetter(slot))
        if e.name in self.objects:
            obj = self.objects[e.name]
            return Compiled(obj.cls.type, _const(obj))
        if self.implicit:
            slot, t = self.implicit[-1]
            source = Compiled(t, itemgetter(slot))
            return self._property(source, isinstance(t, CollectionType), e.name, None, (), e, scope)
        raise self.error(e, f"undefined variable `{e.name}'")

    # -- property calls ------------------------------------------------------------------------------
    def _PropertyCall(self, e: ast.PropertyCall, scope: _Scope) -> Compiled:
        if e.pre:
            raise self.error(e, "modifier @pre is only allowed in postconditions")
        if e.source is None:
            if not self.implicit:
                raise self.error(e, f"undefined operation `{e.name}'")
            slot, t = self.implicit[-1]
            source = Compiled(t, itemgetter(slot))
            return self._property(source, isinstance(t, CollectionType), e.name, e.args, e.roles, e, scope)
        if e.name == "allInstances" and not e.arrow and isinstance(e.source, ast.Name) and not e.args:
            if scope.lookup(e.source.name) is None and e.source.name not in self.objects:
                return self._all_instances(e.source)
        if e.name == "byUseId" and not e.arrow and isinstance(e.source, ast.Name) and len(e.args or ()) == 1:
            if scope.lookup(e.source.name) is None and e.source.name not in self.objects:
                return self._by_use_id(e.source, self.compile(e.args[0], scope))  # type: ignore[index]
        source = self.compile(e.source, scope)
        return self._property(source, e.arrow, e.name, e.args, e.roles, e, scope)

    def _all_instances(self, name: ast.Name) -> Compiled:
        t = self.model.type_named(name.name)
        if t is None:
            raise self.error(name, f"undefined class `{name.name}'")
        if not isinstance(t, ClassType):
            raise self.error(name, f"expected an object type, found `{t}'")
        cls = t.cls
        return Compiled(CollectionType("Set", t), lambda env: env[0].instances(cls))

    def _by_use_id(self, name: ast.Name, key: Compiled) -> Compiled:
        """USE's ``C.byUseId(name)`` (``ExpObjectByUseId``): the object of that name if it is a ``C``."""
        cls = self.model.classes.get(name.name)
        if cls is None:
            raise self.error(name, f"Expected object type, found `{name.name}'.")
        if not (key.type == STRING or key.type.is_void):
            raise self.error(
                name,
                f"Operation {name.name}.byUseId(expression) requires an expression of type `String', found "
                f"`{key.type}'.",
            )
        key_fn, class_name = key.fn, cls.name

        def by_use_id(env: list[Any]) -> Any:
            obj = env[0].state.objects.get(key_fn(env))
            return obj if obj is not None and class_name in obj.cls.ancestor_names else None

        return Compiled(cls.type, by_use_id)

    def _property(
        self,
        source: Compiled,
        arrow: bool,
        name: str,
        args: tuple[ast.Expr, ...] | None,
        roles: tuple[str, ...],
        node: ast.Expr,
        scope: _Scope,
    ) -> Compiled:
        st = source.type
        has_parens = args is not None
        arg_cs = [self.compile(a, scope) for a in (args or ())]
        if roles and (arrow or has_parens or not isinstance(st, ClassType | CollectionType)):
            raise self.error(
                node, f"a role qualification `[...]' needs an object navigation, as in `x.{name}[role]'"
            )
        if isinstance(st, ClassType):
            if arrow:
                if not source.is_navigation:
                    raise self.error(
                        node,
                        "an arrow operation treating a single object as a set may only be applied if "
                        "the object "
                        "results from a navigation to an association end with multiplicity 0..1",
                    )
                elem = st
                src_fn = source.fn

                def as_set(env: list[Any]) -> OclSet:
                    v = src_fn(env)
                    return OclSet(()) if v is None else OclSet((v,))

                return self._std_op(name, [Compiled(CollectionType("Set", elem), as_set), *arg_cs], node)
            if not has_parens:
                return self._object_feature(source, st.cls, name, roles, node)
            return self._object_operation(source, st.cls, name, arg_cs, node)
        if isinstance(st, CollectionType):
            if arrow:
                return self._std_op(name, [source, *arg_cs], node)
            return self._collect_shorthand(source, st, name, arg_cs if has_parens else None, roles, node)
        if isinstance(st, TupleType):
            if arrow:
                raise self.error(node, "collection operation not applicable to tuple type")
            part = st.part(name)
            if part is None:
                return self._std_op(name, [source, *arg_cs], node)
            src_fn = source.fn

            def tuple_part(env: list[Any]) -> Any:
                v = src_fn(env)
                return None if v is None else v.values[name]

            return Compiled(part, tuple_part)
        if arrow and st.is_void:  # USE: `null->op()` applies op to an empty Bag (OCL 2.3.1)
            source = Compiled(CollectionType("Bag", OCL_VOID), _const(OclBag(())))
        return self._std_op(name, [source, *arg_cs], node)

    def _object_feature(
        self, source: Compiled, cls: Class, name: str, roles: tuple[str, ...], node: ast.Expr
    ) -> Compiled:
        attr = cls.attribute(name) if not roles else None
        if attr is not None:
            src_fn = source.fn
            if attr.derive is not None:
                runtime, attr_id = self.runtime, id(attr)

                def derived(env: list[Any]) -> Any:
                    o = src_fn(env)
                    return None if o is None else runtime.derived_value(env[0], attr_id, o)

                return Compiled(attr.type, derived)

            def read(env: list[Any]) -> Any:
                o = src_fn(env)
                return None if o is None else o.values.get(name)

            return Compiled(attr.type, read)
        nav = self._navigation(cls, name, roles, node)
        if nav is not None:
            return self._navigate(source, nav)
        if ops.is_known(name):
            return self._std_op(name, [source], node)
        raise self.error(node, f"`{name}' is neither an attribute nor a role name of class `{cls.name}'")

    def _navigation(self, cls: Class, name: str, roles: tuple[str, ...], node: ast.Expr) -> Navigation | None:
        navs = cls.navigations(name)
        if not navs:
            if roles:
                raise self.error(node, f"`{name}' is not a valid role name reachable from class `{cls.name}'")
            return None
        if roles:
            if len(roles) > 1:
                raise self.error(node, f"more than one qualification given for the navigation to `{name}'")
            chosen = [n for n in navs if n.source_end is not None and n.source_end.name == roles[0]]
            if not chosen:
                raise self.error(
                    node,
                    f"`{roles[0]}' is not a role name of class `{cls.name}' in association "
                    f"`{navs[0].association.name}'",
                )
            return chosen[0]
        if len(navs) > 1:
            raise self.error(
                node,
                f"the navigation path from `{cls.name}' to `{name}' is ambiguous; qualify it with the "
                "source role, "
                f"as in `{name}[{navs[0].source_end.name if navs[0].source_end else '?'}]'",
            )
        return navs[0]

    def _navigate(self, source: Compiled, nav: Navigation) -> Compiled:
        src_fn = source.fn

        def navigate(env: list[Any]) -> Any:
            o = src_fn(env)
            return None if o is None else env[0].navigate(nav, o)

        return Compiled(nav.result_type, navigate, is_navigation=True)

    def _object_operation(
        self, source: Compiled, cls: Class, name: str, args: list[Compiled], node: ast.Expr
    ) -> Compiled:
        op = cls.operation(name)
        if op is None:
            return self._std_op(name, [source, *args], node)
        if op.body is None:
            raise self.error(node, f"operation {cls.name}::{name} has no body")
        where = f"in operation call `{op.owner}::{name}'"
        if len(args) != len(op.params):
            raise self.error(
                node,
                f"{where}: number of arguments does not match the declaration: expected "
                f"{len(op.params)} argument(s), found {len(args)}",
            )
        for i, (arg, param) in enumerate(zip(args, op.params, strict=True)):
            if not arg.type.conforms_to(param.type):
                raise self.error(
                    node,
                    f"{where}: type of argument {i + 1} `{arg.type}' does not conform to the declared type "
                    f"`{param.type}' of parameter `{param.name}'",
                )
        result = op.result if op.result is not None else OCL_VOID
        runtime = self.runtime
        src_fn = source.fn
        arg_fns = [a.fn for a in args]

        def call(env: list[Any]) -> Any:
            o = src_fn(env)
            if o is None:
                return None
            impl = runtime.operation(o.cls, name)
            if impl is None or impl.fn is None:
                return None
            frame: list[Any] = [None] * impl.frame_size
            frame[0] = env[0]
            frame[1] = o
            for i, f in enumerate(arg_fns):
                frame[2 + i] = f(env)
            return impl.fn(frame)

        return Compiled(result, call)

    def _collect_shorthand(
        self,
        source: Compiled,
        st: CollectionType,
        name: str,
        args: list[Compiled] | None,
        roles: tuple[str, ...],
        node: ast.Expr,
    ) -> Compiled:
        elem = st.elem
        slot = self.unit.new_slot()
        var = Compiled(elem, itemgetter(slot))
        body: Compiled | None = None
        if args is None:
            if isinstance(elem, ClassType):
                if elem.cls.attribute(name) is not None and not roles:
                    body = self._object_feature(var, elem.cls, name, (), node)
                else:
                    nav = self._navigation(elem.cls, name, roles, node)
                    if nav is not None:
                        body = self._navigate(var, nav)
            elif isinstance(elem, TupleType) and elem.part(name) is not None:
                body = self._property(var, False, name, None, (), node, _Scope())
        elif isinstance(elem, ClassType) and elem.cls.operation(name) is not None:
            body = self._object_operation(var, elem.cls, name, args, node)
        if body is None:
            arg_list = args or []
            found = ops.lookup(name, [elem, *(a.type for a in arg_list)])
            if found is None:
                message = f"undefined operation `{elem}.{name}' in shorthand notation for collect"
                if ops.lookup(name, [st, *(a.type for a in arg_list)]) is not None:
                    message += f"; there is an operation `{st}->{name}', maybe you meant `->' instead of `.'"
                elif isinstance(elem, ClassType):
                    message = (
                        f"`{name}' is neither an attribute nor a role name of class `{elem.cls.name}' "
                        f"(in the collect shorthand over `{st}')"
                    )
                raise self.error(node, message)
            body = self._std_op(name, [var, *arg_list], node)
        return self._collect(source, (slot,), body, nested=False)

    # -- standard operations -------------------------------------------------------------------------
    def _std_op(self, name: str, args: list[Compiled], node: ast.Expr) -> Compiled:
        types = [a.type for a in args]
        if name == "oclIsNew":
            raise self.error(node, "operation oclIsNew is only allowed in postconditions")
        found = ops.lookup(name, types)
        if found is None:
            if not ops.is_known(name):
                raise self.error(
                    node, f"undefined operation named `{name}' in expression `{ops.signature(name, types)}'"
                )
            arities = sorted({o.arity - 1 for o in ops.OPERATIONS[name]})
            if len(types) - 1 not in arities:
                expected = " or ".join(map(str, arities))
                raise self.error(
                    node,
                    f"wrong number of arguments for `{name}': expected {expected}, found {len(types) - 1}",
                )
            raise self.error(node, f"undefined operation `{ops.signature(name, types)}'")
        op, result = found
        if op.lazy_boolean:
            return self._boolean(name, args, result)
        impl = op.make(types, result)
        fns = [a.fn for a in args]
        return Compiled(result, _call(impl, fns, op.strict))

    def _boolean(self, name: str, args: list[Compiled], result: Type) -> Compiled:
        a = args[0].fn
        if name == "not":

            def not_(env: list[Any]) -> Any:
                v = a(env)
                return None if v is None else (FALSE if v is TRUE else TRUE)

            return Compiled(result, not_)
        b = args[1].fn
        if name == "and":

            def and_(env: list[Any]) -> Any:
                x = a(env)
                if x is FALSE:
                    return FALSE
                y = b(env)
                if x is TRUE:
                    return y
                return FALSE if y is FALSE else None

            return Compiled(result, and_)
        if name == "or":

            def or_(env: list[Any]) -> Any:
                x = a(env)
                if x is TRUE:
                    return TRUE
                y = b(env)
                if x is FALSE:
                    return y
                return TRUE if y is TRUE else None

            return Compiled(result, or_)
        if name == "implies":

            def implies(env: list[Any]) -> Any:
                x = a(env)
                if x is FALSE:
                    return TRUE
                y = b(env)
                if x is TRUE:
                    return y
                return TRUE if y is TRUE else None

            return Compiled(result, implies)

        def xor(env: list[Any]) -> Any:
            x = a(env)
            if x is None:
                return None
            y = b(env)
            if x is FALSE or y is None:
                return y
            return FALSE if y is TRUE else TRUE

        return Compiled(result, xor)

    # -- operators, if, let --------------------------------------------------------------------------
    def _Unary(self, e: ast.Unary, scope: _Scope) -> Compiled:
        return self._std_op(e.op, [self.compile(e.operand, scope)], e)

    def _Binary(self, e: ast.Binary, scope: _Scope) -> Compiled:
        return self._std_op(e.op, [self.compile(e.left, scope), self.compile(e.right, scope)], e)

    def _If(self, e: ast.If, scope: _Scope) -> Compiled:
        cond = self.compile(e.condition, scope)
        if not cond.type.conforms_to(BOOLEAN):
            raise self.error(e.condition, f"Boolean expression expected in `if', found type `{cond.type}'")
        then, otherwise = self.compile(e.then, scope), self.compile(e.otherwise, scope)
        t = then.type.lcs(otherwise.type)
        if t is None:
            raise self.error(
                e, f"branches of if expression have unrelated types `{then.type}' and `{otherwise.type}'"
            )
        c, x, y = cond.fn, then.fn, otherwise.fn

        def if_(env: list[Any]) -> Any:
            v = c(env)
            if v is TRUE:
                return x(env)
            if v is FALSE:
                return y(env)
            return None

        return Compiled(t, if_)

    def _Let(self, e: ast.Let, scope: _Scope) -> Compiled:
        inner = scope
        steps: list[tuple[int, Fn]] = []
        for binding in e.bindings:
            value = self.compile(binding.value, inner)
            t = value.type
            if binding.type is not None:
                declared = self.resolve_type(binding.type)
                if not value.type.conforms_to(declared):
                    raise self.error(
                        binding,
                        f"type of variable expression `{value.type}' "
                        f"does not match declared type `{declared}'",
                    )
                t = declared
            inner = inner.child()
            slot = self.unit.new_slot()
            inner.vars[binding.name] = (slot, t)
            steps.append((slot, value.fn))
        body = self.compile(e.body, inner)
        body_fn = body.fn

        def let(env: list[Any]) -> Any:
            for slot, f in steps:
                env[slot] = f(env)
            return body_fn(env)

        return Compiled(body.type, let)

    # -- type operations -----------------------------------------------------------------------------
    def _TypeOp(self, e: ast.TypeOp, scope: _Scope) -> Compiled:
        target = self.resolve_type(e.type)
        if e.source is None:
            if not self.implicit:
                raise self.error(e, f"need an object to apply `{e.name}'")
            slot, t = self.implicit[-1]
            source = Compiled(t, itemgetter(slot))
        else:
            source = self.compile(e.source, scope)
        st = source.type
        if (
            isinstance(st, CollectionType) and not e.arrow
        ):  # c.oclIsKindOf(T) is c->collect(x | x.oclIsKindOf(T))
            slot = self.unit.new_slot()
            body = self._type_op(e, Compiled(st.elem, itemgetter(slot)), target)
            return self._collect(source, (slot,), body, nested=False)
        return self._type_op(e, source, target)

    def _type_op(self, e: ast.TypeOp, source: Compiled, target: Type) -> Compiled:
        src = source.fn
        name = e.name
        if name in ("selectByKind", "selectByType"):
            st = source.type
            if st.is_void:
                result_type: Type = OCL_VOID
                kind = None
            elif isinstance(st, CollectionType):
                result_type = (
                    st.with_elem(target) if st.kind != "Collection" else CollectionType("Collection", target)
                )
                kind = st.kind
            else:
                raise self.error(e, f"the operation `{name}' is only applicable on collections")
            exact = name == "selectByType"

            def select_by(env: list[Any]) -> Any:
                r = src(env)
                if r is None:
                    return None
                chosen = [
                    v
                    for v in r
                    if v is not None
                    and (runtime_type(v) == target if exact else runtime_type(v).conforms_to(target))
                ]
                return make_collection(r.kind if kind in (None, "Collection") else kind, chosen)

            return Compiled(result_type, select_by)
        if name == "oclAsType":
            if not target.conforms_to(source.type):  # USE's ExpAsType: a downcast (or no cast) only
                raise self.error(
                    e.type,
                    f"Target type `{target}' is not a subtype of the source expression's type "
                    f"`{source.type}'.",
                )

            def as_type(env: list[Any]) -> Any:
                v = src(env)
                if v is None:
                    return None
                return v if runtime_type(v).conforms_to(target) else None

            return Compiled(target, as_type)
        if name == "oclIsKindOf":
            if isinstance(target, ClassType):
                target_name = target.cls.name

                def is_kind_of_class(env: list[Any]) -> OclBoolean:
                    v = src(env)
                    if v is None:
                        return TRUE  # USE: the runtime type OclVoid conforms to every type
                    return TRUE if type(v) is Obj and target_name in v.cls.ancestor_names else FALSE

                return Compiled(BOOLEAN, is_kind_of_class)

            def is_kind_of(env: list[Any]) -> OclBoolean:
                return TRUE if runtime_type(src(env)).conforms_to(target) else FALSE

            return Compiled(BOOLEAN, is_kind_of)

        def is_type_of(env: list[Any]) -> OclBoolean:
            return TRUE if runtime_type(src(env)) == target else FALSE

        return Compiled(BOOLEAN, is_type_of)

    # -- iterators -----------------------------------------------------------------------------------
    def _iteration_source(self, e: ast.IteratorCall | ast.Iterate, scope: _Scope, name: str) -> Compiled:
        if e.source is None:
            if not self.implicit:
                raise self.error(e, f"need a collection to apply `{name}'")
            slot, t = self.implicit[-1]
            source = Compiled(t, itemgetter(slot))
        else:
            source = self.compile(e.source, scope)
        if not (isinstance(source.type, CollectionType) or source.type.is_void):
            raise self.error(
                e,
                f"source of `{name}' expression must be a collection, found source expression of type "
                f"`{source.type}'",
            )
        return source

    def _declare(self, decls: tuple[ast.VarDecl, ...], elem: Type, scope: _Scope) -> tuple[_Scope, list[int]]:
        inner = scope.child()
        slots = []
        for d in decls:
            if d.name in inner.vars:
                raise self.error(d, f"double declared variable `{d.name}'")
            t = elem
            if d.type is not None:
                t = self.resolve_type(d.type)
                if not elem.conforms_to(t):
                    raise self.error(d, f"invalid type `{t}' for source element type `{elem}' specified")
            slot = self.unit.new_slot()
            inner.vars[d.name] = (slot, t)
            slots.append(slot)
        return inner, slots

    def _IteratorCall(self, e: ast.IteratorCall, scope: _Scope) -> Compiled:
        source = self._iteration_source(e, scope, e.name)
        elem = source.type.elem if isinstance(source.type, CollectionType) else OCL_VOID
        if e.variables:
            if len(e.variables) > 1 and e.name not in ("forAll", "exists", "one"):
                raise self.error(e, f"only one element variable in {e.name} expression allowed")
            inner, slots = self._declare(e.variables, elem, scope)
            body = self.compile(e.body, inner)
        else:
            slot = self.unit.new_slot()
            self.implicit.append((slot, elem))
            try:
                body = self.compile(e.body, scope)
            finally:
                self.implicit.pop()
            slots = [slot]
        if e.name in ("select", "reject", "forAll", "exists", "any", "one") and body.type != BOOLEAN:
            raise self.error(
                e.body, f"argument expression of `{e.name}' must have boolean type, found `{body.type}'"
            )
        return getattr(self, "_iter_" + e.name)(e, source, tuple(slots), body)

    def _iter_select(
        self,
        e: ast.IteratorCall,
        source: Compiled,
        slots: tuple[int, ...],
        body: Compiled,
        keep: OclBoolean = TRUE,
    ) -> Compiled:
        src, test, slot = source.fn, body.fn, slots[0]
        wanted = keep is TRUE

        def select(env: list[Any]) -> Any:
            r = src(env)
            if r is None:
                return None
            chosen = []
            for x in r:
                env[slot] = x
                if (test(env) is TRUE) is wanted:
                    chosen.append(x)
            if type(r) is OclSet:
                return OclSet._of_dict(dict.fromkeys(chosen), known=r.known)
            if type(r) is OclOrderedSet:
                return OclOrderedSet.unchecked(tuple(chosen))
            if type(r) is OclBag:
                return OclBag(chosen, known=r.known)
            return type(r)(chosen)

        return Compiled(source.type, select)

    def _iter_reject(
        self, e: ast.IteratorCall, source: Compiled, slots: tuple[int, ...], body: Compiled
    ) -> Compiled:
        return self._iter_select(e, source, slots, body, keep=FALSE)

    def _quantifier(self, source: Compiled, slots: tuple[int, ...], body: Compiled, exists: bool) -> Fn:
        src, test = source.fn, body.fn
        hit, miss = (TRUE, FALSE) if exists else (FALSE, TRUE)
        if len(slots) == 1:
            slot = slots[0]
            if exists:

                def exists1(env: list[Any]) -> Any:
                    r = src(env)
                    if r is None:
                        return None
                    for x in r:
                        env[slot] = x
                        if test(env) is TRUE:
                            return TRUE
                    return FALSE

                return exists1

            def for_all1(env: list[Any]) -> Any:
                r = src(env)
                if r is None:
                    return None
                for x in r:
                    env[slot] = x
                    if test(env) is not TRUE:  # an undefined body counts as false
                        return FALSE
                return TRUE

            return for_all1

        def quantify(env: list[Any]) -> Any:
            r = src(env)
            if r is None:
                return None
            elems = list(r)
            for combo in product(elems, repeat=len(slots)):
                for slot, x in zip(slots, combo, strict=True):
                    env[slot] = x
                if (test(env) is TRUE) == exists:
                    return hit
            return miss

        return quantify

    def _iter_forAll(
        self, e: ast.IteratorCall, source: Compiled, slots: tuple[int, ...], body: Compiled
    ) -> Compiled:
        return Compiled(BOOLEAN, self._quantifier(source, slots, body, exists=False))

    def _iter_exists(
        self, e: ast.IteratorCall, source: Compiled, slots: tuple[int, ...], body: Compiled
    ) -> Compiled:
        return Compiled(BOOLEAN, self._quantifier(source, slots, body, exists=True))

    def _iter_one(
        self, e: ast.IteratorCall, source: Compiled, slots: tuple[int, ...], body: Compiled
    ) -> Compiled:
        src, test = source.fn, body.fn

        def one(env: list[Any]) -> Any:
            r = src(env)
            if r is None:
                return None
            found = 0
            for combo in product(list(r), repeat=len(slots)):
                for slot, x in zip(slots, combo, strict=True):
                    env[slot] = x
                if test(env) is TRUE:
                    found += 1
                    if found > 1:
                        return FALSE
            return TRUE if found == 1 else FALSE

        return Compiled(BOOLEAN, one)

    def _iter_any(
        self, e: ast.IteratorCall, source: Compiled, slots: tuple[int, ...], body: Compiled
    ) -> Compiled:
        src, test, slot = source.fn, body.fn, slots[0]

        def any_(env: list[Any]) -> Any:
            r = src(env)
            if r is None:
                return None
            for x in r:
                env[slot] = x
                if test(env) is TRUE:
                    tied = _ties(r)
                    if tied is not None:
                        _any_tie(env, tied, x, test, slot)
                    return x
            return None

        elem = source.type.elem if isinstance(source.type, CollectionType) else OCL_VOID
        return Compiled(elem, any_)

    def _iter_isUnique(
        self, e: ast.IteratorCall, source: Compiled, slots: tuple[int, ...], body: Compiled
    ) -> Compiled:
        src, f, slot = source.fn, body.fn, slots[0]

        def is_unique(env: list[Any]) -> Any:
            r = src(env)
            if r is None:
                return None
            seen: set[Any] = set()
            for x in r:
                env[slot] = x
                v = f(env)
                if v in seen:
                    return FALSE
                seen.add(v)
            return TRUE

        return Compiled(BOOLEAN, is_unique)

    def _iter_sortedBy(
        self, e: ast.IteratorCall, source: Compiled, slots: tuple[int, ...], body: Compiled
    ) -> Compiled:
        if not (is_number(body.type) or body.type == STRING):
            raise self.error(
                e.body,
                f"argument of sortedBy must have basic type (Integer, Real, or String), found `{body.type}'",
            )
        st = source.type
        elem = st.elem if isinstance(st, CollectionType) else OCL_VOID
        ordered_set = isinstance(st, CollectionType) and st.kind in ("Set", "OrderedSet")
        result = CollectionType("OrderedSet" if ordered_set else "Sequence", elem)
        src, f, slot = source.fn, body.fn, slots[0]

        def sorted_by(env: list[Any]) -> Any:
            r = src(env)
            if r is None:
                return None
            keyed = []
            for x in r:
                env[slot] = x
                keyed.append((f(env), x))
            tied = _ties(r)
            if tied is not None:
                key_of = {id(x): k for k, x in keyed}
                seen: set[tuple[int, Any]] = set()
                for x, b in zip(*tied, strict=True):
                    mark = (b, key_of[id(x)])
                    if mark in seen:
                        env[0].order_dependent("`sortedBy' ties in one hash bucket of a Set or Bag")
                        break
                    seen.add(mark)
            if all(type(k) in (int, float) for k, _ in keyed) or all(type(k) is str for k, _ in keyed):
                keyed.sort(key=itemgetter(0))
            else:
                keyed.sort(key=cmp_to_key(_compare_keys))
            items = tuple(x for _, x in keyed)
            # the result kind follows the static source type (USE's ExpSortedBy.determineType)
            return OclOrderedSet(items) if ordered_set else OclSequence(items)

        return Compiled(result, sorted_by)

    def _iter_collect(
        self, e: ast.IteratorCall, source: Compiled, slots: tuple[int, ...], body: Compiled
    ) -> Compiled:
        return self._collect(source, slots, body, nested=False)

    def _iter_collectNested(
        self, e: ast.IteratorCall, source: Compiled, slots: tuple[int, ...], body: Compiled
    ) -> Compiled:
        return self._collect(source, slots, body, nested=True)

    def _collect(self, source: Compiled, slots: tuple[int, ...], body: Compiled, *, nested: bool) -> Compiled:
        st = source.type
        sequence = isinstance(st, CollectionType) and st.kind in ("Sequence", "OrderedSet")
        body_type = body.type
        flatten = not nested and isinstance(body_type, CollectionType)
        elem = body_type.elem if isinstance(body_type, CollectionType) and flatten else body_type
        result = CollectionType("Sequence" if sequence else "Bag", elem)
        src, f, slot = source.fn, body.fn, slots[0]

        def collect(env: list[Any]) -> Any:
            r = src(env)
            if r is None:
                return None
            out: list[Any] = []
            if flatten:
                for x in r:
                    env[slot] = x
                    v = f(env)
                    if v is None:
                        out.append(None)  # USE keeps undefined results
                    else:
                        out.extend(v)
            else:
                for x in r:
                    env[slot] = x
                    out.append(f(env))
            if isinstance(r, OclSequence):
                return OclSequence(out)
            return OclBag(out, known=type(r) in (OclSet, OclBag) and r.known)  # type: ignore[union-attr]

        return Compiled(result, collect)

    def _iter_closure(
        self, e: ast.IteratorCall, source: Compiled, slots: tuple[int, ...], body: Compiled
    ) -> Compiled:
        st = source.type
        elem = st.elem if isinstance(st, CollectionType) else OCL_VOID
        bt = body.type
        flat = bt.elem if isinstance(bt, CollectionType) and not bt.conforms_to(elem) else bt  # type: ignore
        if not flat.conforms_to(elem):
            raise self.error(
                e.body, f"query expression must be of type `{elem}' or `Collection({elem})', but is `{bt}'"
            )
        ordered = isinstance(st, CollectionType) and st.kind in ("Sequence", "OrderedSet")
        result = CollectionType("OrderedSet" if ordered else "Set", elem)
        src, f, slot = source.fn, body.fn, slots[0]

        def expand(v: Any) -> tuple[Any, ...]:
            if isinstance(v, OclCollection) and not runtime_type(v).conforms_to(elem):
                return tuple(v)
            return (v,)

        def closure(env: list[Any]) -> Any:
            r = src(env)
            if r is None:
                return None
            found: dict[Any, None] = dict.fromkeys(r)
            # USE's depth-first evalClosureAux, with an explicit stack instead of recursion:
            # a "process" frame evaluates the body for each value, a "check" frame adds new results
            # and processes each new one before looking at the next result
            stack: list[tuple[bool, Iterator[Any]]] = [(True, iter(tuple(r)))]
            while stack:
                processing, values = stack[-1]
                x = next(values, _DONE)
                if x is _DONE:
                    stack.pop()
                    continue
                if processing:
                    env[slot] = x
                    stack.append((False, iter(expand(f(env)))))
                elif x not in found:
                    found[x] = None
                    stack.append((True, iter(expand(x))))
            items = tuple(found)
            return OclOrderedSet.unchecked(items) if ordered else OclSet(items)

        return Compiled(result, closure)

    def _Iterate(self, e: ast.Iterate, scope: _Scope) -> Compiled:
        source = self._iteration_source(e, scope, "iterate")
        elem = source.type.elem if isinstance(source.type, CollectionType) else OCL_VOID
        inner, slots = self._declare(e.variables, elem, scope)
        acc = e.accumulator
        assert acc.type is not None
        if acc.name in inner.vars:
            raise self.error(acc, f"redefinition of variable `{acc.name}'")
        acc_type = self.resolve_type(acc.type)
        init = self.compile(e.init, scope)
        if not init.type.conforms_to(acc_type):
            raise self.error(
                e.init,
                f"type mismatch: initialization expression has type `{init.type}', "
                f"expected type `{acc_type}'",
            )
        acc_slot = self.unit.new_slot()
        inner = inner.child()
        inner.vars[acc.name] = (acc_slot, acc_type)
        body = self.compile(e.body, inner)
        if not body.type.conforms_to(acc_type):
            raise self.error(
                e.body,
                f"iteration expression type `{body.type}' does not match accumulator type `{acc_type}'",
            )
        src, init_fn, f = source.fn, init.fn, body.fn

        def run(env: list[Any], elements: list[Any]) -> Any:
            acc_value = init_fn(env)
            for combo in product(elements, repeat=len(slots)):
                for slot, x in zip(slots, combo, strict=True):
                    env[slot] = x
                env[acc_slot] = acc_value
                acc_value = f(env)
            return acc_value

        def iterate(env: list[Any]) -> Any:
            r = src(env)
            if r is None:
                return None
            result = run(env, list(r))
            tied = _ties(r)
            if tied is not None and not java_equals(result, run(env, _ties_reversed(*tied))):
                env[0].order_dependent(
                    "`iterate' over a Set or Bag whose result depends on the order of "
                    "elements in one hash bucket"
                )
            return result

        return Compiled(acc_type, iterate)


def _any_tie(
    env: list[Any], tied: tuple[tuple[Any, ...], tuple[int, ...]], found: Any, test: Fn, slot: int
) -> None:
    """``any`` found ``found``: order-dependent when another match shares its bucket."""
    items, buckets = tied
    where = buckets[items.index(found)]
    for other, b in zip(items, buckets, strict=True):
        if b == where and other is not found:
            env[slot] = other
            if test(env) is TRUE:
                env[0].order_dependent("`any' with several matches in one hash bucket of a Set or Bag")
                break
    env[slot] = found


def _compare_keys(p: tuple[Any, Any], q: tuple[Any, Any]) -> int:
    return java_compare(p[0], q[0])


def _call(impl: Callable[..., Any], fns: list[Fn], strict: bool) -> Fn:
    """A closure evaluating the arguments left to right; strict ones stop at the first undefined."""
    if len(fns) == 1:
        (a,) = fns
        if strict:

            def call1(env: list[Any]) -> Any:
                x = a(env)
                return None if x is None else impl(x)

            return call1
        return lambda env: impl(a(env))
    if len(fns) == 2:
        a, b = fns
        if strict:

            def call2(env: list[Any]) -> Any:
                x = a(env)
                if x is None:
                    return None
                y = b(env)
                if y is None:
                    return None
                return impl(x, y)

            return call2
        return lambda env: impl(a(env), b(env))

    def call_n(env: list[Any]) -> Any:
        values = []
        for f in fns:
            v = f(env)
            if v is None and strict:
                return None
            values.append(v)
        return impl(*values)

    return call_n


__all__ = [
    "Compiled",
    "CompiledExpression",
    "CompiledInvariant",
    "Compiler",
    "EvalContext",
    "MultiplicityViolation",
    "Runtime",
]
