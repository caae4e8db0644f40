"""The benchmark command runs and prints its figures (speed itself is never asserted)."""

from __future__ import annotations

from benchmark.atl import parse
from benchmark.atl.summary import summarize
from benchmark.atl.synthetic import synthetic_module
from benchmark.bench import main


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


def test_bench_extract_reports_a_file_too_deep_to_extract_and_goes_on(tmp_path, capsys, monkeypatch):
    from benchmark.extractor import document

    monkeypatch.setattr(document, "_RECURSION_LIMIT", 400)  # the default limit (1000 frames) applies
    header = "module M; create OUT : B from IN : A;\n"
    deep = "Sequence{" * 1500 + "a.n" + "}" * 1500
    (tmp_path / "deep.atl").write_text(f"{header}rule R {{ from a : A!X to b : B!Y (n <- {deep}) }}\n")
    (tmp_path / "plain.atl").write_text(f"{header}rule R {{ from a : A!X to b : B!Y (n <- a.n) }}\n")
    assert main(["extract", str(tmp_path), "--jobs", "1"]) == 0
    out = capsys.readouterr().out
    assert "documents: 1\n" in out and "failures: 1\n" in out
    assert f"{tmp_path / 'deep.atl'}: error: an expression is nested too deeply" in out
