"""Scoring ahead (benchmark.harness.ahead): the helper a cold session forks runs the remaining cases from the
last one backwards, storing what they compute in the disk cache, and stops where the session is; the
session starts it once, after the first benchmark case that computed something, over the cases after it."""

from __future__ import annotations

import time
from collections.abc import Iterable
from pathlib import Path

import pytest

from benchmark.core import forked
from benchmark.core.diskcache import DiskCache
from benchmark.core.track import TrackContext
from benchmark.harness import ahead
from benchmark.tracks.mapping.track import AtlTrack
from tests.harness.test_plugin import run, tree  # noqa: F401  (tree: the fixture the session test uses)

pytest_plugins = ("pytester",)
VALIDATION = Path(__file__).resolve().parents[2] / "validation"


@pytest.fixture
def forking(monkeypatch: pytest.MonkeyPatch) -> None:
    """Forking allowed even in a pytest-xdist worker (its other threads stay idle meanwhile)."""
    for module in (forked, ahead):
        monkeypatch.setattr(module, "can_fork", lambda: True)
        monkeypatch.setattr(module, "usable_cpus", lambda: 2)


def storing(cache: DiskCache, indices: range, seconds: float = 0.0) -> list[ahead.Work]:
    def store(index: int) -> None:
        time.sleep(seconds)
        cache.put("work", str(index), index)

    return [(index, lambda index=index: store(index)) for index in indices]


def stored(cache: DiskCache, indices: range) -> list[int]:
    return [index for index in indices if cache.get("work", str(index)) is not None]


def test_the_helper_runs_the_cases_after_the_session_from_the_last_one(tmp_path: Path, forking) -> None:
    cache = DiskCache(tmp_path)
    scoring = ahead.ScoringAhead()
    scoring.start(0, storing(cache, range(1, 6)))
    scoring._process.join(60)  # all of them: the session did not move meanwhile
    scoring.stop()
    assert stored(cache, range(0, 7)) == [1, 2, 3, 4, 5]


def test_the_helper_stops_at_the_case_the_session_is_at(tmp_path: Path, forking) -> None:
    cache = DiskCache(tmp_path)
    scoring = ahead.ScoringAhead()
    scoring.start(4, storing(cache, range(1, 7)))  # the session is at case 4 already
    scoring._process.join(60)
    scoring.stop()
    assert stored(cache, range(1, 7)) == [5, 6]


def test_the_session_moving_on_stops_the_helper(tmp_path: Path, forking) -> None:
    cache = DiskCache(tmp_path)
    scoring = ahead.ScoringAhead()
    scoring.start(0, storing(cache, range(1, 200), seconds=0.01))
    scoring.at(150)  # the session reached case 150 while the helper worked from 199 down
    scoring._process.join(60)
    scoring.stop()
    found = stored(cache, range(1, 200))
    assert found and min(found) > 150 and found == list(range(min(found), 200))


def test_a_failing_case_is_left_to_the_session(tmp_path: Path, forking) -> None:
    cache = DiskCache(tmp_path)

    def fail() -> None:
        raise ValueError("an unreadable answer: the session reports it")

    scoring = ahead.ScoringAhead()
    scoring.start(0, [*storing(cache, range(1, 3)), (3, fail), *storing(cache, range(4, 5))])
    scoring._process.join(60)
    scoring.stop()
    assert stored(cache, range(1, 5)) == [1, 2, 4]


def test_no_helper_where_forking_is_unsafe_or_pointless(tmp_path: Path, monkeypatch) -> None:
    cache = DiskCache(tmp_path)
    monkeypatch.setattr(ahead, "can_fork", lambda: False)
    scoring = ahead.ScoringAhead()
    scoring.start(0, storing(cache, range(1, 3)))
    assert scoring.started and scoring._process is None
    scoring.stop()  # nothing to stop
    monkeypatch.setattr(ahead, "can_fork", lambda: True)
    monkeypatch.setattr(ahead, "usable_cpus", lambda: 1)
    scoring = ahead.ScoringAhead()
    scoring.start(0, storing(cache, range(1, 3)))
    assert scoring._process is None and stored(cache, range(1, 3)) == []


def test_a_helper_ended_midway_leaves_no_temporary_file(tmp_path: Path, forking) -> None:
    """The real mapping track, every run case of the bundled data, ended while it stores."""
    session = AtlTrack(TrackContext(data_root=VALIDATION, options={}, cache_dir=tmp_path / "cache"))
    work = [
        (index, lambda case=case: session.score_run(case))
        for index, case in enumerate(session.collect().runs, 1)
    ]
    scoring = ahead.ScoringAhead()
    scoring.start(0, work)
    process = scoring._process
    process.join(0.5)  # somewhere in the middle of its work, most likely storing something
    scoring.stop()
    assert not process.is_alive()
    assert list((tmp_path / "cache").rglob("*.pickle"))
    assert not list((tmp_path / "cache").rglob("*.tmp"))


@pytest.mark.usefixtures("tree")
def test_a_cold_session_starts_the_helper_once_over_the_cases_after_the_first(
    pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    """In a real session (in process, so the helper's work is called here instead of forked): after the
    first benchmark case computed something, the helper gets every later benchmark case, in order, and
    what it does fills the cache; a warm session starts none."""
    started: list[tuple[int, list[int]]] = []

    def start(self: ahead.ScoringAhead, position: int, work: Iterable[ahead.Work]) -> None:
        self.started = True
        work = list(work)  # taken once, as the real start does
        started.append((position, [index for index, _ in work]))
        for _, call in work:
            call()

    monkeypatch.setattr(ahead.ScoringAhead, "start", start)
    first = run(pytester, "-n", "0")
    assert first.ret == 0
    outcomes = first.parseoutcomes()
    cases = outcomes["passed"] + outcomes.get("failed", 0)
    ((position, indices),) = started
    assert position == 0 and indices == list(range(1, cases))
    started.clear()
    assert run(pytester, "-n", "0").ret == 0
    assert started == []  # warm: nothing was computed, no helper


def test_a_ctrl_c_is_left_to_the_session(tmp_path: Path, forking) -> None:
    """The terminal sends SIGINT to the helper too: it goes on (no traceback of its own), and the session
    ends it as it finishes."""
    import os
    import signal

    cache = DiskCache(tmp_path)
    scoring = ahead.ScoringAhead()
    scoring.start(0, storing(cache, range(1, 30), seconds=0.01))
    time.sleep(0.05)
    os.kill(scoring._process.pid, signal.SIGINT)
    process = scoring._process
    process.join(60)
    assert process.exitcode == 0
    scoring.stop()
    assert stored(cache, range(1, 30)) == list(range(1, 30))
