"""Scoring ahead: a forked helper runs a cold session's remaining cases from the last one backwards, into the
disk cache.

A session without pytest-xdist runs its cases one after the other in one process: on a cold disk cache
(every ground truth parsed, every variant built, every answer judged, every stage scored) the machine's
other CPUs have nothing to do. So, once a benchmark case has computed something the disk cache did not
hold (:func:`benchmark.core.diskcache.computed_seconds`: the cache is cold), the harness forks one helper
that takes the session's remaining benchmark cases in the reverse of the session's order and does each
case's work through the same track objects (a ground-truth case's check; a run case's scoring, unless its
ground truth is unusable), throwing the results away: what the tracks compute lands in the disk cache under
its content keys, where the session's own cases then find it, as a repeated session would. The session
says which case it is at through a counter in shared memory; the helper stops before a case the session
has reached, at its end, or when ended (:meth:`ScoringAhead.stop`, before the session builds its results).

The session still runs every case itself and records every row: nothing the helper does is read but
through the cache, whose values are pure functions of their keys, so the rows, verdicts and reports are the
same as without it; a failure in the helper is ignored (the session meets that case and reports what goes
wrong). No helper is started where forking is unsafe or pointless (:func:`benchmark.core.forked.can_fork`,
one usable CPU), e.g. in a pytest-xdist worker, whose execnet threads rule forking out.
"""

from __future__ import annotations

import multiprocessing
import os
import signal
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from benchmark.core.forked import can_fork, child_started, usable_cpus

#: (the case's position in the session, what running it computes)
Work = tuple[int, Callable[[], object]]


class ScoringAhead:
    """At most one helper per session: :meth:`at` as each benchmark case starts, :meth:`start` once the
    cache is found cold, :meth:`stop` before the session reads its rows as a whole."""

    def __init__(self) -> None:
        self._process: Any = None
        self._position: Any = None  # shared with the helper: the position of the case the session is at
        self.started = False

    def at(self, position: int) -> None:
        """The session starts its case at ``position`` (the helper will not run it)."""
        if self._position is not None:
            self._position.value = position

    def start(self, position: int, work: Iterable[Work]) -> None:
        """Fork the helper over ``work`` (the benchmark cases after the one at ``position``, in session
        order; taken only when a helper is forked), unless one was started already or the conditions
        above rule it out."""
        if self.started:
            return
        self.started = True
        if usable_cpus() < 2 or not can_fork():
            return
        backwards = tuple(reversed(list(work)))
        if not backwards:
            return
        context = multiprocessing.get_context("fork")
        self._position = context.RawValue("q", position)
        self._process = context.Process(
            target=_work_backwards, args=(backwards, self._position, os.getpid()), daemon=True
        )
        self._process.start()

    def stop(self) -> None:
        """End the helper now (the session has run every case: what it does has no use any more). It ends
        at once, between two statements: a value it was storing is not stored, its temporary file removed
        (:meth:`~benchmark.core.diskcache.DiskCache.put`)."""
        process, self._process = self._process, None
        if process is None:
            return
        process.terminate()
        process.join()


def _work_backwards(work: Sequence[Work], position: Any, session: int) -> None:
    """The helper: each case's work, until the session has reached the case. Ended (``SIGTERM``), it leaves
    as if by an exception, through the cache's clean-up. A Ctrl-C, which the terminal sends to the helper
    too, is the session's to handle (it ends the helper as it finishes); a session that died without
    ending it (``SIGKILL``) leaves the helper no use: it stops at the next case."""
    child_started()
    signal.signal(signal.SIGTERM, _leave)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    for index, call in work:
        if position.value >= index or os.getppid() != session:
            return  # the session is at this case, or past it, or gone
        try:
            call()
        except Exception:  # noqa: BLE001, S112 - the session runs this case itself and reports it
            continue


def _leave(signum: int, frame: Any) -> None:
    raise SystemExit(0)


__all__ = ["ScoringAhead", "Work"]
