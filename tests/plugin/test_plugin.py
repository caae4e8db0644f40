"""The benchmark as a pytest suite, run for real with pytester on a tiny validation tree we wrote.

Sessions run in a subprocess (like a user's ``pytest``), with and without xdist, and the tests read what a
user would read: the exit code, the terminal tables, ``results.json`` and the JUnit XML.
"""

from __future__ import annotations

import json
import shutil
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from benchmark.results import Results

pytest_plugins = ("pytester",)

DATA = Path(__file__).parent / "data"
REPO = Path(__file__).resolve().parents[2]

CASES = """
import pytest

pytestmark = pytest.mark.atlbench_track("atl")


def test_ground_truth(atlbench_ground_truth):
    atlbench_ground_truth.check()


def test_run(atlbench_run):
    atlbench_run.score()
"""


@pytest.fixture
def tree(pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A copy of the tiny validation tree beside a benchmark test module, ready to run."""
    monkeypatch.setenv("PYTHONPATH", str(REPO))
    root = pytester.path / "validation"
    shutil.copytree(DATA / "tree", root)
    pytester.makepyfile(test_bench=CASES)
    pytester.makeini("[pytest]\njunit_family = xunit1\n")
    return root


def run(pytester: pytest.Pytester, *args: str) -> pytest.RunResult:
    return pytester.runpytest_subprocess(
        "-p",
        "benchmark.pytest_plugin",
        "--validation-root",
        "validation",
        "--reports-dir",
        "reports",
        "--baseline",
        "none",
        *args,
    )


def rows(pytester: pytest.Pytester) -> dict[tuple[str, str, str], dict]:
    results = Results.load(pytester.path / "reports" / "results.json")
    return {(r.provider, r.transformation, r.run): r.to_json() for r in results.rows}


def test_scores_every_run_and_prints_the_tables(pytester: pytest.Pytester, tree: Path) -> None:
    result = run(pytester)
    result.assert_outcomes(passed=7)
    found = rows(pytester)
    assert set(found) == {
        ("Synthetic-Oracle", "Library2Catalog", "runs/Synthetic-Oracle-run01"),
        ("Synthetic-Noisy", "Library2Catalog", "runs/Synthetic-Noisy-run01"),
        ("Synthetic-Noisy", "Library2Catalog", "runs/Synthetic-Noisy-run02"),
        ("Synthetic-Oracle", "Shapes2Figures", "runs/Synthetic-Oracle-run01"),
        ("Synthetic-Noisy", "Shapes2Figures", "runs/Synthetic-Noisy-run01"),
    }
    # hand-computed (see the data files): label <- b.describe() reads title and author, so it is partial
    oracle = found[("Synthetic-Oracle", "Library2Catalog", "runs/Synthetic-Oracle-run01")]
    assert oracle["class"] == {"tp": 2, "fp": 0, "fn": 0}
    assert oracle["binding"] == {
        "exact": 3,
        "partial": 1,
        "divergent": 0,
        "targetOnly": 0,
        "onlyGenerated": 0,
        "onlyAtl": 0,
    }
    noisy = found[("Synthetic-Noisy", "Library2Catalog", "runs/Synthetic-Noisy-run01")]
    assert noisy["class"] == {"tp": 1, "fp": 1, "fn": 1}
    assert noisy["binding"] == {
        "exact": 1,
        "partial": 0,
        "divergent": 1,
        "targetOnly": 0,
        "onlyGenerated": 1,
        "onlyAtl": 2,
    }
    assert noisy["hallucinations"]["features"] == ["Entry.author"]
    text = result.stdout.str()
    assert "Per provider (micro P/R/F1/Acc" in text
    # Synthetic-Oracle pooled: class 3/0/0, bindings exact 5 + partial 1 -> TP 8.5, FP 0.5, FN 0.5
    oracle_line = next(
        line for line in result.outlines if line.startswith("Synthetic-Oracle") and "ALL" in line
    )
    assert "0.944" in oracle_line
    assert "Library2Catalog" in text and "Shapes2Figures" in text


def test_xdist_gives_the_same_rows_and_tables(pytester: pytest.Pytester, tree: Path) -> None:
    serial = run(pytester, "-n", "0")
    serial.assert_outcomes(passed=7)
    serial_rows = rows(pytester)
    parallel = run(pytester, "-n", "2")
    parallel.assert_outcomes(passed=7)
    assert rows(pytester) == serial_rows

    def tables(result: pytest.RunResult) -> list[str]:
        lines = result.outlines
        start = next(i for i, line in enumerate(lines) if "atlbench RQ1" in line)
        end = next(i for i, line in enumerate(lines) if line.startswith("reports written"))
        return lines[start:end]

    assert tables(parallel) == tables(serial)


def test_keyword_selects_one_transformation(pytester: pytest.Pytester, tree: Path) -> None:
    result = run(pytester, "-k", "Shapes")
    result.assert_outcomes(passed=3)
    assert {t for _, t, _ in rows(pytester)} == {"Shapes2Figures"}
    result = run(pytester, "-k", "Library and Oracle")
    result.assert_outcomes(passed=1)
    assert list(rows(pytester)) == [("Synthetic-Oracle", "Library2Catalog", "runs/Synthetic-Oracle-run01")]


def test_provider_option_deselects_other_providers(pytester: pytest.Pytester, tree: Path) -> None:
    result = run(pytester, "--provider", "Synthetic-Oracle")
    result.assert_outcomes(passed=4, deselected=3)
    assert {p for p, _, _ in rows(pytester)} == {"Synthetic-Oracle"}


def test_corrupt_run_fails_only_its_case_and_is_listed_as_excluded(
    pytester: pytest.Pytester, tree: Path
) -> None:
    (tree / "Shapes2Figures" / "runs" / "Synthetic-Noisy-run01.json").write_text('{"jjodel": ')
    result = run(pytester)
    result.assert_outcomes(passed=6, failed=1)
    result.stdout.fnmatch_lines(["*test_run?Shapes2Figures-Synthetic-Noisy-run01*", "*not valid JSON*"])
    result.stdout.fnmatch_lines(["*1 runs excluded*"])
    statuses = {key: row["status"] for key, row in rows(pytester).items()}
    assert statuses.pop(("unknown", "Shapes2Figures", "runs/Synthetic-Noisy-run01")) == "error"
    assert set(statuses.values()) == {"ok"}


def test_broken_atl_fails_its_ground_truth_and_errors_its_runs(pytester: pytest.Pytester, tree: Path) -> None:
    atl = tree / "Shapes2Figures" / "Shapes2Figures.atl"
    atl.write_text(atl.read_text().replace("to f :", "to f ;"))
    result = run(pytester)
    result.assert_outcomes(passed=4, failed=1, errors=2)
    result.stdout.fnmatch_lines(["*ground truth of Shapes2Figures is unusable*Shapes2Figures.atl:*"])
    found = rows(pytester)
    assert [r["status"] for k, r in found.items() if k[1] == "Shapes2Figures"] == ["error", "error"]
    assert result.ret == 1


def test_ground_truth_naming_unknown_features_fails_with_the_list(
    pytester: pytest.Pytester, tree: Path
) -> None:
    atl = tree / "Shapes2Figures" / "Shapes2Figures.atl"
    atl.write_text(atl.read_text().replace("name <- s.name", "title <- s.name"))
    result = run(pytester, "-k", "ground_truth")
    result.assert_outcomes(passed=1, failed=1, deselected=5)
    result.stdout.fnmatch_lines(
        ["*target feature Round.title (rule Circle2Round) is not defined in Figures*"]
    )


def test_guard_fails_the_session_when_a_row_is_withheld(pytester: pytest.Pytester, tree: Path) -> None:
    pytester.makepyfile(
        test_bench=CASES.replace("    atlbench_run.score()", "    pass  # forgets to record its row")
    )
    result = run(pytester)
    result.assert_outcomes(passed=7)
    assert result.ret == 1
    result.stdout.fnmatch_lines(["*count table is incomplete*", "*ran but sent no row*"])


def test_junit_xml_carries_row_and_readable_metrics(pytester: pytest.Pytester, tree: Path) -> None:
    run(pytester, "-n", "2", "-k", "Shapes and Oracle", "--junitxml=reports/junit.xml").assert_outcomes(
        passed=1
    )
    case = ET.parse(pytester.path / "reports" / "junit.xml").find(".//testcase")
    assert case is not None
    properties = {p.get("name"): p.get("value") for p in case.iter("property")}
    assert json.loads(properties["atlbench_row"])["provider"] == "Synthetic-Oracle"
    assert float(properties["overall_f1"]) == pytest.approx(1.0)
    assert {"class_precision", "binding_recall", "overall_accuracy"} <= set(properties)


def test_min_f1_gate_and_compare(pytester: pytest.Pytester, tree: Path) -> None:
    first = run(pytester, "--min-f1", "Synthetic-Oracle=0.9")
    first.assert_outcomes(passed=7)
    assert first.ret == 0
    shutil.copy(pytester.path / "reports" / "results.json", pytester.path / "previous.json")
    gated = run(pytester, "--min-f1", "Synthetic-Noisy=0.99")
    assert gated.ret == 1
    gated.stdout.fnmatch_lines(["*--min-f1 Synthetic-Noisy=0.99: micro overall F1 is 0.*"])
    (tree / "Shapes2Figures" / "runs" / "Synthetic-Oracle-run01.json").unlink()
    compared = run(pytester, "--compare", "previous.json", "--max-drop", "0.001")
    compared.stdout.fnmatch_lines(["*change of micro overall F1 against*", "*Synthetic-Oracle: 0.9* -> *"])
    assert compared.ret == 1
    compared.stdout.fnmatch_lines(["*Synthetic-Oracle: micro overall F1 dropped by*"])


def test_nothing_selected_says_so(pytester: pytest.Pytester, tree: Path) -> None:
    result = run(pytester, "-k", "NoSuchTransformation")
    result.stdout.fnmatch_lines(["*no benchmark case ran in this session*"])
    assert not (pytester.path / "reports" / "results.json").exists()


def test_bad_option_is_a_usage_error(pytester: pytest.Pytester, tree: Path) -> None:
    result = run(pytester, "--partial-weight", "1.5")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(["*partial weight must be in [[]0, 1[]]*"])
