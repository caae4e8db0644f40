"""``extract_file``, ``atlbench extract``, the corpus's use of the extractor and the bench command."""

from __future__ import annotations

import json

import pytest

from benchmark.bench import main as bench_main
from benchmark.cli import main
from benchmark.core.errors import InputFormatError
from benchmark.lang.atl import AtlSyntaxError
from benchmark.tracks.mapping import interchange
from benchmark.tracks.mapping.extractor import extract_file
from benchmark.tracks.mapping.ground_truth import load_ground_truth

GOOD = (
    "module Families2Persons;\ncreate OUT : Persons from IN : Families;\n"
    "helper context Families!Member def : familyName : String = self.familyFather.lastName;\n"
    "rule Member2Male {\n"
    "  from s : Families!Member (not s.isFemale())\n"
    "  to t : Persons!Male (fullName <- s.firstName + ' ' + s.familyName)\n"
    "}\n"
)
BROKEN = "module Broken;\ncreate OUT : B from IN : A;\nrule R { from }\n"


@pytest.fixture
def files(tmp_path):
    good = tmp_path / "Families2Persons.atl"
    good.write_text(GOOD, encoding="utf-8")
    broken = tmp_path / "Broken.atl"
    broken.write_text(BROKEN, encoding="utf-8")
    return good, broken


def test_extract_file(files):
    good, _ = files
    document = extract_file(good)
    assert document.transformation.file == str(good)
    [feature] = document.class_match("Member", "Male").feature_matches
    assert feature.source_paths == ("familyFather", "familyFather.lastName", "firstName")
    assert [d.code for d in document.diagnostics] == ["unknown-operation"]  # isFemale() is not defined


def test_extract_file_falls_back_to_cp1252_for_comment_bytes(tmp_path):
    path = tmp_path / "Latin.atl"
    path.write_bytes(b"-- \xe9t\xe9 \x93quoted\x94\n" + GOOD.encode("ascii"))
    assert extract_file(path).class_match("Member", "Male") is not None


def test_extract_file_errors(files, tmp_path):
    _, broken = files
    with pytest.raises(AtlSyntaxError) as syntax:
        extract_file(broken)
    assert (syntax.value.file, syntax.value.line, syntax.value.column) == (str(broken), 3, 15)
    with pytest.raises(InputFormatError) as missing:
        extract_file(tmp_path / "missing.atl")
    assert "cannot read file" in missing.value.message and missing.value.file.endswith("missing.atl")


def test_corpus_reads_atl_ground_truth_through_the_extractor(files):
    good, _ = files
    assert interchange.dumps(load_ground_truth(good)) == interchange.dumps(extract_file(good))


def test_cli_prints_documents(files, capsys):
    good, _ = files
    assert main(["extract", str(good), str(good)]) == 0
    out = capsys.readouterr().out
    decoder = json.JSONDecoder()
    first, end = decoder.raw_decode(out)
    second, _ = decoder.raw_decode(out[end:].lstrip())
    assert first == second
    assert out == 2 * interchange.dumps(extract_file(good))
    interchange.validate(first)


def test_cli_output_file_and_directory(files, tmp_path, capsys):
    good, _ = files
    target = tmp_path / "out" / "gt.json"
    assert main(["extract", str(good), "-o", str(target)]) == 0
    assert target.read_text(encoding="utf-8") == interchange.dumps(extract_file(good))
    directory = tmp_path / "truth"
    assert main(["extract", str(good), "--out-dir", str(directory)]) == 0
    assert sorted(p.name for p in directory.iterdir()) == ["Families2Persons.json"]
    assert capsys.readouterr().out == ""


def test_cli_reports_errors_and_processes_the_other_files(files, tmp_path, capsys):
    good, broken = files
    directory = tmp_path / "truth"
    missing = tmp_path / "missing.atl"
    assert main(["extract", str(broken), str(missing), str(good), "--out-dir", str(directory)]) == 2
    err = capsys.readouterr().err.splitlines()
    assert err[0].startswith(f"{broken}:3:15: error: unexpected")
    assert err[1] == f"{missing}: error: cannot read file: No such file or directory"
    assert sorted(p.name for p in directory.iterdir()) == ["Families2Persons.json"]


def test_cli_refuses_ambiguous_outputs(files, tmp_path, capsys):
    good, broken = files
    assert main(["extract", str(good), str(broken), "-o", str(tmp_path / "x.json")]) == 2
    assert "use --out-dir" in capsys.readouterr().err
    twin = tmp_path / "sub" / good.name
    twin.parent.mkdir()
    twin.write_text(GOOD, encoding="utf-8")
    assert main(["extract", str(good), str(twin), "--out-dir", str(tmp_path / "d")]) == 2
    assert "would both be written" in capsys.readouterr().err
    assert not (tmp_path / "d").exists()


def test_bench_extract_prints_figures(files, capsys):
    good, _ = files
    assert bench_main(["extract", str(good.parent), "--jobs", "1"]) == 0
    out = capsys.readouterr().out
    for line in ("files: 2\n", "documents: 1\n", "class pairs: 1\n", "bindings: 1\n", "failures: 1\n"):
        assert line in out
    assert "diagnostics: unknown-operation 1\n" in out
    assert "Broken.atl:3:15: error:" in out
    assert "sum of per-file extract seconds:" in out and "MB/s:" in out
