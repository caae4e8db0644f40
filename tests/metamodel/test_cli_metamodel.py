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
