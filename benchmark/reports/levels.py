"""Paired comparisons along one axis of the study: each level (a prompt template, an answer format) of a
provider against its reference level, for any track.

A provider asked under several templates answered the same tasks each time, so "does the template change
the score" is a paired question, like "does the variant change it": the track turns two sets of its rows
into count vectors per unit (:meth:`~benchmark.core.track.Track.paired`) and :mod:`benchmark.stats.paired`
gives Δ headline, its interval, its permutation test and its minimum detectable effect, one quantity for
all four, Holm-corrected over the table. The axis is whatever the caller reads off a row (``row.template``
for the prompt-sensitivity report); the rows of one *group* (a provider: rows that differ in nothing but
the axis) are compared level by level with the group's reference level.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

from benchmark.core.rows import Row
from benchmark.core.track import Track
from benchmark.reports import detectable
from benchmark.reports.table import Column, Table
from benchmark.stats.bootstrap import DEFAULT_DRAWS, DEFAULT_SEED, rng_for
from benchmark.stats.paired import Paired, compare, holm_family
from benchmark.stats.power import DEFAULT_ALPHA, Detectable


@dataclass(frozen=True)
class LevelComparison:
    """``group`` under ``level`` against the same group under ``reference`` (Δ = level - reference);
    ``comparison`` is ``None`` when the two share no unit (``note`` says so)."""

    group: str
    level: str
    reference: str
    comparison: Paired | None
    note: str | None = None


def compare_levels(
    track: Track,
    rows: Sequence[Row],
    level_of: Callable[[Row], str],
    order: Callable[[Sequence[str]], list[str]],
    *,
    group_of: Callable[[Row], str] = lambda row: row.provider,
    axis: str = "level",
    draws: int = DEFAULT_DRAWS,
    seed: int = DEFAULT_SEED,
    alpha: float = DEFAULT_ALPHA,
) -> tuple[LevelComparison, ...]:
    """Per group with two levels or more: every other level against its reference (the first of
    ``order``'s ordering of its levels), Holm-corrected over all of them; ``axis`` names the axis in the
    random streams (``template``), so that adding a group changes no other interval."""
    if type(track).paired is Track.paired:  # the track has no paired comparison of its headline
        return ()
    grouped: dict[str, dict[str, list[Row]]] = {}
    for row in rows:
        if row.ok:
            grouped.setdefault(group_of(row), {}).setdefault(level_of(row), []).append(row)
    drafts: list[LevelComparison] = []
    for group in sorted(grouped, key=str.casefold):
        levels = order(list(grouped[group]))
        if len(levels) < 2:
            continue
        reference = levels[0]
        for level in levels[1:]:
            data = track.paired(grouped[group][level], grouped[group][reference])
            if data is None:
                note = f"no {track.unit_name} measured under both {level} and {reference}"
                drafts.append(LevelComparison(group, level, reference, None, note))
                continue
            found = compare(
                data.units,
                data.first,
                data.second,
                data.statistic,
                interval_rng=rng_for(seed, axis, track.name, group, level, reference),
                test_rng=rng_for(seed, f"{axis}-swap", track.name, group, level, reference),
                draws=draws,
                unit=track.unit_name,
            )
            drafts.append(LevelComparison(group, level, reference, found))
    corrected = iter(holm_family([d.comparison for d in drafts if d.comparison is not None], alpha=alpha))
    return tuple(replace(d, comparison=next(corrected)) if d.comparison is not None else d for d in drafts)


def _signed(value: float) -> str:
    return f"{value:+.3f}"


def _interval(found: Paired | None) -> str:
    if found is None:
        return detectable.DASH
    text = _signed(found.delta)
    if found.interval is not None:
        text += f" [{found.interval.low:+.3f}, {found.interval.high:+.3f}]"
    return text


def _detectable(c: LevelComparison) -> Detectable | None:
    return c.comparison.detectable if c.comparison else None


def _p(value: float | None) -> str:
    if value is None:
        return detectable.DASH
    return "<0.001" if value < 0.001 else f"{value:.3f}"


def table(
    comparisons: Sequence[LevelComparison],
    key: str,
    title: str,
    headline_name: str,
    unit: str,
    axis: str,
) -> Table:
    """The comparisons as one table: group, level, reference, units, Δ headline [95% CI], p, p (Holm),
    MDE; notes say what each column is and what the table can detect."""
    columns: tuple[Column[LevelComparison], ...] = (
        Column("provider", lambda c: c.group, "l"),
        Column(axis, lambda c: c.level, "l"),
        Column("against", lambda c: c.reference, "l"),
        Column(f"{unit}s", lambda c: str(len(c.comparison.units)) if c.comparison else "0"),
        Column("Δ [95% CI]", lambda c: _interval(c.comparison)),
        Column("p", lambda c: _p(c.comparison.p_value if c.comparison else None)),
        Column("p (Holm)", lambda c: _p(c.comparison.p_holm if c.comparison else None)),
        Column(
            detectable.header(), lambda c: detectable.cell(c.comparison.detectable if c.comparison else None)
        ),
    )
    found = [c.comparison.detectable for c in comparisons if c.comparison is not None]
    notes = [
        f"Δ: {headline_name} under the {axis} minus under the one it is compared against, on the {unit}s "
        f"both were measured on (each {unit}'s runs summed when both sides have as many, else averaged); "
        f"interval: paired bootstrap over {unit}s (runs redrawn within each); p: two-sided paired "
        f"permutation test of the same Δ over the {unit}s; p (Holm): over every comparison of this table",
    ]
    if found:
        notes.append(detectable.note(found, "Δ", unit))
    notes += [f"{c.group}, {c.level}: {c.note}" for c in comparisons if c.note]
    return Table.of(key, title, columns, comparisons, notes=tuple(notes))


#: The CSV columns of one comparison after its track (:func:`csv_cells`); the level's column is the axis's.
CSV_COLUMNS = ("provider", "against", "units", "delta", "delta_low", "delta_high", "p_value", "p_holm", "mde")


def csv_cells(c: LevelComparison) -> tuple[str, str, list[object]]:
    """(group, level, the other cells of :data:`CSV_COLUMNS` after the group) of one comparison: a CSV
    places the level's column (``template``, ``answer_format``) after the group."""

    def number(value: float | None) -> str:
        return "" if value is None else f"{value:.6f}"

    found = c.comparison
    interval = found.interval if found else None
    mde = found.detectable.effect if found and found.detectable else None
    return (
        c.group,
        c.level,
        [
            c.reference,
            len(found.units) if found else 0,
            number(found.delta if found else None),
            number(interval.low if interval else None),
            number(interval.high if interval else None),
            f"{found.p_value:.6g}" if found else "",
            f"{found.p_holm:.6g}" if found and found.p_holm is not None else "",
            number(mde),
        ],
    )


def sentence(comparisons: Sequence[LevelComparison], title: str, unit: str) -> str | None:
    """What the table can detect, in one sentence ("Read this first")."""
    return detectable.sentence(
        title, [c.comparison.detectable for c in comparisons if c.comparison is not None], "Δ", unit
    )


__all__ = ["CSV_COLUMNS", "LevelComparison", "compare_levels", "csv_cells", "sentence", "table"]
