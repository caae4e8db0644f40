"""Scoring ahead: a forked process scores the session's runs from the last one backwards, into the disk cache.

A session without pytest-xdist scores its cases one after the other in one process, and on a cold cache
(every ground truth parsed, every metamodel loaded, every baseline run) the machine's other CPUs have
nothing to do. So, once this process has computed something the disk cache did not hold (the cache is
cold), the track forks one helper that takes the run cases in the reverse of the session's order and
scores each through the same :class:`~.runs.RunScorer` and the same disk cache
(:mod:`benchmark.core.diskcache`): the ground truths, metamodel views, baseline answers and rows it
computes are stored under their content keys, where the session's own scoring then finds them, as a
repeated session would. The helper stops where it meets the session (the next row it would compute is
in the cache already), at its end, or when ended (:meth:`ScoringAhead.stop`, before the reports).

Nothing it does is read but through the cache, whose values are pure functions of their keys, so the
rows, verdicts and reports are the same as when this process computes everything itself; a failure in
the helper is ignored (the session computes that case itself and reports what goes wrong). No helper is
started where forking is unsafe or pointless (:func:`benchmark.core.forked.can_fork`, one usable CPU,
no cache directory), e.g. in a pytest-xdist worker.
"""

from __future__ import annotations

import multiprocessing
import os
import signal
from collections.abc import Sequence
from typing import Any

from benchmark.core.diskcache import DiskCache
from benchmark.core.forked import can_fork, child_started, usable_cpus
from benchmark.core.track import RunCase


class ScoringAhead:
    """At most one helper per process: :meth:`start` once the session's own scoring missed the cache,
    :meth:`stop` before anything reads the session's rows as a whole."""

    def __init__(self) -> None:
        self._process: Any = None
        self._started = False
        self._owner = 0  # the process that forked the helper: only it may wait for the helper's end

    def start(self, scorer: Any, cases: Sequence[RunCase], cache: DiskCache) -> None:
        """Fork the helper over ``cases`` (the session's run cases in its order), unless one was started
        already or the conditions above rule it out."""
        if self._started or cache.directory is None or not cases:
            return
        self._started = True
        if usable_cpus() < 2 or not can_fork():
            return
        context = multiprocessing.get_context("fork")
        self._process = context.Process(
            target=_score_backwards, args=(scorer, tuple(reversed(cases)), cache), daemon=True
        )
        self._process.start()
        self._owner = os.getpid()

    def stop(self) -> None:
        """End the helper now (the session has scored every case: what it does has no use any more).
        It ends at once, between two statements: a value it was storing is not stored, its temporary
        file removed (:meth:`~benchmark.core.diskcache.DiskCache.put`)."""
        process, self._process = self._process, None
        if process is None:
            return
        if os.getpid() != self._owner:  # a process forked from the session (its report writer): the
            try:  # helper is its sibling, which it may end but not wait for; the session reaps it
                os.kill(process.pid, signal.SIGTERM)
            except ProcessLookupError:  # it had ended
                pass
            return
        process.terminate()
        process.join()


def _score_backwards(scorer: Any, cases: Sequence[RunCase], cache: DiskCache) -> None:
    """The helper's work: each case's row into the cache, until a row is there already. Ended
    (``SIGTERM``), it leaves as if by an exception, through the cache's clean-up."""
    child_started()
    signal.signal(signal.SIGTERM, _leave)
    for case in cases:
        try:
            key = scorer.row_key(case)
            if key is None:
                continue  # an unusable ground truth: nothing worth storing
            if cache.get("rows", key) is not None:
                return  # the session has scored this far
            scorer.score(case)
        except Exception:  # noqa: BLE001, S112 - the session scores this case itself and reports it
            continue


def _leave(signum: int, frame: Any) -> None:
    raise SystemExit(0)


__all__ = ["ScoringAhead"]
