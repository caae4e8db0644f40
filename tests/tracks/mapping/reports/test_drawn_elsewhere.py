"""The report's figures drawn by the drawer a cold session forks during its scoring, and a call computed
aside in a forked process: the same figures and values as computed here, exceptions raised here, and no
process left behind."""

from __future__ import annotations

import os

import pytest

from benchmark.core import forked
from benchmark.tracks.mapping.reports import drawer, together
from benchmark.tracks.mapping.reports.figures import FIGURES, figure_calls
from benchmark.tracks.mapping.stats.summary import statistics_without_pairs

DRAWS = 50


@pytest.fixture
def forking(monkeypatch):
    """Forking allowed even in a pytest-xdist worker (its other threads stay idle meanwhile)."""
    for module in (forked, drawer, together):
        monkeypatch.setattr(module, "can_fork", lambda: True)
        monkeypatch.setattr(module, "usable_cpus", lambda: 2, raising=False)
    ended(drawer.take(None))  # none prepared by an earlier test
    yield
    ended(drawer.take(None))


def ended(leftover) -> None:
    if leftover is not None:
        leftover.end()


def stats_of(results):
    return statistics_without_pairs(results.with_items().rows, draws=DRAWS)


def test_the_drawer_draws_the_figures_the_report_would(small_results, forking):
    stats = stats_of(small_results)
    session = object()
    drawer.prepare(session)
    assert drawer.take(object()) is None  # another session's
    prepared = drawer.take(session)
    assert prepared is not None and prepared.pid != os.getpid()
    assert drawer.take(session) is None  # a drawer draws one report
    assert prepared.draw(stats)
    drawn = prepared.figures()
    here = [call() for call in figure_calls(stats, FIGURES)]
    assert drawn is not None
    assert [f.name for f in drawn] == list(FIGURES)
    assert [f.data for f in drawn] == [f.data for f in here]
    with pytest.raises(ChildProcessError):
        os.waitpid(prepared.pid, os.WNOHANG)  # reaped


def test_an_unused_drawer_ends_with_its_pipe(forking):
    drawer.prepare("session")
    prepared = drawer.take("session")
    assert prepared is not None
    prepared.end()  # closes this end of the pipe, then waits for the drawer to exit
    with pytest.raises(ChildProcessError):
        os.waitpid(prepared.pid, os.WNOHANG)


def test_a_drawer_left_by_another_session_is_ended_not_used(forking):
    first, second = object(), object()
    drawer.prepare(first)
    stale = drawer._drawer[1]
    drawer.prepare(second)
    with pytest.raises(ChildProcessError):
        os.waitpid(stale.pid, os.WNOHANG)  # ended and reaped
    fresh = drawer.take(second)
    assert fresh is not None and fresh.pid != stale.pid
    fresh.end()


def test_a_drawer_a_forked_report_writer_used_is_reaped_by_the_process_that_prepared_it(
    small_results, forking
):
    """A session of several tracks writes the mapping report in a forked process: it takes the drawer
    but cannot reap it (the drawer is its sibling); the session's process does, as it exits."""
    stats = stats_of(small_results)
    drawer.prepare("session")
    pid = drawer._drawer[1].pid
    writer = os.fork()
    if writer == 0:  # the forked report writer
        code = 1
        try:
            used = drawer.take("session")
            code = 0 if used is not None and used.draw(stats) and used.figures() is not None else 2
        finally:
            os._exit(code)
    assert os.waitstatus_to_exitcode(os.waitpid(writer, 0)[1]) == 0
    drawer.end_prepared()  # what runs at exit
    with pytest.raises(ChildProcessError):
        os.waitpid(pid, os.WNOHANG)  # reaped: neither running nor a zombie


def test_the_drawer_is_ended_at_exit_by_the_process_that_prepared_it_only(
    small_results, forking, monkeypatch
):
    registered = []
    monkeypatch.setattr(drawer, "_registered", False)
    monkeypatch.setattr(drawer.atexit, "register", registered.append)
    drawer.prepare("session")
    assert registered == [drawer.end_prepared]
    child = os.fork()
    if child == 0:  # a process forked since, exiting: the drawer is not its to end
        try:
            drawer.end_prepared()
        finally:
            os._exit(0)
    os.waitpid(child, 0)
    prepared = drawer.take("session")
    assert prepared is not None
    assert prepared.draw(stats_of(small_results))
    assert prepared.figures() is not None  # still there to draw


def test_no_drawer_where_forking_is_unsafe(monkeypatch):
    ended(drawer.take(None))
    monkeypatch.setattr(drawer, "can_fork", lambda: False)
    drawer.prepare("session")
    assert drawer.take(None) is None


def test_a_call_aside_runs_in_another_process_and_its_exception_is_raised_here(forking):
    assert together.Aside(os.getpid).result() != os.getpid()

    def fails() -> int:
        raise ValueError("no comparison")

    aside = together.Aside(fails)
    with pytest.raises(ValueError, match="no comparison"):
        aside.result()


def test_a_call_aside_runs_here_where_forking_is_unsafe(monkeypatch):
    monkeypatch.setattr(together, "can_fork", lambda: False)
    assert together.Aside(os.getpid).result() == os.getpid()
