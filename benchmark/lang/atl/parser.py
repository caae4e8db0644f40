"""``parse`` and ``parse_file``: ATL text to a typed AST (:mod:`benchmark.lang.atl.ast`).

The grammar (``atl.lark``) is compiled once per process into lark's LALR(1) tables; tokens come from
:mod:`benchmark.lang.atl.lexer` and the AST is built during the parse by
:class:`~benchmark.lang.atl.builder.AstBuilder`.
"""

from __future__ import annotations

import dataclasses
import hashlib
import os
import re
import sys
import threading
from functools import lru_cache
from pathlib import Path

import lark
from lark import Lark
from lark.exceptions import UnexpectedToken
from lark.grammar import Rule

from benchmark.core.errors import InputFormatError
from benchmark.core.gcpause import collector_paused
from benchmark.lang.atl import ast
from benchmark.lang.atl.builder import AstBuilder
from benchmark.lang.atl.errors import AtlSyntaxError
from benchmark.lang.atl.lexer import KEYWORDS, AtlLexer, Tok, describe_terminal

__all__ = [
    "parse",
    "parse_file",
    "read_atl_text",
    "scan_header_annotations",
    "GRAMMAR_PATH",
    "build_lark",
    "grammar_cache_file",
]

GRAMMAR_PATH = Path(__file__).with_name("atl.lark")

#: Encodings tried in order: real ATL files carry cp1252 or latin-1 bytes in comments.
_ENCODINGS = ("utf-8", "cp1252", "latin-1")


def build_lark(*, strict: bool = False, transformer: object | None = None, cache: str | None = None) -> Lark:
    """A lark LALR parser for the ATL grammar fed by :class:`AtlLexer` (``strict=True`` makes lark refuse
    any shift/reduce conflict instead of resolving it silently; the tests build it so). ``cache`` is a
    file where lark keeps the compiled tables (checked against a hash of grammar and options)."""
    options: dict[str, object] = {"cache": cache} if cache else {}
    return Lark(
        GRAMMAR_PATH.read_text(encoding="utf-8"),
        parser="lalr",
        lexer=AtlLexer,
        transformer=transformer,
        keep_all_tokens=True,
        maybe_placeholders=False,
        strict=strict,
        **options,
    )


#: Environment variable: a directory for the compiled-grammar cache, or 0/off to disable it.
GRAMMAR_CACHE_VARIABLE = "ATLBENCH_GRAMMAR_CACHE"


def grammar_cache_file() -> str | None:
    """Where the compiled LALR tables are cached between processes (compiling them takes about 0.1 s,
    loading them about 0.01 s): ``$ATLBENCH_GRAMMAR_CACHE`` or ``~/.cache/atl-binding-bench``, in a file
    named after the grammar, lark and Python versions. None when disabled or not writable."""
    setting = os.environ.get(GRAMMAR_CACHE_VARIABLE, "")
    if setting.lower() in ("0", "off", "no", "false"):
        return None
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    directory = Path(setting) if setting else Path(base) / "atl-binding-bench"
    try:
        directory.mkdir(parents=True, exist_ok=True)
    except OSError:
        return None
    if not os.access(directory, os.W_OK):
        return None
    key = f"{GRAMMAR_PATH.read_text(encoding='utf-8')}\0{lark.__version__}\0{sys.version_info[:2]}"
    digest = hashlib.sha256(key.encode("utf-8")).hexdigest()[:16]
    return str(directory / f"atl-grammar-{digest}.lark-cache")


def _speed_up_tables(compiled: Lark) -> None:
    """Re-key lark's LALR tables with plain strings and identity-hashed rules.

    lark's parse loop looks up ``callbacks[rule]`` and ``states[state][rule.origin.name]`` on every
    reduction; ``Rule`` hashes and compares in Python and ``origin.name`` is a ``lark.Token`` whose ``==``
    is Python code too, which costs about a third of the parse time. The tables and the parse are
    unchanged: same states, same actions, same rules, only cheaper keys. Skipped if lark's internals are
    not laid out as expected (lark 1.2/1.3)."""
    try:
        parser = compiled.parser.parser.parser  # type: ignore[attr-defined]
        states = parser.parse_table.states
        callbacks = parser.callbacks
    except AttributeError:  # pragma: no cover - another lark layout: keep the defaults
        return
    rules = {id(arg): arg for state in states.values() for _, arg in state.values() if isinstance(arg, Rule)}
    for rule in rules.values():
        rule.origin.name = str(rule.origin.name)
        rule.__class__ = _IdentityRule
    for number, actions in list(states.items()):
        states[number] = {str(key): value for key, value in actions.items()}
    rebuilt = {(str(key) if isinstance(key, str) else key): value for key, value in callbacks.items()}
    callbacks.clear()
    callbacks.update(rebuilt)


class _IdentityRule(Rule):
    """A lark ``Rule`` hashed and compared by identity (each rule object is unique in a grammar)."""

    __slots__ = ()
    __hash__ = object.__hash__
    __eq__ = object.__eq__


class _Parser:
    """The compiled grammar with its builder; a lock keeps concurrent threads from sharing the builder."""

    def __init__(self) -> None:
        self.builder = AstBuilder()
        self.lark = build_lark(transformer=self.builder, cache=grammar_cache_file())
        _speed_up_tables(self.lark)
        self.lexer: AtlLexer = self.lark.parser.lexer  # type: ignore[attr-defined]
        self.lock = threading.Lock()

    def parse(self, text: str, file: str | None) -> ast.Unit:
        with self.lock:
            self.builder.reset(file)
            self.lexer.file = file
            # A parse allocates many objects and no reference cycles: the cyclic collector would only
            # rescan the growing tree again and again (cost growing faster than the input). It runs
            # again, as usual, once the parse is over.
            try:
                with collector_paused():
                    unit: ast.Unit = self.lark.parse(text)  # type: ignore[assignment]
            except UnexpectedToken as error:
                raise _syntax_error(error, text, file, self.lexer.tokens) from None
            leniencies = tuple(self.builder.leniencies)
            super_declared = self.builder.super_declared
        if super_declared:
            # Lenient files that declare a variable named `super` mean that variable wherever they write it.
            unit = ast.transform(unit, _super_to_variable)  # type: ignore[assignment]
        return dataclasses.replace(unit, annotations=scan_header_annotations(text), leniencies=leniencies)


def _super_to_variable(node: ast.Node) -> ast.Node:
    if type(node) is ast.SuperExp:
        return ast.VariableExp("super", line=node.line, column=node.column)
    return node


@lru_cache(maxsize=1)
def _parser() -> _Parser:
    return _Parser()


def _end_position(text: str) -> tuple[int, int]:
    lines = re.split(r"\r\n|\r|\n", text)
    return len(lines), len(lines[-1]) + 1


_KEYWORD_TERMINALS = frozenset(KEYWORDS.values())
#: Terminals that start a primary expression; a state expecting all of them expects "an expression".
_PRIMARY_START = frozenset(
    "NAME SUPER LPAR OCLUNDEFINED TRUE FALSE INT REALNUM STR HASH IF SEQUENCE SET BAG ORDEREDSET MAP TUPLE "
    "OCLANY OCLTYPE INTEGER REAL BOOLEAN STRING COLLECTION TUPLETYPE".split()
)
_EXPRESSION_START = _PRIMARY_START | {"NOT", "MINUS", "LET"}
_BINARY_OPERATORS = frozenset("STAR SLASH DIV MOD PLUS MINUS EQ GT LT GE LE NE AND OR XOR IMPLIES".split())


def _expected_names(expected: set[str]) -> tuple[str, ...]:
    """What the parser would have accepted, in words, with the big families summarised."""
    terminals = set(expected)
    summary: list[str] = []
    if _PRIMARY_START <= terminals:
        if {"NOT", "MINUS", "LET"} <= terminals:
            summary.append("an expression")
        elif {"NOT", "MINUS"} <= terminals:
            summary.append("an operand")
        else:
            summary.append("a primary expression")
        terminals -= _EXPRESSION_START
    if "NAME" in terminals and _KEYWORD_TERMINALS <= terminals:
        # Where any keyword is a name (after '.', a binding's property, a tuple part), say so once.
        terminals -= _KEYWORD_TERMINALS | {"NAME"}
        summary.append("a name or keyword")
    if _BINARY_OPERATORS <= terminals:
        terminals -= _BINARY_OPERATORS
        summary.append("an operator")
    return (*summary, *sorted({describe_terminal(t) for t in terminals}))


_TOKEN_KINDS = {"NAME": "name", "STR": "string", "INT": "integer", "REALNUM": "real number"}


def _describe_token(token: Tok) -> str:
    kind = _TOKEN_KINDS.get(token.type)
    return f"{kind} {token.value!r}" if kind else describe_terminal(token.type)


def _syntax_error(error: UnexpectedToken, text: str, file: str | None, tokens: list[Tok]) -> AtlSyntaxError:
    token = error.token
    expected = _expected_names(set(error.expected))
    after = ""
    if token.type == "COMMA" and "COMMA_DECL" in error.expected and isinstance(token, Tok):
        # A ',' where a declaration list continues: the problem is what follows the comma, which is not
        # `name :` (a trailing comma, or a model list where only one model is allowed).
        index = next((i for i, t in enumerate(tokens) if t is token), -1)
        token = tokens[index + 1] if 0 <= index < len(tokens) - 1 else Tok("$END", "", 0, 0, 0)
        expected = ("a declaration 'name : type'",)
        after = " after ','"
    if token.type == "$END":
        line, column = _end_position(text)
        found = "end of file"
        token_text = ""
    else:
        line, column = token.line, token.column
        token_text = token.value if isinstance(token, Tok) else str(token)
        found = _describe_token(token) if isinstance(token, Tok) else repr(token_text)
    if len(expected) == 1:
        wanted = expected[0]
    elif len(expected) <= 12:
        wanted = "one of: " + ", ".join(expected)
    else:
        wanted = "one of: " + ", ".join(expected[:12]) + f", ... ({len(expected)} in all)"
    return AtlSyntaxError(
        f"unexpected {found}{after}; expected {wanted}",
        file=file,
        line=line,
        column=column,
        token=token_text,
        expected=expected,
    )


_UNIT_START = ("library", "module", "query")
_ANNOTATION_RE = re.compile(r"--\s*@(\S*)")
_VALUE_RE = re.compile(r"^\s*--\s*@\S*\s+(\S*)")


def scan_header_annotations(text: str) -> tuple[ast.HeaderAnnotation, ...]:
    """The ``-- @tag value`` lines before the unit keyword, scanned as ATL's ``AtlSourceManager`` does: line
    by line, stopping at the first line that starts (in column 1) with ``module``, ``query`` or
    ``library``; a line counts when, trimmed, it starts with ``-- @`` (``--@tag`` does not count)."""
    annotations: list[ast.HeaderAnnotation] = []
    for number, line in enumerate(re.split(r"\r\n|\r|\n", text), start=1):
        if line.startswith(_UNIT_START):
            break
        stripped = ast._java_trim(line)
        if not stripped.startswith("-- @"):
            continue
        tag_match = _ANNOTATION_RE.match(stripped)
        tag = tag_match.group(1) if tag_match else ""
        value_match = _VALUE_RE.match(line)
        value = value_match.group(1) if value_match else ""
        annotations.append(ast.HeaderAnnotation(tag, value, line, line=number, column=line.index("--") + 1))
    return tuple(annotations)


def parse(text: str, *, file: str | None = None) -> ast.Unit:
    """Parse ATL source text into a :data:`~benchmark.lang.atl.ast.Unit` (a Module, Query or Library).

    ``file`` only names the source in errors. Raises :class:`AtlSyntaxError` (with file, line, column,
    the offending token and the expected tokens) when the text is not ATL."""
    return _parser().parse(text, file)


def read_atl_text(path: str | Path) -> str:
    """A file's text: UTF-8, else cp1252, else latin-1 (which decodes anything). A UTF-8 byte order mark
    is dropped. Line ends are kept as they are (the lexer knows CRLF, CR and LF).

    A file that cannot be read raises :class:`~benchmark.core.errors.InputFormatError` naming it, so that
    every caller (batch parsing, the extractor, the commands) reports it like a syntax error instead of
    wrapping ``OSError`` itself."""
    try:
        data = Path(path).read_bytes()
    except OSError as error:
        raise InputFormatError(f"cannot read file: {error.strerror or error}", file=path) from error
    for encoding in _ENCODINGS:
        try:
            text = data.decode(encoding)
        except UnicodeDecodeError:
            continue
        return text[1:] if text.startswith("\ufeff") else text
    raise AssertionError("latin-1 decodes every byte string")  # pragma: no cover


def parse_file(path: str | Path) -> ast.Unit:
    """Read (see :func:`read_atl_text`) and parse an ATL file; errors name the file."""
    return parse(read_atl_text(path), file=str(path))
