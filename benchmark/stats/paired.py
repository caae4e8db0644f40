"""One paired comparison, one story: the Δ a table prints, its interval, its test and its MDE, one quantity.

Every comparison table of every track (providers, task variants, prompt templates, answer formats, OCL
model variants) compares two *sides* that answered the same *units* (transformations, constraints,
round-trip pairs), each with one or more runs per unit, through one statistic of pooled count vectors (micro
F1 of (TP, FP, FN); accuracy of (correct, answers); a mean of (value, 1)). This module computes, for such a
comparison, everything the row prints, from the same count vectors and the same pairing:

* **Δ** = statistic(Σ_t a_t) - statistic(Σ_t b_t), where a_t is the first side's vectors on unit t summed
  over its runs when both sides have as many runs on every unit (the usual paired design: Δ is then the
  difference of the two pooled figures), else averaged over its runs (every unit weighs alike on both
  sides, and a side with more runs cannot pull the figure its way);
* the **interval**: the two-level paired bootstrap of that Δ (units drawn once for both sides, runs
  redrawn within each drawn unit, per side; :func:`benchmark.stats.bootstrap.resample_sums`);
* the **test**: the paired permutation test of that Δ over the units (:func:`benchmark.stats.significance.
  paired_swap_test`: under "no difference" a_t and b_t are exchangeable on every unit), whose observed
  statistic *is* Δ, so the p-value and the interval cannot tell different stories;
* the **variance components** and, once the table's family is known, the **minimum detectable effect**
  (:mod:`benchmark.stats.power`), corrected with the p-values by :func:`holm_family`.

A track builds the count vectors; this module knows nothing of what they count.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any

import numpy as np

from benchmark.stats.bootstrap import (
    DEFAULT_CONFIDENCE,
    DEFAULT_DRAWS,
    Interval,
    degeneracy_note,
    percentile_interval,
    resample_sums,
)
from benchmark.stats.power import (
    DEFAULT_ALPHA,
    DEFAULT_POWER,
    Components,
    Detectable,
    components,
    detectable,
)
from benchmark.stats.significance import (
    DEFAULT_PERMUTATIONS,
    EXACT_SIGN_FLIP_MAX,
    PermutationResult,
    holm,
    paired_swap_test,
)

Statistic = Callable[[np.ndarray], np.ndarray]


@dataclass(frozen=True)
class Paired:
    """One comparison of ``first`` against ``second`` (Δ = first - second) over ``units``.

    ``mean_runs`` says how each unit's runs were combined (module docstring); ``p_holm`` and
    ``detectable`` are filled by :func:`holm_family` once the table's comparisons are known."""

    units: tuple[str, ...]
    delta: float
    first_value: float
    second_value: float
    interval: Interval | None
    test: PermutationResult
    components: Components
    mean_runs: bool
    p_holm: float | None = None
    detectable: Detectable | None = None

    @property
    def p_value(self) -> float:
        return self.test.p_value

    def to_json(self) -> dict[str, Any]:
        return {
            "units": list(self.units),
            "delta": self.delta,
            "first": self.first_value,
            "second": self.second_value,
            "runsCombined": "mean" if self.mean_runs else "sum",
            "interval": self.interval.to_json() if self.interval else None,
            "permutation": self.test.to_json(),
            "pHolm": self.p_holm,
            "variance": self.components.to_json(),
            "detectable": self.detectable.to_json() if self.detectable else None,
        }


def balanced(first: Sequence[np.ndarray], second: Sequence[np.ndarray]) -> bool:
    """Whether both sides have as many runs on every unit (then each unit's runs are summed)."""
    return all(len(a) == len(b) for a, b in zip(first, second, strict=True))


def compare(
    units: Sequence[str],
    first: Sequence[np.ndarray],
    second: Sequence[np.ndarray],
    statistic: Statistic,
    *,
    interval_rng: np.random.Generator,
    test_rng: np.random.Generator,
    draws: int = DEFAULT_DRAWS,
    confidence: float = DEFAULT_CONFIDENCE,
    permutations: int = DEFAULT_PERMUTATIONS,
    exact_max: int = EXACT_SIGN_FLIP_MAX,
    unit: str = "unit",
) -> Paired:
    """The comparison of two sides on ``units``: ``first[t]`` and ``second[t]`` are arrays ``(runs, k)`` of
    the two sides' count vectors on unit ``t`` (each with a run at least); ``statistic`` maps summed
    vectors ``(P, k)`` to one value per row. ``draws`` = 0: no interval. ``unit`` names a unit in the
    interval's notes (``transformation``)."""
    if not units or len(first) != len(units) or len(second) != len(units):
        raise ValueError("a paired comparison needs the same, non-empty list of units on both sides")
    first = [np.asarray(g, dtype=float).reshape(len(g), -1) for g in first]
    second = [np.asarray(g, dtype=float).reshape(len(g), -1) for g in second]
    if any(len(g) == 0 for g in (*first, *second)):
        raise ValueError("every unit needs at least one run on each side")
    mean_runs = not balanced(first, second)

    def combine(groups: Sequence[np.ndarray]) -> np.ndarray:
        return np.array([g.mean(axis=0) if mean_runs else g.sum(axis=0) for g in groups], dtype=float)

    a, b = combine(first), combine(second)
    value_first = float(np.asarray(statistic(a.sum(axis=0)[None, :]))[0])
    value_second = float(np.asarray(statistic(b.sum(axis=0)[None, :]))[0])

    def difference(x: np.ndarray, y: np.ndarray) -> np.ndarray:
        return np.asarray(statistic(x), dtype=float) - np.asarray(statistic(y), dtype=float)

    test = paired_swap_test(a, b, difference, exact_max=exact_max, resamples=permutations, rng=test_rng)
    interval = None
    if draws > 0:
        notes = {degeneracy_note([len(g) for g in side], unit) for side in (first, second)}
        note = "; ".join(sorted(n for n in notes if n)) or None
        sums_first, sums_second = resample_sums([first, second], draws, interval_rng, mean_runs=mean_runs)
        interval = percentile_interval(difference(sums_first, sums_second), confidence=confidence, note=note)
    return Paired(
        units=tuple(units),
        delta=test.statistic,
        first_value=value_first,
        second_value=value_second,
        interval=interval,
        test=test,
        components=components(first, second, statistic, mean_runs=mean_runs),
        mean_runs=mean_runs,
    )


def holm_family(
    comparisons: Sequence[Paired | None],
    *,
    alpha: float = DEFAULT_ALPHA,
    power: float = DEFAULT_POWER,
) -> list[Paired | None]:
    """The comparisons of one table (``None`` where a row has none), with Holm-adjusted p-values over
    the family and each one's minimum detectable effect at α / m (m: the comparisons in the family)."""
    present = [c for c in comparisons if c is not None]
    adjusted = iter(holm([c.p_value for c in present]))
    family = len(present)
    out: list[Paired | None] = []
    for comparison in comparisons:
        if comparison is None:
            out.append(None)
            continue
        test = comparison.test
        found = detectable(
            comparison.components.se,
            len(comparison.units),
            alpha=alpha,
            family=family,
            power=power,
            floor=None if test.exact else 1.0 / (test.resamples + 1),
        )
        out.append(replace(comparison, p_holm=next(adjusted), detectable=found))
    return out


__all__ = ["Paired", "Statistic", "balanced", "compare", "holm_family"]
