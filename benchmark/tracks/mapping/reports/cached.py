"""The report's statistics, figures and drill-down in the track's disk cache, keyed by what they are
computed from.

Most of a session's report time is the bootstrap and significance tests (with scipy to import) and drawing
the figures (with matplotlib to import), and at the ATL Zoo's size the drill-down; all are pure functions
of the scored rows, the report options and the code. A session whose rows did not change (the bundled
corpus run again, a CI re-run) therefore takes them from the cache (:mod:`benchmark.core.diskcache`)
instead of importing and computing them again, and writes byte-identical files. The key covers the rows'
full JSON (hashed as compact JSON), the options, the source of the mapping track, the statistics, the core
and the report kit (:func:`~benchmark.core.diskcache.code_fingerprint`) and the versions of numpy, scipy
and matplotlib;
matplotlib settings outside the report's fixed ``rc_context`` (a user's ``matplotlibrc``) are not part
of it, so after changing those, clear the cache (``pytest --cache-clear``). Without a cache directory
(``atlbench report``) everything is computed.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from benchmark.core.diskcache import DiskCache, make_key
from benchmark.core.rows import Row
from benchmark.reports.cached import report_key, usable
from benchmark.tracks.mapping.payload import RunRow
from benchmark.tracks.mapping.stats.summary import Statistics


def statistics_key(rows: Sequence[Row | RunRow], options: dict[str, Any]) -> str:
    """The key of the statistics of ``rows`` computed with ``options`` (the keyword arguments of
    :func:`~benchmark.tracks.mapping.stats.summary.compute_statistics`): the report kit's
    (:func:`benchmark.reports.cached.report_key`). ``rows`` are the session's rows as stored (the
    harness's envelopes, what the report is computed from), or decoded ones (turned back into envelopes,
    slower: for callers without a session)."""
    envelopes = [row.to_envelope() if isinstance(row, RunRow) else row for row in rows]
    return report_key(
        "statistics", envelopes, sorted(options.items()), ("tracks.mapping", "stats", "core", "reports")
    )


def cached_statistics(
    cache: DiskCache | None, key: str | None, compute: Callable[[], Statistics]
) -> Statistics:
    """The statistics whose key is ``key`` (:func:`statistics_key`): from the cache, else ``compute()``,
    stored for the next session."""
    if not usable(cache) or key is None:
        return compute()
    assert cache is not None
    return cache.get_or_compute("report-statistics", key, compute)


def cached_text(cache: DiskCache | None, key: str | None, name: str, compute: Callable[[], str]) -> str:
    """A text of the report that is a function of the same rows and options as the statistics (the
    drill-down): from the cache, else ``compute()``, stored for the next session."""
    if not usable(cache) or key is None:
        return compute()
    assert cache is not None
    return cache.get_or_compute("report-pages", make_key(name, key), compute)


def cached_figures(
    names: Sequence[str], cache: DiskCache | None, key: str | None, draw: Callable[[list[str]], list[Any]]
) -> list[Any]:
    """The figures ``names`` (in that order) of the statistics whose key is ``key``: those in the cache,
    and ``draw(missing names)`` for the others, stored for the next session."""
    if not usable(cache) or key is None:
        return draw(list(names))
    assert cache is not None
    keys = {name: make_key("figure", name, key) for name in names}
    found = {name: cache.get("report-figures", keys[name]) for name in names}
    missing = [name for name in names if found[name] is None]
    for name, figure in zip(missing, draw(missing) if missing else [], strict=True):
        cache.put("report-figures", keys[name], figure)
        found[name] = figure
    return [found[name] for name in names]


__all__ = ["cached_figures", "cached_statistics", "cached_text", "statistics_key", "usable"]
