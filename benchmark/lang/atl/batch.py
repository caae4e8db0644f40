"""Parsing many files in one command: both cores when it pays, results in input order.

Workers are forked after the grammar is compiled, so each starts with ready LALR tables; they send back
small plain results (counts or an error's position), never ASTs, which would cost more to pickle than to
parse. :func:`map_files` is that mechanism for any per-file work (``python -m benchmark.bench extract``
parses and extracts in the workers); :func:`parse_files` is it for parsing and summarizing.
"""

from __future__ import annotations

import multiprocessing
import os
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TypeVar

from benchmark.core.errors import BenchmarkError
from benchmark.core.forked import usable_cpus
from benchmark.lang.atl.ast import Leniency
from benchmark.lang.atl.parser import _parser, parse, read_atl_text
from benchmark.lang.atl.summary import Summary, summarize

__all__ = ["FileResult", "parse_files", "map_files", "workers", "default_jobs"]

#: Below this much input a process pool costs more than it saves.
_PARALLEL_MIN_BYTES = 256 * 1024

_Result = TypeVar("_Result")


@dataclass(frozen=True, slots=True)
class FileResult:
    """One file's outcome: its summary, or the error (message, line, column; None when unknown)."""

    file: str
    seconds: float
    summary: Summary | None = None
    error: str | None = None
    line: int | None = None
    column: int | None = None
    #: Leniencies used (see docs/ATL_PARSER.md), first one of each kind: (line, column, message, count).
    warnings: tuple[tuple[int, int, str, int], ...] = ()

    @property
    def ok(self) -> bool:
        return self.error is None

    @property
    def location(self) -> str:
        """``FILE:LINE:COL`` as far as known: the prefix of the ``FILE:LINE:COL: error: MESSAGE`` line."""
        return ":".join(str(part) for part in (self.file, self.line, self.column) if part is not None)

    def to_json(self) -> dict[str, object]:
        """The object ``atlbench parse --summary`` prints for this file."""
        if self.summary is not None:
            return {"file": self.file, **self.summary}
        return {"file": self.file, "error": self.error, "line": self.line, "column": self.column}


def default_jobs() -> int:
    """Worker processes to use: the usable CPUs."""
    return usable_cpus()


def _parse_one(path: str) -> FileResult:
    start = time.perf_counter()
    try:
        unit = parse(read_atl_text(path), file=path)
    except BenchmarkError as error:  # a syntax error, or a file that cannot be read
        return FileResult(
            path, time.perf_counter() - start, error=error.message, line=error.line, column=error.column
        )
    return FileResult(
        path, time.perf_counter() - start, summary=summarize(unit), warnings=_warnings(unit.leniencies)
    )


def _warnings(leniencies: tuple[Leniency, ...]) -> tuple[tuple[int, int, str, int], ...]:
    first: dict[str, Leniency] = {}
    counts: dict[str, int] = {}
    for leniency in leniencies:
        first.setdefault(leniency.kind, leniency)
        counts[leniency.kind] = counts.get(leniency.kind, 0) + 1
    return tuple((n.line, n.column, n.message, counts[kind]) for kind, n in first.items())


def parse_files(paths: Sequence[str | Path], *, jobs: int | None = None) -> Iterator[FileResult]:
    """Parse and summarize ``paths``, yielding results in input order as they are ready.

    ``jobs`` worker processes (default: :func:`default_jobs`) are used when there are several files and
    enough input to pay for them; ``jobs=1`` parses in this process."""
    return map_files(_parse_one, paths, jobs=jobs)


def workers(paths: Sequence[str | Path], jobs: int | None = None) -> int:
    """How many processes :func:`map_files` uses for ``paths``: ``jobs`` (default :func:`default_jobs`)
    when there are several files, processes can be forked and the input is large enough to pay for
    them, else 1."""
    jobs = default_jobs() if jobs is None else max(1, jobs)
    if jobs == 1 or len(paths) < 2 or "fork" not in multiprocessing.get_all_start_methods():
        return 1
    if sum(_size(str(path)) for path in paths) < _PARALLEL_MIN_BYTES:
        return 1
    return min(jobs, len(paths))


def map_files(
    work: Callable[[str], _Result], paths: Sequence[str | Path], *, jobs: int | None = None
) -> Iterator[_Result]:
    """``work(path)`` for every path, in input order, on :func:`workers` processes.

    ``work`` runs in forked workers (so it must be a module-level function and return picklable, small
    results), which start with the grammar compiled; with one worker it runs in this process."""
    names = [str(path) for path in paths]
    count = workers(names, jobs)
    if count == 1:
        return map(work, names)
    return _pooled(work, names, count)


def _pooled(work: Callable[[str], _Result], names: list[str], count: int) -> Iterator[_Result]:
    _parser()  # compile the grammar once, before forking
    with multiprocessing.get_context("fork").Pool(count) as pool:
        yield from pool.imap(work, names, chunksize=1)


def _size(path: str) -> int:
    try:
        return os.path.getsize(path)
    except OSError:
        return 0
