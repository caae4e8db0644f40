"""``atlbench roundtrip ...`` calls the same library functions and prints what they found."""

from __future__ import annotations

import json
import shutil
import types
from pathlib import Path

import pytest

from benchmark.cli import main
from benchmark.tracks.roundtrip.study.manifest import default_data_dir

DATA = default_data_dir()


def test_score_json(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, models: types.SimpleNamespace
) -> None:
    args = [
        "roundtrip", "score", "--json",
        "--base", str(models.write(tmp_path, "T.sql.xmi", models.BASE_T)),
        "--expected", str(models.write(tmp_path, "DeltaT.sql.xmi", models.EXPECTED_T)),
        "--output", str(models.write(tmp_path, "out.sql.xmi", models.OUTPUT_T)),
    ]  # fmt: skip
    assert main(args) == 0
    data = json.loads(capsys.readouterr().out)
    assert [data[k] for k in ("LOC", "Cr", "InCr", "Ad", "Miss", "deltaDetected", "equivalent")] == [
        7, 5, 1, 1, 1, True, False,
    ]  # fmt: skip
    assert data["pctCorrect"] == pytest.approx(5 / 7) and data["pctWSuccess"] == pytest.approx(2 / 8)
    assert data["flags"] == [] and data["extraction"]["source"] == "whole answer"


RAW_ANSWER = """Sure! Following the example mapping, here is T':

```xml
{model}```

I also kept the `year` column out, as it was not in the example.
"""


def test_score_accepts_a_raw_answer_and_lists_its_flags(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, models: types.SimpleNamespace
) -> None:
    """The raw-answer example of docs/ROUNDTRIP.md §6.1: it scores like the bare model, with its flag."""
    commented = models.OUTPUT_T.replace(
        "  <tables", "  <!-- pages: new column, not in the example -->\n  <tables"
    )
    base = str(models.write(tmp_path, "T.sql.xmi", models.BASE_T))
    expected = str(models.write(tmp_path, "DeltaT.sql.xmi", models.EXPECTED_T))
    bare = str(models.write(tmp_path, "bare.sql.xmi", models.OUTPUT_T))
    raw = str(models.write(tmp_path, "answer.txt", RAW_ANSWER.format(model=commented)))
    reports = []
    for output in (bare, raw):
        assert (
            main(["roundtrip", "score", "--json", "--base", base, "--expected", expected, "--output", output])
            == 0
        )
        reports.append(json.loads(capsys.readouterr().out))
    plain, answer = reports
    assert answer["flags"] == ["pages: new column, not in the example"]
    assert answer["extraction"] == {
        "source": "the fenced block", "startLine": 4, "documents": 1, "usable": True, "prose": True,
        "notes": [],
    }  # fmt: skip
    for varying in ("flags", "extraction", "files"):
        del plain[varying], answer[varying]
    assert answer == plain
    assert main(["roundtrip", "score", "--base", base, "--expected", expected, "--output", raw]) == 0
    out = capsys.readouterr().out
    assert "model taken from the fenced block (line 4 of the answer)" in out
    assert "flag: pages: new column, not in the example" in out


def test_score_text_lists_what_is_wrong(capsys: pytest.CaptureFixture[str]) -> None:
    args = [
        "roundtrip", "score",
        "--base", str(DATA / "T_music.sql.xmi"),
        "--expected", str(DATA / "Delta_delete_class_T_music.sql.xmi"),
        "--output", str(DATA / "T_music.sql.xmi"),
    ]  # fmt: skip
    assert main(args) == 0
    out = capsys.readouterr().out
    assert "LOC 74  Cr 69  InCr 0  Ad 5 (harmful 5)  Miss 0" in out
    assert "DeltaDetected no" in out and "%WSuccess 83.8%" in out
    assert "delta: 0 of 5 line(s) reproduced (recall 0.0%), 0 change(s) to the base (precision 0.0%)" in out
    assert "Ad   table Single  [delta: removed]" in out


def test_score_of_a_missing_output_is_an_input_error(capsys: pytest.CaptureFixture[str]) -> None:
    args = [
        "roundtrip",
        "score",
        "--base",
        str(DATA / "S_blog.ecore"),
        "--expected",
        str(DATA / "S_blog.ecore"),
    ]
    assert main([*args, "--output", str(DATA / "missing.ecore")]) == 2
    assert "missing.ecore: error: cannot read file" in capsys.readouterr().err


def test_lines(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["roundtrip", "lines", str(DATA / "Delta_add_class_S_blog.ecore"), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["loadable"] and "class Bookmark; abstract=false; supertypes=[]" in data["lines"]


def test_cases(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["roundtrip", "cases"]) == 0
    captured = capsys.readouterr()
    assert captured.out.count("\n") == 100 and "100 cases" in captured.err


def test_cases_takes_the_folder_like_its_siblings_and_data_still_works(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    assert main(["roundtrip", "cases", str(default_data_dir())]) == 0
    listed = capsys.readouterr()
    assert listed.out.count("\n") == 100 and "deprecated" not in listed.err
    assert main(["roundtrip", "cases", "--data", str(default_data_dir())]) == 0
    old = capsys.readouterr()
    assert old.out == listed.out and "--data is deprecated; give the folder as DIR" in old.err
    assert main(["roundtrip", "cases", str(tmp_path)]) == 2
    assert f"{tmp_path}: error: no base pair" in capsys.readouterr().err
    assert main(["roundtrip", "cases", str(tmp_path), "--data", str(tmp_path)]) == 2
    assert "give the data folder once" in capsys.readouterr().err


def test_generate_check(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    # one domain keeps the test fast; test_data.py regenerates all ten and compares every byte
    shutil.copy(DATA / "S_blog.ecore", tmp_path / "S_blog.ecore")
    assert main(["roundtrip", "generate", "--source", str(tmp_path), "--check"]) == 1
    assert "T_blog.sql.xmi: missing" in capsys.readouterr().out
    assert main(["roundtrip", "generate", "--source", str(tmp_path)]) == 0
    assert "22 written, 0 unchanged" in capsys.readouterr().out
    assert (tmp_path / "Delta_to_many_T_blog.sql.xmi").read_bytes() == (
        DATA / "Delta_to_many_T_blog.sql.xmi"
    ).read_bytes()
    assert main(["roundtrip", "generate", "--source", str(tmp_path), "--check"]) == 0
    assert "up to date" in capsys.readouterr().out


def test_generate_from_a_missing_folder(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    assert main(["roundtrip", "generate", "--source", str(tmp_path / "nope")]) == 2
    assert "error: --source: no such folder" in capsys.readouterr().err


def test_generate_errors_name_the_file_or_option(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    source = tmp_path / "src"
    source.mkdir()
    text = (DATA / "S_blog.ecore").read_text(encoding="utf-8").replace('name="slug"', 'name="url_slug"')
    assert 'name="url_slug"' in text
    (source / "S_blog.ecore").write_text(text, encoding="utf-8")
    assert main(["roundtrip", "generate", "--source", str(source)]) == 2
    expected = f"{source / 'S_blog.ecore'}: error: Page.url_slug: feature name 'url_slug'"
    assert expected in capsys.readouterr().err
    not_a_folder = tmp_path / "out.txt"
    not_a_folder.write_text("", encoding="utf-8")
    assert main(["roundtrip", "generate", "--out", str(not_a_folder)]) == 2
    assert f"{not_a_folder}: error: --out: not a folder" in capsys.readouterr().err
