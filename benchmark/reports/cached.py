"""Report values kept in the session's disk cache, keyed by what they are computed from.

A track's report statistics (bootstrap intervals, significance tests) and figures are pure functions of
the scored rows, the report options and the code, and they are most of a warm session's report time
(with numpy, scipy and matplotlib to import). A session whose rows did not change (the bundled data run
again, a CI re-run) takes them from the cache (:mod:`benchmark.core.diskcache`) and writes byte-identical
files. A key covers the rows' full JSON, the options, a fingerprint of the code that computes the value
(:func:`~benchmark.core.diskcache.code_fingerprint`) and the versions of :data:`LIBRARIES`; matplotlib
settings outside the report kit's fixed ``rc_context`` (a user's ``matplotlibrc``) are not part of it, so
after changing those, clear the cache (``pytest --cache-clear``). Without a cache directory (``atlbench
report``) everything is computed.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

from benchmark.core.diskcache import DiskCache, code_fingerprint, library_versions, make_key

T = TypeVar("T")

#: Libraries whose results are part of the cached values.
LIBRARIES = ("numpy", "scipy", "matplotlib")


def usable(cache: DiskCache | None) -> bool:
    """The cache can keep the report's values (``atlbench report`` runs without one)."""
    return cache is not None and cache.directory is not None


def report_key(name: str, rows: Sequence[Any], options: Any, code: Sequence[str]) -> str:
    """The key of the value ``name`` computed from ``rows`` (each with ``to_json()``) with ``options``
    (JSON-serialisable) by the code of the ``benchmark`` sub-packages ``code``. The JSON is compact: the
    indented style of the files is encoded in Python, ten times slower for a key nobody reads."""
    return make_key(
        name,
        json.dumps([row.to_json() for row in rows], separators=(",", ":"), ensure_ascii=False),
        json.dumps(options, separators=(",", ":"), ensure_ascii=False),
        code_fingerprint(*code),
        library_versions(*LIBRARIES),
    )


def cached(cache: DiskCache | None, namespace: str, key: Callable[[], str], compute: Callable[[], T]) -> T:
    """The value whose key is ``key()`` (called only when the cache is usable): from the cache, else
    ``compute()``, stored for the next session."""
    if not usable(cache):
        return compute()
    assert cache is not None
    return cache.get_or_compute(namespace, key(), compute)


__all__ = ["LIBRARIES", "cached", "report_key", "usable"]
