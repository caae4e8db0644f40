"""``atlbench ocl check|eval|convert`` end to end through ``benchmark.cli.main``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from campus import CAMPUS_SOIL, CAMPUS_USE

from benchmark.cli import main


@pytest.fixture()
def files(tmp_path: Path) -> tuple[Path, Path]:
    model = tmp_path / "campus.use"
    state = tmp_path / "campus.soil"
    model.write_text(CAMPUS_USE, encoding="utf-8")
    state.write_text(CAMPUS_SOIL, encoding="utf-8")
    return model, state


def test_check_json(files: tuple[Path, Path], capsys: pytest.CaptureFixture[str]) -> None:
    model, state = files
    assert main(["ocl", "check", str(model), str(state), "--json"]) == 1
    out = json.loads(capsys.readouterr().out)
    assert set(out) == {"invariants", "structure"}
    assert (
        out["invariants"]["Student::adult"] == "FAILED" and out["invariants"]["Person::nameDefined"] == "OK"
    )
    assert [v["association"] for v in out["structure"]] == ["HeldIn"]


def test_check_text_and_extra_constraints(
    files: tuple[Path, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    model, state = files
    extra = tmp_path / "extra.ocl"
    extra.write_text("context Course inv titled: self.title.size() > 2\n", encoding="utf-8")
    assert main(["ocl", "check", str(model), str(state), "--constraints", str(extra)]) == 1
    captured = capsys.readouterr()
    assert "checking invariant (3) `Course::titled': OK." in captured.out  # USE order: by name
    assert "ignored 1 command(s) that do not change the state" in captured.err


def test_check_passes_with_exit_0(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    model = tmp_path / "m.use"
    model.write_text(
        "model M\nclass A\nattributes\n  x : Integer\nend\nconstraints\ncontext A inv: self.x > 0\n"
    )
    state = tmp_path / "s.soil"
    state.write_text("!new A('a')\n!a.x := 1\n")
    assert main(["ocl", "check", str(model), str(state)]) == 0
    assert capsys.readouterr().out.endswith("checked 1 invariant, 0 failures.\n")


def test_eval_prints_like_use(files: tuple[Path, Path], capsys: pytest.CaptureFixture[str]) -> None:
    model, state = files
    assert main(["ocl", "eval", str(model), str(state), "Set{1, 2}"]) == 0
    assert capsys.readouterr().out == "Set{1,2} : Set(Integer)\n"
    assert main(["ocl", "eval", str(model), str(state), "pia.mentees", "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == {"type": "Set(Student)", "value": {"Set": ["@ann"]}}


@pytest.mark.parametrize(
    ("argv_tail", "printed"),
    [
        (["-(3-(8+4)*(4+5))"], "105 : Integer\n"),  # USE's test_expr.in: no `--' needed
        (["-ann.age", "--json"], '{\n  "type": "Integer",\n  "value": -20\n}\n'),
        (["--json", "-ann.age"], '{\n  "type": "Integer",\n  "value": -20\n}\n'),
        (["--", "-(1+1)"], "-2 : Integer\n"),  # the explicit separator still works
        (["-5"], "-5 : Integer\n"),
    ],
)
def test_eval_expression_may_start_with_a_minus(
    files: tuple[Path, Path], capsys: pytest.CaptureFixture[str], argv_tail: list[str], printed: str
) -> None:
    model, state = files
    assert main(["ocl", "eval", str(model), str(state), *argv_tail]) == 0
    assert capsys.readouterr().out == printed


def test_short_options_with_attached_values_stay_options(tmp_path: Path, files: tuple[Path, Path]) -> None:
    model, _ = files
    out = tmp_path / "out.puml"
    assert main(["ocl", "convert", str(model), "--to", "puml", f"-o{out}"]) == 0
    assert out.read_text(encoding="utf-8").startswith("@startuml")


def test_eval_errors_are_positioned_and_exit_2(
    files: tuple[Path, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    model, state = files
    assert main(["ocl", "eval", str(model), str(state), "ann.nope"]) == 2
    assert (
        "<expression>:1:5: error: `nope' is neither an attribute nor a role name" in capsys.readouterr().err
    )


def test_bad_state_exits_2(
    files: tuple[Path, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    model, _ = files
    bad = tmp_path / "bad.soil"
    bad.write_text("!new Student('s')\n!s.agee := 1\n")
    assert main(["ocl", "check", str(model), str(bad)]) == 2
    assert f"{bad}:2:4: error: class `Student' has no attribute `agee'" in capsys.readouterr().err


def test_missing_file_exits_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["ocl", "check", str(tmp_path / "no.use"), str(tmp_path / "no.soil")]) == 2
    assert "no.use: error: no such model file" in capsys.readouterr().err


def test_convert_both_ways(
    files: tuple[Path, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    model, _ = files
    puml = tmp_path / "campus.puml"
    assert main(["ocl", "convert", str(model), "--to", "puml", "-o", str(puml)]) == 0
    assert puml.read_text().startswith("@startuml Campus\n")
    assert main(["ocl", "convert", str(puml), "--to", "use"]) == 0
    back = capsys.readouterr().out
    assert back.startswith("model Campus\n") and "associationclass Enrollment between" in back


def test_eval_sees_soil_variables_like_uses_shell(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    model = tmp_path / "m.use"
    model.write_text("model M\nclass A\nattributes\n  x : Integer\nend\n")
    state = tmp_path / "s.soil"
    state.write_text("!obj := new A('a1')\n!obj.x := 4\n!n := obj.x * 10\n")
    assert main(["ocl", "eval", str(model), str(state), "obj.x + n"]) == 0
    assert capsys.readouterr().out == "44 : Integer\n"


@pytest.mark.parametrize("which", ["model", "state", "constraints"])
def test_a_file_that_is_not_utf8_is_a_positioned_input_error(
    files: tuple[Path, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str], which: str
) -> None:
    """A Latin-1 file (a common way to save a model) exits 2 naming the byte, not with a traceback."""
    model, state = files
    extra = tmp_path / "extra.ocl"
    extra.write_text("context Course inv titled: true\n", encoding="utf-8")
    broken = {"model": model, "state": state, "constraints": extra}[which]
    broken.write_bytes(broken.read_bytes() + b"-- caf\xe9\n")
    lines = broken.read_bytes().count(b"\n")
    assert main(["ocl", "check", str(model), str(state), "--constraints", str(extra)]) == 2
    err = capsys.readouterr().err
    assert f"{broken}:{lines}:7: error: cannot read {which}: byte 0xe9 is not UTF-8" in err


def test_convert_to_an_unwritable_output_is_an_input_error(
    files: tuple[Path, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    model, _ = files
    assert main(["ocl", "convert", str(model), "--to", "puml", "-o", str(tmp_path)]) == 2
    assert f"{tmp_path}: error: -o: cannot write: " in capsys.readouterr().err
