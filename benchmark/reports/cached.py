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

import hashlib
import json
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

from benchmark.core.diskcache import DiskCache, code_fingerprint, library_versions, make_key, require_stored

T = TypeVar("T")

#: Libraries whose results are part of the cached values.
LIBRARIES = ("numpy", "scipy", "matplotlib")


def usable(cache: DiskCache | None) -> bool:
    """The cache can keep the report's values (``atlbench report`` runs without one). When it cannot, the
    values are computed: inside :func:`~benchmark.core.diskcache.stored_only` that is a miss."""
    if cache is None or cache.directory is None:
        require_stored("a report value (no disk cache)")
        return False
    return True


def _row_text(row: Any) -> str:
    """A row's compact JSON: a stored row's own (:meth:`~benchmark.core.rows.Row.dumps`, the C encoder,
    what crosses xdist workers), else its ``to_json()``'s."""
    dumps = getattr(row, "dumps", None)
    if callable(dumps):
        return str(dumps())
    return json.dumps(row.to_json(), separators=(",", ":"), ensure_ascii=False)


def report_key(name: str, rows: Sequence[Any], options: Any, code: Sequence[str]) -> str:
    """The key of the value ``name`` computed from ``rows`` (stored rows, or values with ``to_json()``)
    with ``options`` (JSON-serialisable) by the code of the ``benchmark`` sub-packages ``code``. Rows are
    hashed one by one as compact JSON: the indented style of the files is encoded in Python, ten times
    slower for a key nobody reads (seconds for an ATL Zoo session's rows)."""
    digest = hashlib.sha256()
    for row in rows:
        digest.update(_row_text(row).encode())
        digest.update(b"\n")
    return make_key(
        name,
        digest.hexdigest(),
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
