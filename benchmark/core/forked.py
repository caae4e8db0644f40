"""Independent calls on the usable CPUs in forked processes, results in input order.

A forked child starts with everything its parent imported and computed (matplotlib loaded, statistics
built), so a call costs only its own work; that is what makes drawing a report's figures side by side pay
on a 2-core machine where starting fresh interpreters would not. The calls are closures, not pickled: they
are handed to the children by the fork itself, and only their results travel back (pickled), so results
must be picklable. Where forking is unavailable or unsafe (no ``fork`` start method, other threads running
in this process, one CPU, fewer than two calls) the calls run here, one after the other, with the same
results.
"""

from __future__ import annotations

import gc
import multiprocessing
import os
import threading
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

from benchmark.core import phases

T = TypeVar("T")

_calls: Sequence[Callable[[], Any]] = ()  # read by the forked children (set just before the fork)


def usable_cpus() -> int:
    """The CPUs this process may run on (its affinity, not the machine's count)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # pragma: no cover - not Linux
        return max(1, os.cpu_count() or 1)


def can_fork() -> bool:
    """Forking is available and safe here: a child of a process running other threads may inherit a lock
    one of them held, so a multi-threaded process (an xdist worker, for one) does not fork; and a forked
    child of :func:`run_forked` (a daemon process, which may not have children of its own) runs its
    calls itself, its siblings already holding the other CPUs."""
    return (
        "fork" in multiprocessing.get_all_start_methods()
        and threading.active_count() == 1
        and not multiprocessing.current_process().daemon
    )


def child_started() -> None:
    """What a forked child does first. It drops the phases it inherited (the parent's, not this child's to
    hand back), and freezes the objects it inherited (``gc.freeze``), so that its own collections scan only
    what it allocates: not the parent's whole heap (about 0.25 s CPU per report process after a cold
    session), nor copy its pages by writing to them."""
    phases.take()
    gc.freeze()


def send_answer(connection: Any, call: Callable[[], Any]) -> None:
    """In a forked child: ``call()``'s result, or the exception it raised, and the phases it recorded,
    sent through ``connection`` (:func:`receive_answer` reads them in the parent)."""
    try:
        answer = (False, call())
    except Exception as error:  # noqa: BLE001 - raised again in the parent
        answer = (True, error)
    connection.send((*answer, phases.take()))


def receive_answer(connection: Any) -> Any:
    """In the parent: the result :func:`send_answer` sent, with the child's phases added to this
    process's; the exception the call raised is raised here. ``EOFError`` (or ``OSError``) when the child
    ended without an answer."""
    failed, value, recorded = connection.recv()
    phases.extend(recorded)
    if failed:
        raise value
    return value


def _call(index: int) -> tuple[Any, list[dict[str, object]]]:
    child_started()
    return _calls[index](), phases.take()


def run_forked(calls: Sequence[Callable[[], T]], jobs: int | None = None) -> list[T]:
    """``[call() for call in calls]``, on up to ``jobs`` (default :func:`usable_cpus`) forked processes.

    An exception a call raises is raised here (pickled back from the child, the first in input order)."""
    global _calls
    count = min(len(calls), usable_cpus() if jobs is None else max(1, jobs))
    if count < 2 or not can_fork():
        return [call() for call in calls]
    _calls = calls
    try:
        with multiprocessing.get_context("fork").Pool(count) as pool:
            done = pool.map(_call, range(len(calls)), chunksize=1)
    finally:
        _calls = ()
    results = []
    for result, recorded in done:
        phases.extend(recorded)
        results.append(result)
    return results


__all__ = ["can_fork", "child_started", "receive_answer", "run_forked", "send_answer", "usable_cpus"]
