"""Reading SOIL object states (``.soil`` / ``.cmd`` files of USE shell commands).

Supported statements (with or without the leading ``!``; several per line separated by ``;``):
``new C('o')``, ``o := new C('o')``, ``o := new C``, ``create a, b : C``, ``set o.attr := expr``,
``o.attr := expr``, ``insert (a, b) into Assoc``, ``delete (a, b) from Assoc``, ``destroy o, p``
(objects or collections of objects: ``destroy C.allInstances``),
``new AC('l') between (a, b)``, ``create l : AC between (a, b)``, and ``v := expr`` (a SOIL variable).
Lines starting with ``--`` or ``//`` are comments; ``check`` and ``?``/``??`` queries do not change the
state and are recorded in :attr:`SoilResult.skipped`. Every value is an OCL expression evaluated in the
state built so far, so ``!set ada.boss := bob`` and ``!set s.tags := Set{'a'}`` work as in USE.
"""

from __future__ import annotations

import functools
import re
from collections import ChainMap
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from lark import Token, v_args

from benchmark.lang.ocl import ast
from benchmark.lang.ocl.compiler import RECURSION_TOO_DEEP, MultiplicityViolation, Runtime
from benchmark.lang.ocl.errors import OclError, StateError
from benchmark.lang.ocl.model import Class, Model
from benchmark.lang.ocl.parser import (
    RESERVED_WORDS,
    ExprBuilder,
    lark_parser,
    parse_tree,
    shifted_token,
    split_lines,
    transform,
)
from benchmark.lang.ocl.printer import print_expr
from benchmark.lang.ocl.state import ObjectState
from benchmark.lang.ocl.textfile import read_text_file
from benchmark.lang.ocl.types import OCL_VOID, ClassType, CollectionType, Type
from benchmark.lang.ocl.values import INT_MAX, Obj, runtime_type


@dataclass
class _Statement:
    kind: str
    line: int
    column: int
    args: dict[str, Any]


@dataclass
class SoilResult:
    """The state a SOIL file builds, and the shell commands it contained that do not change state."""

    state: ObjectState
    variables: dict[str, Any] = field(default_factory=dict)
    skipped: list[tuple[int, str]] = field(default_factory=list)


class _SoilBuilder(ExprBuilder):
    def soil_line(self, c: list[_Statement]) -> list[_Statement]:
        return c

    @v_args(meta=True)
    def new_statement(self, meta: Any, c: list[Any]) -> _Statement:
        cls, name, between = c
        return _Statement("new", meta.line, meta.column, {"cls": cls, "name": name, "between": between})

    def between(self, c: list[ast.Expr]) -> list[ast.Expr]:
        return c

    def assign_new(self, c: list[Any]) -> _Statement:
        var, stmt = c
        stmt.args["variable"] = var
        return stmt

    def assign_value(self, c: list[Any]) -> _Statement:
        var, expr = c
        return _Statement("assign", var.line, var.column, {"variable": var, "expr": expr})

    @v_args(meta=True)
    def create(self, meta: Any, c: list[Any]) -> _Statement:
        names = [t for t in c if isinstance(t, Token)]
        between = c[-1] if isinstance(c[-1], list) else None
        *objects, cls = names
        return _Statement(
            "create", meta.line, meta.column, {"names": objects, "cls": cls, "between": between}
        )

    def attribute_target(self, c: list[Any]) -> tuple[ast.Expr, Token]:
        """``o.attr``, ``@o.attr`` or ``o.role.attr``: the object expression and the attribute name."""
        at, first, *rest = c
        names = [t for t in rest if t.type == "IDENT"]
        obj: ast.Expr = (ast.ObjectRef if at is not None else ast.Name)(
            str(first), line=first.line, column=first.column
        )
        for role in names[:-1]:
            obj = ast.PropertyCall(obj, False, str(role), None, line=role.line, column=role.column)
        return obj, names[-1]

    def set_attribute(self, c: list[Any]) -> _Statement:
        (obj, attr), expr = c
        return _Statement("set", obj.line, obj.column, {"object": obj, "attribute": attr, "expr": expr})

    def let_value(self, c: list[Any]) -> _Statement:
        var, _type, _eq, expr = c
        return _Statement("assign", var.line, var.column, {"variable": var, "expr": expr})

    @v_args(meta=True)
    def insert(self, meta: Any, c: list[Any]) -> _Statement:
        *objects, assoc = c
        return _Statement("insert", meta.line, meta.column, {"objects": objects, "association": assoc})

    @v_args(meta=True)
    def delete(self, meta: Any, c: list[Any]) -> _Statement:
        *objects, assoc = c
        return _Statement("delete", meta.line, meta.column, {"objects": objects, "association": assoc})

    @v_args(meta=True)
    def destroy(self, meta: Any, c: list[Any]) -> _Statement:
        return _Statement("destroy", meta.line, meta.column, {"objects": c})


@functools.lru_cache(maxsize=8192)
def _line_statements(raw: str) -> tuple[_Statement, ...] | None:
    """The statements of one line as if it were the first of its file, built once per process (the
    dataset's states repeat most of their lines); ``None`` when the line has an error: the caller reads
    it again at its real position, so the message names it."""
    simple = _simple_statement(raw)
    if simple is not None:
        return (simple,)
    try:
        return tuple(transform(_SoilBuilder(None), parse_tree(raw, "soil_line", keep=False)))
    except OclError:
        return None


# -- the simple statements, read without the grammar -------------------------------------------------
# Nearly every line of a state is ``!new C('o')``, ``!set o.a := <literal or object>`` or ``!insert (a, b)
# into A``. They are read here into the statement the grammar's builder gives, with the same tokens,
# nodes and positions (tests/lang/ocl/test_soil.py compares the two on every bundled line); a line with
# anything else (a comment, an escape, a keyword as a name, several statements...) goes to the grammar.
_LEXEME = re.compile(
    r"(?P<space>\s+)|(?P<STRING>'[^'\\\n]*')|(?P<REAL>[0-9]+(\.[0-9]+([eE][+-]?[0-9]+)?|[eE][+-]?[0-9]+))"
    r"|(?P<INT>[0-9]+)|(?P<IDENT>[$A-Za-z_][A-Za-z0-9_]*)|(?P<op>:=|::|[!().,#])"
)


@functools.cache
def _keywords() -> frozenset[str]:
    """Words the grammar reads as keywords somewhere, or reserves: never a name on the simple path."""
    words = {t.pattern.value for t in lark_parser().terminals if t.pattern.type == "str"}
    return frozenset(w for w in words if w[:1].isalpha()) | RESERVED_WORDS


def _lexemes(raw: str) -> list[Token] | None:
    out: list[Token] = []
    position = 0
    while position < len(raw):
        found = _LEXEME.match(raw, position)
        if found is None:
            return None
        kind, end = found.lastgroup, found.end()
        if kind == "op":
            kind = found.group()
        if kind != "space":
            out.append(Token(kind, found.group(), position, 1, position + 1, 1, end + 1, end))  # type: ignore[arg-type]
        position = end
    return out


def _simple_statement(raw: str) -> _Statement | None:
    tokens = _lexemes(raw)
    if tokens and tokens[0].type == "!":
        tokens = tokens[1:]
    if not tokens or tokens[0].type != "IDENT":
        return None
    kinds = [t.type for t in tokens]
    keywords = _keywords()
    first, word = tokens[0], str(tokens[0])
    if word == "new" and kinds[:5] == ["IDENT", "IDENT", "(", "STRING", ")"]:  # new C('o') [between (...)]
        cls, name = tokens[1], tokens[3]
        between = None
        if len(tokens) > 5:
            if str(tokens[5]) != "between" or kinds[6:7] != ["("] or kinds[-1] != ")":
                return None
            between = _names(tokens[7:-1], keywords)
            if between is None or len(between) < 2:
                return None
        if str(cls) in keywords:
            return None
        args = {"cls": cls, "name": ast.StringLit(str(name)[1:-1], **_at(name)), "between": between}
        return _Statement("new", first.line, first.column, args)
    if word == "set" and kinds[:5] == ["IDENT", "IDENT", ".", "IDENT", ":="]:  # set o.a := value
        target, attribute = tokens[1], tokens[3]
        value = _simple_value(tokens[5:], keywords)
        if value is None or str(target) in keywords or str(attribute) in keywords:
            return None
        obj = ast.Name(str(target), line=target.line, column=target.column)
        return _Statement("set", obj.line, obj.column, {"object": obj, "attribute": attribute, "expr": value})
    if (
        word == "insert" and kinds[1:2] == ["("] and kinds[-3:] == [")", "IDENT", "IDENT"]
    ):  # insert (...) into A
        objects = _names(tokens[2:-3], keywords)
        association = tokens[-1]
        if objects is None or len(objects) < 2 or str(tokens[-2]) != "into" or str(association) in keywords:
            return None
        return _Statement(
            "insert", first.line, first.column, {"objects": objects, "association": association}
        )
    return None


def _names(tokens: list[Token], keywords: frozenset[str]) -> list[ast.Expr] | None:
    """``a, b, c``: each a name (not a keyword), as the expression grammar builds it; else None."""
    if len(tokens) % 2 == 0:
        return None
    names: list[ast.Expr] = []
    for index, token in enumerate(tokens):
        if index % 2 == 1:
            if token.type != ",":
                return None
        elif token.type != "IDENT" or str(token) in keywords:
            return None
        else:
            names.append(ast.Name(str(token), False, **_at(token)))
    return names


def _at(token: Token) -> dict[str, Any]:
    return {"line": token.line, "column": token.column}


def _simple_value(tokens: list[Token], keywords: frozenset[str]) -> ast.Expr | None:
    """A literal, an enumeration literal or a name, as the expression grammar builds it."""
    if len(tokens) == 1:
        (token,) = tokens
        text = str(token)
        if token.type == "STRING":
            return ast.StringLit(text[1:-1], **_at(token))
        if token.type == "INT":
            value = int(text)
            return ast.IntegerLit(value, **_at(token)) if value <= INT_MAX else None
        if token.type == "REAL":
            return ast.RealLit(float(text), **_at(token))
        if token.type == "IDENT" and text in ("true", "false"):
            return ast.BooleanLit(text == "true", **_at(token))
        if token.type == "IDENT" and text not in keywords:
            return ast.Name(text, False, **_at(token))
        return None
    if len(tokens) == 2 and tokens[0].type == "#" and tokens[1].type == "IDENT":
        if str(tokens[1]) in keywords:
            return None
        return ast.EnumLit(None, str(tokens[1]), **_at(tokens[0]))
    if len(tokens) == 3 and [t.type for t in tokens] == ["IDENT", "::", "IDENT"]:
        if str(tokens[0]) in keywords or str(tokens[2]) in keywords:
            return None
        return ast.EnumLit(str(tokens[0]), str(tokens[2]), **_at(tokens[0]))
    return None


def _statements(raw: str, offset: int, file: str | None) -> list[_Statement]:
    """The statements of line ``offset + 1`` of ``file``: the line's shared statements moved down by
    ``offset`` lines (fresh objects: a statement is never shared between two runs), or, for a line with
    an error, the grammar's answer at its position (which raises)."""
    shared = _line_statements(raw)
    if shared is None:
        return transform(_SoilBuilder(file), parse_tree(raw, "soil_line", file=file, line_offset=offset))
    return [_moved(statement, offset) for statement in shared]


def _moved(item: Any, offset: int) -> Any:
    """A copy of a statement, or of a part of one, with every line number moved by ``offset``: the
    statement's, its tokens' (as the parser's ``_shifted`` moves them) and its AST nodes'."""
    if isinstance(item, Token):
        return shifted_token(item, offset)
    if isinstance(item, ast.Node):
        copy = object.__new__(type(item))  # frozen: the fields are set as dataclasses' own copy would
        copy.__dict__.update({k: _moved(v, offset) for k, v in item.__dict__.items()})
        copy.__dict__["line"] = item.line + offset
        return copy
    if isinstance(item, _Statement):
        args = {k: _moved(v, offset) for k, v in item.args.items()}
        return _Statement(item.kind, item.line + offset, item.column, args)
    if isinstance(item, list):
        return [_moved(x, offset) for x in item]
    if isinstance(item, tuple):
        return tuple(_moved(x, offset) for x in item)
    if item is None or isinstance(item, (str, int, float, bool)):
        return item
    raise TypeError(f"a SOIL statement holds an unexpected {type(item).__name__}")  # pragma: no cover


def read_soil(path: str | Path, model: Model, *, runtime: Runtime | None = None) -> SoilResult:
    path = Path(path)
    text = read_text_file(path, StateError, "state")
    return parse_soil(text, model, file=str(path), runtime=runtime)


def parse_soil(
    text: str, model: Model, *, file: str | None = None, runtime: Runtime | None = None
) -> SoilResult:
    """Execute the SOIL commands of ``text`` on an empty state of ``model``."""
    session = SoilSession(model, runtime, file=file)
    session.execute(text)
    return session.result


class SoilSession:
    """One object state that SOIL commands change one after the other, as in USE's shell.

    :func:`parse_soil` runs a whole file in one session; a shell-like driver calls :meth:`execute` per
    command and evaluates queries in between on :attr:`state` with :attr:`variables`.
    """

    def __init__(self, model: Model, runtime: Runtime | None = None, *, file: str | None = None) -> None:
        self.model = model
        self.runtime = runtime or Runtime(model)
        self.file = file
        self.state = ObjectState(model, file=file)
        self.result = SoilResult(self.state)
        self.ctx = self.runtime.context(self.state)

    @property
    def variables(self) -> dict[str, Any]:
        return self.result.variables

    def execute(self, text: str, *, first_line: int = 1) -> None:
        """Run the statements of ``text`` (whose first line is line ``first_line`` of the file);
        ``check`` and ``?`` queries are recorded as skipped. Errors are raised, the statements before
        the failing one stay done."""
        for number, raw in enumerate(split_lines(text), start=first_line):
            line = raw.strip()
            if not line or line.startswith(("--", "//")):
                continue
            if line.startswith("?") or line.split()[0] == "check":
                self.result.skipped.append((number, line))
                continue
            for statement in _statements(raw, number - 1, self.file):
                self.run(statement)

    # -- helpers ------------------------------------------------------------------------------------
    def error(self, message: str, where: Any) -> StateError:
        return StateError(
            message, file=self.file, line=getattr(where, "line", None), column=getattr(where, "column", None)
        )

    def namespace(self) -> Mapping[str, Obj]:
        """Objects by name, SOIL variables bound to objects first (as in USE's shell)."""
        bound = {var: value for var, value in self.result.variables.items() if isinstance(value, Obj)}
        return ChainMap(bound, self.state.objects) if bound else self.state.objects

    def evaluate(self, expr: ast.Expr) -> tuple[Any, Type]:
        compiler = self.runtime.compiler(objects=self.namespace(), file=self.file)
        variables = {k: v for k, v in self.result.variables.items() if not isinstance(v, Obj)}
        compiled = compiler.compile_query(expr, {k: runtime_type(v) for k, v in variables.items()})
        env = compiled.frame(self.ctx)
        for name, slot in compiled.slots.items():
            env[slot] = variables[name]
        with self.evaluating(expr):
            return compiled.fn(env), compiled.type

    @contextmanager
    def evaluating(self, where: Any) -> Iterator[None]:
        """An evaluation that cannot finish (USE: N/A) stops the state with an error at ``where``."""
        try:
            yield
        except MultiplicityViolation as violation:
            raise self.error(f"evaluation failed: {violation}", where) from None
        except RecursionError:
            raise self.error(f"evaluation failed: {RECURSION_TOO_DEEP}", where) from None

    def object_of(self, expr: ast.Expr) -> Obj:
        value, _ = self.evaluate(expr)
        if not isinstance(value, Obj):
            raise self.error("an object was expected here", expr)
        if self.state.objects.get(value.name) is not value:
            raise self.error(f"object `{value.name}' does not exist any more", expr)
        return value

    def class_named(self, token: Token) -> Class:
        cls = self.model.classes.get(str(token))
        if cls is None:
            raise self.error(f"undefined class `{token}'", token)
        return cls

    def object_name(self, name_expr: ast.Expr | None, cls: Class) -> str:
        if name_expr is None:
            return self.state.unique_name(cls)
        value, t = self.evaluate(name_expr)
        if not isinstance(value, str):
            raise self.error(f"the object name must be a String, found type `{t}'", name_expr)
        return value

    def create(self, cls: Class, name: str, where: Any, between: list[ast.Expr] | None) -> Obj:
        if between is not None:
            if not cls.is_association_class:
                raise self.error(f"`{cls.name}' is not an association class; `between' needs one", where)
            participants = [self.object_of(e) for e in between]
        elif cls.is_association_class:
            raise self.error(f"objects of association class `{cls.name}' need `between (...)'", where)
        try:
            obj = self.state.create_object(cls, name)
            if between is not None:
                assert cls.association is not None
                try:
                    self.state.insert_link(cls.association, participants, obj)
                except StateError:
                    self.state.destroy_object(obj)
                    raise
        except OclError as error:
            raise self.error(error.message, where) from None
        self.initialize(obj, where)
        return obj

    def initialize(self, obj: Obj, where: Any) -> None:
        """USE evaluates ``init`` expressions when an object is created."""
        for attr in obj.cls.all_attributes():
            if attr.init is not None:
                with self.evaluating(where):
                    obj.values[attr.name] = self.runtime.initial_value(self.ctx, attr, obj)

    # -- statements ---------------------------------------------------------------------------------
    def run(self, s: _Statement) -> None:
        getattr(self, "_" + s.kind)(s)

    def _new(self, s: _Statement) -> None:
        cls = self.class_named(s.args["cls"])
        obj = self.create(cls, self.object_name(s.args["name"], cls), s, s.args["between"])
        variable = s.args.get("variable")
        if variable is not None:
            self.result.variables[str(variable)] = obj

    def _create(self, s: _Statement) -> None:
        cls = self.class_named(s.args["cls"])
        names = s.args["names"]
        if s.args["between"] is not None and len(names) != 1:
            raise self.error("`create ... between' creates exactly one link object", s)
        for name in names:
            self.create(cls, str(name), name, s.args["between"])

    def _assign(self, s: _Statement) -> None:
        value, _ = self.evaluate(s.args["expr"])
        self.result.variables[str(s.args["variable"])] = value

    def _set(self, s: _Statement) -> None:
        target: ast.Expr = s.args["object"]
        if isinstance(target, ast.Name) and target.name not in self.namespace():
            raise self.error(f"undefined object `{target.name}'", target)
        obj = self.object_of(target)
        attr_token: Token = s.args["attribute"]
        attr = obj.cls.attribute(str(attr_token))
        if attr is None:
            raise self.error(f"class `{obj.cls.name}' has no attribute `{attr_token}'", attr_token)
        value, t = self.evaluate(s.args["expr"])
        if not t.conforms_to(attr.type) and t != OCL_VOID:
            raise self.error(
                f"type mismatch in assignment: `{t}' does not conform to the type `{attr.type}' of "
                f"`{obj.cls.name}::{attr.name}'",
                s.args["expr"],
            )
        try:
            self.state.set_attribute(obj, attr.name, value)
        except OclError as error:
            raise self.error(error.message, attr_token) from None

    def _association(self, token: Token) -> Any:
        assoc = self.model.associations.get(str(token))
        if assoc is None:
            raise self.error(f"undefined association `{token}'", token)
        return assoc

    def _insert(self, s: _Statement) -> None:
        assoc = self._association(s.args["association"])
        if assoc.is_class:  # USE's MLinkInsertionStatement: a link object with a generated name
            cls = self.model.classes[assoc.name]
            self.create(cls, self.state.unique_name(cls), s, s.args["objects"])
            return
        objects = [self.object_of(e) for e in s.args["objects"]]
        try:
            self.state.insert_link(assoc, objects)
        except OclError as error:
            raise self.error(error.message, s) from None

    def _delete(self, s: _Statement) -> None:
        assoc = self._association(s.args["association"])
        objects = [self.object_of(e) for e in s.args["objects"]]
        try:
            self.state.delete_link(assoc, objects)
        except OclError as error:
            raise self.error(error.message, s) from None

    def _destroy(self, s: _Statement) -> None:
        """``destroy e, ...``: each ``e`` is an object or a collection of objects (USE's
        ``ASTObjectDestructionStatement``: ``!destroy A.allInstances``, ``!destroy Sequence{a, b}``)."""
        for expr in s.args["objects"]:
            value, t = self.evaluate(expr)
            if isinstance(t, ClassType):
                self._destroy_object(self.object_of(expr))
                continue
            if not (isinstance(t, CollectionType) and isinstance(t.elem, ClassType)) and not (
                isinstance(expr, ast.CollectionLit) and not expr.items  # an empty literal: nothing to do
            ):
                raise self.error(f"Expected `{print_expr(expr)}' to be an object type, found `{t}'.", expr)
            for obj in () if value is None else list(value):
                if not isinstance(obj, Obj):
                    raise self.error(f"an object was expected here, found `{runtime_type(obj)}'", expr)
                if self.state.objects.get(obj.name) is obj:  # a link object may have gone with its link
                    self._destroy_object(obj)

    def _destroy_object(self, obj: Obj) -> None:
        self.state.destroy_object(obj)
        for var, value in list(self.result.variables.items()):
            if value is obj:
                del self.result.variables[var]


__all__ = ["SoilResult", "SoilSession", "parse_soil", "read_soil"]
