"""How a run ended, read from its count-table row: scored, scored as unusable, missing, or an input error.

``docs/METRICS.md`` ("Runs that are not scored as usual") defines the four outcomes; this module is where
a row says which one it is, so the scorer writes it in one place and every table, gate and count reads it
the same way:

* **scored** -- an ordinary run (``status`` ok);
* **unusable** -- the model answered but the answer holds no usable mapping: an ok row with the counts of
  an empty run (every ground-truth item a false negative) and the reason in ``extra["unusable"]``; it
  counts in every number, and tables add an ``unusable_runs`` count per provider;
* **missing** -- no answer was obtained (``generation.status = "no-answer"``): an error row (excluded from
  every number, it says nothing about the model) with the reason in ``extra["missing"]``; a session with
  missing runs compares providers on different runs, so it fails unless missing runs are accepted;
* **error** -- a file that cannot be read (a truncated export), an unusable ground truth, a crash: an
  error row without ``extra["missing"]``, excluded and listed with its message.
"""

from __future__ import annotations

from collections.abc import Iterable

from benchmark.tracks.mapping.payload import RunRow

ROW_UNUSABLE = "unusable"  # RunRow.extra key: why the answer was unusable
ROW_MISSING = "missing"  # RunRow.extra key: why no answer was obtained

OUTCOME_SCORED = "scored"
OUTCOME_UNUSABLE = "unusable"
OUTCOME_MISSING = "missing"
OUTCOME_ERROR = "error"
OUTCOMES = (OUTCOME_SCORED, OUTCOME_UNUSABLE, OUTCOME_MISSING, OUTCOME_ERROR)


def run_outcome(row: RunRow) -> str:
    """One of :data:`OUTCOMES` for ``row``."""
    if not row.ok:
        return OUTCOME_MISSING if row.extra.get(ROW_MISSING) is not None else OUTCOME_ERROR
    return OUTCOME_UNUSABLE if row.extra.get(ROW_UNUSABLE) is not None else OUTCOME_SCORED


def outcome_reason(row: RunRow) -> str | None:
    """Why the run was unusable, missing or an error; ``None`` for a scored run."""
    outcome = run_outcome(row)
    if outcome == OUTCOME_UNUSABLE:
        return str(row.extra[ROW_UNUSABLE])
    if outcome == OUTCOME_MISSING:
        return str(row.extra[ROW_MISSING])
    return row.error


def unusable_reason(row: RunRow) -> str | None:
    """Why the model's answer held no usable mapping, when it did not (the run is scored as a run with no
    suggestions)."""
    return str(outcome_reason(row)) if run_outcome(row) == OUTCOME_UNUSABLE else None


def missing_reason(row: RunRow) -> str | None:
    """Why the run of an error row got no answer, when that is why it was not scored."""
    return outcome_reason(row) if run_outcome(row) == OUTCOME_MISSING else None


def mark_missing(row: RunRow, reason: str) -> RunRow:
    """The error row of a run file that says no answer was obtained, marked as missing with ``reason``."""
    return row.replaced(extra={**row.extra, ROW_MISSING: reason})


def count_outcomes(rows: Iterable[RunRow]) -> dict[tuple[str, str], dict[str, int]]:
    """Per (provider, model): how many rows had each outcome (every outcome present, zeros included)."""
    counts: dict[tuple[str, str], dict[str, int]] = {}
    for row in rows:
        per = counts.setdefault((row.provider, row.model), dict.fromkeys(OUTCOMES, 0))
        per[run_outcome(row)] += 1
    return counts


__all__ = [
    "OUTCOMES",
    "OUTCOME_ERROR",
    "OUTCOME_MISSING",
    "OUTCOME_SCORED",
    "OUTCOME_UNUSABLE",
    "ROW_MISSING",
    "ROW_UNUSABLE",
    "count_outcomes",
    "mark_missing",
    "outcome_reason",
    "run_outcome",
]
