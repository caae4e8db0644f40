"""run_forked: the calls' results in input order, from forked children or, where that is unsafe, here."""

from __future__ import annotations

import os
import threading

import pytest

from benchmark.core import forked, phases


def test_results_come_back_in_input_order_from_other_processes(monkeypatch):
    monkeypatch.setattr(forked, "can_fork", lambda: True)
    calls = [lambda i=i: (i * i, os.getpid()) for i in range(5)]
    results = forked.run_forked(calls, jobs=2)
    assert [value for value, _ in results] == [0, 1, 4, 9, 16]
    assert os.getpid() not in {pid for _, pid in results}


def test_one_job_or_one_call_runs_here():
    here = os.getpid()
    assert forked.run_forked([os.getpid, os.getpid], jobs=1) == [here, here]
    assert forked.run_forked([os.getpid], jobs=4) == [here]


def test_a_process_with_other_threads_does_not_fork():
    stop = threading.Event()
    thread = threading.Thread(target=stop.wait)
    thread.start()
    try:
        assert not forked.can_fork()
        assert forked.run_forked([os.getpid, os.getpid], jobs=2) == [os.getpid()] * 2
    finally:
        stop.set()
        thread.join()


def test_an_exception_in_a_child_is_raised_here(monkeypatch):
    monkeypatch.setattr(forked, "can_fork", lambda: True)

    def fails() -> int:
        raise ValueError("figure could not be drawn")

    with pytest.raises(ValueError, match="figure could not be drawn"):
        forked.run_forked([lambda: 1, fails], jobs=2)


def test_the_phases_a_child_records_reach_the_parent(monkeypatch, tmp_path):
    monkeypatch.setattr(forked, "can_fork", lambda: True)
    monkeypatch.setenv(phases.ENV, str(tmp_path / "phases.json"))
    phases.take()

    def timed(name: str) -> str:
        with phases.phase(name):
            return name

    assert forked.run_forked([lambda: timed("a"), lambda: timed("b")], jobs=2) == ["a", "b"]
    assert sorted(p["phase"] for p in phases.take()) == ["a", "b"]


def test_a_forked_child_runs_its_own_calls_itself(monkeypatch):
    """A call that forks in turn (a track's figures inside the tracks' reports written side by side) runs
    its calls in its child process: a daemon may not have children."""
    if not forked.can_fork():
        pytest.skip("this process cannot fork")

    def nested() -> tuple[bool, list[int]]:
        return forked.can_fork(), forked.run_forked([os.getpid, os.getpid], jobs=2)

    for allowed, pids in forked.run_forked([nested, nested], jobs=2):
        assert allowed is False
        assert len(set(pids)) == 1 and pids[0] != os.getpid()  # both calls in the child itself
