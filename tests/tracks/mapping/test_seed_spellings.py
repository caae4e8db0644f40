"""The seed study's Java analyzer, as its users type it, on ``atlbench diff``, ``validate`` and ``report``.

Its comparator (``ATLJJodelDiff``) takes ``--atl``, ``--llm``, ``--baseline``, ``--output`` and
``--partial-match-weight``; its folder analyzer (``ValidationPerformanceAnalyzer``) a root, an output, the
weight and a confidence filter. Each is accepted here (docs/METRICS.md, "Coming from the seed study's
analyzer"), and the seed's weight spelling gives exactly what ``--partial-weight`` gives, on the bundled
Book2Publication transformation (its ground truth has a partial binding, so the weight shows).
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from benchmark.cli import main
from benchmark.core.results import Results

REPO = Path(__file__).resolve().parents[3]
BOOK = REPO / "validation" / "book2publication"
ORACLE = BOOK / "runs" / "Synthetic-Oracle-run01.json"
SLOPPY = BOOK / "runs" / "Synthetic-Sloppy-run01.json"


def diff(out: Path, *weight: str) -> dict:
    """The seed's comparator command line, word for word, with ``--partial-match-weight`` or ours."""
    argv = ["diff", "--atl", str(BOOK / "Book2Publication.atl"), "--llm", str(ORACLE)]
    argv += ["--baseline", str(SLOPPY), "--output", str(out), *weight]
    assert main(argv) == 0
    return json.loads(out.read_text())


def test_diff_takes_the_seed_comparators_flags(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    seed = diff(tmp_path / "seed.json", "--partial-match-weight", "1")
    ours = diff(tmp_path / "ours.json", "--partial-weight", "1")
    default = diff(tmp_path / "default.json")
    assert seed == ours
    assert "threeWay" in seed  # --baseline: the three-way report
    assert seed["summary"]["binding"]["partial"] > 0
    assert seed["summary"]["binding"]["tp"] > default["summary"]["binding"]["tp"]  # w = 1 against 0.5
    assert "wrote" in capsys.readouterr().out


def test_diff_checks_the_seed_spelling_like_its_own(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["diff", "--atl", str(BOOK / "Book2Publication.atl"), "--llm", str(ORACLE)]
    assert main([*argv, "--partial-match-weight", "2"]) == 2
    assert "--partial-match-weight: must be a number in [0, 1], got 2" in capsys.readouterr().err


@pytest.fixture(scope="module")
def root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("study")
    shutil.copytree(BOOK, root / "book2publication")
    return root


def validate(root: Path, out: Path, *options: str) -> Results:
    """The seed's folder analyzer: a root, an output, the weight, a confidence filter."""
    argv = ["validate", str(root), "--track", "atl", "--baseline", "none", "--output", str(out), *options]
    assert main(argv) == 0
    return Results.load(out)


def test_validate_takes_the_seed_analyzers_root_output_weight_and_confidence(
    root: Path, tmp_path: Path
) -> None:
    seed = validate(root, tmp_path / "seed.json", "--partial-match-weight", "0", "--confidence", "high")
    ours = validate(root, tmp_path / "ours.json", "--partial-weight", "0", "--confidence", "high")
    assert [r.to_json() for r in seed.rows] == [r.to_json() for r in ours.rows]
    assert seed.section("atl").options["partialWeight"] == 0.0  # rows keep raw counts: w is the session's
    assert {r.payload["confidenceFilter"] for r in seed.rows} == {"high"}
    # nine runs of the original task (SmolLM2-135M's: one per answer format), two of synonym
    assert len(seed.rows) == 11


def test_report_takes_the_seed_spelling(root: Path, tmp_path: Path) -> None:
    saved = tmp_path / "results.json"
    validate(root, saved)
    assert main(["report", str(saved), "-o", str(tmp_path / "seed"), "--partial-match-weight", "1"]) == 0
    assert main(["report", str(saved), "-o", str(tmp_path / "ours"), "--partial-weight", "1"]) == 0
    assert main(["report", str(saved), "-o", str(tmp_path / "default")]) == 0
    seed, ours, default = (
        (tmp_path / name / "rq1_aggregate.csv").read_text() for name in ("seed", "ours", "default")
    )
    assert seed == ours != default
