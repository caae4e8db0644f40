"""The pytest session accepts the seed study's ``--partial-match-weight`` beside ``--partial-weight``, on the
command line and as ``atlbench_partial_match_weight`` in the ini file (the same declaration as the CLI's)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from benchmark.core.results import Results

pytest_plugins = ("pytester",)

DATA = Path(__file__).parent / "data"
REPO = Path(__file__).resolve().parents[2]

CASES = """
import pytest

pytestmark = pytest.mark.atlbench_track("atl")


def test_run(atlbench_run):
    atlbench_run.score()
"""


@pytest.fixture
def tree(pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch) -> pytest.Pytester:
    monkeypatch.setenv("PYTHONPATH", str(REPO))
    shutil.copytree(DATA / "tree", pytester.path / "validation")
    pytester.makepyfile(test_bench=CASES)
    return pytester


def weights(pytester: pytest.Pytester, *args: str) -> set[float]:
    """The partial weight every row of an in-process session was scored with."""
    result = pytester.runpytest(
        "-p",
        "benchmark.harness.plugin",
        "--reports-dir",
        "reports",
        "--baseline",
        "none",
        "-k",
        "Oracle",
        *args,
    )
    result.assert_outcomes(passed=2, deselected=3)
    saved = Results.load(pytester.path / "reports" / "results.json")
    return {saved.section("atl").options["partialWeight"]}  # rows keep raw counts: w is the session's


def test_the_seed_spelling_on_the_command_line(tree: pytest.Pytester) -> None:
    assert weights(tree, "--partial-match-weight", "1") == {1.0}  # the default is 0.5


def test_the_seed_spelling_in_the_ini_file(tree: pytest.Pytester) -> None:
    tree.makeini("[pytest]\natlbench_partial_match_weight = 0.25\n")
    assert weights(tree) == {0.25}


def test_the_seed_spelling_is_checked_and_listed_in_help(tree: pytest.Pytester) -> None:
    bad = tree.runpytest("-p", "benchmark.harness.plugin", "--partial-match-weight", "-1")
    assert bad.ret == pytest.ExitCode.USAGE_ERROR
    bad.stderr.fnmatch_lines(["*--partial-match-weight: must be a number in [[]0, 1[]], got -1*"])
    shown = tree.runpytest("-p", "benchmark.harness.plugin", "--help")
    shown.stdout.fnmatch_lines(["*--partial-weight=W*"])
    assert "also spelt --partial-match-weight" in " ".join(shown.stdout.str().split())
    shown.stdout.fnmatch_lines(["*atlbench_partial_weight*"])
