"""The runs a session excluded from its numbers, listed the same way by the tracks that use this module.

An error row (``docs/TRACKS.md``) is excluded from every number and is one of two outcomes: **missing**
(no answer was obtained: a timeout, an HTTP error, the budget; it says nothing about the model, and the
session fails on it unless ``--allow-missing-runs``) or **error** (a run file that cannot be read, an
unusable ground truth, a row lost with the worker that scored it), each with its reason. Both are listed:
in the terminal (:func:`excluded_lines`), in ``index.html`` (:func:`excluded_table`, a report-kit table)
and in ``atlbench report``'s lines. The OCL and round-trip tracks list theirs with this module; the
mapping track's list is its aggregation's, in the same words (``N runs excluded (M missing)``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from benchmark.core.rows import Row, group_by_cause, run_name
from benchmark.core.wording import plural
from benchmark.reports.table import Column, Table

MISSING = "missing"
ERROR = "error"
SHOWN = 5  # lines the terminal shows without -v


@dataclass(frozen=True)
class Excluded:
    """An error row and, when it is a missing run, why no answer was obtained."""

    row: Row
    missing: str | None = None

    @property
    def outcome(self) -> str:
        return MISSING if self.missing is not None else ERROR

    @property
    def cause(self) -> str:
        """Why it was not scored: the reason no answer was obtained, or the row's error."""
        return self.missing if self.missing is not None else (self.row.error or "it could not be scored")

    @property
    def reason(self) -> str:
        """:attr:`cause` naming its file (``FILE: cause``; a positioned message is kept whole)."""
        cause, file = self.cause, self.row.file
        return cause if not file or cause.startswith(file) else f"{file}: {cause}"


def excluded(rows: Iterable[Row], missing_reason: Callable[[Row], str | None]) -> list[Excluded]:
    """The error rows of ``rows``, with the track's ``missing_reason``, by task, provider and run."""
    found = [Excluded(row, missing_reason(row)) for row in rows if not row.ok]
    return sorted(found, key=lambda u: (u.row.task, u.row.provider, u.row.run, u.row.file))


def count_line(items: Sequence[Excluded], unit: str = "run", units: str = "") -> str:
    """``3 runs excluded (1 missing)``."""
    missing = sum(1 for item in items if item.missing is not None)
    return f"{plural(len(items), unit, units or None)} excluded ({missing} {MISSING})"


def excluded_lines(
    items: Sequence[Excluded],
    *,
    verbose: bool,
    unit: str = "run",
    units: str = "",
    group: Callable[[Excluded], str] = lambda u: u.row.task,
    name: Callable[[Excluded], str] = lambda u: run_name(u.row.provider, u.row.run),
) -> list[str]:
    """The count, then one line per group (by default the task) and cause (``missing: FILE: reason`` for
    a run on its own; ``error: GROUP (N runs: NAME, ...): reason`` when one cause took several runs of a
    group, an unusable model all its runs); the first :data:`SHOWN` lines unless ``verbose``. Nothing when
    every run was scored."""
    if not items:
        return []
    groups = group_by_cause(items, group, lambda u: f"{u.outcome}: {u.cause}")
    lines = []
    for key, cause, members in groups:
        if len(members) == 1:
            lines.append(f"  {members[0].outcome}: {members[0].reason}")
        else:
            names = ", ".join(name(m) for m in members)
            outcome, _, why = cause.partition(": ")
            lines.append(f"  {outcome}: {key} ({plural(len(members), unit, units or None)}: {names}): {why}")
    shown = lines if verbose else lines[:SHOWN]
    more = [] if len(shown) == len(lines) else [f"  ... {len(lines) - len(shown)} more (-v lists them)"]
    return [count_line(items, unit, units), *shown, *more]


COLUMNS: tuple[Column[Excluded], ...] = (
    Column("provider", lambda u: u.row.provider, "l"),
    Column("model", lambda u: u.row.model, "l"),
    Column("task", lambda u: u.row.task, "l"),
    Column("run", lambda u: u.row.run, "l"),
    Column("outcome", lambda u: u.outcome, "l"),
    Column("reason", lambda u: u.reason, "l"),
)


def excluded_table(key: str, items: Sequence[Excluded], unit: str = "run", units: str = "") -> Table:
    """Every excluded run, with its outcome and reason: a report-kit table (``index.html``)."""
    return Table.of(key, count_line(items, unit, units), COLUMNS, items)


__all__ = ["ERROR", "MISSING", "Excluded", "count_line", "excluded", "excluded_lines", "excluded_table"]
