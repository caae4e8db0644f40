"""The parse summary and ``atlbench parse``."""

from __future__ import annotations

import json
from pathlib import Path

from benchmark.cli import main
from benchmark.lang.atl import parse
from benchmark.lang.atl.batch import parse_files, workers
from benchmark.lang.atl.summary import SUMMARY_KEYS, summarize

TRANSFORMATION = """-- @path A=/p/A.ecore
module Sample;
create OUT : B from IN : A;
helper context A!X def : label : String = self.name;
helper context String def : twice() : String = self + self;
helper def : total : Integer = A!X.allInstances()->size();
rule Plain {
	from x : A!X, y : A!Y (x.y = y)
	to t : B!T (name <- x.label, size <- thisModule.total), u : B!U (owner <- t)
	do { t.extra <- 1; thisModule.Called(t); }
}
lazy rule Lazy { from x : A!X to t : B!T (name <- x.name) }
unique lazy rule Unique { from x : A!X to t : B!T }
abstract rule Abstract { from x : A!X to t : B!T (a <- 1, b <- 2) }
rule Each { from x : A!X to ts : distinct B!T foreach (e in x.items) (name <- e) }
entrypoint rule Called(t : B!T) { to v : B!V (w <- t) do { t.done <- true; } }
"""


def test_summary_counts():
    assert summarize(parse(TRANSFORMATION)) == {
        "unit": "module",
        "name": "Sample",
        "matchedRules": 3,
        "lazyRules": 2,
        "uniqueLazyRules": 1,
        "calledRules": 1,
        "helpers": 3,
        "contextHelpers": 2,
        "inElements": 6,
        "outElements": 7,
        "bindings": 8,
    }


def test_summary_of_query_and_library():
    query = summarize(parse("query Q = 1;\nhelper context String def : f : Integer = 1;\n"))
    library = summarize(parse("library L;\nhelper def : f : Integer = 1;\n"))
    assert (query["unit"], query["name"], query["helpers"], query["contextHelpers"]) == ("query", "Q", 1, 1)
    assert (library["unit"], library["helpers"], library["contextHelpers"], library["matchedRules"]) == (
        "library",
        1,
        0,
        0,
    )
    assert tuple(query) == SUMMARY_KEYS


def write_files(tmp_path: Path) -> list[str]:
    good = tmp_path / "good.atl"
    good.write_text(TRANSFORMATION)
    bad = tmp_path / "bad.atl"
    bad.write_text("module M;\ncreate OUT : B from IN : A;\nrule R { from a : A!X to t : B!T (n <- ) }\n")
    return [str(good), str(bad)]


def test_cli_summary_prints_json_lines_and_exits_2_on_failure(tmp_path, capsys):
    files = write_files(tmp_path)
    assert main(["parse", "--summary", *files, str(tmp_path / "missing.atl")]) == 2
    captured = capsys.readouterr()
    lines = [json.loads(line) for line in captured.out.splitlines()]
    assert lines[0] == {"file": files[0], **summarize(parse(TRANSFORMATION))}
    assert lines[1] == {
        "file": files[1],
        "error": "unexpected ')'; expected an expression",
        "line": 3,
        "column": 40,
    }
    assert lines[2]["file"].endswith("missing.atl") and lines[2]["error"].startswith("cannot read file")
    assert lines[2]["line"] is None
    assert f"{files[1]}:3:40: error: unexpected ')'" in captured.err


def test_cli_ok_lines_and_success(tmp_path, capsys):
    files = write_files(tmp_path)[:1]
    assert main(["parse", *files]) == 0
    assert capsys.readouterr().out == f"{files[0]}: ok\n"


def test_cli_ast_json(tmp_path, capsys):
    files = write_files(tmp_path)
    missing = tmp_path / "missing.atl"
    assert main(["parse", "--ast", *files, str(missing)]) == 2
    captured = capsys.readouterr()
    (line,) = captured.out.splitlines()
    document = json.loads(line)
    assert document["file"] == files[0]
    assert document["ast"]["node"] == "Module" and document["ast"]["name"] == "Sample"
    assert "bad.atl:3:40: error:" in captured.err
    assert f"{missing}: error: cannot read file: No such file or directory\n" in captured.err


def test_error_location_has_no_unknown_parts(tmp_path):
    bad, missing = tmp_path / "bad.atl", tmp_path / "missing.atl"
    bad.write_text("module M;\nrule\n")
    results = list(parse_files([bad, missing], jobs=1))
    assert [result.location for result in results] == [f"{bad}:2:1", str(missing)]


def test_many_files_on_several_processes_keep_input_order(tmp_path):
    # Enough input to use the process pool; results come back in input order with the same counts.
    files = []
    for index in range(12):
        path = tmp_path / f"f{index:02}.atl"
        path.write_text(TRANSFORMATION.replace("Sample", f"Sample{index}") * 1 + "\n" * 30000)
        files.append(str(path))
    assert workers(files, 2) == 2 and workers(files, 1) == 1 and workers(files[:1], 2) == 1
    assert workers(write_files(tmp_path), 2) == 1  # two small files: not worth a pool
    parallel = list(parse_files(files, jobs=2))
    serial = list(parse_files(files, jobs=1))
    assert [r.file for r in parallel] == files
    assert [r.summary for r in parallel] == [r.summary for r in serial]
    assert [r.summary["name"] for r in parallel if r.summary] == [f"Sample{i}" for i in range(12)]


def test_cli_warns_about_leniencies(tmp_path, capsys):
    path = tmp_path / "lenient.atl"
    path.write_text(
        "module M; create OUT : B from IN : A;\n"
        "helper def : h : UML!uml::Class = OclUndefined;\n"
        "helper def : g : UML!uml::Package = OclUndefined;\n"
    )
    assert main(["parse", "--summary", str(path)]) == 0
    captured = capsys.readouterr()
    assert json.loads(captured.out)["helpers"] == 2
    assert captured.err == (
        f"{path}:2:18: warning: the official ATL parser rejects the unquoted qualified name UML!uml::Class"
        ' (write UML!"uml::Class") (1 more like it)\n'
    )
