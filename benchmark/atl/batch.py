"""Parsing many files in one command: both cores when it pays, results in input order.

Workers are forked after the grammar is compiled, so each starts with ready LALR tables; they send back
small plain results (counts or an error's position), never ASTs, which would cost more to pickle than to
parse.
"""

from __future__ import annotations

import multiprocessing
import os
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

from benchmark.atl.ast import Leniency
from benchmark.atl.errors import AtlSyntaxError
from benchmark.atl.parser import _parser, parse, read_atl_text
from benchmark.atl.summary import Summary, summarize
from benchmark.errors import BenchmarkError

__all__ = ["FileResult", "parse_files", "default_jobs"]

#: Below this much input a process pool costs more than it saves.
_PARALLEL_MIN_BYTES = 256 * 1024


@dataclass(frozen=True, slots=True)
class FileResult:
    """One file's outcome: its summary, or the error (message, line, column; None when unknown)."""

    file: str
    size: int
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

    def to_json(self) -> dict[str, object]:
        """The object ``atlbench parse --summary`` prints for this file."""
        if self.summary is not None:
            return {"file": self.file, **self.summary}
        return {"file": self.file, "error": self.error, "line": self.line, "column": self.column}


def default_jobs() -> int:
    """Worker processes to use: the usable CPUs."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # pragma: no cover - not Linux
        return max(1, os.cpu_count() or 1)


def _parse_one(path: str) -> FileResult:
    start = time.perf_counter()
    try:
        text = read_atl_text(path)
    except BenchmarkError as error:  # the file cannot be read
        return FileResult(path, 0, 0.0, error=error.message)
    size = len(text)
    try:
        unit = parse(text, file=path)
    except AtlSyntaxError as error:
        return FileResult(
            path, size, time.perf_counter() - start, error=error.message, line=error.line, column=error.column
        )
    return FileResult(
        path, size, time.perf_counter() - start, summary=summarize(unit), warnings=_warnings(unit.leniencies)
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
    names = [str(path) for path in paths]
    jobs = default_jobs() if jobs is None else max(1, jobs)
    if jobs > 1 and len(names) > 1 and "fork" in multiprocessing.get_all_start_methods():
        total = sum(_size(name) for name in names)
        if total >= _PARALLEL_MIN_BYTES:
            _parser()  # compile the grammar once, before forking
            context = multiprocessing.get_context("fork")
            with context.Pool(min(jobs, len(names))) as pool:
                yield from pool.imap(_parse_one, names, chunksize=1)
            return
    for name in names:
        yield _parse_one(name)


def _size(path: str) -> int:
    try:
        return os.path.getsize(path)
    except OSError:
        return 0
