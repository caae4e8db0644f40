"""A content-addressed cache on disk, so repeated sessions skip parsing, loading and baseline matching.

Keys are built from the *content* of the inputs and a fingerprint of the code (and of the libraries)
that computed the value, never from timestamps: an edited ATL file, metamodel or extractor gives a new key.
A value that records its own location (a path in a message) needs that path in its key too, and a value
that depends on inputs only known once it has been computed (the files a metamodel references) is
stored with them and checked on every hit (``valid``), so a stale entry is never served. Values are
pickled; the directory lives in pytest's cache (``.pytest_cache``) or wherever the caller points it, and
is safe to delete at any time. Writes are atomic, so concurrent pytest-xdist workers computing the same
entry simply race to write identical bytes.
"""

from __future__ import annotations

import hashlib
import itertools
import os
import pickle
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from functools import cache
from importlib import metadata
from pathlib import Path
from typing import Any, TypeVar

import benchmark

T = TypeVar("T")

# Third-party code whose behaviour is part of every cached value (grammar engine, Ecore loader).
LIBRARIES = ("lark", "pyecore")


@cache
def library_versions(*names: str) -> str:
    """``name version`` of each distribution (``name absent`` when not installed), joined by ``;``: the
    part of a key that a library upgrade changes."""
    versions = []
    for name in names:
        try:
            versions.append(f"{name} {metadata.version(name)}")
        except metadata.PackageNotFoundError:
            versions.append(f"{name} absent")
    return ";".join(versions)


def _library_versions() -> str:
    return f"python {sys.version_info[0]}.{sys.version_info[1]};{library_versions(*LIBRARIES)}"


@cache
def code_fingerprint(*modules: str) -> str:
    """Hash of the source files of ``benchmark`` sub-packages/modules (``"atl"``, ``"extractor"``...), of
    the package version and of the versions of Python and of :data:`LIBRARIES`.

    Part of every key, so that a change to the code that produced a cached value invalidates it even
    when the package version was not bumped (the normal case during development), and so does upgrading
    the parser or the Ecore loader underneath it.
    """
    root = Path(benchmark.__file__).parent
    digest = hashlib.sha256(benchmark.__version__.encode())
    digest.update(_library_versions().encode())
    for module in sorted(modules):
        base = root / module.replace(".", "/")
        files = sorted(base.rglob("*")) if base.is_dir() else [base.with_suffix(".py")]
        for path in files:
            if path.is_file() and path.suffix in (".py", ".lark", ".json", ".txt"):
                digest.update(path.relative_to(root).as_posix().encode())
                digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


def make_key(*parts: str) -> str:
    return hashlib.sha256("\0".join(parts).encode()).hexdigest()


class NotStored(Exception):
    """A value asked for inside :func:`stored_only` that the cache does not hold."""


_stored_only = False


@contextmanager
def stored_only() -> Iterator[None]:
    """Inside, a value the cache does not hold raises :class:`NotStored` instead of being computed (and
    :func:`require_stored` says the same of a cache without a directory). The report writer uses it to
    learn, at the cost of reading the cache, whether a track's reports are all stored (write them here)
    or must be computed (worth a process of their own, side by side with the others)."""
    global _stored_only
    before, _stored_only = _stored_only, True
    try:
        yield
    finally:
        _stored_only = before


def require_stored(what: str) -> None:
    """Inside :func:`stored_only`: ``what`` is about to be computed, so raise :class:`NotStored`."""
    if _stored_only:
        raise NotStored(what)


_computing = 0  # get_or_compute calls under way in this process (a value computed inside another's compute)
_computed_seconds = 0.0


@contextmanager
def computing() -> Iterator[None]:
    """Around the computing (and storing) of a value the cache did not hold, by
    :meth:`DiskCache.get_or_compute` or by a track's own cache layout on top of :class:`DiskCache`: its CPU
    time counts in :func:`computed_seconds`, once however deeply such blocks nest."""
    global _computing, _computed_seconds
    started = time.process_time()
    _computing += 1
    try:
        yield
    finally:
        _computing -= 1
        if not _computing:
            _computed_seconds += time.process_time() - started


def computed_seconds() -> float:
    """CPU seconds this process has spent computing values the cache did not hold (outermost computations
    only: a value computed while computing another is counted once). A session subtracts them from its
    cases' CPU time to learn what the same cases cost once the cache holds everything
    (:mod:`benchmark.harness.autoworkers`)."""
    return _computed_seconds


_temporary_names = itertools.count()  # with the process id: unique among this cache's writers


class DiskCache:
    """``get_or_compute(namespace, key, compute)``; a ``None`` directory disables caching."""

    def __init__(self, directory: str | Path | None) -> None:
        self.directory = Path(directory) if directory is not None else None
        self.hits = 0
        self.misses = 0

    def _path(self, namespace: str, key: str) -> Path:
        assert self.directory is not None
        return self.directory / namespace / f"{key}.pickle"

    def get(self, namespace: str, key: str) -> Any | None:
        if self.directory is None:
            return None
        try:
            with open(self._path(namespace, key), "rb") as handle:
                return pickle.load(handle)
        except (OSError, pickle.UnpicklingError, EOFError, AttributeError, ImportError):
            return None  # absent, truncated by a crash, or written by an incompatible version

    def put(self, namespace: str, key: str, value: Any) -> None:
        if self.directory is None:
            return
        path = self._path(namespace, key)
        path.parent.mkdir(parents=True, exist_ok=True)
        # named before it is made, and made inside the ``try``: a process ended at any moment (the helper
        # that scores ahead is ended with SIGTERM, benchmark.harness.ahead) leaves no temporary file
        tmp = path.parent / f".{key}.{os.getpid()}.{next(_temporary_names)}.tmp"
        try:
            with open(tmp, "xb") as handle:
                pickle.dump(value, handle, protocol=pickle.HIGHEST_PROTOCOL)
            os.replace(tmp, path)
        except BaseException:
            tmp.unlink(missing_ok=True)
            raise

    def get_or_compute(
        self,
        namespace: str,
        key: str,
        compute: Callable[[], T],
        valid: Callable[[T], bool] | None = None,
    ) -> T:
        """The stored value, unless it is absent or ``valid`` rejects it; then ``compute()``, stored."""
        found = self.get(namespace, key)
        if found is not None and (valid is None or valid(found)):
            self.hits += 1
            return found  # type: ignore[no-any-return]
        require_stored(f"{namespace}/{key}")
        self.misses += 1
        with computing():
            value = compute()
            self.put(namespace, key, value)
        return value
