"""Writing an object state as SOIL: the inverse of :func:`benchmark.lang.ocl.soil.parse_soil`.

A state built by a SOIL file (objects, attribute values, links) may have taken any route there --
variables, ``destroy``, ``delete``, values computed from other objects. What the evaluator sees is only the
final state, so that is what is written, in a form that builds it again exactly: objects in creation
order (link objects of association classes with ``new C('l') between (...)`` at their place), then every
attribute value as a literal, then the links of the other associations in insertion order. Reading the
text back gives a state with the same objects, values and link order (the order navigation results and
``allInstances`` follow), which :func:`states_equal` checks.

Values are written as OCL literals built as ASTs and printed by :mod:`benchmark.lang.ocl.printer`:
``-2147483648`` as ``-2147483647 - 1`` (the positive literal is out of range), empty collections with
the element type of the attribute (``Set(Integer){}``). A NaN or infinite Real has no literal, and an
object name that is not an identifier cannot be referred to in SOIL: both are a :class:`StateError`.
"""

from __future__ import annotations

import math
import re
from typing import Any

from benchmark.lang.ocl import ast
from benchmark.lang.ocl.errors import StateError
from benchmark.lang.ocl.parser import RESERVED_WORDS
from benchmark.lang.ocl.printer import print_expr, quote_string
from benchmark.lang.ocl.state import ObjectState
from benchmark.lang.ocl.types import ClassType, CollectionType, EnumType, TupleType, Type
from benchmark.lang.ocl.values import (
    FALSE,
    INT_MIN,
    TRUE,
    EnumValue,
    Obj,
    OclCollection,
    OclTuple,
    runtime_type,
)

_IDENT = re.compile(r"[$A-Za-z_][A-Za-z0-9_]*\Z")


def write_soil(state: ObjectState, *, header: str | None = None) -> str:
    """The state as SOIL text (``header`` lines are written first as ``--`` comments)."""
    out: list[str] = []
    if header:
        out.extend(f"-- {line}".rstrip() for line in header.splitlines())
    for obj in state.objects.values():
        _check_name(obj, state)
        if obj.link is not None:
            participants = ", ".join(o.name for o in obj.link.objects)
            out.append(f"!new {obj.cls.name}({quote_string(obj.name)}) between ({participants})")
        else:
            out.append(f"!new {obj.cls.name}({quote_string(obj.name)})")
    for obj in state.objects.values():
        for name, value in obj.values.items():
            attr = obj.cls.attribute(name)
            declared = attr.type if attr is not None else runtime_type(value)
            text = print_expr(value_expr(value, declared, where=f"{obj.name}.{name}", state=state))
            out.append(f"!set {obj.name}.{name} := {text}")
    for link in state.links:
        if link.link_object is None:
            objects = ", ".join(o.name for o in link.objects)
            out.append(f"!insert ({objects}) into {link.association.name}")
    return "\n".join(out) + "\n"


def _check_name(obj: Obj, state: ObjectState) -> None:
    if not _IDENT.match(obj.name) or obj.name in RESERVED_WORDS:
        raise StateError(
            f"object `{obj.name}' cannot be written as SOIL: its name is not an identifier", file=state.file
        )


def value_expr(
    value: Any, declared: Type, *, where: str = "value", state: ObjectState | None = None
) -> ast.Expr:
    """An OCL literal expression that evaluates to ``value`` (``declared`` types empty collections)."""
    file = state.file if state is not None else None
    if value is None:
        return ast.NullLit()
    if value is TRUE or value is FALSE:
        return ast.BooleanLit(value is TRUE)
    if isinstance(value, int):
        if value == INT_MIN:
            return ast.Binary("-", ast.Unary("-", ast.IntegerLit(-(INT_MIN + 1))), ast.IntegerLit(1))
        return ast.Unary("-", ast.IntegerLit(-value)) if value < 0 else ast.IntegerLit(value)
    if isinstance(value, float):
        if math.isnan(value) or math.isinf(value):
            raise StateError(f"{where}: the Real {value} has no OCL literal", file=file)
        if math.copysign(1.0, value) < 0:
            return ast.Unary("-", ast.RealLit(-value))
        return ast.RealLit(value)
    if isinstance(value, str):
        return ast.StringLit(value)
    if isinstance(value, EnumValue):
        return ast.EnumLit(value.type.name, value.literal)
    if isinstance(value, Obj):
        if state is not None and state.objects.get(value.name) is not value:
            raise StateError(
                f"{where}: refers to object `{value.name}', which is not in the state", file=file
            )
        return ast.ObjectRef(value.name)
    if isinstance(value, OclCollection):
        elem = declared.elem if isinstance(declared, CollectionType) else None
        if elem is None:
            actual = runtime_type(value)
            elem = actual.elem if isinstance(actual, CollectionType) else actual
        items = tuple(value_expr(v, elem, where=where, state=state) for v in value)
        if not items:
            return ast.EmptyCollectionLit(ast.CollectionTypeExpr(value.kind, type_expr(elem)))
        return ast.CollectionLit(value.kind, items)
    if isinstance(value, OclTuple):
        parts = dict(value.type.parts)
        return ast.TupleLit(
            tuple(
                ast.TupleItem(name, None, value_expr(v, parts[name], where=where, state=state))
                for name, v in value.values.items()
            )
        )
    raise StateError(f"{where}: cannot write a value of type {type(value).__name__}", file=file)


def type_expr(t: Type) -> ast.TypeExpr:
    """The type as a type expression (``Set(Integer)``, ``Tuple(a : String)``)."""
    if isinstance(t, CollectionType):
        return ast.CollectionTypeExpr(t.kind, type_expr(t.elem))
    if isinstance(t, TupleType):
        return ast.TupleTypeExpr(tuple((n, type_expr(p)) for n, p in t.parts))
    if isinstance(t, ClassType | EnumType):
        return ast.SimpleTypeExpr(t.name)
    return ast.SimpleTypeExpr(str(t))


def states_equal(a: ObjectState, b: ObjectState) -> bool:
    """Same objects (names, classes, creation order), values, and links (in order within each association)."""
    return state_key(a) == state_key(b)


def state_key(state: ObjectState) -> tuple[object, ...]:
    """A comparable summary of a state: what :func:`write_soil` must preserve."""
    objects = tuple(
        (o.name, o.cls.name, tuple(sorted((k, _value_key(v)) for k, v in o.values.items())))
        for o in state.objects.values()
    )
    by_association: dict[str, list[object]] = {}
    for lk in state.links:  # navigation follows link order within one association, never across
        by_association.setdefault(lk.association.name, []).append(
            (tuple(o.name for o in lk.objects), lk.link_object.name if lk.link_object is not None else None)
        )
    links = tuple(sorted((name, tuple(found)) for name, found in by_association.items()))
    return objects, links


def _value_key(v: Any) -> object:
    if isinstance(v, Obj):
        return ("obj", v.name)
    if isinstance(v, EnumValue):
        return ("enum", v.type.name, v.literal)
    if isinstance(v, OclCollection):
        return (v.kind, tuple(_value_key(x) for x in v))
    if isinstance(v, OclTuple):
        return ("tuple", tuple(sorted((k, _value_key(x)) for k, x in v.values.items())))
    if isinstance(v, float):
        return ("real", v)
    if v is TRUE or v is FALSE:
        return ("bool", v is TRUE)
    return (type(v).__name__, v)


__all__ = ["state_key", "states_equal", "type_expr", "value_expr", "write_soil"]
