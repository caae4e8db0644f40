"""Reading and writing USE ``.use`` model files.

Supported: ``model``, ``enum``, ``[abstract] class C [< A, B] attributes ... operations ... constraints ...
end`` (attributes may carry ``derive``/``init`` expressions, operations an ``= expr`` body and ``pre``/
``post`` clauses), ``association|aggregation|composition N between ... end`` with multiplicities,
``role`` and ``ordered``, ``associationclass``, and ``constraints`` sections with ``context [v :] C inv
[name]: expr`` and ``context C::op(...) pre/post``. Comments are ``--``, ``//`` and ``/* */``.
Not supported (a positioned error says so): SOIL operation bodies, state machines, signals, data types,
imports, annotations, qualifiers, ``subsets``/``redefines``/``union``/derived association ends.

Writing then reading gives an equal model (:func:`benchmark.lang.ocl.model.models_equal`); unnamed invariants
are written with the name USE gave them (``inv1``, ``inv2``...).
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from lark import Token, v_args

from benchmark.lang.ocl import ast
from benchmark.lang.ocl.errors import ModelError, OclError, OclSyntaxError
from benchmark.lang.ocl.model import (
    Association,
    AssociationEnd,
    Attribute,
    Class,
    Condition,
    Enumeration,
    Invariant,
    Model,
    Multiplicity,
    Operation,
    Parameter,
    Position,
)
from benchmark.lang.ocl.parser import ExprBuilder, parse_tree, transform
from benchmark.lang.ocl.printer import print_expr
from benchmark.lang.ocl.textfile import read_text_file
from benchmark.lang.ocl.types import CollectionType, TupleType, Type


# ------------------------------------------------------------------------------------------- raw syntax
@dataclass
class _RawAttribute:
    name: Token
    type: ast.TypeExpr
    kind: str | None
    expr: ast.Expr | None


@dataclass
class _RawOperation:
    name: Token
    params: list[tuple[Token, ast.TypeExpr]]
    result: ast.TypeExpr | None
    body: ast.Expr | None
    conditions: list[tuple[Token, Token | None, ast.Expr]]


@dataclass
class _RawEnd:
    cls: Token
    multiplicity: Multiplicity
    role: Token | None
    ordered: bool


@dataclass
class _RawAssociation:
    kind: str
    name: Token
    ends: list[_RawEnd]


@dataclass
class _RawClass:
    name: Token
    abstract: bool
    supers: list[Token]
    attributes: list[_RawAttribute] = field(default_factory=list)
    operations: list[_RawOperation] = field(default_factory=list)
    invariants: list[tuple[Token | None, ast.Expr, Token]] = field(default_factory=list)
    association: _RawAssociation | None = None


@dataclass
class _RawInvariantContext:
    variables: list[Token]
    cls: Token
    clauses: list[tuple[Token | None, ast.Expr, Token]]


@dataclass
class _RawOperationContext:
    cls: Token
    op: Token
    params: list[tuple[Token, ast.TypeExpr]]
    result: ast.TypeExpr | None
    conditions: list[tuple[Token, Token | None, ast.Expr]]


@dataclass
class _RawEnum:
    name: Token
    literals: list[Token]


class _ModelBuilder(ExprBuilder):
    def model_file(self, c: list[Any]) -> tuple[Token, list[Any]]:
        elements: list[Any] = []
        for x in c[1:]:
            if isinstance(x, list):  # a constraints section
                elements.extend(x)
            elif x is not None:
                elements.append(x)
        return c[0], elements

    def enum_def(self, c: list[Any]) -> _RawEnum:
        return _RawEnum(c[0], [t for t in c[1:] if isinstance(t, Token)])

    def supers(self, c: list[Any]) -> list[Token]:
        return [t for t in c if isinstance(t, Token) and t.type == "IDENT"]

    def class_body(self, c: list[Any]) -> dict[str, Any]:
        attrs, ops, invs = c
        return {"attributes": attrs or [], "operations": ops or [], "invariants": invs or []}

    def class_def(self, c: list[Any]) -> _RawClass:
        abstract, name, supers, body = c
        return _RawClass(name, abstract is not None, supers or [], **body)

    def association_class_def(self, c: list[Any]) -> _RawClass:
        abstract, _keyword, name, supers = c[:4]
        rest = c[4:]
        body = next(x for x in rest if isinstance(x, dict))
        ends = [x for x in rest if isinstance(x, _RawEnd)]
        kind_token = rest[-1]
        if not ends:
            raise self.error(
                f"association class `{name}' needs a `between' clause with at least two ends", name
            )
        kind = str(kind_token) if isinstance(kind_token, Token) else "association"
        cls = _RawClass(name, abstract is not None, supers or [], **body)
        cls.association = _RawAssociation(kind, name, ends)
        return cls

    def attributes_section(self, c: list[_RawAttribute]) -> list[_RawAttribute]:
        return c

    def attribute_def(self, c: list[Any]) -> _RawAttribute:
        name, typ, extra = c[0], c[1], c[2]
        if extra is None:
            return _RawAttribute(name, typ, None, None)
        kind, expr = extra
        return _RawAttribute(name, typ, kind, expr)

    def attribute_expr(self, c: list[Any]) -> tuple[str, ast.Expr]:
        kind = "init" if c[0].type == "INIT" else "derive"
        return kind, c[-1]

    def operations_section(self, c: list[_RawOperation]) -> list[_RawOperation]:
        return c

    def param(self, c: list[Any]) -> tuple[Token, ast.TypeExpr]:
        return c[0], c[1]

    def operation_def(self, c: list[Any]) -> _RawOperation:
        name = c[0]
        params = [x for x in c[1:] if isinstance(x, tuple) and len(x) == 2 and isinstance(x[0], Token)]
        rest = [x for x in c[1:] if not (isinstance(x, tuple) and len(x) == 2 and isinstance(x[0], Token))]
        # rest: [result type | None, EQUAL | None, body | None, conditions...]
        result: ast.TypeExpr | None = None
        body: ast.Expr | None = None
        conditions = []
        for x in rest:
            if isinstance(x, ast.TypeExpr):
                result = x
            elif isinstance(x, ast.Expr):
                body = x
            elif isinstance(x, tuple) and len(x) == 3:
                conditions.append(x)
        return _RawOperation(name, params, result, body, conditions)

    def condition_clause(self, c: list[Any]) -> tuple[Token, Token | None, ast.Expr]:
        kind, name, expr = c
        return kind, name, expr

    def class_constraints(self, c: list[Any]) -> list[tuple[Token | None, ast.Expr, Token]]:
        return c

    @v_args(meta=True)
    def invariant_clause(self, meta: Any, c: list[Any]) -> tuple[Token | None, ast.Expr, Any]:
        name, expr = c
        return name, expr, meta

    def association_def(self, c: list[Any]) -> _RawAssociation:
        kind, name = c[0], c[1]
        return _RawAssociation(str(kind), name, [e for e in c[2:] if isinstance(e, _RawEnd)])

    def association_end(self, c: list[Any]) -> _RawEnd:
        cls, mult, role, ordered = c
        return _RawEnd(cls, mult, role, ordered is not None)

    @v_args(meta=True)
    def multiplicity(self, meta: Any, c: list[tuple[int, int]]) -> Multiplicity:
        try:
            return Multiplicity(tuple(c))
        except ValueError as error:
            raise OclSyntaxError(str(error), file=self.file, line=meta.line, column=meta.column) from None

    @v_args(meta=True)
    def multiplicity_range(self, meta: Any, c: list[Any]) -> tuple[int, int]:
        lower, dots, upper = c
        if dots is None:
            upper = lower
        if lower == -1:
            lower = 0
        if upper != -1 and lower > upper:
            raise self.error(f"invalid multiplicity range `{lower}..{upper}'", meta)
        return lower, upper

    def multiplicity_bound(self, c: list[Token]) -> int:
        return -1 if c[0].type == "STAR" else int(c[0])

    def constraints_section(self, c: list[Any]) -> list[Any]:
        return c

    def constraints_file(self, c: list[Any]) -> list[Any]:
        return c

    def context_vars(self, c: list[Token]) -> list[Token]:
        return c

    def invariant_context(self, c: list[Any]) -> _RawInvariantContext:
        variables, cls = c[0] or [], c[1]
        return _RawInvariantContext(variables, cls, list(c[2:]))

    def operation_context(self, c: list[Any]) -> _RawOperationContext:
        cls, op = c[0], c[1]
        params = [x for x in c[2:] if isinstance(x, tuple) and len(x) == 2]
        result = next((x for x in c[2:] if isinstance(x, ast.TypeExpr)), None)
        conditions = [x for x in c[2:] if isinstance(x, tuple) and len(x) == 3]
        return _RawOperationContext(cls, op, params, result, conditions)


# ------------------------------------------------------------------------------------------- reading
def read_use(path: str | Path) -> Model:
    path = Path(path)
    text = read_text_file(path, ModelError, "model")
    return parse_use(text, file=str(path))


def parse_use(text: str, *, file: str | None = None) -> Model:
    """Parse ``.use`` text into a finalized :class:`Model`."""
    tree = parse_tree(text, "model_file", file=file, keep=False)  # a model is read once: keep its Model
    name, elements = transform(_ModelBuilder(file), tree)
    return _ModelAssembler(file).assemble(str(name), elements)


def parse_constraints(text: str, model: Model, *, file: str | None = None) -> list[Invariant]:
    """Parse a constraints file (``context C inv n: e`` ..., optionally after ``constraints``).

    The invariants are added to ``model`` (unnamed ones continue its ``invN`` numbering), type checking
    is left to the caller (compile the model again), and the new invariants are returned.
    """
    elements = _constraint_elements(text)
    if elements is None:  # the text has an error: read again for the message, which names ``file``
        elements = transform(_ModelBuilder(file), parse_tree(text, "constraints_file", file=file))
    assembler = _ModelAssembler(file)
    added: list[Invariant] = []
    for element in elements:
        if isinstance(element, _RawInvariantContext):
            added.extend(assembler.add_invariants(model, element))
        else:
            raise ModelError(
                "only invariants can be added from a constraints file",
                file=file,
                line=element.cls.line,
                column=element.cls.column,
            )
    return added


@functools.lru_cache(maxsize=8192)
def _constraint_elements(text: str) -> tuple[Any, ...] | None:
    """The raw syntax of a constraints text, built once per process (the judge meets the same answer in
    several modes, and judges an answer that is an error once per run); ``None`` when the text has an
    error. The raw syntax holds positions within the text and immutable ASTs, which the assembler only
    reads, so the invariants of every caller share the expressions as they share lark's tree."""
    try:
        return tuple(transform(_ModelBuilder(None), parse_tree(text, "constraints_file", keep=False)))
    except OclError:
        return None


class _ModelAssembler:
    """Raw syntax -> :class:`Model`, resolving names after every definition has been read."""

    def __init__(self, file: str | None) -> None:
        self.file = file

    def pos(self, token: Any) -> Position:
        return Position(self.file, getattr(token, "line", None), getattr(token, "column", None))

    def error(self, message: str, token: Any) -> ModelError:
        return ModelError(
            message, file=self.file, line=getattr(token, "line", None), column=getattr(token, "column", None)
        )

    def assemble(self, name: str, elements: list[Any]) -> Model:
        model = Model(name, file=self.file)
        raw_classes = [e for e in elements if isinstance(e, _RawClass)]
        for e in elements:
            if isinstance(e, _RawEnum):
                model.add_enumeration(
                    Enumeration(str(e.name), tuple(str(t) for t in e.literals), self.pos(e.name))
                )
        for rc in raw_classes:
            model.add_class(
                Class(str(rc.name), rc.abstract, tuple(str(s) for s in rc.supers), position=self.pos(rc.name))
            )
        for rc in raw_classes:
            cls = model.classes[str(rc.name)]
            for ra in rc.attributes:
                cls.attributes.append(
                    Attribute(
                        str(ra.name),
                        self.resolve(model, ra.type),
                        derive=ra.expr if ra.kind == "derive" else None,
                        init=ra.expr if ra.kind == "init" else None,
                        position=self.pos(ra.name),
                    )
                )
            for ro in rc.operations:
                if any(o.name == str(ro.name) for o in cls.operations):
                    raise self.error(f"class `{cls.name}' already defines an operation `{ro.name}'", ro.name)
                cls.operations.append(self.operation(model, ro))
        for raw_assoc in (e for e in elements if isinstance(e, _RawAssociation)):
            model.add_association(self.association(raw_assoc, is_class=False))
        for rc in raw_classes:
            if rc.association is not None:
                assoc: Association = self.association(rc.association, is_class=True)
                if assoc.name in model.associations:
                    raise self.error(f"model already contains an association named `{assoc.name}'", rc.name)
                model.associations[assoc.name] = assoc
                model.classes[assoc.name].association = assoc
        model.finalize()
        for rc in raw_classes:
            for name_token, expr, meta in rc.invariants:
                name = str(name_token) if name_token is not None else model.next_invariant_name()
                model.add_invariant(
                    Invariant(
                        str(rc.name),
                        name,
                        expr,
                        in_class_body=True,
                        position=Position(self.file, meta.line, meta.column),
                    )
                )
        for e in elements:
            if isinstance(e, _RawInvariantContext):
                self.add_invariants(model, e)
            elif isinstance(e, _RawOperationContext):
                self.add_conditions(model, e)
        return model

    def resolve(self, model: Model, t: ast.TypeExpr) -> Type:
        if isinstance(t, ast.SimpleTypeExpr):
            found = model.type_named(t.name)
            if found is None:
                raise self.error(f"undefined type `{t.name}'", t)
            return found
        if isinstance(t, ast.CollectionTypeExpr):
            return CollectionType(t.kind, self.resolve(model, t.elem))
        if isinstance(t, ast.TupleTypeExpr):
            return TupleType((n, self.resolve(model, p)) for n, p in t.parts)
        raise TypeError(t)

    def operation(self, model: Model, ro: _RawOperation) -> Operation:
        params = tuple(Parameter(str(n), self.resolve(model, t)) for n, t in ro.params)
        names = [p.name for p in params]
        if len(set(names)) != len(names):
            raise self.error(f"operation `{ro.name}' declares a parameter twice", ro.name)
        result = self.resolve(model, ro.result) if ro.result is not None else None
        if result is None and ro.body is not None:  # USE's ASTOperation: a query needs its result type
            raise self.error(f"Missing return type for OCL query operation `{ro.name}'.", ro.name)
        conditions = [
            Condition(str(kind), str(name) if name is not None else None, expr, self.pos(kind))
            for kind, name, expr in ro.conditions
        ]
        return Operation(str(ro.name), params, result, ro.body, conditions, position=self.pos(ro.name))

    def association(self, ra: _RawAssociation, *, is_class: bool) -> Association:
        ends = [
            AssociationEnd(
                str(e.cls),
                e.multiplicity,
                str(e.role) if e.role is not None else None,
                e.ordered,
                position=self.pos(e.cls),
            )
            for e in ra.ends
        ]
        return Association(str(ra.name), ra.kind, ends, is_class=is_class, position=self.pos(ra.name))

    def add_invariants(self, model: Model, ctx: _RawInvariantContext) -> list[Invariant]:
        cls_name = str(ctx.cls)
        if cls_name not in model.classes:
            raise self.error(f"undefined class `{cls_name}' in invariant context", ctx.cls)
        variables = tuple(str(v) for v in ctx.variables) or ("self",)
        added = []
        for name_token, expr, meta in ctx.clauses:
            name = str(name_token) if name_token is not None else model.next_invariant_name()
            inv = Invariant(
                cls_name,
                name,
                expr,
                variables,
                explicit_variables=bool(ctx.variables),
                position=Position(self.file, meta.line, meta.column),
            )
            model.add_invariant(inv)
            added.append(inv)
        return added

    def add_conditions(self, model: Model, ctx: _RawOperationContext) -> None:
        cls = model.classes.get(str(ctx.cls))
        if cls is None:
            raise self.error(f"undefined class `{ctx.cls}'", ctx.cls)
        op = next((o for o in cls.operations if o.name == str(ctx.op)), None)
        if op is None:
            raise self.error(f"class `{cls.name}' has no operation `{ctx.op}'", ctx.op)
        # USE's ASTPrePost: the parameter names must be the declaration's (VarDecl.equals compares names
        # only), the result type must be the same
        params = tuple(Parameter(str(n), self.resolve(model, t)) for n, t in ctx.params)
        if [p.name for p in params] != [p.name for p in op.params]:
            raise self.error(
                f"This signature of operation `{op.name}' does not match its previous declaration in class "
                f"`{cls.name}'.",
                ctx.op,
            )
        result = self.resolve(model, ctx.result) if ctx.result is not None else None
        if result != op.result:
            if op.result is None:
                message = (
                    f"Operation `{op.name}' has no result type in its previous declaration in class "
                    f"`{cls.name}'."
                )
            elif result is None:
                message = f"Expected result type `{op.result}'."
            else:
                message = f"Expected result type `{op.result}', found `{result}'."
            raise self.error(message, ctx.result if ctx.result is not None else ctx.op)
        for kind, name, expr in ctx.conditions:
            op.conditions.append(
                Condition(str(kind), str(name) if name is not None else None, expr, self.pos(kind))
            )


# ------------------------------------------------------------------------------------------- writing
def type_text(t: Type) -> str:
    """A type in ``.use`` syntax (``Set(Integer)``, ``Tuple(a : Integer, b : String)``)."""
    if isinstance(t, CollectionType):
        return f"{t.kind}({type_text(t.elem)})"
    if isinstance(t, TupleType):
        return "Tuple(" + ", ".join(f"{n} : {type_text(p)}" for n, p in t.parts) + ")"
    return str(t)


def _operation_text(op: Operation) -> list[str]:
    params = ", ".join(f"{p.name} : {type_text(p.type)}" for p in op.params)
    head = f"    {op.name}({params})"
    if op.result is not None:
        head += f" : {type_text(op.result)}"
    if op.body is not None:
        head += f" = {print_expr(op.body)}"
    lines = [head]
    for cond in op.conditions:
        name = f" {cond.name}" if cond.name else ""
        lines.append(f"      {cond.kind}{name}: {print_expr(cond.expr)}")
    return lines


def _class_body(cls: Class, invariants: list[Invariant]) -> list[str]:
    lines: list[str] = []
    if cls.attributes:
        lines.append("  attributes")
        for a in cls.attributes:
            text = f"    {a.name} : {type_text(a.type)}"
            if a.derive is not None:
                text += f" derive = {print_expr(a.derive)}"
            elif a.init is not None:
                text += f" init = {print_expr(a.init)}"
            lines.append(text)
    if cls.operations:
        lines.append("  operations")
        for op in cls.operations:
            lines.extend(_operation_text(op))
    if invariants:
        lines.append("  constraints")
        for inv in invariants:
            lines.append(f"    inv {inv.name}: {print_expr(inv.expr)}")
    return lines


def _end_text(end: AssociationEnd) -> str:
    text = f"  {end.class_name}[{end.multiplicity}] role {end.name}"
    if end.ordered:
        text += " ordered"
    return text


def write_use(model: Model) -> str:
    """The model as ``.use`` text."""
    out: list[str] = [f"model {model.name}", ""]
    for enum in model.enumerations.values():
        out.append(f"enum {enum.name} {{ {', '.join(enum.literals)} }}")
    if model.enumerations:
        out.append("")
    in_body: dict[str, list[Invariant]] = {}
    for inv in model.invariants:
        if inv.in_class_body and not inv.explicit_variables:
            in_body.setdefault(inv.class_name, []).append(inv)
    for cls in model.classes.values():
        abstract = "abstract " if cls.abstract else ""
        supers = f" < {', '.join(cls.supers)}" if cls.supers else ""
        if cls.association is not None:
            assoc = cls.association
            out.append(f"{abstract}associationclass {cls.name}{supers} between")
            out.extend(_end_text(e) for e in assoc.ends)
            out.extend(_class_body(cls, in_body.get(cls.name, [])))
            out.append(
                "aggregation end"
                if assoc.kind == "aggregation"
                else "composition end"
                if assoc.kind == "composition"
                else "end"
            )
        else:
            out.append(f"{abstract}class {cls.name}{supers}")
            out.extend(_class_body(cls, in_body.get(cls.name, [])))
            out.append("end")
        out.append("")
    for assoc in model.associations.values():
        if assoc.is_class:
            continue
        out.append(f"{assoc.kind} {assoc.name} between")
        out.extend(_end_text(e) for e in assoc.ends)
        out.append("end")
        out.append("")
    global_invs = [i for i in model.invariants if not (i.in_class_body and not i.explicit_variables)]
    if global_invs:
        out.append("constraints")
        out.append(write_constraints(global_invs))
    return "\n".join(out).rstrip("\n") + "\n"


def write_constraints(invariants: list[Invariant]) -> str:
    """Invariants as a constraints file (``context [v :] C inv name:`` and the indented expression), the
    form :func:`parse_constraints` reads and ``write_use`` uses for its ``constraints`` section."""
    out: list[str] = []
    for inv in invariants:
        variables = f"{', '.join(inv.variables)} : " if inv.explicit_variables else ""
        out.append(f"context {variables}{inv.class_name} inv {inv.name}:")
        out.append(f"  {print_expr(inv.expr)}")
    return "\n".join(out) + "\n"


__all__ = ["parse_constraints", "parse_use", "read_use", "type_text", "write_constraints", "write_use"]
