"""Stage payloads in the disk cache, one entry per task rather than one small file per stage evaluation.

A stage evaluation's payload is a function of its own key (the scored file's bytes, its two reference
models and the code: :meth:`~.stage.StageScorer.score`), but a cold session scores some 1,240 of them, and
creating a file is the slowest step of scoring on a busy disk (most of a cold session's cache writes). So
the payloads of one task (a round-trip case: both stages, every provider, k, run and baseline) are
written together, as one entry whose key is made of all their keys, once this process has handled every
run case of the task; a later session reads them all with the task's first case. The entry holds each
payload under its own key, so what is served is exactly what one entry per payload served.

A process that handles only part of a task (pytest-xdist gave the rest to another worker, or ``-k``
selected some) writes the payloads it computed one by one, each under its own key as before, when it
moves on to another task, and those of its last task when the session ends (:meth:`PayloadCache.flush`,
from the track's ``scoring_done``); a payload the task's entry does not hold is looked for on its own.
A stage that raised (no answer was obtained, an unreadable file) is
handled and holds no payload, as it was never stored.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from benchmark.core.diskcache import DiskCache, computing, make_key, require_stored
from benchmark.core.errors import BenchmarkError
from benchmark.core.track import RunCase

Payload = dict[str, Any]


class PayloadCache:
    """``get_or_compute(case, compute)`` for the run cases of one collection."""

    def __init__(
        self,
        cache: DiskCache,
        namespace: str,
        cases_of: Callable[[str], Sequence[RunCase]],
        key_of: Callable[[RunCase], str],
    ) -> None:
        self.cache = cache
        self.namespace = namespace
        self.cases_of = cases_of  # the run cases of a task (the whole collection's, not only this process's)
        self.key_of = key_of  # a run case's own payload key
        self._stored: dict[str, dict[str, Payload]] = {}  # task -> its entry's payloads (empty: none)
        self._values: dict[str, dict[str, Payload]] = {}  # task -> key -> payload, found or computed
        self._computed: dict[str, set[str]] = {}  # task -> keys computed here and not written yet
        self._handled: dict[str, set[str]] = {}  # task -> case ids handled here
        self._current: str | None = None

    def _task_key(self, task: str) -> str | None:
        """The key of the task's entry: its run cases' keys, all of them (None when one cannot be made:
        a file gone, which its own case reports)."""
        try:
            keys = sorted(self.key_of(case) for case in self.cases_of(task))
        except (OSError, BenchmarkError):
            return None
        return make_key("task", task, *keys)

    def _entry(self, task: str) -> dict[str, Payload]:
        if task not in self._stored:
            key = self._task_key(task)
            found = self.cache.get(self.namespace, key) if key is not None else None
            self._stored[task] = found if isinstance(found, dict) else {}
        return self._stored[task]

    def get_or_compute(self, case: RunCase, compute: Callable[[], Payload]) -> Payload:
        """The case's payload: from its task's entry, else its own, else ``compute()`` (kept to be
        written with its task's, or on its own: module docstring)."""
        task = case.task
        if task != self._current:
            self._leave(self._current)
            self._current = task
        key = self.key_of(case)
        found = self._entry(task).get(key)
        if found is None:
            found = self.cache.get(self.namespace, key)
        handled = self._handled.setdefault(task, set())
        if found is not None:
            self.cache.hits += 1
            self._values.setdefault(task, {})[key] = found
            self._handle(task, handled, case.case_id)
            return found  # type: ignore[no-any-return]
        require_stored(f"{self.namespace}/{key}")
        self.cache.misses += 1
        try:
            with computing():  # what a warm session will not spend (benchmark.harness.autoworkers)
                value = compute()
        except BaseException:
            self._handle(task, handled, case.case_id)
            raise
        self._values.setdefault(task, {})[key] = value
        self._computed.setdefault(task, set()).add(key)
        self._handle(task, handled, case.case_id)
        return value

    def _handle(self, task: str, handled: set[str], case_id: str) -> None:
        """Note the case handled; once every run case of the task is, write the task's entry (unless it
        was read, whole, from the cache)."""
        handled.add(case_id)
        if len(handled) < len(self.cases_of(task)) or not self._computed.get(task):
            return
        if not handled.issuperset(case.case_id for case in self.cases_of(task)):
            return
        key = self._task_key(task)
        if key is not None:
            self.cache.put(self.namespace, key, dict(self._values.get(task, {})))
            self._computed[task] = set()

    def flush(self) -> None:
        """The session's cases have all run: the payloads of the task this process was on, if it
        computed some it has not written (its task's entry is written when the process handles all of
        the task's cases)."""
        self._leave(self._current)

    def _leave(self, task: str | None) -> None:
        """Moving on from a task this process may not finish: its computed payloads, each on its own."""
        if task is None:
            return
        values = self._values.get(task, {})
        for key in sorted(self._computed.get(task, ())):
            self.cache.put(self.namespace, key, values[key])
        self._computed[task] = set()
