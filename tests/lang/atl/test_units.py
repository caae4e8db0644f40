"""Units (module, query, library), their headers and the header annotations."""

from __future__ import annotations

import pytest

from benchmark.lang.atl import AtlSyntaxError, parse
from benchmark.lang.atl import ast as a


def test_module_with_several_models_and_libraries():
    unit = parse("module M;\ncreate OUT : B, OUT2 : C from IN : A, IN2 : D;\nuses strings;\nuses L2;\n")
    assert isinstance(unit, a.Module)
    assert unit.name == "M"
    assert unit.out_models == (a.ModelDecl("OUT", "B"), a.ModelDecl("OUT2", "C"))
    assert unit.in_models == (a.ModelDecl("IN", "A"), a.ModelDecl("IN2", "D"))
    assert not unit.refining
    assert unit.libraries == (a.LibraryRef("strings"), a.LibraryRef("L2"))
    assert unit.elements == ()


def test_refining_module():
    unit = parse("module M; create OUT : A refining IN : A;")
    assert isinstance(unit, a.Module) and unit.refining


def test_helpers_and_rules_interleave_in_source_order():
    unit = parse(
        "module M; create OUT : B from IN : A;\n"
        "helper def : h1 : Integer = 1;\n"
        "rule R { from a : A!X }\n"
        "helper def : h2 : Integer = 2;\n"
        "rule C() { }\n"
    )
    assert isinstance(unit, a.Module)
    assert [type(e).__name__ for e in unit.elements] == ["Helper", "MatchedRule", "Helper", "CalledRule"]
    assert [h.name for h in unit.helpers] == ["h1", "h2"]
    assert [r.name for r in unit.rules] == ["R", "C"]


def test_query_body_comes_before_uses_and_helpers():
    unit = parse("query Q = A!X.allInstances()->size();\nuses L;\nhelper def : h : Integer = 1;\n")
    assert isinstance(unit, a.Query)
    assert unit.name == "Q"
    assert isinstance(unit.body, a.OperationCallExp) and unit.body.name == "size"
    assert unit.libraries == (a.LibraryRef("L"),)
    assert [h.name for h in unit.helpers] == ["h"]


def test_library():
    unit = parse("library L;\nuses L2;\nhelper context String def : twice() : String = self + self;\n")
    assert isinstance(unit, a.Library)
    assert (unit.name, unit.libraries, len(unit.helpers)) == ("L", (a.LibraryRef("L2"),), 1)


@pytest.mark.parametrize(
    ("source", "line", "column"),
    [
        ("module M; create OUT : B from IN : A;\nhelper def : h : Integer = 1;\nuses L;\n", 3, 1),
        ("module M; create OUT : B from IN : A;\nrule R { from a : A!X };\n", 2, 24),
        ("helper def : h : Integer = 1;\n", 1, 1),
        ("module M; create from IN : A;", 1, 18),
        ("", 1, 1),
        ("-- only a comment", 1, 18),
    ],
)
def test_unit_level_errors(source, line, column):
    with pytest.raises(AtlSyntaxError) as caught:
        parse(source)
    assert (caught.value.line, caught.value.column) == (line, column)


HEADER = """-- @name Example
-- @path MM=/Project/MM.ecore
  -- @path MM2=/Project/My Models/MM2.ecore
--@atlcompiler emftvm
-- @atlcompiler atl2010
-- @nsURI UML=http://www.eclipse.org/uml2/2.1.0/UML
-- @lib strings=/Project/strings.asm
-- @path broken
-- @path a=b=c
-- @pathological value
module M; create OUT : MM2 from IN : MM;
-- @path Late=/not/read.ecore
"""


def test_header_annotations_are_scanned_like_atl():
    unit = parse(HEADER)
    assert [(n.tag, n.value, n.line) for n in unit.annotations] == [
        ("name", "Example", 1),
        ("path", "MM=/Project/MM.ecore", 2),
        ("path", "MM2=/Project/My", 3),
        ("atlcompiler", "atl2010", 5),
        ("nsURI", "UML=http://www.eclipse.org/uml2/2.1.0/UML", 6),
        ("lib", "strings=/Project/strings.asm", 7),
        ("path", "broken", 8),
        ("path", "a=b=c", 9),
        ("pathological", "value", 10),
    ]
    assert unit.annotations[2].text == "  -- @path MM2=/Project/My Models/MM2.ecore"
    # ATL's prefix test makes `-- @pathological` a `path` line; its pattern then fails, so the line is
    # kept whole (untrimmed) and
    # dropped from the NAME=value readings (no '=').
    assert unit.tagged_values("path") == (
        "MM=/Project/MM.ecore",
        "  -- @path MM2=/Project/My Models/MM2.ecore",
        "broken",
        "a=b=c",
        "-- @pathological value",
    )
    # ... and ATL then splits the whole line on '=': a path with a space registers a metamodel named
    # "-- @path MM2". Faithful, if odd.
    assert unit.metamodel_paths == {"MM": "/Project/MM.ecore", "-- @path MM2": "/Project/My Models/MM2.ecore"}
    assert unit.metamodel_uris == {"UML": "http://www.eclipse.org/uml2/2.1.0/UML"}
    assert unit.library_paths == {"strings": "/Project/strings.asm"}
    assert unit.compiler == "atl2010"


def test_no_annotations_and_default_compiler():
    unit = parse("module M; create OUT : B from IN : A;")
    assert unit.annotations == ()
    assert unit.compiler is None
    assert unit.metamodel_paths == {}


def test_annotation_scan_stops_only_at_a_unit_keyword_in_column_one():
    unit = parse("  module M; create OUT : B from IN : A;\n-- @path X=/x.ecore\n")
    assert unit.metamodel_paths == {"X": "/x.ecore"}


def test_annotations_take_part_in_equality_but_positions_do_not():
    first = parse("-- @path A=/a.ecore\nmodule M; create OUT : B from IN : A;")
    second = parse("-- @path A=/a.ecore\n\n\nmodule   M;\ncreate OUT:B from IN:A;")
    third = parse("-- @path A=/other.ecore\nmodule M; create OUT : B from IN : A;")
    assert first == second
    assert first != third
