"""The mapping track's terminal tables (the pytest summary, ``atlbench validate``): the aggregation's
records rendered by the report kit (:meth:`benchmark.reports.table.Table.to_terminal`)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from benchmark.core.rows import group_by_cause, run_name
from benchmark.core.wording import plural
from benchmark.reports.cost import cost_table
from benchmark.reports.table import Table, terminal_lines
from benchmark.tracks.mapping.aggregate import (
    ALL,
    Aggregation,
    ExcludedRun,
    cost_lines,
    f1_pivot,
    hallucination_rows,
    name_key,
    split_rows,
    table_rows,
)
from benchmark.tracks.mapping.payload import RunRow
from benchmark.tracks.mapping.reports.scale import HARDEST_SHOWN, at_scale
from benchmark.tracks.mapping.scoring.outcomes import (
    OUTCOME_MISSING,
    OUTCOME_UNUSABLE,
    outcome_reason,
    run_outcome,
)

DIGITS = 3


def format_tables(aggregation: Aggregation, verbose: bool = True) -> str:
    """Per-provider ALL table, provider x transformation table, class/binding/attribute/reference split,
    made-up names, what the runs cost, and the list of excluded runs, as terminal text
    (:meth:`Table.to_terminal`). Past :data:`~.scale.FULL_UP_TO` transformations and without
    ``verbose``, the provider x transformation table is bounded (:func:`hardest_lines`)."""
    parts: list[str] = []
    if aggregation.groups:
        transformations = len({g.transformation for g in aggregation.groups if not g.is_total})
        full = verbose or not at_scale(transformations)
        tables = (
            (
                "Per provider (micro P/R/F1/Acc over pooled counts; macro F1 = mean ± SD over runs; "
                "unusable: runs whose answer held no usable mapping, scored as runs with no suggestions)",
                table_rows(aggregation, totals_only=True, digits=DIGITS),
            ),
            ("Per provider and transformation", table_rows(aggregation, digits=DIGITS) if full else None),
            ("Split by level and feature kind (micro F1)", split_rows(aggregation, digits=DIGITS)),
            ("Made-up names (hallucinations), summed over the runs checked", hallucination_rows(aggregation)),
        )
        for title, records in tables:
            if records is None:
                parts.extend(hardest_lines(aggregation))
                continue
            parts.append(f"\n{title}")
            parts.append("\n".join(Table.from_records("", title, records, digits=DIGITS).to_terminal()))
        costs = cost_table("costs", "", ("Provider",), cost_lines(aggregation.totals()), "F1")
        parts.append("\nCost and time per provider (the run files' ledgers; F1: micro overall)")
        parts.append("\n".join(costs.to_terminal()))
        parts.extend(f"  {note}" for note in costs.notes[1:])
    else:
        parts.append("no run could be scored")
    if aggregation.excluded:
        parts.append(f"\n{plural(len(aggregation.excluded), 'run')} excluded")
        parts.extend(f"  {line}" for line in excluded_lines(aggregation.excluded))
    return "\n".join(parts) + "\n"


def hardest_lines(aggregation: Aggregation) -> list[str]:
    """The bounded per-transformation table of a large session: micro F1 (overall) per provider, its
    ``ALL`` line first, then the :data:`~.scale.HARDEST_SHOWN` transformations with the lowest mean F1."""
    pivot = f1_pivot(aggregation)
    shown = pivot.hardest(HARDEST_SHOWN)
    lines = sum(1 for g in aggregation.groups if not g.is_total)
    title = (
        f"Per transformation: micro F1, the {len(shown)} transformations with the lowest mean F1 of "
        f"{len(pivot.by_transformation)} (-v prints all {lines} provider x transformation lines; "
        "rq1_aggregate.csv has them)"
    )
    rows = [(ALL, *(f"{pivot.totals[p]:.{DIGITS}f}" for p in pivot.providers))]
    for transformation in shown:
        values = pivot.by_transformation[transformation]
        rows.append(
            (transformation, *(f"{values[p]:.{DIGITS}f}" if p in values else None for p in pivot.providers))
        )
    return [f"\n{title}", "\n".join(terminal_lines(("transformation", *pivot.providers), rows))]


def excluded_lines(excluded: Sequence[ExcludedRun]) -> list[str]:
    """One line per transformation and cause, by transformation: ``FILE: reason`` for a run excluded on
    its own, ``TRANSFORMATION (N runs: ...): reason`` for runs excluded by one cause (an unusable ground
    truth excludes every run of its transformation with the same message)."""
    ordered = sorted(excluded, key=lambda e: name_key(e.transformation))
    lines = []
    for transformation, cause, runs in group_by_cause(ordered, lambda e: e.transformation, lambda e: e.error):
        if len(runs) == 1:
            lines.append(_excluded(runs[0]))
        else:
            names = ", ".join(run_name(run.provider, run.run) for run in runs)
            lines.append(f"{transformation} ({plural(len(runs), 'run')}: {names}): {cause}")
    return lines


def unusable_lines(rows: Iterable[RunRow]) -> list[str]:
    """The unusable runs (the model answered, the answer held no usable mapping; scored as runs with no
    suggestions) under a heading, each with why its answer could not be used; nothing when there are none."""
    unusable = [(row, outcome_reason(row)) for row in rows if run_outcome(row) == OUTCOME_UNUSABLE]
    if not unusable:
        return []
    heading = f"{plural(len(unusable), 'unusable run')}, scored as runs with no suggestions"
    return [heading, *(f"  {_with_file(row.file, str(reason))}" for row, reason in unusable)]


def _excluded(run: ExcludedRun) -> str:
    return _with_file(run.file, run.error)


def _with_file(file: str, reason: str) -> str:
    """``FILE: reason``; a reason that already starts with its file (a parser's ``FILE:LINE:COL: ...``) is
    not prefixed a second time."""
    return reason if reason.startswith(f"{file}:") else f"{file}: {reason}"


def scored_line(rows: list[RunRow]) -> str:
    """What the session scored, not what it collected: the runs that were scored (unusable ones among
    them) and the transformations they cover, then the runs excluded (missing ones among them), so a
    session narrowed by ``-k`` or ``--provider`` says what its tables are made of."""
    outcomes = [run_outcome(row) for row in rows]
    scored = [row for row in rows if row.ok]
    transformations = len({row.transformation for row in scored})
    excluded = len(rows) - len(scored)
    return (
        f"{plural(len(scored), 'run')} scored ({outcomes.count(OUTCOME_UNUSABLE)} unusable) on "
        f"{plural(transformations, 'transformation')}, {excluded} excluded "
        f"({outcomes.count(OUTCOME_MISSING)} missing)"
    )


def summary_lines(
    rows: Sequence[RunRow], aggregation: Aggregation, confidence: str | None, verbose: bool = True
) -> list[str]:
    """The session's terminal tables: what was scored, the aggregation's tables (bounded for a large
    session without ``verbose``: :func:`format_tables`), the unusable runs."""
    settings = f"partial weight {aggregation.partial_weight:g}, confidence {confidence or 'all'}"
    lines = [f"{scored_line(list(rows))}, {settings}"]
    lines += format_tables(aggregation, verbose).splitlines()
    # by what the run is, not where it was read from: a --tx worker reads from its own copy of the tree
    unusable = unusable_lines(
        sorted(rows, key=lambda r: (name_key(r.transformation), r.provider, r.run, r.file))
    )
    return lines + ([""] if unusable else []) + unusable
