"""Wall-clock phases of a session, recorded only when ``ATLBENCH_PHASE_TIMES`` names a file.

``python -m benchmark.bench session`` times whole pytest processes from outside; to say where the time
goes it sets ``ATLBENCH_PHASE_TIMES=FILE`` and the session writes, as it exits, the phases it went
through: the harness its own (collection, scoring, results, each track's reports, the terminal summary)
and a track those of its writers (statistics, each report file) through :func:`phase`; the work of each
case (a run's scoring, a ground truth's check) is summed per kind through :func:`tally` (in the process
that ran the cases: with pytest-xdist, the workers' sums are not written). Times are
``time.time()`` seconds, so the bench can line them up with the moment it started the process. Unset (the
normal case) a phase costs one environment lookup and nothing is written.
"""

from __future__ import annotations

import os
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

ENV = "ATLBENCH_PHASE_TIMES"

_recorded: list[dict[str, object]] = []
_tallies: dict[str, list[float]] = {}  # name -> [seconds, count]


def enabled() -> bool:
    return bool(os.environ.get(ENV))


def record(name: str, start: float, end: float) -> None:
    """A phase measured elsewhere (two hooks apart): ``start`` and ``end`` are ``time.time()`` values."""
    if enabled():
        _recorded.append({"phase": name, "start": start, "end": end})


@contextmanager
def phase(name: str) -> Iterator[None]:
    """Record the ``with`` block as the phase ``name`` (nested phases are recorded each on its own)."""
    if not enabled():
        yield
        return
    start = time.time()
    try:
        yield
    finally:
        record(name, start, time.time())


@contextmanager
def tally(name: str) -> Iterator[None]:
    """Add the ``with`` block's duration to the total ``name`` (a work done once per case: the bench sets
    the session's whole time against the sum of its cases' own work, and reads the rest as overhead)."""
    if not enabled():
        yield
        return
    start = time.perf_counter()
    try:
        yield
    finally:
        total = _tallies.setdefault(name, [0.0, 0])
        total[0] += time.perf_counter() - start
        total[1] += 1


def take() -> list[dict[str, object]]:
    """The phases recorded so far in this process, forgotten here (a forked child hands them back)."""
    taken = list(_recorded)
    _recorded.clear()
    return taken


def extend(recorded: list[dict[str, object]]) -> None:
    """Phases another process recorded (:func:`take`), as if recorded here."""
    _recorded.extend(recorded)


def write(extra: dict[str, object] | None = None) -> Path | None:
    """Write the phases recorded in this process to the file ``ATLBENCH_PHASE_TIMES`` names (replacing it)
    and forget them; ``None`` when not asked for."""
    from benchmark.core.fileio import write_json_atomic

    target = os.environ.get(ENV)
    if not target:
        return None
    tallies = {name: {"seconds": total[0], "count": total[1]} for name, total in _tallies.items()}
    document = {"pid": os.getpid(), "written": time.time(), **(extra or {}), "phases": list(_recorded)}
    document["tallies"] = tallies
    _recorded.clear()
    _tallies.clear()
    return write_json_atomic(target, document)


__all__ = ["ENV", "enabled", "extend", "phase", "record", "tally", "take", "write"]
