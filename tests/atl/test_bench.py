"""The benchmark command runs and prints its figures (speed itself is never asserted)."""

from __future__ import annotations

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
    for factor in ("  1x:", " 10x:", "100x:"):
        assert factor in out


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
