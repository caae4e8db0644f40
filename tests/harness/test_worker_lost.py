"""A worker that dies mid-session takes the rows it held with it: the session fails, naming those cases.

A worker hands its rows to the controller only at its end (``workeroutput``), so when one dies (here: it
calls ``os._exit`` after scoring its second run case, as a killed machine or a lost SSH connection would
end it) every run case it had scored loses its row. pytest-xdist fails the case that was running and
starts a replacement for the cases not yet run; the controller, which saw each case pass, names every
case whose row never arrived and fails the session (docs/PERFORMANCE.md, "Several
machines"). The rows of the other worker still make the tables, and the lost cases are listed there too
(terminal, results.json, index.html) as excluded runs with why: nothing is silently lost.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from benchmark.core.collector import CRASHED, LOST
from benchmark.core.results import Results

pytest_plugins = ("pytester",)

DATA = Path(__file__).parent / "data"
REPO = Path(__file__).resolve().parents[2]

# The first worker process to score its second run case dies right after (one death per session: the
# marker file is created by exactly one process).
CASES = """
import os

import pytest

pytestmark = pytest.mark.atlbench_track("atl")
SCORED = []


def test_ground_truth(atlbench_ground_truth):
    atlbench_ground_truth.check()


def test_run(atlbench_run):
    atlbench_run.score()
    SCORED.append(atlbench_run)
    if len(SCORED) == 2 and "PYTEST_XDIST_WORKER" in os.environ:
        try:
            os.close(os.open(os.path.join(os.environ["DEATH_MARK"], "died"), os.O_CREAT | os.O_EXCL))
        except FileExistsError:
            return
        os._exit(3)
"""


def test_a_worker_that_dies_fails_the_session_naming_its_lost_cases(
    pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PYTHONPATH", str(REPO))
    monkeypatch.setenv("DEATH_MARK", str(pytester.path))
    shutil.copytree(DATA / "tree", pytester.path / "validation")
    pytester.makepyfile(test_bench=CASES)
    result = pytester.runpytest(
        "-p", "benchmark.harness.plugin", "--reports-dir", "reports", "--baseline", "none", "-n", "2", "-v"
    )
    out = result.stdout.str()
    assert result.ret == pytest.ExitCode.TESTS_FAILED

    (dead, crashed) = re.findall(r"worker '(gw\d+)' crashed while running '([^']+)'", out)[0]
    assert crashed.startswith("test_bench.py::test_run[")
    passed_there = set(
        re.findall(rf"\[{dead}\] \[\s*\d+%\] PASSED (test_bench\.py::test_run\[[^\]]+\])", out)
    )
    assert len(passed_there) == 1  # it scored one run case before the one it died in
    lost = set(re.findall(r"^\s+(test_bench\.py::test_run\[[^\]]+\]): ran but sent no row$", out, re.M))
    assert lost == passed_there
    result.stdout.fnmatch_lines(
        ["*atlbench: session failed*", "*the count table is incomplete: rows were lost between the cases*"]
    )

    assert f"  {crashed}: its worker crashed while scoring it; no row" in result.outlines

    # the reports list the lost cases as excluded runs, with why: terminal, results.json, index.html
    saved = Results.load(pytester.path / "reports" / "results.json")
    assert len(saved.rows) == 5  # the tiny tree's five runs: three scored, the two the dead worker held
    lost_rows = sorted((row for row in saved.rows if not row.ok), key=lambda row: row.error or "")
    case_ids = {name[name.index("[") + 1 : -1] for name in (*passed_there, crashed)}
    assert {f"{row.task}-{Path(row.file).stem}" for row in lost_rows} == case_ids
    assert [row.error for row in lost_rows] == [CRASHED, LOST]
    assert "Per provider" in out  # the survivors' tables are printed, and the session still fails
    result.stdout.fnmatch_lines(["*3 runs scored (0 unusable) on 2 transformations, 2 excluded (0 missing)*"])
    result.stdout.fnmatch_lines(["2 runs excluded", f"  *: {LOST}", f"  *: {CRASHED}"])
    html = (pytester.path / "reports" / "index.html").read_text(encoding="utf-8")
    assert html.count("its row was lost: ") == 2
