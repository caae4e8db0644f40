"""``atlbench metamodel FILE``: the view's JSON on stdout, input errors as FILE:LINE:COL and exit 2."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from benchmark.cli import main
from benchmark.lang.ecore import load_metamodel


def test_prints_the_view_json(data: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["metamodel", str(data / "library.ecore")]) == 0
    out = capsys.readouterr().out
    assert json.loads(out) == load_metamodel(data / "library.ecore").to_json()
    assert out.startswith('{\n  "name": "Library"')


def test_indent_zero_prints_one_compact_line(data: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["metamodel", str(data / "library.km3"), "--indent", "0"]) == 0
    out = capsys.readouterr().out
    assert out.count("\n") == 1 and ", " not in out and '":' in out
    assert json.loads(out) == load_metamodel(data / "library.km3").to_json()


def test_input_errors_print_location_and_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    broken = tmp_path / "broken.km3"
    broken.write_text("package P {\n  class A extends {}\n}\n", encoding="utf-8")
    assert main(["metamodel", str(broken)]) == 2
    assert capsys.readouterr().err.startswith(f"{broken}:2:19: error: KM3 syntax error: unexpected '{{'")


def test_negative_indent_is_a_configuration_error(data: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["metamodel", str(data / "library.km3"), "--indent", "-1"]) == 2
    assert "--indent must be 0 or more" in capsys.readouterr().err


def test_a_file_that_is_no_metamodel_is_named_for_what_it_is(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    atl = tmp_path / "T.atl"
    atl.write_text("module T;\ncreate OUT : B from IN : A;\n", encoding="utf-8")
    assert main(["metamodel", str(atl)]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"{atl}: error: not a metamodel: this is an ATL transformation")
    assert "well-formed" not in err
    ecore = tmp_path / "broken.ecore"  # named as Ecore: the XML reader's positioned message stands
    ecore.write_text("module T;\n", encoding="utf-8")
    assert main(["metamodel", str(ecore)]) == 2
    assert f"{ecore}:1:1: error: not well-formed XML" in capsys.readouterr().err
    xml = tmp_path / "model.xml"  # XML under another suffix is still read as Ecore XML
    namespace = "http://www.eclipse.org/emf/2002/Ecore"
    xml.write_text(f'<?xml version="1.0"?>\n<ecore:EPackage xmlns:ecore="{namespace}" name="P"/>\n')
    assert main(["metamodel", str(xml)]) == 0
