"""``atlbench baseline`` on one pair and on a pairs list with a bad line, and the speed benchmark's output."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest

from benchmark.bench.baseline import main as bench_main
from benchmark.bench.baseline import percentile
from benchmark.cli import main

Writer = Callable[[str, str], Path]
Package = Callable[[str, str], str]


def _class(name: str) -> str:
    return f'<eClassifiers xsi:type="ecore:EClass" name="{name}"/>'


@pytest.fixture
def pair(write_ecore: Writer, ecore_package: Package) -> tuple[Path, Path]:
    # Book/Books in matched packages: 400 x (1 - 6/7) = 57.14 <= 252 (see test_emfcompare_matches).
    left = write_ecore("left.ecore", ecore_package('name="lib"', _class("Book")))
    right = write_ecore("right.ecore", ecore_package('name="lib"', _class("Books")))
    return left, right


def test_one_pair_to_a_file(pair: tuple[Path, Path], tmp_path: Path) -> None:
    out = tmp_path / "out" / "book.json"
    assert main(["baseline", str(pair[0]), str(pair[1]), "-o", str(out)]) == 0
    document = json.loads(out.read_text(encoding="utf-8"))
    assert document["analysis"]["provider"] == "EMFCompare"
    assert [(m["source"]["class"], m["target"]["class"]) for m in document["mappings"]] == [("Book", "Books")]
    assert document["matches"][0] == {"metaclass": "EPackage", "source": "lib", "target": "lib"}


def test_one_pair_to_stdout_with_the_name_equality_engine(
    pair: tuple[Path, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["baseline", str(pair[0]), str(pair[1]), "--engine", "name-equality"]) == 0
    document = json.loads(capsys.readouterr().out)
    assert document["analysis"]["provider"] == "NameEquality"
    assert document["mappings"] == []  # Book and Books differ


def test_pairs_list_reports_bad_lines_and_continues(
    pair: tuple[Path, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    listing = tmp_path / "pairs.tsv"
    listing.write_text(
        f"{pair[0]}\t{pair[1]}\n"
        "only-one-field.ecore\n"  # line 2: malformed
        f"missing.ecore\t{pair[1].name}\n"  # line 3: relative paths, resolved next to the list
        f"{pair[1].name}\t{pair[0].name}\n",
        encoding="utf-8",
    )
    out_dir = tmp_path / "results"
    (out_dir).mkdir()
    (out_dir / "002.json").write_text("stale", encoding="utf-8")  # from an earlier run of line 3
    assert main(["baseline", "--pairs", str(listing), "--out-dir", str(out_dir)]) == 2
    assert sorted(p.name for p in out_dir.iterdir()) == ["000.json", "003.json"]
    reverse = json.loads((out_dir / "003.json").read_text(encoding="utf-8"))
    assert [(m["source"]["class"], m["target"]["class"]) for m in reverse["mappings"]] == [("Books", "Book")]
    errors = capsys.readouterr().err
    assert f"{listing}:2: error: expected SOURCE<TAB>TARGET, found 1 tab-separated field: " in errors
    assert f"{listing}:3: error: {tmp_path / 'missing.ecore'}: no such metamodel file" in errors
    # counted over the four pair lines, the malformed one included; one mapping is "1 mapping"
    assert "[1/4] 000.json left.ecore -> right.ecore: 1 mapping (" in errors
    assert "[4/4] 003.json right.ecore -> left.ecore: 1 mapping (" in errors
    assert "2 of 4 pairs written" in errors and "2 failed" in errors


@pytest.mark.parametrize(
    "arguments",
    [
        ["baseline"],
        ["baseline", "a.ecore"],
        ["baseline", "--pairs", "p.tsv"],
        ["baseline", "a.ecore", "b.ecore", "--engine", "llm"],
        ["baseline", "a.ecore", "b.ecore", "--out-dir", "d"],
    ],
)
def test_unusable_options_exit_2(arguments: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    assert main(arguments) == 2
    assert "error:" in capsys.readouterr().err


def test_benchmark_prints_per_pair_and_summary(
    pair: tuple[Path, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    listing = tmp_path / "pairs.tsv"
    listing.write_text(f"{pair[0]}\t{pair[1]}\n{pair[1]}\t{pair[0]}\n", encoding="utf-8")
    assert bench_main([str(listing), "--repeat", "2"]) == 0
    lines = capsys.readouterr().out.splitlines()
    rows = [line.split("\t") for line in lines[1:3]]
    assert [row[0] for row in rows] == ["000", "001"]
    assert [row[3:5] for row in rows] == [["2", "2"], ["2", "2"]]  # objects in each scope
    summary = dict(line.split(": ", 1) for line in lines[3:])
    assert summary["engine"] == "EMFCompare" and summary["pairs"] == "2" and summary["failures"] == "0"
    assert float(summary["max ms per pair"]) >= float(summary["median ms per pair"]) > 0


def test_percentile_is_nearest_rank() -> None:
    assert percentile([float(v) for v in range(1, 11)], 0.9) == 9.0
    assert percentile([5.0], 0.9) == 5.0
