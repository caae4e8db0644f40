"""ATL tokens from one compiled regular expression, fed to lark's LALR parser.

lark's own lexers are too slow for the benchmark's target (about 2 s for the ATL Zoo on their own); one
``re.finditer`` over the whole text with a dispatch on the matched group takes a tenth of that. The
lexical rules are those of the official ANTLR3 lexer (``ATL_ANTLR3Lexer``):

- whitespace is space, tab, CR and LF; CRLF, CR and LF end lines; any other control character (a form feed
  included) is an error;
- ``--`` starts a comment up to the end of the line, anywhere outside a string (so ``'--'`` is data and
  ``a--b`` is ``a`` then a comment);
- a name is a letter, ``_`` or a Latin-1 letter, then those or digits; ``"..."`` is a name too, with its
  escapes decoded and the quotes removed (``"from"`` is the name ``from``, never a keyword);
- a string is single-quoted, may span lines, and knows the escapes ``\\n \\r \\t \\b \\f \\" \\' \\\\``
  (any other escape is an error, as in ATL);
- ``1.5`` is a real only when a digit follows the dot (``2.toString()`` is an integer then a call);
- the 58 keywords are reserved; the grammar accepts them as names in the three positions ATL allows.

Two tokens depend on context, to keep the grammar LALR(1) (see ``atl.lark``): a comma followed by a name
(or keyword) and a colon becomes ``COMMA_DECL``, and an ``if`` in statement position that ATL reads as an
if statement becomes ``IF_STAT``.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

from lark.lexer import Lexer

from benchmark.lang.atl.errors import AtlSyntaxError

__all__ = ["KEYWORDS", "SYMBOLS", "Tok", "tokenize", "AtlLexer", "describe_terminal"]

#: keyword text -> terminal name (the official lexer's 58 keywords).
KEYWORDS: dict[str, str] = {
    word: word.upper()
    for word in (
        "module create refining from library query uses helper def context nodefault abstract rule extends "
        "using unique lazy entrypoint endpoint in to mapsTo distinct foreach drop do if else for iterate "
        "OclUndefined true false then endif super let Bag Set OrderedSet Sequence Map Tuple OclType OclAny "
        "TupleType Integer Real Boolean String Collection not div mod and or xor implies"
    ).split()
}

#: symbol text -> terminal name.
SYMBOLS: dict[str, str] = {
    "(": "LPAR",
    ")": "RPAR",
    "{": "LBRACE",
    "}": "RBRACE",
    "[": "LSQB",
    "]": "RSQB",
    ";": "SEMI",
    ":": "COLON",
    "::": "DCOLON",
    ",": "COMMA",
    ".": "DOT",
    "!": "BANG",
    "#": "HASH",
    "|": "PIPE",
    "?": "QMARK",
    "@": "AT",
    "=": "EQ",
    "<": "LT",
    ">": "GT",
    "<=": "LE",
    ">=": "GE",
    "<>": "NE",
    "+": "PLUS",
    "-": "MINUS",
    "*": "STAR",
    "/": "SLASH",
    "->": "ARROW",
    "<-": "LARROW",
    "<:=": "ASSIGN",
}

_LETTER = r"A-Za-z_\u00C0-\u00D6\u00D8-\u00F6\u00F8-\u00FF"
_TOKEN_RE = re.compile(
    rf"""
     (?P<ws>[ \t\r\n]+)
    |(?P<name>[{_LETTER}][{_LETTER}0-9]*)
    |(?P<comment>--[^\r\n]*)
    |(?P<sym><:=|<-|<=|<>|->|>=|::|[(){{}}\[\];:,.!\#|?@=<>+\-*/])
    |(?P<str>'(?:[^'\\]|\\[^\n])*')
    |(?P<real>[0-9]+\.[0-9]+)
    |(?P<int>[0-9]+)
    |(?P<qname>"(?:[^"\\]|\\[^\n])*")
    |(?P<bad_str>')
    |(?P<bad_qname>")
    |(?P<bad>.)
    """,
    re.VERBOSE | re.DOTALL,
)

_ESCAPES = {"n": "\n", "r": "\r", "t": "\t", "b": "\b", "f": "\f", '"': '"', "'": "'", "\\": "\\"}
_ESCAPE_RE = re.compile(r"\\(.)", re.DOTALL)

#: Tokens that may continue an expression after ``if (c)``: then the ``if`` starts an if expression.
_EXPRESSION_CONTINUATIONS = frozenset(
    "DOT ARROW STAR SLASH DIV MOD PLUS EQ GT LT GE LE NE AND OR XOR IMPLIES THEN".split()
)
_NAME_LIKE = frozenset(["NAME", *KEYWORDS.values()])


class Tok:
    """A token as lark's parser needs it (``type``, ``value``, positions), cheaper to build than
    ``lark.Token``. ``value`` is the name without quotes, the decoded string, or the source text."""

    __slots__ = ("type", "value", "line", "column", "start_pos")
    end_line = None
    end_column = None
    end_pos = None

    def __init__(self, type_: str, value: str, line: int, column: int, start_pos: int) -> None:
        self.type = type_
        self.value = value
        self.line = line
        self.column = column
        self.start_pos = start_pos

    def __repr__(self) -> str:
        return f"Tok({self.type}, {self.value!r}, {self.line}:{self.column})"


def _unescape(body: str, line: int, column: int, file: str | None) -> str:
    if "\\" not in body:
        return body

    def replace(match: re.Match[str]) -> str:
        char = match.group(1)
        try:
            return _ESCAPES[char]
        except KeyError:
            kind = "octal escape sequences are not supported" if char in "0123" else "unknown escape sequence"
            raise AtlSyntaxError(
                f"{kind}: '\\{char}'",
                file=file,
                line=line,
                column=column,
                token=match.group(0),
            ) from None

    return _ESCAPE_RE.sub(replace, body)


def _newlines(text: str) -> int:
    return text.count("\n") + text.count("\r") - text.count("\r\n")


def _last_line_start(text: str, offset: int) -> int:
    return offset + max(text.rfind("\n"), text.rfind("\r")) + 1


def tokenize(text: str, file: str | None = None) -> list[Tok]:
    """All significant tokens of ``text`` (no whitespace or comments), ``COMMA_DECL`` already decided.

    Raises :class:`AtlSyntaxError` at the first character that starts no token, an unterminated string or
    quoted name, or an unknown escape."""
    tokens: list[Tok] = []
    append = tokens.append
    keywords = KEYWORDS
    symbols = SYMBOLS
    name_like = _NAME_LIKE
    line = 1
    line_start = 0
    for match in _TOKEN_RE.finditer(text):
        kind = match.lastgroup
        value = match.group()
        if kind == "ws":
            if "\n" in value or "\r" in value:
                line += _newlines(value)
                line_start = _last_line_start(value, match.start())
            continue
        start = match.start()
        if kind == "name":
            append(Tok(keywords.get(value, "NAME"), value, line, start - line_start + 1, start))
        elif kind == "sym":
            type_ = symbols[value]
            if type_ == "COLON" and len(tokens) >= 2:
                if tokens[-1].type in name_like and tokens[-2].type == "COMMA":
                    tokens[-2].type = "COMMA_DECL"
            append(Tok(type_, value, line, start - line_start + 1, start))
        elif kind == "comment":
            continue
        elif kind == "str" or kind == "qname":
            column = start - line_start + 1
            decoded = _unescape(value[1:-1], line, column, file)
            append(Tok("STR" if kind == "str" else "NAME", decoded, line, column, start))
            if "\n" in value or "\r" in value:
                line += _newlines(value)
                line_start = _last_line_start(value, start)
        elif kind == "int":
            append(Tok("INT", value, line, start - line_start + 1, start))
        elif kind == "real":
            append(Tok("REALNUM", value, line, start - line_start + 1, start))
        else:
            column = start - line_start + 1
            if kind == "bad_str":
                message = "unterminated string literal"
            elif kind == "bad_qname":
                message = "unterminated quoted name"
            else:
                message = f"unexpected character {value!r}"
            raise AtlSyntaxError(message, file=file, line=line, column=column, token=value)
    return tokens


def _is_if_statement(tokens: list[Tok], index: int) -> bool:
    """Whether the ``if`` at ``index`` (in statement position) starts an if statement.

    The official parser tries an if statement first and falls back to an expression statement (ANTLR
    backtracking). It is an if statement when ``(`` follows and the token after the matching ``)`` cannot
    continue an expression: ``if (c) x <- 1;`` is a statement, ``if (c) then a else b endif;``,
    ``if (c).f() then ...`` and ``if c then ...`` are expression statements. After ``)``, ``-`` is either
    (``if (a) - 1;`` is a statement, ``if (a) - 1 then ... endif;`` an expression): the first ``then`` or
    ``;`` at the same nesting level decides."""
    count = len(tokens)
    if index + 1 >= count or tokens[index + 1].type != "LPAR":
        return False
    depth = 0
    for position in range(index + 1, count):
        type_ = tokens[position].type
        if type_ == "LPAR":
            depth += 1
        elif type_ == "RPAR":
            depth -= 1
            if depth == 0:
                following = tokens[position + 1].type if position + 1 < count else "$END"
                if following == "MINUS":
                    return not _then_comes_first(tokens, position + 1)
                return following not in _EXPRESSION_CONTINUATIONS
    return True


def _then_comes_first(tokens: list[Tok], start: int) -> bool:
    """Whether a ``then`` comes before the end of the statement starting at ``start`` (skipping nested
    brackets and nested ``if ... endif`` expressions)."""
    depth = 0
    for position in range(start, len(tokens)):
        type_ = tokens[position].type
        if type_ in ("LPAR", "LBRACE", "IF"):
            depth += 1
        elif type_ in ("RPAR", "RBRACE", "ENDIF"):
            depth -= 1
            if depth < 0:
                return False
        elif depth == 0:
            if type_ == "THEN":
                return True
            if type_ in ("SEMI", "LARROW", "ASSIGN"):
                return False
    return False


class AtlLexer(Lexer):
    """lark custom lexer (interface 2): sees the parser state, which decides ``IF_STAT``."""

    __future_interface__ = 2

    def __init__(self, lexer_conf: Any) -> None:
        self.file: str | None = None
        self.tokens: list[Tok] = []

    def lex(self, lexer_state: Any, parser_state: Any) -> Iterator[Tok]:  # type: ignore[override]
        text = lexer_state.text
        text = getattr(text, "text", text)
        tokens = tokenize(text, self.file)
        self.tokens = tokens
        states = parser_state.parse_conf.states
        state_stack = parser_state.state_stack
        for index, token in enumerate(tokens):
            if (
                token.type == "IF"
                and "IF_STAT" in states[state_stack[-1]]
                and _is_if_statement(tokens, index)
            ):
                token.type = "IF_STAT"
            yield token


_HUMAN_NAMES = {
    "NAME": "a name",
    "STR": "a string",
    "INT": "an integer",
    "REALNUM": "a real number",
    "COMMA_DECL": "','",
    "IF_STAT": "'if'",
    "$END": "end of file",
}
_HUMAN_NAMES.update({terminal: f"'{word}'" for word, terminal in KEYWORDS.items()})
_HUMAN_NAMES.update({terminal: f"'{symbol}'" for symbol, terminal in SYMBOLS.items()})


def describe_terminal(terminal: str) -> str:
    """A terminal as a user reads it: ``'module'``, ``';'``, ``a name``, ``end of file``."""
    return _HUMAN_NAMES.get(terminal, terminal)
