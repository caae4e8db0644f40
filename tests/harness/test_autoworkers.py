"""``-n auto`` for benchmark cases: the note a session leaves and the workers the next one starts
(benchmark.harness.autoworkers), on the tiny validation tree, in real sessions."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import xdist.plugin

from benchmark.harness import autoworkers
from tests.harness.test_plugin import rows, run, tree  # noqa: F401  (tree: the fixture each test uses)

pytest_plugins = ("pytester",)
pytestmark = pytest.mark.usefixtures("tree")  # a tiny validation tree beside a benchmark test module


@pytest.fixture
def two_cpus(monkeypatch: pytest.MonkeyPatch) -> None:
    """xdist's own count is 2 wherever the test runs (it is 1 on a one-CPU machine, and then there is
    nothing to choose), and no variable overrides it."""
    monkeypatch.delenv("PYTEST_XDIST_AUTO_NUM_WORKERS", raising=False)
    monkeypatch.setattr(xdist.plugin, "pytest_xdist_auto_num_workers", lambda config: 2)


def _note(pytester: pytest.Pytester) -> Path:
    return pytester.path / ".pytest_cache" / "d" / "atlbench" / autoworkers.NOTE_FILE


def _header(result: pytest.RunResult) -> list[str]:
    return [line for line in result.outlines if line.startswith("atlbench: -n auto")]


def test_a_session_of_benchmark_cases_leaves_a_note(pytester, two_cpus) -> None:
    result = run(pytester)
    assert result.ret == 0
    note = json.loads(_note(pytester).read_text(encoding="utf-8"))
    outcomes = result.parseoutcomes()
    assert note["cases"] == outcomes["passed"] + outcomes.get("failed", 0)
    assert note["work_seconds"] >= 0
    assert len(note["stamp"]) == 64


def test_little_work_runs_the_next_auto_session_in_one_process(pytester, two_cpus) -> None:
    assert run(pytester).ret == 0
    first = rows(pytester)
    result = run(pytester, "-n", "auto")
    assert result.ret == 0
    (header,) = _header(result)
    assert header.startswith("atlbench: -n auto runs in this process: the previous session of these")
    assert header.endswith("-n 2 starts them anyway")
    assert not any("workers [" in line for line in result.outlines)  # xdist's "2 workers [N items]"
    assert rows(pytester) == first


def test_much_work_leaves_the_count_to_xdist_and_says_so(pytester, two_cpus) -> None:
    assert run(pytester, "-n", "2").ret == 0  # a note from a session with workers: their work counts
    note = json.loads(_note(pytester).read_text(encoding="utf-8"))
    assert note["cases"] > 0
    note["work_seconds"] = 1000.0
    _note(pytester).write_text(json.dumps(note), encoding="utf-8")
    result = run(pytester, "-n", "auto")
    assert result.ret == 0
    (header,) = _header(result)
    assert header.startswith("atlbench: -n auto starts 2 workers: the previous session")
    assert any("2 workers [" in line for line in result.outlines)


def _edit_data(pytester: pytest.Pytester) -> list[str]:
    some_file = next(p for p in sorted((pytester.path / "validation").rglob("*")) if p.is_file())
    some_file.write_bytes(some_file.read_bytes() + b"\n")
    return []


@pytest.mark.parametrize(
    "change",
    [
        pytest.param(lambda pytester: ["-k", "test_run"], id="another selection"),
        pytest.param(lambda pytester: ["--cache-clear"], id="cache cleared"),
        pytest.param(_edit_data, id="edited data"),
    ],
)
def test_without_a_note_benchmark_cases_run_in_one_process_on_two_cpus(pytester, two_cpus, change) -> None:
    """No note for this session: its paths are track modules only, so on 2 CPUs one process (whose helper
    scores a cold session ahead) rather than two workers."""
    assert run(pytester).ret == 0
    result = run(pytester, "-n", "auto", *change(pytester))
    assert result.ret == 0
    (header,) = _header(result)
    assert header.startswith("atlbench: -n auto runs in this process: benchmark cases only (1 track module)")
    assert "no note from an earlier session" in header and header.endswith("-n 2 starts them anyway")
    assert not any("workers [" in line for line in result.outlines)


def test_without_a_note_xdist_decides_for_other_tests_more_cpus_or_no_cache(
    pytester, two_cpus, monkeypatch
) -> None:
    pytester.makepyfile(test_other="def test_plain():\n    assert 1 + 1 == 2\n")
    result = run(pytester, "-n", "auto")
    assert result.ret == 0 and _header(result) == []
    assert any("2 workers [" in line for line in result.outlines)
    (pytester.path / "test_other.py").unlink()
    result = run(pytester, "-n", "auto", "-p", "no:cacheprovider")
    assert result.ret == 0 and _header(result) == []
    assert any("2 workers [" in line for line in result.outlines)
    monkeypatch.setattr(xdist.plugin, "pytest_xdist_auto_num_workers", lambda config: 3)
    result = run(pytester, "-n", "auto")
    assert result.ret == 0 and _header(result) == []
    assert any("3 workers [" in line for line in result.outlines)


def test_a_session_with_other_tests_leaves_no_note(pytester, two_cpus) -> None:
    pytester.makepyfile(test_other="def test_plain():\n    assert 1 + 1 == 2\n")
    assert run(pytester).ret == 0
    assert not _note(pytester).exists()


def test_the_variable_wins(pytester, two_cpus, monkeypatch) -> None:
    assert run(pytester).ret == 0
    monkeypatch.setenv("PYTEST_XDIST_AUTO_NUM_WORKERS", "2")
    result = run(pytester, "-n", "auto")
    assert _header(result) == []
    assert any("2 workers [" in line for line in result.outlines)


@pytest.mark.parametrize(
    ("given", "kept"),
    [
        (["cases", "-n", "auto", "-q"], ["cases"]),
        (["cases", "-vv", "--tb", "short", "-rfE", "--color=yes", "--durations", "5"], ["cases"]),
        (["-r", "fE", "cases", "-q"], ["cases"]),
        (["cases", "--quiet", "--no-header", "--tb=line", "-x"], ["cases", "-x"]),
        (["cases", "-qx", "-k", "q"], ["cases", "-qx", "-k", "q"]),  # -x changes the work: kept
        (["cases", "-nauto"], ["cases"]),
        (["-n4", "cases"], ["cases"]),
        (["--numprocesses=auto", "-k", "Grafcet"], ["-k", "Grafcet"]),
        (["--numprocesses", "0", "--no-header", "cases"], ["cases"]),
    ],
)
def test_the_command_is_compared_without_its_worker_count_nor_display_options(given, kept) -> None:
    assert autoworkers.command_without_workers(given) == kept


@pytest.mark.parametrize("text", ["", "{", "[]", '{"stamp": "x", "cases": "2", "work_seconds": 1.0}'])
def test_a_broken_note_is_no_note(tmp_path: Path, text: str) -> None:
    path = tmp_path / autoworkers.NOTE_FILE
    path.write_text(text, encoding="utf-8")
    assert autoworkers.read_note(path) is None


def test_a_note_is_read_back_as_written(tmp_path: Path) -> None:
    path = tmp_path / autoworkers.NOTE_FILE
    autoworkers.write_note(path, "a" * 64, 12, 3.14159)
    assert autoworkers.read_note(path) == {"stamp": "a" * 64, "cases": 12, "work_seconds": 3.142}
