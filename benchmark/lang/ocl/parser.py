"""Parsing OCL expressions and types (USE dialect) with the lark grammar ``use.lark``.

One LALR parser serves expressions, types, ``.use`` models and SOIL lines (several start rules), built
once per process. :class:`ExprBuilder` turns lark trees into :mod:`benchmark.lang.ocl.ast` nodes with their
line and column; the model and SOIL readers extend it. Syntax errors become
:class:`~benchmark.lang.ocl.errors.OclSyntaxError` with the position of the offending token.
"""

from __future__ import annotations

import functools
import re
from importlib import resources
from typing import Any

from lark import Lark, Token, Transformer, Tree, v_args
from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken, VisitError
from lark.tree import Meta

from benchmark.lang.ocl import ast
from benchmark.lang.ocl.errors import OclError, OclSyntaxError
from benchmark.lang.ocl.values import INT_MAX

START_RULES = ["expression_only", "type_only", "model_file", "soil_line", "constraints_file", "ocl_note"]


# Words USE's grammars reserve (literal tokens of its OCL, model and SOIL rules). lark's contextual lexer
# would accept them as identifiers where no keyword can follow; USE does not, and neither do we.
RESERVED_WORDS = frozenset(
    """and or xor not implies div if then else endif let in true false null Undefined oclUndefined
    oclEmpty iterate oclAsType oclIsKindOf oclIsTypeOf selectByKind selectByType Set Bag Sequence
    OrderedSet Collection Tuple model constraints context inv pre post end attributes operations
    between enum abstract ordered associationclass associationClass new destroy insert delete into
    from begin declare for do while""".split()
)


class _ReservedWordUsed(Exception):
    def __init__(self, token: Token) -> None:
        super().__init__(str(token))
        self.token = token


def _check_identifier(token: Token) -> Token:
    """The lexer produced an identifier; a reserved word here means it is misplaced (``a and or b``)."""
    if token in RESERVED_WORDS:
        raise _ReservedWordUsed(token)
    return token


@functools.cache
def lark_parser() -> Lark:
    grammar = resources.files("benchmark.lang.ocl").joinpath("use.lark").read_text(encoding="utf-8")
    return Lark(
        grammar,
        parser="lalr",
        start=START_RULES,
        propagate_positions=True,
        maybe_placeholders=True,
        cache=True,
        lexer_callbacks={"IDENT": _check_identifier},
    )


_READABLE_TERMINALS = {
    "IDENT": "identifier",
    "INT": "integer",
    "REAL": "real",
    "STRING": "string",
    "$END": "end of input",
}


@functools.cache  # lark looks a terminal up by a search of the grammar's list; an error lists dozens
def _describe_terminal(name: str) -> str:
    if name in _READABLE_TERMINALS:
        return _READABLE_TERMINALS[name]
    try:
        pattern = lark_parser().get_terminal(name).pattern
    except KeyError:
        return name
    if pattern.type == "str":
        return f"`{pattern.value}'"
    return name.lower()


def _end_position(text: str) -> tuple[int, int]:
    """Line and column just after the last non-blank character (where the input ran out)."""
    stripped = text.rstrip()
    line = stripped.count("\n") + 1
    column = len(stripped) - (stripped.rfind("\n") + 1) + 1
    return line, column


def syntax_error(error: UnexpectedInput, file: str | None, text: str = "") -> OclSyntaxError:
    """A positioned, readable error from lark's exception."""
    end: tuple[int, int] | None = None
    if isinstance(error, UnexpectedToken):
        token = error.token
        if token.type == "$END":
            what = "unexpected end of input"
            end = _end_position(text)
        else:
            what = f"unexpected `{token.value}'"
        expected = sorted({_describe_terminal(t) for t in error.accepts or error.expected})
    elif isinstance(error, UnexpectedCharacters):
        what = f"unexpected character `{error.char}'"
        expected = sorted({_describe_terminal(t) for t in (error.allowed or ())})
    elif isinstance(error, UnexpectedEOF):
        what = "unexpected end of input"
        expected = sorted({_describe_terminal(t) for t in error.expected})
        end = _end_position(text)
    else:  # pragma: no cover - lark has no other subclasses
        what, expected = str(error), []
    if expected:
        shown = ", ".join(expected[:10]) + (", ..." if len(expected) > 10 else "")
        what += f"; expected {shown}"
    line = getattr(error, "line", None)
    column = getattr(error, "column", None)
    if end is not None:
        line, column = end
    if line is None or line < 0:
        line, column = None, None
    return OclSyntaxError(what, file=file, line=line, column=column)


def _parse(text: str, start: str) -> Tree | UnexpectedInput | _ReservedWordUsed:
    """The tree of ``text``, or lark's error (kept without the frames of lark's parser: its traceback and
    the exception it was raised in; nobody reads them, and thousands of kept errors would hold tens of
    thousands of frames). An unexpected token's error keeps the terminals the parser accepted there (what
    its message lists, :func:`syntax_error`) but not the parser itself, whose stack holds the trees of
    everything read before the error."""
    try:
        return lark_parser().parse(text, start=start)
    except (UnexpectedInput, _ReservedWordUsed) as error:
        error.__context__ = None
        if isinstance(error, UnexpectedToken):
            error.accepts  # noqa: B018 - computed now (lark keeps it), from the parser about to be dropped
            error.interactive_parser = None  # type: ignore[assignment]
            error.state = None
        return error.with_traceback(None)


@functools.lru_cache(maxsize=8192)
def _shared_tree(text: str, start: str) -> Tree | UnexpectedInput | _ReservedWordUsed:
    """The tree of ``text``, parsed once per process: the judge meets the same answer text in every mode
    (a reference, an unchanged answer), and the dataset's SOIL files repeat most of their lines (13,137
    lines, 2,019 distinct). lark builds trees that nobody modifies (the transformers build new
    values), so callers share them. A text that does not parse gives lark's error, kept as well: the
    judge tries every prefix of an answer that does not parse, again for each run that gave the same
    answer, and a failed parse costs as much as a successful one."""
    return _parse(text, start)


_FAILED_KEPT = 8192
#: (text, start rule) -> lark's error, for the texts parsed with ``keep=False`` that do not parse
_failed: dict[tuple[str, str], UnexpectedInput | _ReservedWordUsed] = {}


def _tree(text: str, start: str, keep: bool) -> Tree | UnexpectedInput | _ReservedWordUsed:
    """The tree of ``text`` or lark's error: shared (:func:`_shared_tree`), or, with ``keep=False``,
    parsed and not kept when it parses; an error is kept either way (the caller reads the text again
    at its position for the message, and meets it again)."""
    failed = _failed.get((text, start))
    if failed is not None:
        return failed
    if keep:
        return _shared_tree(text, start)
    found = _parse(text, start)
    if isinstance(found, Exception):
        if len(_failed) >= _FAILED_KEPT:
            del _failed[next(iter(_failed))]  # the oldest
        _failed[(text, start)] = found
    return found


def parse_tree(
    text: str, start: str, *, file: str | None = None, line_offset: int = 0, keep: bool = True
) -> Tree:
    """Parse ``text``; positions are shifted by ``line_offset`` lines (text cut out of a larger file).

    Without an offset the tree is shared with other callers that parsed the same text (do not modify
    it); with one it is a copy of the shared tree with its positions shifted. ``keep=False``: a caller
    that keeps what it builds from the tree (once per text and process) does not need it kept too, so
    it is not; an error is kept all the same. (Kept, the trees of every answer, SOIL line and model, with
    the parser stacks and the frames kept errors held, were a quarter of a cold OCL session's objects,
    680,000 against 500,000 at its last full pass of the cyclic garbage collector, which scans them all.)"""
    tree = _tree(text, start, keep)
    # A kept error is read, never raised: raising it would tie the frames of this call (and, through
    # their locals, what the caller holds) to the kept error until its text is parsed again.
    if isinstance(tree, UnexpectedInput):
        err = syntax_error(tree, file, text)
        if err.line is not None:
            err.line += line_offset
        raise err
    if isinstance(tree, _ReservedWordUsed):
        token = tree.token
        raise OclSyntaxError(
            f"unexpected `{token}' (a reserved word cannot be used as a name)",
            file=file,
            line=(token.line or 0) + line_offset,
            column=token.column,
        )
    return _shifted(tree, line_offset) if line_offset else tree


def shifted_token(token: Token, offset: int) -> Token:
    """A copy of ``token`` with its line numbers moved by ``offset``."""
    return Token(
        token.type,
        token.value,
        token.start_pos,
        None if token.line is None else token.line + offset,
        token.column,
        None if token.end_line is None else token.end_line + offset,
        token.end_column,
        token.end_pos,
    )


def _shifted(node: Any, offset: int) -> Any:
    """A copy of ``node`` (a tree, a token or a placeholder) with every line number moved by ``offset``."""
    if isinstance(node, Token):
        return shifted_token(node, offset)
    if not isinstance(node, Tree):
        return node
    meta = None
    if node._meta is not None:  # lark creates the meta lazily; an absent one stays absent
        meta = Meta()
        meta.__dict__.update(node._meta.__dict__)
        if not meta.empty:
            meta.line += offset
            meta.end_line += offset
    return Tree(node.data, [_shifted(child, offset) for child in node.children], meta)


def transform(builder: Transformer, tree: Tree) -> Any:
    """Apply ``builder``; an :class:`OclError` raised inside a callback surfaces unwrapped."""
    try:
        return builder.transform(tree)
    except VisitError as error:
        if isinstance(error.orig_exc, OclError):
            raise error.orig_exc from None
        raise


def split_lines(text: str) -> list[str]:
    """Lines as the grammar counts them: only CR, LF and CRLF end a line (not U+0085, U+2028...)."""
    return re.split(r"\r\n|\r|\n", text.removesuffix("\n").removesuffix("\r"))


def _padding(line: int, column: int) -> str:
    """Leading whitespace that makes positions of embedded text match the enclosing file."""
    return "\n" * (line - 1) + " " * (column - 1)


def parse_expression(text: str, *, file: str | None = None, line: int = 1, column: int = 1) -> ast.Expr:
    """Parse one OCL expression; ``line``/``column`` give its position inside ``file``."""
    tree = parse_tree(_padding(line, column) + text, "expression_only", file=file)
    return transform(ExprBuilder(file), tree)


def parse_type(text: str, *, file: str | None = None, line: int = 1, column: int = 1) -> ast.TypeExpr:
    tree = parse_tree(_padding(line, column) + text, "type_only", file=file)
    return transform(ExprBuilder(file), tree)


_ESCAPE = re.compile(r"\\(u[0-9a-fA-F]{4}|[0-3][0-7]{0,2}|[4-7][0-7]?|.)")
_SIMPLE_ESCAPES = {"n": "\n", "r": "\r", "t": "\t", "b": "\b", "f": "\f", '"': '"', "'": "'", "\\": "\\"}


def unescape_string(body: str) -> str:
    """Java-style escapes of USE's STRING token (``\\n``, ``\\'``, ``\\u00e9``, octal)."""

    def replace(m: re.Match[str]) -> str:
        code = m.group(1)
        if code[0] == "u":
            return chr(int(code[1:], 16))
        if code[0] in "01234567":
            return chr(int(code, 8))
        if code in _SIMPLE_ESCAPES:
            return _SIMPLE_ESCAPES[code]
        raise ValueError(code)

    return _ESCAPE.sub(replace, body)


def _pos(item: Token | Any) -> dict[str, Any]:
    return {"line": item.line, "column": item.column}


class _Property:
    """What follows ``.``/``->`` before the source is known."""

    __slots__ = ("kind", "token", "roles", "call", "extra", "pre")

    def __init__(
        self,
        kind: str,
        token: Token,
        roles: tuple[str, ...] = (),
        call: Any = None,
        extra: Any = None,
        pre: bool = False,
    ):
        self.pre = pre
        self.kind = kind
        self.token = token
        self.roles = roles
        self.call = call
        self.extra = extra


class _CallArgs:
    __slots__ = ("args", "bar", "body", "token")

    def __init__(
        self, args: list[tuple[ast.Expr, ast.TypeExpr | None]], bar: Token | None, body: ast.Expr | None
    ):
        self.args = args
        self.bar = bar
        self.body = body


class ExprBuilder(Transformer):
    """lark tree -> AST for expressions and types (the model/SOIL builders subclass it).

    Callbacks take the list of children (lark's default); those that need the node's position are
    decorated with ``@v_args(meta=True)``. No class-wide ``v_args``: it wraps every method, and lark then
    builds a new wrapper (``functools.update_wrapper``) at every lookup, for every node transformed."""

    def __init__(self, file: str | None = None) -> None:
        super().__init__()
        self.file = file

    def error(self, message: str, item: Any) -> OclSyntaxError:
        return OclSyntaxError(message, file=self.file, line=item.line, column=item.column)

    # -- entry points ---------------------------------------------------------------------------
    def expression_only(self, c: list[Any]) -> ast.Expr:
        return c[0]

    def type_only(self, c: list[Any]) -> ast.TypeExpr:
        return c[0]

    # -- let, operators -------------------------------------------------------------------------
    @v_args(meta=True)
    def let_expr(self, meta: Any, c: list[Any]) -> ast.Let:
        return ast.Let(tuple(c[:-1]), c[-1], line=meta.line, column=meta.column)

    def let_binding(self, c: list[Any]) -> ast.LetBinding:
        name, typ, _eq, value = c
        return ast.LetBinding(str(name), typ, value, **_pos(name))

    def binary(self, c: list[Any]) -> ast.Binary:
        left, op, right = c
        return ast.Binary(str(op), left, right, **_pos(op))

    def unary(self, c: list[Any]) -> ast.Unary:
        op, operand = c
        return ast.Unary(str(op), operand, **_pos(op))

    # -- postfix calls --------------------------------------------------------------------------
    def postfix(self, c: list[Any]) -> ast.Expr:
        source, op, prop = c
        return self._call(source, op.type == "ARROW", prop)

    def named_property(self, c: list[Any]) -> _Property:
        name, roles, pre, call = c
        return _Property("named", name, tuple(roles or ()), call, pre=pre is not None)

    def at_pre(self, c: list[Any]) -> Token:
        return c[0]

    def iterate_property(self, c: list[Any]) -> _Property:
        return self._iterate_parts(c)

    def type_property(self, c: list[Any]) -> _Property:
        name, typ = c
        return _Property("type", name, extra=typ)

    def roles(self, c: list[Token]) -> list[str]:
        return [str(t) for t in c]

    def call_args(self, c: list[Any]) -> _CallArgs:
        args: list[tuple[ast.Expr, ast.TypeExpr | None]] = []
        bar: Token | None = None
        body: ast.Expr | None = None
        for item in c:
            if item is None:
                continue
            if isinstance(item, tuple):
                args.append(item)
            elif isinstance(item, Token) and item.type == "BAR":
                bar = item
            else:
                body = item
        result = _CallArgs(args, bar, body)
        return result

    def call_arg(self, c: list[Any]) -> tuple[ast.Expr, ast.TypeExpr | None]:
        return (c[0], c[1])

    def iter_vars(self, c: list[ast.VarDecl]) -> list[ast.VarDecl]:
        return c

    def iter_var(self, c: list[Any]) -> ast.VarDecl:
        name, typ = c
        return ast.VarDecl(str(name), typ, **_pos(name))

    def _iterate_parts(self, c: list[Any]) -> _Property:
        keyword, variables, acc_name, acc_type, _eq, init, _bar, body = c
        acc = ast.VarDecl(str(acc_name), acc_type, **_pos(acc_name))
        return _Property("iterate", keyword, extra=(tuple(variables), acc, init, body))

    def _call(self, source: ast.Expr | None, arrow: bool, prop: _Property) -> ast.Expr:
        tok = prop.token
        if prop.kind == "type":
            return ast.TypeOp(source, arrow, str(tok), prop.extra, **_pos(tok))
        if prop.kind == "iterate":
            variables, acc, init, body = prop.extra
            return ast.Iterate(source, arrow, variables, acc, init, body, **_pos(tok))
        name = str(tok)
        call: _CallArgs | None = prop.call
        if call is None:
            return ast.PropertyCall(source, arrow, name, None, prop.roles, prop.pre, **_pos(tok))
        if name in ast.ITERATORS and prop.pre:
            raise self.error(f"`@pre' cannot modify the iterator `{name}'", tok)
        if name in ast.ITERATORS:
            if prop.roles:
                raise self.error(f"`{name}' takes no role qualification", tok)
            if call.bar is not None:
                variables = []
                for expr, typ in call.args:
                    if not isinstance(expr, ast.Name):
                        raise self.error(f"iterator variable of `{name}' must be a name", expr)
                    variables.append(ast.VarDecl(expr.name, typ, line=expr.line, column=expr.column))
                assert call.body is not None
                return ast.IteratorCall(source, arrow, name, tuple(variables), call.body, **_pos(tok))
            if len(call.args) != 1 or call.args[0][1] is not None:
                raise self.error(f"`{name}' expects one body expression, as in `{name}(x | ...)'", tok)
            return ast.IteratorCall(source, arrow, name, (), call.args[0][0], **_pos(tok))
        if call.bar is not None:
            raise self.error(f"`{name}' is not an iterator; `|' is not allowed in its arguments", call.bar)
        for expr, typ in call.args:
            if typ is not None:
                raise self.error("a type annotation is only allowed for iterator variables", expr)
        args = tuple(e for e, _ in call.args)
        return ast.PropertyCall(source, arrow, name, args, prop.roles, prop.pre, **_pos(tok))

    # -- primaries ------------------------------------------------------------------------------
    def name_primary(self, c: list[Any]) -> ast.Expr:
        name, pre, call = c
        if call is None:
            return ast.Name(str(name), pre is not None, **_pos(name))
        return self._call(None, False, _Property("named", name, (), call, pre=pre is not None))

    def qualified_name_primary(self, c: list[Any]) -> ast.Expr:
        """``role[qualifier]`` without a source: a navigation from the implicit ``self`` (USE allows it)."""
        name, roles, pre, call = c
        prop = _Property("named", name, tuple(roles), call, pre=pre is not None)
        if call is None:
            return ast.PropertyCall(None, False, str(name), None, prop.roles, prop.pre, **_pos(name))
        return self._call(None, False, prop)

    def type_primary(self, c: list[Any]) -> ast.Expr:
        name, typ = c
        return ast.TypeOp(None, False, str(name), typ, **_pos(name))

    def iterate_primary(self, c: list[Any]) -> ast.Expr:
        return self._call(None, False, self._iterate_parts(c))

    @v_args(meta=True)
    def if_expr(self, meta: Any, c: list[Any]) -> ast.If:
        cond, then, otherwise = c
        return ast.If(cond, then, otherwise, line=meta.line, column=meta.column)

    @v_args(meta=True)
    def object_ref(self, meta: Any, c: list[Any]) -> ast.ObjectRef:
        return ast.ObjectRef(str(c[0]), line=meta.line, column=meta.column)

    def enum_qualified(self, c: list[Token]) -> ast.EnumLit:
        enum, literal = c
        return ast.EnumLit(str(enum), str(literal), **_pos(enum))

    @v_args(meta=True)
    def enum_hash(self, meta: Any, c: list[Token]) -> ast.EnumLit:
        return ast.EnumLit(None, str(c[0]), line=meta.line, column=meta.column)

    # -- literals -------------------------------------------------------------------------------
    def int_lit(self, c: list[Token]) -> ast.IntegerLit:
        tok = c[0]
        value = int(tok)
        if value > INT_MAX:
            raise self.error(f"integer literal `{tok}' is out of range (USE's Integer is 32-bit)", tok)
        return ast.IntegerLit(value, **_pos(tok))

    def real_lit(self, c: list[Token]) -> ast.RealLit:
        return ast.RealLit(float(c[0]), **_pos(c[0]))

    def string_lit(self, c: list[Token]) -> ast.StringLit:
        tok = c[0]
        try:
            value = unescape_string(tok[1:-1])
        except ValueError:
            raise self.error("invalid escape sequence in string literal", tok) from None
        return ast.StringLit(value, **_pos(tok))

    @v_args(meta=True)
    def true_lit(self, meta: Any, c: list[Any]) -> ast.BooleanLit:
        return ast.BooleanLit(True, line=meta.line, column=meta.column)

    @v_args(meta=True)
    def false_lit(self, meta: Any, c: list[Any]) -> ast.BooleanLit:
        return ast.BooleanLit(False, line=meta.line, column=meta.column)

    def null_lit(self, c: list[Any]) -> ast.NullLit:
        tok, typ = c
        return ast.NullLit(typ, "null", **_pos(tok))

    def undefined_lit(self, c: list[Token]) -> ast.NullLit:
        return ast.NullLit(None, "Undefined", **_pos(c[0]))

    def ocl_undefined_lit(self, c: list[Any]) -> ast.NullLit:
        tok, typ = c
        return ast.NullLit(typ, "oclUndefined", **_pos(tok))

    def collection_kind(self, c: list[Token]) -> Token:
        return c[0]

    def type_op_name(self, c: list[Token]) -> Token:
        return c[0]

    def collection_lit(self, c: list[Any]) -> ast.CollectionLit:
        kind = c[0]
        items = tuple(i for i in c[1:] if i is not None)
        return ast.CollectionLit(str(kind), items, **_pos(kind))

    def collection_item(self, c: list[Any]) -> ast.Expr | ast.RangeItem:
        first, dots, last = c
        if dots is None:
            return first
        return ast.RangeItem(first, last, **_pos(dots))

    def empty_collection_lit(self, c: list[Any]) -> ast.EmptyCollectionLit:
        kind, elem = c
        return ast.EmptyCollectionLit(
            ast.CollectionTypeExpr(str(kind), elem, **_pos(kind)), "braces", **_pos(kind)
        )

    @v_args(meta=True)
    def ocl_empty_lit(self, meta: Any, c: list[Any]) -> ast.EmptyCollectionLit:
        return ast.EmptyCollectionLit(c[0], "oclEmpty", line=meta.line, column=meta.column)

    @v_args(meta=True)
    def tuple_lit(self, meta: Any, c: list[ast.TupleItem]) -> ast.TupleLit:
        names = [i.name for i in c]
        for i, item in enumerate(c):
            if item.name in names[:i]:
                raise self.error(f"tuple part `{item.name}' is defined twice", item)
        return ast.TupleLit(tuple(c), line=meta.line, column=meta.column)

    def tuple_item(self, c: list[Any]) -> ast.TupleItem:
        name = c[0]
        value = c[-1]
        if (
            len(c) == 2
            and isinstance(value, ast.Binary)
            and value.op == "="
            and isinstance(value.left, ast.Name)
        ):
            # `name : Type = value` (USE prefers this reading, as its grammar's syntactic predicate does)
            typ = ast.SimpleTypeExpr(value.left.name, line=value.left.line, column=value.left.column)
            return ast.TupleItem(str(name), typ, value.right, **_pos(name))
        return ast.TupleItem(str(name), None, value, **_pos(name))

    # -- types ----------------------------------------------------------------------------------
    def simple_type(self, c: list[Token]) -> ast.SimpleTypeExpr:
        return ast.SimpleTypeExpr(str(c[0]), **_pos(c[0]))

    def collection_type(self, c: list[Any]) -> ast.CollectionTypeExpr:
        kind, elem = c
        return ast.CollectionTypeExpr(str(kind), elem, **_pos(kind))

    @v_args(meta=True)
    def tuple_type(self, meta: Any, c: list[tuple[str, ast.TypeExpr]]) -> ast.TupleTypeExpr:
        return ast.TupleTypeExpr(tuple(c), line=meta.line, column=meta.column)

    def tuple_part(self, c: list[Any]) -> tuple[str, ast.TypeExpr]:
        return (str(c[0]), c[1])
