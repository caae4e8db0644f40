"""pytest-xdist keeps a track module's cases on one worker (benchmark.harness.scheduling)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from benchmark.harness.scheduling import track_scopes
from benchmark.harness.trackmodules import declares_track
from tests.harness.test_plugin import rows, run, tree  # noqa: F401  (tree: the fixture the sessions use)

pytest_plugins = ("pytester",)

TRACK_MODULE = 'import pytest\n\npytestmark = pytest.mark.atlbench_track("ocl")\n'


@pytest.mark.parametrize(
    ("source", "declares"),
    [
        (TRACK_MODULE, True),
        ('import pytest\npytestmark = [pytest.mark.slow, pytest.mark.atlbench_track("atl")]\n', True),
        ("from pytest import mark\npytestmark = mark.atlbench_track('roundtrip')\n", True),
        ('CASES = """\npytestmark = pytest.mark.atlbench_track("atl")\n"""\n', False),  # text, not code
        ('import pytest\n\n@pytest.mark.atlbench_track("atl")\ndef test_x():\n    pass\n', False),
        ("def test_plain():\n    pass\n", False),
        ('pytestmark = pytest.mark.atlbench_track("atl"\n', False),  # broken: pytest says so itself
    ],
)
def test_a_track_module_is_known_by_its_pytestmark(source: str, declares: bool) -> None:
    assert declares_track(source.encode()) is declares


def _tree(tmp_path: Path) -> list[str]:
    (tmp_path / "cases").mkdir()
    (tmp_path / "cases" / "test_a.py").write_text(TRACK_MODULE, encoding="utf-8")
    (tmp_path / "cases" / "test_b.py").write_text(TRACK_MODULE, encoding="utf-8")
    (tmp_path / "test_unit.py").write_text("def test_one():\n    pass\n", encoding="utf-8")
    ids = [f"cases/test_a.py::test_run[task{i // 3}-run{i % 3}]" for i in range(9)]
    ids += ["test_unit.py::test_one", "test_unit.py::test_two"]
    ids += [f"cases/test_b.py::test_run[t{i}]" for i in range(4)]
    return ids


def test_each_track_module_is_one_unit_when_there_are_enough_of_them(tmp_path: Path) -> None:
    scopes = track_scopes(_tree(tmp_path), tmp_path, workers=2)
    assert len({s for n, s in scopes.items() if n.startswith("cases/test_a.py")}) == 1
    assert len({s for n, s in scopes.items() if n.startswith("cases/test_b.py")}) == 1
    assert "test_unit.py::test_one" not in scopes  # each other test is a unit of its own


def test_more_workers_than_track_modules_get_contiguous_slices(tmp_path: Path) -> None:
    ids = _tree(tmp_path)
    scopes = track_scopes(ids, tmp_path, workers=5)  # 2 modules, 5 workers: 3 slices each
    a = [scopes[n] for n in ids if n.startswith("cases/test_a.py")]
    assert len(set(a)) == 3 and a == sorted(a)  # in collection order: a task's runs stay together
    assert [a.count(s) for s in dict.fromkeys(a)] == [3, 3, 3]
    b = [scopes[n] for n in ids if n.startswith("cases/test_b.py")]
    assert [b.count(s) for s in dict.fromkeys(b)] == [2, 2]


@pytest.mark.usefixtures("tree")
def test_a_track_modules_cases_run_in_contiguous_slices_and_score_as_in_one_process(
    pytester: pytest.Pytester,
) -> None:
    """The tiny tree has one track module (seven cases): with two workers, two slices of it, the first
    four cases in collection order on one worker and the last three on the other."""
    assert run(pytester).ret == 0
    alone = rows(pytester)
    pytester.makepyfile(test_units="\n".join(f"def test_{i}():\n    pass\n" for i in range(8)))
    listed = run(pytester, "--collect-only", "-q").outlines
    order = [line for line in listed if line.startswith("test_bench.py::")]
    result = run(pytester, "-n", "2", "-v")
    assert result.ret == 0
    worker_of = {
        match.group(2): match.group(1)
        for line in result.outlines
        if (match := re.match(r"\[(gw\d)\] .*PASSED (test_bench\.py::\S+)", line))
    }
    assert sorted(worker_of) == sorted(order) and len(order) == 7
    workers = [worker_of[nodeid] for nodeid in order]
    assert len(set(workers[:4])) == 1 and len(set(workers[4:])) == 1
    assert rows(pytester) == alone
