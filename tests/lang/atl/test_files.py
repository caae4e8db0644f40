"""parse_file: encodings, line ends, file names in errors."""

from __future__ import annotations

from pathlib import Path

import pytest

from benchmark.core.errors import BenchmarkError
from benchmark.lang.atl import AtlSyntaxError, ast, parse_file, read_atl_text

SOURCE = "-- {comment}\nmodule M; create OUT : B from IN : A;\nhelper def : s : String = '{text}';\n"


def write(tmp_path: Path, data: bytes, name: str = "t.atl") -> Path:
    path = tmp_path / name
    path.write_bytes(data)
    return path


def string_value(unit: ast.Unit) -> str:
    assert isinstance(unit, ast.Module)
    body = unit.helpers[0].body
    assert isinstance(body, ast.StringExp)
    return body.value


def test_utf8(tmp_path):
    path = write(tmp_path, SOURCE.format(comment="caf\u00e9 \u2014", text="\u00e9\u20ac").encode("utf-8"))
    assert string_value(parse_file(path)) == "\u00e9\u20ac"


def test_cp1252_fallback(tmp_path):
    # 0x93/0x94 are curly quotes in cp1252 and invalid UTF-8.
    path = write(tmp_path, SOURCE.format(comment="\u201cquoted\u201d", text="x").encode("cp1252"))
    assert read_atl_text(path).startswith("-- \u201cquoted\u201d")
    assert string_value(parse_file(path)) == "x"


def test_latin1_fallback(tmp_path):
    # 0x81 is undefined in cp1252: only latin-1 decodes it.
    data = SOURCE.format(comment="X", text="y").encode("ascii").replace(b"X", b"\x81\xe9")
    path = write(tmp_path, data)
    assert read_atl_text(path).startswith("-- \x81\u00e9")
    assert string_value(parse_file(path)) == "y"


def test_utf8_byte_order_mark_is_dropped(tmp_path):
    path = write(tmp_path, b"\xef\xbb\xbf" + SOURCE.format(comment="c", text="t").encode())
    assert string_value(parse_file(path)) == "t"


@pytest.mark.parametrize("newline", [b"\r\n", b"\r", b"\n"])
def test_line_ends_and_error_lines(tmp_path, newline):
    data = newline.join(
        [b"-- header", b"module M; create OUT : B from IN : A;", b"", b"helper def : h : Integer = 1 +;"]
    )
    with pytest.raises(AtlSyntaxError) as caught:
        parse_file(write(tmp_path, data))
    assert (caught.value.line, caught.value.column) == (4, 31)


def test_multiline_string_keeps_its_line_ends(tmp_path):
    data = b"module M; create OUT : B from IN : A;\r\nhelper def : s : String = 'a\r\nb';\r\n"
    assert string_value(parse_file(write(tmp_path, data))) == "a\r\nb"


def test_comment_at_end_of_file_without_newline(tmp_path):
    path = write(tmp_path, b"module M; create OUT : B from IN : A;\nrule R { from a : A!X } -- done")
    unit = parse_file(path)
    assert isinstance(unit, ast.Module) and len(unit.rules) == 1


def test_errors_name_the_file_and_are_benchmark_errors(tmp_path):
    path = write(
        tmp_path,
        b"module M;\ncreate OUT : B from IN : A;\nrule R { from a : A!X to t : B!T (n <- ) }\n",
        "bad file.atl",
    )
    with pytest.raises(BenchmarkError) as caught:
        parse_file(path)
    error = caught.value
    assert isinstance(error, AtlSyntaxError)
    assert error.file == str(path)
    assert (error.line, error.column, error.token) == (3, 40, ")")
    assert error.expected == ("an expression",)
    assert str(error) == f"{path}:3:40: unexpected ')'; expected an expression"
    data = error.to_dict()
    assert data["token"] == ")" and data["expected"] == ["an expression"] and data["line"] == 3


def test_error_at_end_of_file_points_after_the_last_character(tmp_path):
    path = write(tmp_path, b"module M; create OUT : B from IN : A;\nrule R { from a : A!X\n  -- unfinished")
    with pytest.raises(AtlSyntaxError) as caught:
        parse_file(path)
    assert (caught.value.line, caught.value.column, caught.value.token) == (3, 16, "")
    assert caught.value.message.startswith("unexpected end of file")


def test_syntax_errors_survive_pickling():
    import pickle

    error = AtlSyntaxError("m", file="f", line=1, column=2, token="x", expected=("a name",))
    copy = pickle.loads(pickle.dumps(error))
    assert (copy.message, copy.file, copy.line, copy.column, copy.token, copy.expected) == (
        "m",
        "f",
        1,
        2,
        "x",
        ("a name",),
    )


def test_lexical_errors_name_the_file_too(tmp_path):
    path = write(tmp_path, b"module M; create OUT : B from IN : A;\nhelper def : s : String = 'a\\qb';\n")
    with pytest.raises(AtlSyntaxError) as caught:
        parse_file(path)
    assert (caught.value.file, caught.value.line, caught.value.column) == (str(path), 2, 27)
    assert caught.value.message == "unknown escape sequence: '\\q'"


def test_a_file_that_cannot_be_read_is_an_input_error_naming_it(tmp_path):
    from benchmark.core.errors import InputFormatError

    missing = tmp_path / "missing.atl"
    for read in (read_atl_text, parse_file):
        with pytest.raises(InputFormatError) as caught:
            read(missing)
        assert caught.value.file == str(missing)
        assert caught.value.message == "cannot read file: No such file or directory"
