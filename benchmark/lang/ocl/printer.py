"""OCL AST -> text that parses back to the same AST (minimal parentheses, USE's precedence).

Used by the ``.use`` and PlantUML writers and by the round-trip property tests.
"""

from __future__ import annotations

from benchmark.lang.ocl import ast

# binding strength, weakest first (USE's OCLBase grammar); all binary operators are left associative
_BINARY_LEVEL = {
    "implies": 1,
    "or": 2,
    "xor": 3,
    "and": 4,
    "=": 5,
    "<>": 5,
    "<": 6,
    ">": 6,
    "<=": 6,
    ">=": 6,
    "+": 7,
    "-": 7,
    "*": 8,
    "/": 8,
    "div": 8,
}
_LET = 0
_UNARY = 9
_POSTFIX = 10


def _level(e: ast.Expr) -> int:
    if isinstance(e, ast.Let):
        return _LET
    if isinstance(e, ast.Binary):
        return _BINARY_LEVEL[e.op]
    if isinstance(e, ast.Unary):
        return _UNARY
    return _POSTFIX


def print_type(t: ast.TypeExpr) -> str:
    if isinstance(t, ast.SimpleTypeExpr):
        return t.name
    if isinstance(t, ast.CollectionTypeExpr):
        return f"{t.kind}({print_type(t.elem)})"
    if isinstance(t, ast.TupleTypeExpr):
        return "Tuple(" + ", ".join(f"{n} : {print_type(p)}" for n, p in t.parts) + ")"
    raise TypeError(f"not a type expression: {t!r}")


_STRING_ESCAPES = {"\\": "\\\\", "'": "\\'", "\n": "\\n", "\r": "\\r", "\t": "\\t", "\b": "\\b", "\f": "\\f"}


def quote_string(value: str, *, escape_slash: bool = False) -> str:
    """A STRING literal; ``escape_slash`` writes ``/`` as ``\\u002f`` (PlantUML reads ``/'`` as a comment)."""
    out = []
    for ch in value:
        if escape_slash and ch == "/":
            out.append("\\u002f")
        elif ch in _STRING_ESCAPES:
            out.append(_STRING_ESCAPES[ch])
        elif ord(ch) < 0x20 or 0xD800 <= ord(ch) <= 0xDFFF:
            out.append(f"\\u{ord(ch):04x}")
        else:
            out.append(ch)
    return "'" + "".join(out) + "'"


def _real(value: float) -> str:
    text = repr(value)
    if text in ("inf", "-inf", "nan"):
        raise ValueError(f"{value} has no OCL literal")
    return text if any(c in text for c in ".e") else text + ".0"


def print_expr(e: ast.Expr, *, for_plantuml: bool = False) -> str:
    """The expression as OCL text (``for_plantuml``: no ``/'`` or ``'/`` inside string literals)."""
    return _Printer(for_plantuml).expr(e)


class _Printer:
    def __init__(self, for_plantuml: bool = False) -> None:
        self.for_plantuml = for_plantuml

    def expr(self, e: ast.Expr) -> str:
        method = getattr(self, "_" + type(e).__name__)
        return method(e)

    def _wrap(self, e: ast.Expr, minimum: int) -> str:
        text = self.expr(e)
        return f"({text})" if _level(e) < minimum else text

    # literals
    def _IntegerLit(self, e: ast.IntegerLit) -> str:
        return str(e.value)

    def _RealLit(self, e: ast.RealLit) -> str:
        return _real(e.value)

    def _StringLit(self, e: ast.StringLit) -> str:
        return quote_string(e.value, escape_slash=self.for_plantuml)

    def _BooleanLit(self, e: ast.BooleanLit) -> str:
        return "true" if e.value else "false"

    def _NullLit(self, e: ast.NullLit) -> str:
        if e.spelling == "Undefined":
            return "Undefined"
        if e.type is None:
            return "null"
        return f"{e.spelling}({print_type(e.type)})"

    def _EnumLit(self, e: ast.EnumLit) -> str:
        return f"#{e.literal}" if e.enum is None else f"{e.enum}::{e.literal}"

    def _CollectionLit(self, e: ast.CollectionLit) -> str:
        items = []
        for item in e.items:
            if isinstance(item, ast.RangeItem):
                items.append(f"{self._wrap(item.first, 1)}..{self._wrap(item.last, 1)}")
            else:
                items.append(self.expr(item))
        return f"{e.kind}{{{', '.join(items)}}}"

    def _EmptyCollectionLit(self, e: ast.EmptyCollectionLit) -> str:
        if e.spelling == "oclEmpty":
            return f"oclEmpty({print_type(e.type)})"
        return f"{print_type(e.type)}{{}}"

    def _TupleLit(self, e: ast.TupleLit) -> str:
        parts = []
        for item in e.items:
            if item.type is None:
                parts.append(f"{item.name} = {self.expr(item.value)}")
            else:
                parts.append(f"{item.name} : {print_type(item.type)} = {self._wrap(item.value, 6)}")
        return "Tuple{" + ", ".join(parts) + "}"

    def _ObjectRef(self, e: ast.ObjectRef) -> str:
        return f"@{e.name}"

    def _Name(self, e: ast.Name) -> str:
        return e.name + ("@pre" if e.pre else "")

    # calls
    def _source(self, source: ast.Expr | None, arrow: bool) -> str:
        if source is None:
            return ""
        return self._wrap(source, _POSTFIX) + ("->" if arrow else ".")

    def _PropertyCall(self, e: ast.PropertyCall) -> str:
        text = self._source(e.source, e.arrow) + e.name
        if e.roles:
            text += "[" + ", ".join(e.roles) + "]"
        if e.pre:
            text += "@pre"
        if e.args is not None:
            text += "(" + ", ".join(self.expr(a) for a in e.args) + ")"
        return text

    def _decls(self, decls: tuple[ast.VarDecl, ...]) -> str:
        return ", ".join(d.name if d.type is None else f"{d.name} : {print_type(d.type)}" for d in decls)

    def _IteratorCall(self, e: ast.IteratorCall) -> str:
        head = self._source(e.source, e.arrow) + e.name + "("
        if e.variables:
            return head + self._decls(e.variables) + " | " + self.expr(e.body) + ")"
        return head + self.expr(e.body) + ")"

    def _Iterate(self, e: ast.Iterate) -> str:
        acc = e.accumulator
        assert acc.type is not None
        return (
            self._source(e.source, e.arrow)
            + f"iterate({self._decls(e.variables)}; {acc.name} : {print_type(acc.type)} = {self.expr(e.init)}"
            + f" | {self.expr(e.body)})"
        )

    def _TypeOp(self, e: ast.TypeOp) -> str:
        return self._source(e.source, e.arrow) + f"{e.name}({print_type(e.type)})"

    # operators
    def _Unary(self, e: ast.Unary) -> str:
        operand = self._wrap(e.operand, _UNARY)
        if e.op == "not":
            return f"not {operand}"
        sep = " " if operand[:1] in "-+" else ""
        return f"{e.op}{sep}{operand}"

    def _Binary(self, e: ast.Binary) -> str:
        level = _BINARY_LEVEL[e.op]
        left = self._wrap(e.left, level)
        right = self._wrap(e.right, level + 1)
        return f"{left} {e.op} {right}"

    def _If(self, e: ast.If) -> str:
        return f"if {self.expr(e.condition)} then {self.expr(e.then)} else {self.expr(e.otherwise)} endif"

    def _Let(self, e: ast.Let) -> str:
        bindings = []
        for b in e.bindings:
            head = b.name if b.type is None else f"{b.name} : {print_type(b.type)}"
            bindings.append(f"{head} = {self.expr(b.value)}")
        return f"let {', '.join(bindings)} in {self.expr(e.body)}"
