"""What the runs behind a table cost: tokens, dollars and seconds per provider, for every track alike.

The harness puts each generated run's ledger into its row (:mod:`benchmark.harness.ledger`); this module
reads the rows of one group (a provider, a provider and mode, a provider and stage) into a :class:`Spend`
and lays it out: the cost table every track writes (:func:`cost_table`, the same columns in the terminal,
Markdown, LaTeX and HTML) and the columns every track's aggregate CSV gains (:data:`CSV_COLUMNS`,
:func:`csv_values`). A track gives only its groups and its headline per group.

Nothing is made up: a group whose runs have no ledger (baselines, synthetic runs, runs imported from
elsewhere) has no tokens, cost or seconds (``–``, a blank CSV cell) and the table's notes say why; a cost
the ledger does not know (no price configured, no token counts) is blank with its reason; a cost of 0 is
shown only when the price was declared zero, with the reason given for it (``0 (local)``).

"Headline per $" is the headline divided by the mean cost of one request (one answer): it does not change
with the number of runs, so providers that ran different numbers of runs compare.
"""

from __future__ import annotations

import statistics
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from benchmark.core.rows import Row
from benchmark.llm.ledger import RunLedger, combine, row_ledger
from benchmark.reports.table import Cell, Column, Table

#: The columns every track's aggregate CSV gains, in this order (empty when unknown).
CSV_COLUMNS = ("input_tokens", "output_tokens", "cost_usd", "median_seconds", "cost_note")

NO_LEDGER = "no ledger (synthetic runs, and runs not filed by atlbench generate): no tokens or cost recorded"
BASELINE = "baselines computed by the benchmark: no request, nothing to pay"
NOT_RUN = "not run (the stage before it had no usable answer): no request sent, nothing to pay"


@dataclass(frozen=True)
class Spend:
    """The ledgers of a group's runs, added up (:func:`~benchmark.llm.ledger.combine`).

    ``runs``: the group's runs; ``ledgered``: those whose row carries a ledger. Tokens, cost and seconds
    are given only when every run has a ledger; ``note`` says why a cost is blank, or why it is 0."""

    runs: int
    ledgered: int
    ledger: RunLedger | None
    note: str | None

    @property
    def complete(self) -> bool:
        return self.ledger is not None and self.ledgered == self.runs

    @property
    def requests(self) -> int | None:
        return self.ledger.requests if self.complete and self.ledger else None

    @property
    def input_tokens(self) -> int | None:
        return self.ledger.input_tokens if self.complete and self.ledger else None

    @property
    def output_tokens(self) -> int | None:
        return self.ledger.output_tokens if self.complete and self.ledger else None

    @property
    def cost_usd(self) -> float | None:
        return self.ledger.cost_usd if self.complete and self.ledger else None

    @property
    def median_seconds(self) -> float | None:
        if not self.complete or self.ledger is None or not self.ledger.seconds:
            return None
        return statistics.median(self.ledger.seconds)

    def per_dollar(self, value: float | None) -> float | None:
        """``value`` divided by the mean cost of one request; ``None`` when the cost is unknown or 0."""
        cost, requests = self.cost_usd, self.requests
        if value is None or cost is None or not requests or cost <= 0:
            return None
        return value / (cost / requests)


def spend(rows: Iterable[Row]) -> Spend:
    """The spend of ``rows`` (harness rows: envelope with ``provenance``)."""
    members = list(rows)
    ledgers = [row_ledger(row.provenance) for row in members]
    found = [ledger for ledger in ledgers if ledger is not None]
    if not found:
        baseline = members and all(row.file.startswith("<baseline:") for row in members)
        return Spend(len(members), 0, None, BASELINE if baseline else NO_LEDGER)
    total = combine(found)
    if len(found) < len(members):
        missing = len(members) - len(found)
        return Spend(len(members), len(found), total, f"{missing} of {len(members)} runs have no ledger")
    return Spend(len(members), len(found), total, total.cost_note)


def not_sent() -> Spend:
    """The spend of a group none of whose runs sent a request because an earlier stage failed (the round
    trip's forward stage after an unusable inverse answer): nothing to pay, and not for want of a ledger."""
    return Spend(0, 0, None, NOT_RUN)


def spend_by(rows: Iterable[Row], key: Callable[[Row], Any]) -> dict[Any, Spend]:
    """One :class:`Spend` per value of ``key`` (in order of first appearance)."""
    groups: dict[Any, list[Row]] = {}
    for row in rows:
        groups.setdefault(key(row), []).append(row)
    return {k: spend(members) for k, members in groups.items()}


# ------------------------------------------------------------------------------------------- cells


def _number(value: int | None) -> Cell:
    return None if value is None else str(value)


def cost_cell(item: Spend) -> Cell:
    """The cost in USD; ``0 (reason)`` for a price declared zero; ``–`` when unknown."""
    cost = item.cost_usd
    if cost is None:
        return None
    if cost == 0:
        return f"0 ({item.note})" if item.note else "0"
    return f"{cost:.4f}" if cost >= 0.0001 else f"{cost:.2e}"


def seconds_cell(item: Spend) -> Cell:
    value = item.median_seconds
    return None if value is None else f"{value:.2f}"


def per_dollar_cell(value: float | None) -> Cell:
    return None if value is None else f"{value:.1f}"


def csv_values(item: Spend) -> dict[str, Any]:
    """The :data:`CSV_COLUMNS` of a group: empty strings for what is not known (never a made-up 0)."""
    cost = item.cost_usd
    seconds = item.median_seconds
    return {
        "input_tokens": "" if item.input_tokens is None else item.input_tokens,
        "output_tokens": "" if item.output_tokens is None else item.output_tokens,
        "cost_usd": "" if cost is None else f"{cost:.8f}".rstrip("0").rstrip(".") or "0",
        "median_seconds": "" if seconds is None else f"{seconds:.3f}",
        "cost_note": item.note or "",
    }


# ------------------------------------------------------------------------------------------- table


@dataclass(frozen=True)
class CostLine:
    """One line of a cost table: the group's keys (provider, and mode or stage...), its spend, and its
    headline (``None`` when it has none), already in the unit the track's tables show."""

    keys: tuple[str, ...]
    spend: Spend
    headline: float | None


def cost_columns(headline: str, digits: int = 3) -> tuple[Column[CostLine], ...]:
    """Runs, requests, tokens in and out, cost, median seconds per request, the headline and the headline
    per dollar: the columns after a cost table's keys."""
    return (
        Column("Runs", lambda line: str(line.spend.runs)),
        Column("Requests", lambda line: _number(line.spend.requests)),
        Column("Tokens in", lambda line: _number(line.spend.input_tokens)),
        Column("Tokens out", lambda line: _number(line.spend.output_tokens)),
        Column("Cost ($)", lambda line: cost_cell(line.spend)),
        Column("Median s / request", lambda line: seconds_cell(line.spend)),
        Column(headline, lambda line: None if line.headline is None else f"{line.headline:.{digits}f}"),
        Column(f"{headline} per $", lambda line: per_dollar_cell(line.spend.per_dollar(line.headline))),
    )


def cost_notes(lines: Sequence[CostLine], headline: str) -> tuple[str, ...]:
    """What the columns are, then one note per reason a cost is blank or 0, naming the groups."""
    notes = [
        "Tokens and cost: the run files' ledgers (the provider's token counts, priced with the price "
        "configured for it; docs/LLM_RUNS.md). Median s / request: wall time of one request, retries "
        f"included. {headline} per $: {headline} divided by the mean cost of one request. "
        "–: not known, or nothing to divide by."
    ]
    reasons: dict[str, list[CostLine]] = {}
    for line in lines:
        item = line.spend
        if item.note and (item.cost_usd is None or item.cost_usd == 0):
            reasons.setdefault(item.note, []).append(line)
    lines_of: dict[str, int] = {}
    for line in lines:
        lines_of[line.keys[0]] = lines_of.get(line.keys[0], 0) + 1
    for reason, named in reasons.items():
        # a provider all of whose lines have this reason is named once, not once per mode or stage
        per_provider: dict[str, list[CostLine]] = {}
        for line in named:
            per_provider.setdefault(line.keys[0], []).append(line)
        names = []
        for provider, own in per_provider.items():
            whole = len(own) == lines_of[provider]
            names += [provider] if whole else [" ".join(line.keys) for line in own]
        notes.append(f"{', '.join(names)}: {reason}.")
    return tuple(notes)


def cost_table(
    key: str,
    title: str,
    key_headings: Sequence[str],
    lines: Sequence[CostLine],
    headline: str,
    *,
    digits: int = 3,
) -> Table:
    """The cost table of a track: one line per group (its keys first), the :func:`cost_columns`, and
    notes naming the groups whose cost is blank or 0 and why."""
    keys = [Column(heading, lambda line, i=i: line.keys[i], "l") for i, heading in enumerate(key_headings)]
    columns = (*keys, *cost_columns(headline, digits))
    return Table.of(key, title, columns, lines, notes=cost_notes(lines, headline))


__all__ = [
    "BASELINE",
    "CSV_COLUMNS",
    "NOT_RUN",
    "NO_LEDGER",
    "CostLine",
    "Spend",
    "cost_cell",
    "cost_columns",
    "cost_notes",
    "cost_table",
    "csv_values",
    "not_sent",
    "spend",
    "spend_by",
]
