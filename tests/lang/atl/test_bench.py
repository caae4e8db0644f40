"""The benchmark command runs and prints its figures (speed itself is never asserted)."""

from __future__ import annotations

import json

import pytest

from benchmark.bench import main
from benchmark.lang.atl import parse
from benchmark.lang.atl.summary import summarize
from benchmark.lang.atl.synthetic import synthetic_module


def test_synthetic_module_scales_linearly_in_content():
    one, ten = summarize(parse(synthetic_module(1))), summarize(parse(synthetic_module(10)))
    assert ten["matchedRules"] == 10 * one["matchedRules"] > 0
    assert ten["bindings"] == 10 * one["bindings"] > 0
    assert 9 * len(synthetic_module(1)) < len(synthetic_module(10)) < 11 * len(synthetic_module(1))


def test_bench_parse_prints_figures(tmp_path, capsys):
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "a.atl").write_text(synthetic_module(2))
    (tmp_path / "b.atl").write_text("module M; create OUT : B from IN : A;\nrule R { from }\n")
    assert (
        main(
            [
                "parse",
                str(tmp_path),
                "--no-cold",
                "--base-blocks",
                "1",
                "--repeat-seconds",
                "0",
                "--jobs",
                "1",
            ]
        )
        == 0
    )
    out = capsys.readouterr().out
    assert "files: 2\n" in out
    assert "failures: 1\n" in out and "b.atl:2:15: error:" in out
    assert "in-process MB/s:" in out
    # the scaling table: size, bytes, s wall, s CPU, MB/s, cost per byte (x the 1x), runs
    rows = {
        cells[0]: cells[1:]
        for line in out.splitlines()
        if (cells := line.split())[:1] in (["1x"], ["10x"], ["100x"])
    }
    assert sorted(rows) == ["100x", "10x", "1x"] and all(len(cells) == 6 for cells in rows.values())
    assert float(rows["1x"][4]) == 1.0  # the cost per byte of 1x, in units of itself


def test_bench_without_atl_files_is_an_error(tmp_path, capsys):
    assert main(["parse", str(tmp_path), "--no-cold", "--no-scaling"]) == 2
    assert "no .atl file" in capsys.readouterr().err


def test_parse_and_extract_benches_count_the_same_bytes_as_stored(tmp_path, capsys):
    # A cp1252 comment and a UTF-8 byte order mark: re-encoding the decoded text would count other bytes.
    module = "module M; create OUT : B from IN : A;\nrule R { from a : A!X to b : B!Y (n <- a.n) }\n"
    (tmp_path / "latin.atl").write_bytes(
        "-- \u00e9t\u00e9 \u201cquoted\u201d\n".encode("cp1252") + module.encode()
    )
    (tmp_path / "bom.atl").write_bytes(b"\xef\xbb\xbf" + module.encode())
    stored = sum(path.stat().st_size for path in tmp_path.iterdir())
    figures = []
    for command in (["parse", "--no-cold", "--no-scaling"], ["extract"]):
        assert main([*command, str(tmp_path), "--jobs", "1"]) == 0
        out = capsys.readouterr().out
        assert "failures: 0\n" in out
        figures.append([line for line in out.splitlines() if line.startswith(("files:", "bytes:"))])
    assert figures[0] == figures[1] == ["files: 2", f"bytes: {stored}"]


def test_bench_extract_reports_a_file_too_deep_to_extract_and_goes_on(tmp_path, capsys, monkeypatch):
    from benchmark.tracks.mapping.extractor import document

    monkeypatch.setattr(document, "_RECURSION_LIMIT", 400)  # the default limit (1000 frames) applies
    header = "module M; create OUT : B from IN : A;\n"
    deep = "Sequence{" * 1500 + "a.n" + "}" * 1500
    (tmp_path / "deep.atl").write_text(f"{header}rule R {{ from a : A!X to b : B!Y (n <- {deep}) }}\n")
    (tmp_path / "plain.atl").write_text(f"{header}rule R {{ from a : A!X to b : B!Y (n <- a.n) }}\n")
    assert main(["extract", str(tmp_path), "--jobs", "1"]) == 0
    out = capsys.readouterr().out
    assert "documents: 1\n" in out and "failures: 1\n" in out
    assert f"{tmp_path / 'deep.atl'}: error: an expression is nested too deeply" in out


# A stand-in for ``java``: it is given ``-cp CP MAIN --mode MODE --files-from LIST`` as the official
# parser's driver is, and answers with the driver's line. With SPLIT set it reads the list the way a
# shell-split wrapper would (every name cut at its spaces), the mistake that once made the official
# parser "fast" by parsing nothing.
FAKE_JAVA = """\
import json, os, sys
args = sys.argv[1:]
options = dict(zip(args[3::2], args[4::2]))
with open(options["--files-from"], encoding="utf-8") as listed:
    names = [line.rstrip("\\n") for line in listed if line.strip()]
if os.environ.get("SPLIT"):
    names = [part for name in names for part in name.split()]
read = sum(os.path.isfile(name) for name in names)
with open(os.environ["RECORD"], "a", encoding="utf-8") as record:
    record.write(json.dumps({"argv": args, "names": names}) + "\\n")
print(f"files={len(names)} read={read} units={read} setup_s=0.010 parse_s=0.020")
"""


def _spaced_corpus(tmp_path):
    corpus = tmp_path / "atl zoo" / "UML2MOF 2"
    corpus.mkdir(parents=True)
    module = "module M; create OUT : B from IN : A;\nrule R {{ from a : A!X to b : B!Y (n <- a.{}) }}\n"
    (corpus / "a file.atl").write_text(module.format("n"))
    (corpus / "plain.atl").write_text(module.format("m"))
    return corpus.parent, sorted(str(path) for path in corpus.glob("*.atl"))


def _run_side_by_side(tmp_path, monkeypatch, *, split):
    import shlex
    import sys

    directory, files = _spaced_corpus(tmp_path)
    java = tmp_path / "fake jdk" / "java.py"
    java.parent.mkdir()
    java.write_text(FAKE_JAVA)
    record = tmp_path / "record.jsonl"
    monkeypatch.setenv("RECORD", str(record))
    if split:
        monkeypatch.setenv("SPLIT", "1")
    classpath = str(tmp_path / "atl parser" / "atl.jar")
    status = main(
        [
            "parse",
            str(directory),
            "--no-scaling",
            "--rounds",
            "1",
            "--warmup",
            "0",
            "--jobs",
            "1",
            "--official",
            classpath,
            "--official-modes",
            "full,setup",
            "--java",
            shlex.join([sys.executable, str(java)]),
        ]
    )
    calls = [json.loads(line) for line in record.read_text(encoding="utf-8").splitlines()]
    return status, files, classpath, calls


def test_bench_parse_side_by_side_keeps_file_names_with_spaces(tmp_path, monkeypatch, capsys):
    status, files, classpath, calls = _run_side_by_side(tmp_path, monkeypatch, split=False)
    out = capsys.readouterr().out
    assert status == 0, out
    # The project's command named both files in its summaries, spaces and all, both times.
    assert out.count("output: 2 of 2 files answered (0 with a syntax error)") == 2
    assert "output: 2 of 2 files read (2 listed), 2 units" in out
    assert "output: 0 of 0 files read (0 listed), 0 units" in out
    assert "WARNING" not in out
    assert "its own clock, parsing loop: 0.020 s" in out
    assert "wall ratio to the project's cached command:" in out
    full, setup = calls
    assert full["argv"][:6] == ["-cp", classpath, "AtlParseDriver", "--mode", "full", "--files-from"]
    assert full["names"] == files
    assert setup["argv"][3:5] == ["--mode", "full"] and setup["names"] == []


def test_bench_parse_reports_a_command_that_lost_file_names(tmp_path, monkeypatch, capsys):
    status, files, _, calls = _run_side_by_side(tmp_path, monkeypatch, split=True)
    out = capsys.readouterr().out
    pieces = [piece for name in files for piece in name.split()]
    assert len(pieces) > len(files) and calls[0]["names"] == pieces
    assert status == 1
    assert f"output: 0 of 2 files read ({len(pieces)} listed), 0 units" in out
    assert "WARNING: it did not answer for all 2 files" in out


def test_file_lists_and_commands_never_split_names(tmp_path):
    from benchmark.bench.parse import official_command, project_command, write_file_list
    from benchmark.core.errors import ConfigurationError

    names = ["/a dir/x y.atl", "-starts-with-a-dash.atl"]
    listed = write_file_list(names, tmp_path / "list.txt")
    assert listed.read_text(encoding="utf-8").splitlines() == names
    assert project_command(names, None)[-3:] == ["--", *names]
    assert official_command("'/opt/my jdk/bin/java' -Xss4m", "a b.jar", "Main", "setup", listed) == [
        "/opt/my jdk/bin/java",
        "-Xss4m",
        "-cp",
        "a b.jar",
        "Main",
        "--mode",
        "full",
        "--files-from",
        str(listed),
    ]
    with pytest.raises(ConfigurationError, match="line break"):
        write_file_list(["two\nlines.atl"], tmp_path / "bad.txt")
