"""Which names a transformation may introduce without changing what existing names mean.

A new class, attribute or role name must parse (an identifier that is not a reserved word), must not be
a basic type or a standard operation (``x.size`` would stop meaning the operation), must not be a
variable of any expression (an implicit ``self.label`` would become the variable ``label``) and must not
collide with a name already visible where it is visible. Feature names (attributes and roles) are kept
unique over a whole inheritance *component* -- the classes connected by generalization -- which is
stricter than USE requires and therefore always safe.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable, Iterable

from benchmark.lang.ocl import ast
from benchmark.lang.ocl import operations as ops
from benchmark.lang.ocl.model import Class, Invariant, Model
from benchmark.lang.ocl.parser import RESERVED_WORDS
from benchmark.lang.ocl.types import BASIC_TYPES
from benchmark.lang.words.synonyms import identifier_form
from benchmark.tracks.ocl.transform.rewrite import variable_names

_IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")
_NEVER = frozenset({"self", "result", "allInstances", "OclAny", "OclVoid", "OclType", *BASIC_TYPES})


def is_legal(name: str) -> bool:
    """An identifier the grammar reads as a name and the checker never reads as something else."""
    return (
        bool(_IDENT.match(name))
        and name not in RESERVED_WORDS
        and name not in _NEVER
        and not ops.is_known(name)
        and name not in ast.ITERATORS
        and name not in ast.TYPE_OPS
    )


def component(cls: Class) -> frozenset[str]:
    """Names of the classes connected to ``cls`` by generalization (in either direction, transitively)."""
    seen = {cls.name}
    todo = [cls]
    while todo:
        c = todo.pop()
        for other in (*c.ancestors, *c.descendants):
            if other.name not in seen:
                seen.add(other.name)
                todo.append(other)
    return frozenset(seen)


def feature_names(model: Model, classes: Iterable[str]) -> set[str]:
    """Attribute and navigation names of the given classes (inherited ones included)."""
    found: set[str] = set()
    for name in classes:
        cls = model.classes[name]
        found.update(a.name for a in cls.all_attributes())
        found.update(cls.navigation_names())
    return found


def type_names(model: Model) -> set[str]:
    """Names that classes, enumerations and associations share a namespace with (a class may not take
    an association's name, and an association class has one name for both)."""
    return {*model.classes, *model.enumerations, *model.associations}


def expression_variables(model: Model, extra: Iterable[Invariant] = ()) -> set[str]:
    """Every variable name of the model's expressions: context variables, parameters, iterators, lets."""
    names: set[str] = {"self", "result"}
    for cls in model.classes.values():
        for attr in cls.attributes:
            for e in (attr.derive, attr.init):
                if e is not None:
                    names |= variable_names(e)
        for op in cls.operations:
            names.update(p.name for p in op.params)
            for e in (op.body, *(c.expr for c in op.conditions)):
                if e is not None:
                    names |= variable_names(e)
    for inv in (*model.invariants, *extra):
        names.update(inv.variables)
        names |= variable_names(inv.expr)
    return names


def fresh(base: str, taken: set[str], ok: Callable[[str], bool] = lambda name: True) -> str:
    """``base`` if it is legal, unused and ``ok``; else ``base2``, ``base3``... from the base's identifier
    form (``$Person`` and ``Has$x`` are USE names no new name may copy: ``Person2``, ``Has_x2``): the
    first not in ``taken`` and ``ok``; the result is added to ``taken``. Each numbered name is legal (an
    ASCII identifier ending in a digit is no reserved word, type or operation), so this ends: ``taken``
    is finite, and every caller's ``ok`` refuses only the names of finite sets."""
    if base not in taken and is_legal(base) and ok(base):
        taken.add(base)
        return base
    stem = identifier_form(base) or "name"
    for n in itertools.count(2):
        name = f"{stem}{n}"
        if name not in taken and is_legal(name) and ok(name):
            taken.add(name)
            return name
    raise AssertionError("unreachable")


def capitalized(name: str) -> str:
    return name[:1].upper() + name[1:]


__all__ = [
    "capitalized",
    "component",
    "expression_variables",
    "feature_names",
    "fresh",
    "is_legal",
    "type_names",
]
