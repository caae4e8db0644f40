"""The study's sheet and its summaries: one row per stage evaluation, then means over groups.

* :func:`sheet_rows` turns the scored rows into the sheet's lines (``reports/roundtrip_per_stage.csv``);
* :func:`aggregate` gives, per group (provider x stage, provider x operator, provider x k), the mean of
  every column with a percentile **bootstrap interval over pairs**: pairs (domains) are the independent
  units (a misunderstood domain drags all its operators along), so each draw resamples pairs with
  replacement and, within each drawn pair, its stage evaluations (:mod:`benchmark.stats.bootstrap`);
* :func:`latex_table` is the study's table (one row per provider and stage, the nine columns);
* :func:`terminal_table` and :func:`groups_table` are the terminal and the HTML tables (report kit tables).

Every stage evaluation counts, whatever happened to it: an unloadable answer with the credit its lenient
reading earned, an unusable answer and a forward stage not run because of it as empty answers (LOC 0,
every expected line a Miss, DeltaDetected no); the terminal lists each such answer with its positioned
reason (:func:`answer_lines`). Rows that could not be scored at all (a stage that got no answer, a broken
run file, an unusable case) are error rows of the harness, listed as excluded (missing ones among them),
not averaged. Baselines have no k: in the provider x k table they appear once, under "any".
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from benchmark.core.rows import Row
from benchmark.core.wording import plural
from benchmark.reports import cost
from benchmark.reports.csvtext import csv_text
from benchmark.reports.excluded import excluded, excluded_lines
from benchmark.reports.table import Column, Table
from benchmark.stats.bootstrap import (
    DEFAULT_DRAWS,
    DEFAULT_SEED,
    Interval,
    percentile_interval,
    resample_sums,
    rng_for,
)
from benchmark.tracks.roundtrip.names import BASELINES
from benchmark.tracks.roundtrip.payload import StagePayload, missing_reason
from benchmark.tracks.roundtrip.reading.runfile import STATUS_NOT_RUN

SHEET_COLUMNS = (
    "pair", "operator", "k", "provider", "model", "run", "stage", "LOC", "Cr", "InCr", "Ad", "Miss",
    "pctCorrect", "pctWSuccess", "deltaDetected", "loadable", "equivalent", "flags", "AdHarmful",
    "pctWSuccessSheet", "deltaRecall", "deltaPrecision", "stageStatus", "loadError",
)  # fmt: skip
# Means reported per group, in table order: (payload key, heading, is a percentage or a rate).
MEAN_COLUMNS = (
    ("LOC", "LOC", False),
    ("Cr", "Cr", False),
    ("InCr", "InCr", False),
    ("Ad", "Ad", False),
    ("Miss", "Miss", False),
    ("pctCorrect", "%Correct", True),
    ("pctWSuccess", "%WSuccess", True),
    ("deltaDetected", "DeltaDetected", True),
    ("loadable", "Loadable", True),
    ("deltaRecall", "ΔRecall", True),
    ("deltaPrecision", "ΔPrecision", True),
    ("equivalent", "Equivalent", True),
    ("flagCount", "Flags", False),
)
INTERVAL_COLUMNS = ("pctCorrect", "pctWSuccess", "deltaRecall", "deltaPrecision")
STAGE_ORDER = {"inverse": 0, "forward": 1}


@dataclass(frozen=True)
class SheetRow:
    provider: str
    model: str
    run: str
    payload: StagePayload
    envelope: Row | None = field(default=None, compare=False, repr=False)  # for its ledger (cost)

    @property
    def pair(self) -> str:
        return self.payload.pair

    def value(self, key: str) -> float:
        if key == "flagCount":
            return float(len(self.payload.flags))
        value = self.payload.column(key)
        return float(value) if value is not None else 0.0

    def csv_values(self) -> list[str]:
        out = []
        for column in SHEET_COLUMNS:
            if column in ("provider", "model", "run"):
                value: Any = getattr(self, column)
            else:
                value = self.payload.column(column)
            if column == "run":
                value = self.payload.run_index if self.payload.run_index is not None else self.run
            if column == "flags":
                value = len(value)
            if isinstance(value, bool):
                value = "yes" if value else "no"
            elif isinstance(value, float):
                value = f"{value:.6f}"
            out.append("" if value is None else str(value))
        return out


def sheet_rows(rows: Iterable[Any]) -> list[SheetRow]:
    """The scored (``ok``) rows as sheet lines, in sheet order: pair, operator, k, provider, run, stage."""
    found = [SheetRow(r.series, r.model, r.run, StagePayload.of_row(r), r) for r in rows if r.ok]
    return sorted(
        found,
        key=lambda s: (
            s.pair,
            s.payload.operator,
            s.payload.k if s.payload.k is not None else 0,
            s.provider,
            s.run,
            STAGE_ORDER.get(s.payload.stage, 9),
        ),
    )


def sheet_csv(rows: Sequence[SheetRow]) -> str:
    """``roundtrip_per_stage.csv``: the columns of the study's sheet (flags as a count), then the new ones."""
    return csv_text(SHEET_COLUMNS, (row.csv_values() for row in rows))


# -- aggregates ------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Group:
    """Means of one group of stage evaluations, with intervals for the headline columns."""

    keys: tuple[str, ...]  # e.g. ("OpenAI", "inverse")
    n: int
    pairs: int
    means: dict[str, float]
    intervals: dict[str, Interval] = field(default_factory=dict)
    unusable: int = 0
    not_run: int = 0
    spend: cost.Spend | None = field(default=None, compare=False)  # what its runs cost (their ledgers)

    def to_json(self) -> dict[str, Any]:
        return {
            "keys": list(self.keys),
            "n": self.n,
            "pairs": self.pairs,
            "means": self.means,
            "intervals": {k: v.to_json() for k, v in self.intervals.items()},
            "unusable": self.unusable,
            "notRun": self.not_run,
        }


def _key_of(row: SheetRow, by: str) -> str:
    if by == "provider":
        return row.provider
    value = row.payload.column(by)
    if by == "k":
        return "any" if value is None else str(value)
    return str(value)


def aggregate(
    rows: Sequence[SheetRow], by: Sequence[str], *, draws: int = DEFAULT_DRAWS, seed: int = DEFAULT_SEED
) -> list[Group]:
    """Per distinct value of the ``by`` columns: means of every column, and bootstrap intervals over pairs
    (two levels: pairs, then the group's stage evaluations within each drawn pair) for %Correct,
    %WSuccess, ΔRecall and ΔPrecision. The random stream of a group depends only on the seed and the
    group's keys, so an interval does not move when another provider joins the results."""
    groups: dict[tuple[str, ...], list[SheetRow]] = {}
    for row in rows:
        groups.setdefault(tuple(_key_of(row, b) for b in by), []).append(row)
    result = []
    for keys in sorted(groups, key=_group_order):
        members = groups[keys]
        means = {key: float(np.mean([r.value(key) for r in members])) for key, _, _ in MEAN_COLUMNS}
        by_pair: dict[str, list[SheetRow]] = {}
        for row in members:
            by_pair.setdefault(row.pair, []).append(row)
        intervals = {}
        if draws > 0:
            columns = [*INTERVAL_COLUMNS, "one"]
            blocks = [
                np.array([[r.value(c) if c != "one" else 1.0 for c in columns] for r in by_pair[p]])
                for p in sorted(by_pair)
            ]
            (sums,) = resample_sums([blocks], draws, rng_for(seed, "roundtrip", *keys))
            note = None if len(by_pair) > 1 else "one pair: the interval shows no variation over pairs"
            for index, column in enumerate(INTERVAL_COLUMNS):
                intervals[column] = percentile_interval(sums[:, index] / sums[:, -1], note=note)
        status = [r.payload.stage_status for r in members]
        result.append(
            Group(
                keys=keys,
                n=len(members),
                pairs=len(by_pair),
                means=means,
                intervals=intervals,
                unusable=status.count("unusable"),
                not_run=status.count(STATUS_NOT_RUN),
                spend=_spend(members),
            )
        )
    return result


def _spend(members: Sequence[Any]) -> cost.Spend:
    """A stage not run sent no request: it costs nothing, and a group of such stages says so."""
    sent = [
        r.envelope for r in members if r.envelope is not None and r.payload.stage_status != STATUS_NOT_RUN
    ]
    if members and not sent and all(r.payload.stage_status == STATUS_NOT_RUN for r in members):
        return cost.not_sent()
    return cost.spend(sent)


def _group_order(keys: tuple[str, ...]) -> tuple[Any, ...]:
    """Providers by name (baselines last), stages inverse first, k numerically."""
    baselines = set(BASELINES.values())
    order: list[Any] = []
    for key in keys:
        if key in STAGE_ORDER:
            order.append((0, STAGE_ORDER[key], ""))
        elif key.isdigit():
            order.append((0, int(key), ""))
        else:
            order.append((1 if key in baselines or key == "any" else 0, 0, key))
    return tuple(order)


def groups_csv(groups: Sequence[Group], by: Sequence[str]) -> str:
    heading = [*by, "n", "pairs", "unusable", "notRun"]
    for key, _, _ in MEAN_COLUMNS:
        heading.append(key)
        if key in INTERVAL_COLUMNS:
            heading += [f"{key}Low", f"{key}High"]
    heading += cost.CSV_COLUMNS
    lines = []
    for group in groups:
        line: list[str] = [
            *group.keys,
            str(group.n),
            str(group.pairs),
            str(group.unusable),
            str(group.not_run),
        ]
        for key, _, _ in MEAN_COLUMNS:
            line.append(f"{group.means[key]:.6f}")
            if key in INTERVAL_COLUMNS:
                interval = group.intervals.get(key)
                line += [f"{interval.low:.6f}", f"{interval.high:.6f}"] if interval else ["", ""]
        line += [str(v) for v in cost.csv_values(group.spend or cost.spend(())).values()]
        lines.append(line)
    return csv_text(heading, lines)


# -- presentation ------------------------------------------------------------------------------------------
def _cell(group: Group, key: str, percent: bool) -> str:
    value = group.means[key]
    return f"{100 * value:.1f}" if percent else f"{value:.1f}"


def _with_interval(group: Group, key: str) -> str:
    interval = group.intervals.get(key)
    text = f"{100 * group.means[key]:.1f}"
    return text + (f" [{100 * interval.low:.1f}, {100 * interval.high:.1f}]" if interval else "")


def _key_columns(by: Sequence[str]) -> list[Column[Group]]:
    return [Column(name, lambda g, i=i: g.keys[i], "l") for i, name in enumerate(by)]


def terminal_table(groups: Sequence[Group], by: Sequence[str]) -> Table:
    """The keys, n, the headline means with their intervals, the rates."""
    ci = " [95% CI]" if any(g.intervals for g in groups) else ""
    columns = [
        *_key_columns(by),
        Column("n", lambda g: str(g.n)),
        Column(f"%Correct{ci}", lambda g: _with_interval(g, "pctCorrect")),
        Column(f"%WSuccess{ci}", lambda g: _with_interval(g, "pctWSuccess")),
        Column("ΔRecall", lambda g: _cell(g, "deltaRecall", True)),
        Column("ΔPrecision", lambda g: _cell(g, "deltaPrecision", True)),
        Column("ΔDet", lambda g: _cell(g, "deltaDetected", True)),
        Column("Load", lambda g: _cell(g, "loadable", True)),
        Column("Equiv", lambda g: _cell(g, "equivalent", True)),
        Column("unusable", lambda g: str(g.unusable)),
        Column("not run", lambda g: str(g.not_run)),
    ]
    return Table.of("roundtrip-" + "-".join(by), "Round trip by " + " and ".join(by), columns, groups)


def terminal_lines(groups: Sequence[Group], by: Sequence[str]) -> list[str]:
    """The terminal table (:func:`terminal_table`)."""
    return terminal_table(groups, by).to_terminal()


def groups_table(groups: Sequence[Group], by: Sequence[str], title: str) -> Table:
    """Every mean of a grouping (intervals beside the headline columns), unusable and not-run counts:
    the tables of ``index.html``."""
    columns = [*_key_columns(by), Column("n", lambda g: str(g.n)), Column("pairs", lambda g: str(g.pairs))]
    for key, heading, percent in MEAN_COLUMNS:
        interval = key in INTERVAL_COLUMNS
        columns.append(
            Column(
                heading, lambda g, k=key, p=percent, i=interval: _with_interval(g, k) if i else _cell(g, k, p)
            )
        )
    columns += [Column("unusable", lambda g: str(g.unusable)), Column("not run", lambda g: str(g.not_run))]
    return Table.of("roundtrip-" + "-".join(by), title, columns, groups)


def latex_table(groups: Sequence[Group]) -> str:
    """The study's table: per provider and stage, the nine columns (counts as means per evaluation,
    percentages as means, DeltaDetected and Loadable as the share of yes)."""
    columns = [
        Column("LLM", lambda g: g.keys[0], "l"),
        Column("Stage", lambda g: g.keys[1], "l"),
        *(
            Column(heading, lambda g, k=key, p=percent: _cell(g, k, p))
            for key, heading, percent in MEAN_COLUMNS[:9]
        ),
    ]
    return Table.of("roundtrip-table", "Round trip per provider and stage", columns, groups).to_latex()


def costs_table(groups: Sequence[Group]) -> Table:
    """Per provider and stage (the groups of ``("provider", "stage")``): tokens, cost, median seconds per
    request and %Correct per $ (:mod:`benchmark.reports.cost`)."""
    lines = [
        cost.CostLine(group.keys, group.spend or cost.spend(()), 100 * group.means["pctCorrect"])
        for group in groups
    ]
    return cost.cost_table(
        "roundtrip-costs", "Round trip: cost and time per provider and stage", ("Provider", "Stage"), lines,
        "%Correct", digits=1,
    )  # fmt: skip


def answer_problem(row: Any) -> str | None:
    """Why a scored stage's answer was not read as a clean model (unusable, not run, not loadable, or read
    with a note such as "2 documents, scored the last"), as ``FILE: $.answer: reason`` (a run file: the
    answer is its JSON field) or ``FILE: reason``; ``None`` for a clean answer."""
    if not row.ok:
        return None
    payload = StagePayload.of_row(row)
    if payload.loadable and not payload.extraction_notes and payload.stage_status == "ok":
        return None
    error = payload.load_error
    parts = [error] if error else []
    parts += [note for note in payload.extraction_notes if not error or note not in error]
    reason = "; ".join(parts) or payload.stage_status
    where = "$.answer: " if row.file.endswith(".json") and payload.stage_status != "not-run" else ""
    return f"{row.file}: {where}{reason}"


def answer_lines(rows: Sequence[Any], verbose: bool, shown: int = 5) -> list[str]:
    """The scored answers that were not clean models, each with its positioned reason (the first
    ``shown`` unless ``verbose``)."""
    problems = [found for found in map(answer_problem, rows) if found is not None]
    if not problems:
        return []
    heading = (
        f"{plural(len(problems), 'answer')} not read as a clean model, scored as read (unusable or not "
        "run: as an empty answer; not loadable: by its lenient reading)"
    )
    listed = problems if verbose else problems[:shown]
    more = (
        [] if len(listed) == len(problems) else [f"  ... {len(problems) - len(listed)} more (-v lists them)"]
    )
    return [heading, *(f"  {line}" for line in listed), *more]


def summary_lines(rows: Sequence[Any], layout: str, verbose: bool) -> list[str]:
    """The session's terminal tables: provider x stage (and provider x k with ``-v``), the answers that
    were not clean models, what the runs cost, the excluded stage evaluations (missing ones among them)."""
    scored = sheet_rows(rows)
    left_out = excluded(rows, missing_reason)
    missing = sum(1 for item in left_out if item.missing is not None)
    lines = [
        f"{plural(len(scored), 'stage evaluation')}, {plural(len({r.pair for r in scored}), 'pair')}, "
        f"{layout} data, {len(left_out)} excluded ({missing} missing)"
    ]
    by_stage = aggregate(scored, ("provider", "stage"), draws=0)
    lines += terminal_lines(by_stage, ("provider", "stage"))
    costs = costs_table(by_stage)
    lines += ["", "cost and time (the run files' ledgers):", *costs.to_terminal()]
    lines += [f"  {note}" for note in costs.notes[1:]]
    if verbose:
        lines.append("")
        lines += terminal_lines(aggregate(scored, ("provider", "k"), draws=0), ("provider", "k"))
    return lines + answer_lines(rows, verbose) + stage_excluded_lines(left_out, verbose)


def stage_excluded_lines(left_out: Sequence[Any], verbose: bool) -> list[str]:
    """The excluded stage evaluations, by case and cause."""
    return excluded_lines(left_out, verbose=verbose, unit="stage evaluation")
