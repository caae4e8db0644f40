"""A session that collected no benchmark module (``pytest tests``: the library's own tests) hears nothing
from the benchmark; a session that collected one and ran none of its cases is told so, with and without
xdist (the workers build the cases, so the controller learns it from them)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

pytest_plugins = ("pytester",)

DATA = Path(__file__).parent / "data"
REPO = Path(__file__).resolve().parents[2]

LIBRARY_TESTS = """
def test_one():
    assert 1 + 1 == 2


def test_two():
    assert "atl".upper() == "ATL"
"""

CASES = """
import pytest

pytestmark = pytest.mark.atlbench_track("atl")


def test_ground_truth(atlbench_ground_truth):
    atlbench_ground_truth.check()


def test_run(atlbench_run):
    atlbench_run.score()
"""


@pytest.fixture
def project(pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch) -> pytest.Pytester:
    monkeypatch.setenv("PYTHONPATH", str(REPO))
    shutil.copytree(DATA / "tree", pytester.path / "validation")
    pytester.makepyfile(test_library=LIBRARY_TESTS)
    return pytester


def run(pytester: pytest.Pytester, *args: str) -> pytest.RunResult:
    return pytester.runpytest(
        "-p", "benchmark.harness.plugin", "--reports-dir", "reports", "--baseline", "none", *args
    )


@pytest.mark.parametrize("workers", ["0", "1"])
def test_a_library_only_session_prints_nothing_of_the_benchmark(
    project: pytest.Pytester, workers: str
) -> None:
    result = run(project, "-n", workers)
    result.assert_outcomes(passed=2)
    assert result.ret == pytest.ExitCode.OK
    assert "atlbench" not in result.stdout.str()
    assert not (project.path / "reports").exists()


@pytest.mark.parametrize("workers", ["0", "1"])
def test_a_benchmark_module_whose_cases_were_all_deselected_says_so(
    project: pytest.Pytester, workers: str
) -> None:
    project.makepyfile(test_bench=CASES)
    result = run(project, "-n", workers, "-k", "NoSuchTransformation")
    result.stdout.fnmatch_lines(["*atlbench: no benchmark case ran in this session*"])
    assert not (project.path / "reports").exists()
