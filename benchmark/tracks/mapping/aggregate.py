"""Aggregation of the count table: micro and macro scores per provider x transformation and per provider.

Rows (:class:`benchmark.tracks.mapping.payload.RunRow`) are the single source of truth. *Micro* pools the raw
counts of the selected rows and applies the formulas once; *macro* applies the formulas to each run and
averages (macro F1 is the mean of per-run F1, not the F1 of mean P and R), with the sample standard deviation
over runs. Repeated runs of one transformation pool counts: they are never merged as sets, so a mapping found
in two runs counts twice. Error rows are excluded from every number and listed.

Everything here is a pure function returning plain data; the CLI, the pytest plugin and the report writers
print or write it. Sums use exact arithmetic (integers, :func:`math.fsum`, :mod:`statistics`), so results
do not depend on the order of the rows.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from benchmark.reports import cost
from benchmark.tracks.mapping.counts import (
    DEFAULT_PARTIAL_WEIGHT,
    BindingCounts,
    ClassCounts,
    LevelScores,
    Scores,
    level_scores,
)
from benchmark.tracks.mapping.payload import FEATURE_KINDS, RunRow
from benchmark.tracks.mapping.scoring.outcomes import OUTCOME_UNUSABLE, run_outcome

ALL = "ALL"
LEVELS = ("class", "binding", "overall")
METRICS = ("precision", "recall", "f1", "accuracy")


@dataclass(frozen=True)
class Spread:
    """Mean and sample standard deviation of one metric over runs (``sd`` is None for a single run)."""

    mean: float
    sd: float | None
    n: int

    def to_json(self) -> dict[str, float | int | None]:
        return {"mean": self.mean, "sd": self.sd, "n": self.n}


def spread(values: Sequence[float]) -> Spread:
    if not values:
        return Spread(0.0, None, 0)
    mean = math.fsum(values) / len(values)
    sd = statistics.stdev(values) if len(values) > 1 else None
    return Spread(mean, sd, len(values))


def in_ground_truth(counts: BindingCounts) -> int:
    """How many of the ground truth's scorable bindings these counts cover (exact, partial, divergent,
    only ATL; target-only bindings are neutral)."""
    return counts.exact + counts.partial + counts.divergent + counts.only_atl


def name_key(name: str) -> tuple[str, str]:
    """How provider and transformation names sort in every table: ignoring case (``book2publication``
    among the B's), ties broken by the exact spelling so that the order is total."""
    return (name.casefold(), name)


def _level(scores: LevelScores, level: str) -> Scores:
    return {"class": scores.classes, "binding": scores.bindings, "overall": scores.overall}[level]


@dataclass(frozen=True)
class ExcludedRun:
    """An error row: which run, and why it was left out."""

    provider: str
    model: str
    transformation: str
    run: str
    file: str
    error: str

    def to_json(self) -> dict[str, str]:
        return {
            "provider": self.provider,
            "model": self.model,
            "transformation": self.transformation,
            "run": self.run,
            "file": self.file,
            "error": self.error,
        }


@dataclass(frozen=True)
class GroupResult:
    """Micro and macro scores of one group of runs (a provider on one transformation, or ``ALL``).

    ``model`` is set when the aggregation separates models; ``models`` lists the models pooled.
    ``macro[level][metric]`` is a :class:`Spread` over the group's runs.
    """

    provider: str
    transformation: str
    model: str | None
    models: tuple[str, ...]
    runs: int
    partial_weight: float
    classes: ClassCounts
    bindings: BindingCounts
    bindings_by_kind: dict[str, BindingCounts]
    micro: LevelScores
    macro: dict[str, dict[str, Spread]]
    suggestions: int = 0
    invalid: int = 0
    duplicates: int = 0
    hallucinated_classes: int = 0
    hallucinated_features: int = 0
    hallucination_runs: int = 0  # runs scored with both metamodels, whose made-up names were looked for
    unusable_runs: int = 0  # runs whose answer held no usable mapping, scored as runs with no suggestions
    spend: cost.Spend | None = None  # what the runs cost (their ledgers), for the cost columns

    @property
    def is_total(self) -> bool:
        return self.transformation == ALL

    def micro_by_kind(self) -> dict[str, Scores]:
        return {kind: counts.scores(self.partial_weight) for kind, counts in self.bindings_by_kind.items()}

    def kind_scores(self, kind: str) -> Scores | None:
        """Micro scores of one feature kind, or ``None`` when there are none to give: no split (no target
        metamodel), or no binding of that kind in the ground truth (no reference binding in these
        transformations: recall is undefined, and an F1 of 0 would read as a failure). Tables print
        "–", the CSV an empty cell."""
        counts = self.bindings_by_kind.get(kind)
        if counts is None or not in_ground_truth(counts):
            return None
        return counts.scores(self.partial_weight)

    def to_json(self) -> dict[str, Any]:
        w = self.partial_weight
        return {
            "provider": self.provider,
            "transformation": self.transformation,
            "model": self.model,
            "models": list(self.models),
            "runs": self.runs,
            "unusableRuns": self.unusable_runs,
            "partialWeight": w,
            "counts": {
                "class": self.classes.to_json(),
                "binding": {
                    **self.bindings.to_json(),
                    "tp": self.bindings.tp(w),
                    "fp": self.bindings.fp(w),
                    "fn": self.bindings.fn(w),
                },
                "bindingByKind": {k: v.to_json() for k, v in sorted(self.bindings_by_kind.items())},
            },
            "micro": {level: _level(self.micro, level).to_json() for level in LEVELS},
            "microByKind": {k: v.to_json() for k, v in sorted(self.micro_by_kind().items())},
            "macro": {
                level: {metric: s.to_json() for metric, s in metrics.items()}
                for level, metrics in self.macro.items()
            },
            "suggestions": self.suggestions,
            "invalid": self.invalid,
            "duplicates": self.duplicates,
            "hallucinations": {
                "classes": self.hallucinated_classes,
                "features": self.hallucinated_features,
                "checkedRuns": self.hallucination_runs,
            },
        }


@dataclass(frozen=True)
class Aggregation:
    """Every group, ordered by provider, then transformation, each provider's ``ALL`` row last."""

    partial_weight: float
    groups: tuple[GroupResult, ...]
    excluded: tuple[ExcludedRun, ...] = ()
    by_model: bool = False
    rows_used: int = field(default=0)

    def totals(self) -> tuple[GroupResult, ...]:
        """The ``ALL`` row of each provider."""
        return tuple(g for g in self.groups if g.is_total)

    def to_json(self) -> dict[str, Any]:
        return {
            "partialWeight": self.partial_weight,
            "byModel": self.by_model,
            "rowsUsed": self.rows_used,
            "groups": [g.to_json() for g in self.groups],
            "excluded": [e.to_json() for e in self.excluded],
        }


# -------------------------------------------------------------------------------------- functions


def pooled_counts(rows: Iterable[RunRow]) -> tuple[ClassCounts, BindingCounts]:
    classes, bindings = ClassCounts(), BindingCounts()
    for row in rows:
        classes += row.classes
        bindings += row.bindings
    return classes, bindings


def micro(rows: Sequence[RunRow], partial_weight: float) -> LevelScores:
    """Counts summed over the rows, then the formulas."""
    classes, bindings = pooled_counts(rows)
    return level_scores(classes, bindings, partial_weight)


def macro(rows: Sequence[RunRow], partial_weight: float) -> dict[str, dict[str, Spread]]:
    """The formulas per run, then mean and standard deviation, for each level and metric."""
    per_run = [row.scores(partial_weight) for row in rows]
    return {
        level: {metric: spread([getattr(_level(s, level), metric) for s in per_run]) for metric in METRICS}
        for level in LEVELS
    }


def _group(
    rows: Sequence[RunRow], provider: str, transformation: str, model: str | None, w: float
) -> GroupResult:
    classes, bindings = pooled_counts(rows)
    by_kind: dict[str, BindingCounts] = {}
    for row in rows:
        for kind, counts in row.bindings_by_kind.items():
            by_kind[kind] = by_kind.get(kind, BindingCounts()) + counts
    return GroupResult(
        provider=provider,
        transformation=transformation,
        model=model,
        models=tuple(sorted({row.model for row in rows})),
        runs=len(rows),
        partial_weight=w,
        classes=classes,
        bindings=bindings,
        bindings_by_kind={k: by_kind[k] for k in sorted(by_kind, key=_kind_order)},
        micro=level_scores(classes, bindings, w),
        macro=macro(rows, w),
        suggestions=sum(row.suggestions for row in rows),
        invalid=sum(row.invalid for row in rows),
        duplicates=sum(row.duplicates for row in rows),
        hallucinated_classes=sum(len(row.hallucinated_classes) for row in rows),
        hallucinated_features=sum(len(row.hallucinated_features) for row in rows),
        hallucination_runs=sum(1 for row in rows if hallucinations_checked(row)),
        unusable_runs=sum(1 for row in rows if run_outcome(row) == OUTCOME_UNUSABLE),
        spend=cost.spend(row.envelope for row in rows),
    )


def hallucinations_checked(row: RunRow) -> bool:
    """Whether the row's made-up names were looked for (both metamodels were at hand when it was scored);
    a row that does not say (older results) counts as checked when it names any."""
    checked = row.extra.get("hallucinationsChecked")
    if checked is None:
        return bool(row.hallucinated_classes or row.hallucinated_features)
    return bool(checked)


def _kind_order(kind: str) -> tuple[int, str]:
    return (FEATURE_KINDS.index(kind) if kind in FEATURE_KINDS else len(FEATURE_KINDS), kind)


def aggregate(
    rows: Iterable[RunRow], *, partial_weight: float = DEFAULT_PARTIAL_WEIGHT, by_model: bool = False
) -> Aggregation:
    """Group ok rows by provider (and model when ``by_model``) x transformation, plus an ``ALL`` row per
    provider; error rows are listed in ``excluded``. The rows hold raw categories: ``partial_weight``
    (w, checked by the option that gave it) is applied here, to every group's micro and macro scores."""
    all_rows = list(rows)
    ok = [row for row in all_rows if row.ok]
    w = partial_weight
    excluded = tuple(
        sorted(
            (
                ExcludedRun(r.provider, r.model, r.transformation, r.run, r.file, r.error or "")
                for r in all_rows
                if not r.ok
            ),
            key=lambda e: (name_key(e.provider), e.model, name_key(e.transformation), e.run, e.file),
        )
    )
    by_provider: dict[tuple[str, str | None], list[RunRow]] = {}
    for row in ok:
        by_provider.setdefault((row.provider, row.model if by_model else None), []).append(row)
    groups: list[GroupResult] = []
    for (provider, model), provider_rows in sorted(
        by_provider.items(), key=lambda kv: (name_key(kv[0][0]), kv[0][1] or "")
    ):
        by_transformation: dict[str, list[RunRow]] = {}
        for row in provider_rows:
            by_transformation.setdefault(row.transformation, []).append(row)
        for transformation in sorted(by_transformation, key=name_key):
            groups.append(_group(by_transformation[transformation], provider, transformation, model, w))
        groups.append(_group(provider_rows, provider, ALL, model, w))
    return Aggregation(
        partial_weight=w, groups=tuple(groups), excluded=excluded, by_model=by_model, rows_used=len(ok)
    )


# ---------------------------------------------------------------------------------------- tables

CSV_COLUMNS: tuple[str, ...] = (
    "provider",
    "model",
    "transformation",
    "runs",
    "unusable_runs",
    "partial_weight",
    *(f"{level}_{count}" for level in ("class", "binding", "overall") for count in ("tp", "fp", "fn")),
    "binding_exact",
    "binding_partial",
    "binding_divergent",
    "binding_target_only",
    "binding_only_generated",
    "binding_only_atl",
    *(f"micro_{level}_{metric}" for level in LEVELS for metric in METRICS),
    *(f"micro_{kind}_{metric}" for kind in ("attribute", "reference") for metric in METRICS),
    *(f"macro_{level}_{metric}{stat}" for level in LEVELS for metric in METRICS for stat in ("", "_sd")),
    "suggestions",
    "invalid",
    "duplicates",
    "hallucinated_classes",
    "hallucinated_features",
    *cost.CSV_COLUMNS,
)


def csv_records(aggregation: Aggregation) -> list[dict[str, Any]]:
    """One flat record per group, keys in :data:`CSV_COLUMNS` order (``csv.DictWriter`` ready).

    Missing values (a standard deviation over one run, a feature-kind split without metamodels, the cost
    of runs without a ledger) are empty strings, so the CSV never says 0 for "not measured".
    """
    records = []
    for group in aggregation.groups:
        w = group.partial_weight
        record: dict[str, Any] = {
            "provider": group.provider,
            "model": group.model if group.model is not None else ";".join(group.models),
            "transformation": group.transformation,
            "runs": group.runs,
            "unusable_runs": group.unusable_runs,
            "partial_weight": w,
            "class_tp": group.classes.tp,
            "class_fp": group.classes.fp,
            "class_fn": group.classes.fn,
            "binding_tp": group.bindings.tp(w),
            "binding_fp": group.bindings.fp(w),
            "binding_fn": group.bindings.fn(w),
            "overall_tp": group.classes.tp + group.bindings.tp(w),
            "overall_fp": group.classes.fp + group.bindings.fp(w),
            "overall_fn": group.classes.fn + group.bindings.fn(w),
            "binding_exact": group.bindings.exact,
            "binding_partial": group.bindings.partial,
            "binding_divergent": group.bindings.divergent,
            "binding_target_only": group.bindings.target_only,
            "binding_only_generated": group.bindings.only_generated,
            "binding_only_atl": group.bindings.only_atl,
            "suggestions": group.suggestions,
            "invalid": group.invalid,
            "duplicates": group.duplicates,
            "hallucinated_classes": group.hallucinated_classes,
            "hallucinated_features": group.hallucinated_features,
        }
        for level in LEVELS:
            for metric in METRICS:
                record[f"micro_{level}_{metric}"] = getattr(_level(group.micro, level), metric)
                value = group.macro[level][metric]
                record[f"macro_{level}_{metric}"] = value.mean
                record[f"macro_{level}_{metric}_sd"] = value.sd if value.sd is not None else ""
        for kind in ("attribute", "reference"):
            kind_scores = group.kind_scores(kind)
            for metric in METRICS:
                record[f"micro_{kind}_{metric}"] = getattr(kind_scores, metric) if kind_scores else ""
        record.update(cost.csv_values(group.spend or cost.spend(())))
        records.append({column: record[column] for column in CSV_COLUMNS})
    return records


def run_records(
    rows: Iterable[RunRow], *, partial_weight: float = DEFAULT_PARTIAL_WEIGHT, variants: bool = False
) -> list[dict[str, Any]]:
    """One flat record per run (error rows included, with their error), every count and metric, with
    partial weight ``partial_weight``; with ``variants``, the task variant each run answered after its
    run name (``docs/VARIANTS.md``; a session of the original task alone has no such column)."""
    all_rows = list(rows)
    w = partial_weight
    records = []

    def order(row: RunRow) -> tuple[Any, ...]:
        return (row.track, name_key(row.provider), row.model, name_key(row.transformation), row.run)

    for row in sorted(all_rows, key=order):
        scores = row.scores(w)
        record: dict[str, Any] = {
            "track": row.track,
            "provider": row.provider,
            "model": row.model,
            "transformation": row.transformation,
            "run": row.run,
            **({"variant": row.variant} if variants else {}),
            "file": row.file,
            "status": row.status,
            "error": row.error or "",
            "partial_weight": w,
            "confidence_filter": row.confidence_filter,
            "class_tp": row.classes.tp,
            "class_fp": row.classes.fp,
            "class_fn": row.classes.fn,
            "binding_exact": row.bindings.exact,
            "binding_partial": row.bindings.partial,
            "binding_divergent": row.bindings.divergent,
            "binding_target_only": row.bindings.target_only,
            "binding_only_generated": row.bindings.only_generated,
            "binding_only_atl": row.bindings.only_atl,
            "binding_tp": row.bindings.tp(w),
            "binding_fp": row.bindings.fp(w),
            "binding_fn": row.bindings.fn(w),
        }
        for level in LEVELS:
            record.update({f"{level}_{m}": getattr(_level(scores, level), m) for m in METRICS})
        record.update(
            {
                "suggestions": row.suggestions,
                "invalid": row.invalid,
                "duplicates": row.duplicates,
                "hallucinated_classes": len(row.hallucinated_classes),
                "hallucinated_features": len(row.hallucinated_features),
            }
        )
        records.append(record)
    return records


def _format_spread(value: Spread, digits: int) -> str:
    if value.sd is None:
        return f"{value.mean:.{digits}f}"
    return f"{value.mean:.{digits}f} ± {value.sd:.{digits}f}"


def table_rows(
    aggregation: Aggregation, *, level: str = "overall", totals_only: bool = False, digits: int = 3
) -> list[dict[str, Any]]:
    """Records for a terminal table (:meth:`~benchmark.reports.table.Table.from_records`): runs, how
    many of them were unusable (scored as runs with no suggestions, ``docs/METRICS.md``), micro P, R, F1,
    accuracy, macro F1 ± SD at one level."""
    if level not in LEVELS:
        raise ValueError(f"level must be one of {LEVELS}, got {level!r}")
    rows = []
    for group in aggregation.groups:
        if totals_only and not group.is_total:
            continue
        scores = _level(group.micro, level)
        row: dict[str, Any] = {"provider": group.provider}
        if aggregation.by_model:
            row["model"] = group.model
        row.update(
            {
                "transformation": group.transformation,
                "runs": group.runs,
                "unusable": group.unusable_runs,
                "P": round(scores.precision, digits),
                "R": round(scores.recall, digits),
                "F1": round(scores.f1, digits),
                "Acc": round(scores.accuracy, digits),
                "macro F1": _format_spread(group.macro[level]["f1"], digits),
            }
        )
        rows.append(row)
    return rows


def split_rows(aggregation: Aggregation, *, digits: int = 3) -> list[dict[str, Any]]:
    """Per provider (``ALL`` rows): micro F1 for classes, bindings, attribute and reference bindings."""
    rows = []
    for group in aggregation.totals():
        attribute, reference = group.kind_scores("attribute"), group.kind_scores("reference")
        row: dict[str, Any] = {"provider": group.provider}
        if aggregation.by_model:
            row["model"] = group.model
        row.update(
            {
                "class F1": round(group.micro.classes.f1, digits),
                "binding F1": round(group.micro.bindings.f1, digits),
                "attribute F1": round(attribute.f1, digits) if attribute else None,
                "reference F1": round(reference.f1, digits) if reference else None,
                "overall F1": round(group.micro.overall.f1, digits),
            }
        )
        rows.append(row)
    return rows


def cost_lines(totals: Iterable[GroupResult], level: str = "overall") -> list[cost.CostLine]:
    """One line per provider (its ``ALL`` group) for the cost table
    (:func:`benchmark.reports.cost.cost_table`): what its runs cost, and its micro F1 at ``level``."""
    return [
        cost.CostLine((g.provider,), g.spend or cost.spend(()), _level(g.micro, level).f1) for g in totals
    ]


@dataclass(frozen=True)
class F1Pivot:
    """Micro F1 at one level with a column per provider: ``totals`` (each provider's ``ALL``) and, per
    transformation, each provider that has runs on it (the compact per-transformation table)."""

    providers: tuple[str, ...]
    totals: dict[str, float]
    by_transformation: dict[str, dict[str, float]]

    def hardest(self, count: int) -> list[str]:
        """The ``count`` transformations with the lowest mean F1 over the providers that have runs on them
        (ties by name)."""
        mean = {t: math.fsum(v.values()) / len(v) for t, v in self.by_transformation.items() if v}
        return sorted(mean, key=lambda t: (mean[t], name_key(t)))[:count]


def f1_pivot(aggregation: Aggregation, level: str = "overall", providers: Sequence[str] = ()) -> F1Pivot:
    """The :class:`F1Pivot` of an aggregation; ``providers`` gives the column order (default: the
    aggregation's), transformations are in name order."""
    order = tuple(providers) or tuple(dict.fromkeys(g.provider for g in aggregation.groups))
    totals: dict[str, float] = {}
    by_t: dict[str, dict[str, float]] = {}
    for group in aggregation.groups:
        f1 = _level(group.micro, level).f1
        if group.is_total:
            totals[group.provider] = f1
        else:
            by_t.setdefault(group.transformation, {})[group.provider] = f1
    ordered = {t: by_t[t] for t in sorted(by_t, key=name_key)}
    return F1Pivot(tuple(p for p in order if p in totals), totals, ordered)


def hallucination_rows(aggregation: Aggregation) -> list[dict[str, Any]]:
    """Per provider (``ALL`` rows): runs checked for made-up names, and the class and feature names made
    up, summed over them (``None`` when no run was checked: the metamodels were missing)."""
    rows = []
    for group in aggregation.totals():
        row: dict[str, Any] = {"provider": group.provider}
        if aggregation.by_model:
            row["model"] = group.model
        checked = group.hallucination_runs
        row.update(
            {
                "runs checked": checked if checked == group.runs else f"{checked} of {group.runs}",
                "classes": group.hallucinated_classes if checked else None,
                "features": group.hallucinated_features if checked else None,
            }
        )
        rows.append(row)
    return rows


__all__ = [
    "ALL",
    "CSV_COLUMNS",
    "Aggregation",
    "ExcludedRun",
    "F1Pivot",
    "GroupResult",
    "Spread",
    "aggregate",
    "cost_lines",
    "csv_records",
    "f1_pivot",
    "macro",
    "hallucination_rows",
    "hallucinations_checked",
    "in_ground_truth",
    "micro",
    "name_key",
    "pooled_counts",
    "run_records",
    "split_rows",
    "spread",
    "table_rows",
]
