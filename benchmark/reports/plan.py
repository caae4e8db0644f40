"""``atlbench plan``: from a pilot, how many units × runs a study needs to detect an effect, and its cost.

A pilot session (a few transformations, a few runs) already holds what a power analysis needs: the
variance of each comparison between units and between runs (:mod:`benchmark.stats.power`), and what a run
costs (the runs' ledgers). For each pair of providers of a track (the comparison the study is about; any
track, through :meth:`~benchmark.core.track.Track.paired`), this module gives the pilot's own minimum
detectable effect, then, for each number of runs per unit asked, the fewest units for which the MDE is at
most the effect to detect, and what generating that many runs would cost on both sides:

    cost = units × runs × (the side's tokens per unit and run in the pilot, priced)

priced with the provider's price in ``atlbench.toml`` (the configured price, as ``generate --dry-run``
uses), else at what the pilot's ledgers paid; blank, with the reason, when neither is known (synthetic
runs and baselines have no ledger; a baseline costs nothing to run). The family of the planned study's Holm
correction is an option (``--family``): planning one pre-registered comparison is planning at α, planning
all pairs of six providers at α / 15.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from itertools import combinations

from benchmark.core.rows import Row
from benchmark.core.track import Track
from benchmark.core.wording import plural
from benchmark.llm.pricing import Price
from benchmark.reports.cost import BASELINE, spend
from benchmark.reports.table import Column, Table
from benchmark.stats.paired import balanced
from benchmark.stats.power import (
    DEFAULT_ALPHA,
    DEFAULT_POWER,
    Components,
    Detectable,
    components,
    design_se,
    detectable,
    units_needed,
)

DEFAULT_RUNS = (1, 3, 5)


@dataclass(frozen=True)
class SideCost:
    """What one unit × run of a side costs (USD), or why it is not known."""

    usd: float | None
    note: str | None = None


@dataclass(frozen=True)
class Design:
    """``units`` units with ``runs`` runs each on both sides (``None``: more than the search's bound), the
    MDE it reaches and what it costs (``None`` with ``note`` when unknown)."""

    runs: int
    units: int | None
    mde: float | None
    cost: float | None
    note: str | None = None


@dataclass(frozen=True)
class PairPlan:
    track: str
    first: str
    second: str
    components: Components
    pilot: Detectable
    designs: tuple[Design, ...]


def side_cost(rows: Sequence[Row], entries: int, price: Price | None) -> SideCost:
    """The cost of one unit × run of a side whose ``rows`` made ``entries`` unit × run vectors: the
    pilot's tokens per entry at ``price``, else the pilot's cost per entry (its ledgers' prices)."""
    paid = spend(rows)
    if paid.note == BASELINE:
        return SideCost(0.0)  # computed by the benchmark: nothing to pay, however many runs
    if paid.ledger is None or not paid.complete:
        return SideCost(None, paid.note or "no ledger")
    if entries == 0:
        return SideCost(None, "no run")
    if price is not None and paid.input_tokens is not None and paid.output_tokens is not None:
        return SideCost(price.cost(paid.input_tokens, paid.output_tokens) / entries)
    if paid.cost_usd is not None:
        return SideCost(paid.cost_usd / entries, "at the pilot ledgers' price")
    return SideCost(None, paid.note or "no cost in the ledgers")


def plan_pairs(
    track: Track,
    rows: Sequence[Row],
    *,
    effect: float,
    runs: Sequence[int] = DEFAULT_RUNS,
    power: float = DEFAULT_POWER,
    alpha: float = DEFAULT_ALPHA,
    family: int = 1,
    providers: Sequence[str] = (),
    price_of: Callable[[str], Price | None] = lambda provider: None,
) -> list[PairPlan]:
    """One plan per pair of the track's series (a provider, with its prompt template when not the study's)
    that share a unit; with ``providers``, only the pairs that involve one of them."""
    by_series: dict[str, list[Row]] = {}
    for row in rows:
        if row.ok:
            by_series.setdefault(row.series, []).append(row)
    wanted = {p.casefold() for p in providers}
    plans = []
    for first, second in combinations(sorted(by_series, key=str.casefold), 2):
        if wanted and not ({first.casefold(), second.casefold()} & wanted):
            continue
        data = track.paired(by_series[first], by_series[second])
        if data is None:
            continue
        found = components(
            data.first, data.second, data.statistic, mean_runs=not balanced(data.first, data.second)
        )
        pilot = detectable(found.se, found.units, alpha=alpha, family=family, power=power)
        costs = [
            side_cost(by_series[name], sum(len(g) for g in groups), price_of(by_series[name][0].provider))
            for name, groups in ((first, data.first), (second, data.second))
        ]
        designs = []
        for count in runs:
            units = units_needed(found, effect, count, alpha=alpha, family=family, power=power)
            reached = None
            if units is not None:
                reached = detectable(
                    design_se(found, units, count), units, alpha=alpha, family=family, power=power
                ).effect
            known = [c.usd for c in costs]
            if units is None or any(c is None for c in known):
                note = "; ".join(sorted({c.note for c in costs if c.usd is None and c.note}))
                designs.append(Design(count, units, reached, None, note or None))
            else:
                total = units * count * sum(c for c in known if c is not None)
                notes = {c.note for c in costs if c.note}
                designs.append(Design(count, units, reached, total, "; ".join(sorted(notes)) or None))
        plans.append(PairPlan(track.name, first, second, found, pilot, tuple(designs)))
    return plans


def _cell(plan: PairPlan, index: int) -> str:
    return _design_cell(plan.designs[index])


def _design_cell(design: Design) -> str:
    if design.units is None:
        return "beyond 100,000"
    cost = "" if design.cost is None else f", ${design.cost:,.2f}"
    return f"{design.units:,} × {design.runs}{cost}"


def _within(plan: PairPlan) -> str:
    found = plan.components
    values = [v for v in (found.within_first, found.within_second) if v is not None]
    return "–" if not values else " / ".join(f"{v**0.5:.3f}" for v in values)


def table(plans: Sequence[PairPlan], track: Track, effect: float, runs: Sequence[int]) -> Table:
    unit = track.unit_name
    columns: tuple[Column[PairPlan], ...] = (
        Column("A", lambda p: p.first, "l"),
        Column("B", lambda p: p.second, "l"),
        Column(f"pilot {unit}s", lambda p: str(p.components.units)),
        Column("σ between", lambda p: f"{p.components.between**0.5:.3f}"),
        Column("σ within (A / B)", _within),
        Column("pilot MDE", lambda p: _mde(p.pilot)),
        *(
            Column(f"{count} run{'s' * (count > 1)}: {unit}s × runs (cost)", lambda p, i=i: _cell(p, i))
            for i, count in enumerate(runs)
        ),
    )
    notes = []
    if plans:
        first = plans[0].pilot
        notes.append(
            f"{track.headline_name}: a study of A against B on this many {unit}s with this many runs per "
            f"{unit} on each side detects |Δ| ≥ {effect:g} with {round(first.power * 100):g}% power at "
            f"α = {first.table_alpha:g}"
            + (f" after Holm over {plural(first.family, 'comparison')}" if first.family > 1 else "")
            + "; σ between / within: the standard deviations of the units' influence (docs/STATISTICS.md, "
            "'What a comparison can detect'); cost: the pilot's tokens per unit and run, at the configured "
            "price (else the pilot ledgers' price)"
        )
        if any(p.components.within_first is None and p.components.within_second is None for p in plans):
            notes.append(
                "σ within –: the pilot has one run per unit on both sides, so run-to-run variation cannot be "
                "told apart from variation between units; the plan counts all of it as between units, and "
                "more runs do not help on this evidence (pilot with repeated runs to learn more)"
            )
        few = [p for p in plans if p.components.units < 5]
        if few:
            notes.append(
                f"{plural(len(few), 'pair')} measured on fewer than 5 {unit}s in the pilot: their variance "
                "is itself a rough estimate, and so is their plan"
            )
        unknown = sorted(
            {n for p in plans for d in p.designs if d.cost is None for n in (d.note or "").split("; ") if n}
        )
        notes += [f"cost not known: {n}" for n in unknown]
    else:
        notes.append("no two providers share a unit: nothing to plan from")
    return Table.of(
        f"plan-{track.name}", f"Study plan, {track.name}: {track.title}", columns, plans, notes=tuple(notes)
    )


def _mde(found: Detectable) -> str:
    if not found.reachable:
        return "none"
    return "–" if found.effect is None else f"{found.effect:.3f}"


def prices(config_prices: Mapping[str, Price | None]) -> Callable[[str], Price | None]:
    """A provider's configured price, by name in any case."""
    folded = {name.casefold(): price for name, price in config_prices.items()}
    return lambda provider: folded.get(provider.casefold())


__all__ = ["DEFAULT_RUNS", "Design", "PairPlan", "SideCost", "plan_pairs", "prices", "side_cost", "table"]
