"""The regular-expression lexer: ATL's lexical rules, positions and the two context tokens."""

from __future__ import annotations

import pytest

from benchmark.lang.atl import AtlSyntaxError
from benchmark.lang.atl.lexer import describe_terminal, tokenize


def kinds(text: str) -> list[tuple[str, str]]:
    return [(token.type, token.value) for token in tokenize(text)]


def test_keywords_are_reserved_and_case_sensitive():
    assert kinds("module Module rule Rule") == [
        ("MODULE", "module"),
        ("NAME", "Module"),
        ("RULE", "rule"),
        ("NAME", "Rule"),
    ]


def test_names_that_are_not_keywords():
    # self, thisModule, default, class, out, ... are ordinary names in ATL.
    names = "self thisModule main default package class body null out value name derived"
    assert all(kind == "NAME" for kind, _ in kinds(names))


def test_quoted_names_are_names_without_quotes_never_keywords():
    assert kinds('"from" "uml::Class" "a b"') == [("NAME", "from"), ("NAME", "uml::Class"), ("NAME", "a b")]


def test_quoted_name_escapes_are_decoded():
    assert kinds(r'"a\"b\\c"') == [("NAME", 'a"b\\c')]


def test_latin1_letters_in_names():
    assert kinds("caf\u00e9 \u00c0b") == [("NAME", "caf\u00e9"), ("NAME", "\u00c0b")]


def test_string_escapes_are_decoded():
    source = r"'a\nb\rc\td\be\ff\"g\'h\\i'"
    assert kinds(source) == [("STR", "a\nb\rc\td\be\ff\"g'h\\i")]


def test_strings_span_lines_and_keep_dashes():
    assert kinds("'x -- y\n<!-- z -->'") == [("STR", "x -- y\n<!-- z -->")]


def test_comments_anywhere_outside_strings():
    assert kinds("a--b\nc -- d 'e'\n--- f") == [("NAME", "a"), ("NAME", "c")]


def test_comment_at_end_of_file_without_newline():
    assert kinds("a -- the end") == [("NAME", "a")]


def test_numbers():
    assert kinds("1.5 2.toString() 10 1.") == [
        ("REALNUM", "1.5"),
        ("INT", "2"),
        ("DOT", "."),
        ("NAME", "toString"),
        ("LPAR", "("),
        ("RPAR", ")"),
        ("INT", "10"),
        ("INT", "1"),
        ("DOT", "."),
    ]


def test_maximal_munch_symbols():
    assert [kind for kind, _ in kinds("a<-1 <:= <= <> -> >= - < > :: :")] == [
        "NAME",
        "LARROW",
        "INT",
        "ASSIGN",
        "LE",
        "NE",
        "ARROW",
        "GE",
        "MINUS",
        "LT",
        "GT",
        "DCOLON",
        "COLON",
    ]


@pytest.mark.parametrize("newline", ["\n", "\r\n", "\r"])
def test_line_and_column_with_every_line_end(newline):
    tokens = tokenize(f"a{newline}\tbb  c{newline}{newline}'x{newline}y' z")
    assert [(t.value, t.line, t.column) for t in tokens] == [
        ("a", 1, 1),
        ("bb", 2, 2),
        ("c", 2, 6),
        (f"x{newline}y", 4, 1),
        ("z", 5, 4),
    ]


def test_comma_before_a_declaration_is_comma_decl():
    # `in IN, IN2` lists models; `, b :` starts the next declaration (the official parser looks 3 ahead).
    types = [t.type for t in tokenize("a : T in IN, IN2, b : T, from : T")]
    assert types.count("COMMA") == 1
    assert types.count("COMMA_DECL") == 2


def test_describe_terminal_uses_user_words():
    assert describe_terminal("SEMI") == "';'"
    assert describe_terminal("NAME") == "a name"
    assert describe_terminal("MAPSTO") == "'mapsTo'"
    assert describe_terminal("$END") == "end of file"


@pytest.mark.parametrize(
    ("source", "line", "column", "message"),
    [
        ("a\n  % b", 2, 3, "unexpected character '%'"),
        ("a\f", 1, 2, "unexpected character '\\x0c'"),
        ("x 'abc", 1, 3, "unterminated string literal"),
        ('x "abc', 1, 3, "unterminated quoted name"),
        ("\n  'a\\db'", 2, 3, "unknown escape sequence: '\\d'"),
        ("'\\1'", 1, 1, "octal escape sequences are not supported: '\\1'"),
        ("1 +\u00a0 2", 1, 4, "unexpected character '\\xa0'"),
    ],
)
def test_lexical_errors_have_positions(source, line, column, message):
    with pytest.raises(AtlSyntaxError) as caught:
        tokenize(source, "f.atl")
    error = caught.value
    assert (error.file, error.line, error.column, error.message) == ("f.atl", line, column, message)
