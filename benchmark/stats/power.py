"""What a paired comparison can detect: the minimum detectable effect (MDE) and the design that reaches one.

A comparison that finds nothing says little unless the reader knows how large a difference it *could* have
found. Miller (2024, "Adding Error Bars to Evals", arXiv 2411.00640) gives the recipe this module follows:
the units of the study (transformations, constraints, pairs) are a sample, runs within a unit are a second
level of variation, the comparison is paired, and the effect detectable with power 1 - β at level α is
about (z₁₋α/₂ + z₁₋β) · SE(Δ).

**Variance from the study itself.** Every comparison of the benchmark is a difference of one statistic of
pooled count vectors (micro F1 of (TP, FP, FN), accuracy of (correct, answers), a mean of (value, 1)) between
two sides that answered the same units. Linearised around the pooled sums (the delta method), Δ is the mean
of one *influence* per unit, u_t = T (∇g(S_A) · a_t - ∇g(S_B) · b_t) (a_t, b_t: the two sides' count vectors
on unit t), so SE(Δ)² ≈ s²(u) / T. Runs split s²(u) in two: the run-to-run variance inside a unit, measured
where a unit has two runs or more on a side (σ²_w per run, each side), and the rest, the variance between
units (σ²_b). With T' units and K' runs per unit on each side a study has SE² = (σ²_b + (σ²_wA + σ²_wB) / K')
/ T': more runs shrink only the within part, more units shrink both (:func:`design_se`).

**The multiplier.** The benchmark's tests are exact permutation tests over the units, and with few units
their discreteness matters: over T units the smallest two-sided p is 2/2^T (:func:`p_floor`), so a level
below it detects nothing whatever the effect, and near it the test needs far more than the normal formula
says (8 units at α = 0.0125: 5.4 standard errors, not 4.2). So the multiplier κ with MDE = κ · SE is

* none at all when 2/2^T > α (nothing can be detected at this level);
* for T ≤ :data:`EXACT_UNITS` (or up to 16 units when α is within 20 times the floor), the effect at which
  the exact sign-flip test on T normal differences rejects at α with the asked power, found by simulation
  with a fixed seed (the test's p-value does not change when the differences are scaled, so κ depends on T,
  α and the power only; :func:`multiplier`);
* beyond, Student's t: t(1 - α/2; T - 1) + t(power; T - 1), within 2 % of the exact figure there and
  Miller's z formula for large T.

**After Holm.** A table tests m comparisons and corrects them with Holm, who tests the smallest p at α/m:
the MDE a table prints is at α/m (:class:`Detectable` says so), the effect each comparison is sure to be able
to show after the correction, whatever the others do.

The calibration is tested by simulation (``tests/stats/test_power.py``): studies planted with an effect of
the computed size are detected by the comparison's own permutation test in about 80 % of the draws.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import numpy as np

DEFAULT_POWER = 0.80
DEFAULT_ALPHA = 0.05
#: up to this many units the multiplier comes from the exact sign-flip test (simulated), beyond from t
EXACT_UNITS = 12
_EXACT_NEAR_FLOOR_UNITS = 16
_SIMULATIONS = 2000
_SIMULATION_SEED = 20240517

Statistic = Callable[[np.ndarray], np.ndarray]


def p_floor(units: int) -> float:
    """The smallest two-sided p-value an exact paired permutation test over ``units`` units can give:
    2 / 2^units (no swap and every swap are always as extreme as the data); 1 below two units."""
    if units < 1:
        return 1.0
    return min(1.0, math.ldexp(2.0, -units))


@dataclass(frozen=True)
class Components:
    """The two levels of a comparison's variance, in influence units (module docstring): ``between``
    (σ²_b), ``within_first`` and ``within_second`` (σ²_w per run of each side; ``None`` when no unit has
    two runs on that side, so the run-to-run part cannot be told apart from the rest), and the design they
    were measured on (``units``; the mean number of runs per unit on each side)."""

    units: int
    runs_first: float
    runs_second: float
    total: float  # s²(u): the variance of the influences over the units, as measured
    between: float
    within_first: float | None
    within_second: float | None

    @property
    def se(self) -> float:
        """SE(Δ) of the measured design: sqrt(s²(u) / T)."""
        return math.sqrt(self.total / self.units) if self.units > 0 else math.inf

    def to_json(self) -> dict[str, Any]:
        return {
            "units": self.units,
            "runsFirst": self.runs_first,
            "runsSecond": self.runs_second,
            "varianceTotal": self.total,
            "varianceBetween": self.between,
            "varianceWithinFirst": self.within_first,
            "varianceWithinSecond": self.within_second,
            "se": self.se,
        }


def design_se(components: Components, units: int, runs: float) -> float:
    """SE(Δ) of a study of ``units`` units with ``runs`` runs per unit on each side, from the pilot's
    ``components``. A side whose within variance is unknown (one run per unit in the pilot) contributes it
    to the between part, as measured: more runs do not help it on this evidence."""
    if units < 1 or runs <= 0:
        return math.inf
    within = sum(v / runs for v in (components.within_first, components.within_second) if v is not None)
    return math.sqrt(max(0.0, components.between + within) / units)


def gradient(statistic: Statistic, at: np.ndarray) -> np.ndarray:
    """∇statistic at the summed vector ``at`` by central differences (one call of the vectorised
    statistic for all 2k points)."""
    at = np.asarray(at, dtype=float)
    k = len(at)
    steps = 1e-6 * np.maximum(np.abs(at), 1.0)
    points = np.repeat(at[None, :], 2 * k, axis=0)
    points[np.arange(k), np.arange(k)] += steps
    points[k + np.arange(k), np.arange(k)] -= steps
    values = np.asarray(statistic(points), dtype=float)
    return (values[:k] - values[k:]) / (2 * steps)


def components(
    first: Sequence[np.ndarray], second: Sequence[np.ndarray], statistic: Statistic, *, mean_runs: bool
) -> Components:
    """The variance components of Δ = statistic(Σ_t a_t) - statistic(Σ_t b_t), where a_t is the sum (or,
    with ``mean_runs``, the mean) of the first side's run vectors ``first[t]`` (shape ``(runs, k)``) on
    unit t, and likewise b_t; the within parts are per run, in the mean-of-runs scale that a design with
    K runs per unit averages (:func:`design_se`)."""
    units = len(first)
    if units == 0:
        return Components(0, 0.0, 0.0, 0.0, 0.0, None, None)
    a = np.array([g.mean(axis=0) if mean_runs else g.sum(axis=0) for g in first], dtype=float)
    b = np.array([g.mean(axis=0) if mean_runs else g.sum(axis=0) for g in second], dtype=float)
    grad_a = units * gradient(statistic, a.sum(axis=0))
    grad_b = units * gradient(statistic, b.sum(axis=0))
    influences = a @ grad_a - b @ grad_b
    total = float(np.var(influences, ddof=1)) if units > 1 else 0.0
    # Run-to-run variance per run, in the mean-of-runs scale: a unit's mean of K runs varies by σ²_w / K.
    # In the sum scale a unit's total is K times its mean, so its influence is K times as large.
    within: list[float | None] = []
    in_total = 0.0
    for groups, grad in ((first, grad_a), (second, grad_b)):
        per_run = []
        contribution = []
        for g in groups:
            n = len(g)
            if n < 2:
                continue
            scale = 1.0 if mean_runs else float(n)
            values = (g @ grad) * scale  # each run's influence as if it were the unit's only run
            variance = float(np.var(values, ddof=1))
            per_run.append(variance)
            contribution.append(variance / n)  # the variance the unit's mean of its n runs carries
        if per_run:
            within.append(float(np.mean(per_run)))
            # units with one run carry run noise too, at the same rate: the mean contribution of a unit
            in_total += float(np.mean(contribution)) * len(contribution) / len(groups) + (
                float(np.mean(per_run)) * (len(groups) - len(contribution)) / len(groups)
            )
        else:
            within.append(None)
    runs_first = float(np.mean([len(g) for g in first]))
    runs_second = float(np.mean([len(g) for g in second]))
    between = max(0.0, total - in_total)
    return Components(units, runs_first, runs_second, total, between, within[0], within[1])


# -------------------------------------------------------------------------------- the multiplier


def _t_multiplier(units: int, alpha: float, power: float) -> float:
    from scipy.special import stdtrit

    df = units - 1
    return float(stdtrit(df, 1 - alpha / 2) + stdtrit(df, power))


def _sign_flip_rejects(samples: np.ndarray, alpha: float) -> np.ndarray:
    """For each row of ``samples`` (N, T), whether the exact two-sided sign-flip test of its mean rejects
    at ``alpha``: at most α · 2^T of the 2^T sign patterns give a |sum| at least the observed one (ties
    count as extreme). A pattern and its negation give the same |sum|, so half the patterns (the first sign
    kept) are enumerated and counted twice."""
    n, units = samples.shape
    half = 1 << (units - 1)
    patterns = (((np.arange(half)[:, None] >> np.arange(units - 1)) & 1) * 2.0 - 1.0).astype(np.float32)
    patterns = np.hstack([np.ones((half, 1), dtype=np.float32), patterns])
    values = samples.astype(np.float32)
    observed = np.abs(values.sum(axis=1))
    allowed = alpha * (1 << units)
    rejects = np.empty(n, dtype=bool)
    chunk = max(1, (1 << 22) // half)
    for start in range(0, n, chunk):
        block = np.abs(values[start : start + chunk] @ patterns.T)
        seen = observed[start : start + chunk]
        threshold = seen - 1e-5 * np.maximum(seen, 1.0)  # float32 rounding of equal sums
        extreme = 2 * (block >= threshold[:, None]).sum(axis=1)
        rejects[start : start + chunk] = extreme <= allowed
    return rejects


@lru_cache(maxsize=256)
def _exact_multiplier(units: int, allowed_patterns: int, power: float) -> float:
    """κ for the exact sign-flip test over ``units`` normal differences that rejects when at most
    ``allowed_patterns`` of the 2^units patterns are as extreme as the data (α = allowed / 2^units):
    bisection on the standardised effect, common random numbers for every trial effect."""
    alpha = allowed_patterns / float(1 << units)
    noise = np.random.default_rng(_SIMULATION_SEED + units).standard_normal((_SIMULATIONS, units))

    def detected(effect: float) -> float:
        return float(_sign_flip_rejects(noise + effect, alpha).mean())

    low, high = 0.0, max(1.0, _t_multiplier(units, alpha, power) / math.sqrt(units))
    while detected(high) < power:
        low, high = high, high * 1.5
        if high > 1e3:
            return math.inf
    for _ in range(24):
        middle = (low + high) / 2
        if detected(middle) < power:
            low = middle
        else:
            high = middle
        if high - low < 2e-3 * high:
            break
    return high * math.sqrt(units)


def multiplier(
    units: int, alpha: float, power: float = DEFAULT_POWER, floor: float | None = None
) -> float | None:
    """κ such that MDE = κ · SE(Δ) for a two-sided paired permutation test over ``units`` units at level
    ``alpha`` with the given power (module docstring); ``None`` when the test cannot reach ``alpha``: its
    smallest p, ``floor`` (by default the exact test's, :func:`p_floor`; a Monte Carlo test of R random
    swaps cannot go below 1 / (R + 1)), is above it."""
    if not 0 < alpha < 1 or not 0 < power < 1:
        raise ValueError(f"alpha and power must be in (0, 1), got {alpha} and {power}")
    if units < 2 or max(p_floor(units), floor or 0.0) > alpha:
        return None
    near_floor = alpha < 20 * p_floor(units)
    if units <= EXACT_UNITS or (near_floor and units <= _EXACT_NEAR_FLOOR_UNITS):
        allowed = int(math.floor(alpha * (1 << units) + 1e-9))
        found = _exact_multiplier(units, allowed, round(power, 6))
        return None if math.isinf(found) else found
    return _t_multiplier(units, alpha, power)


@dataclass(frozen=True)
class Detectable:
    """The minimum detectable effect of one comparison: ``effect`` at ``power`` and level ``alpha`` (the
    table's α divided by the ``family`` of comparisons Holm corrects together), from ``se``.

    ``effect`` is ``None`` either because the test cannot reach that level with ``units`` units
    (``reachable`` is false: no difference of any size can be shown) or because the units show no
    variation to plan from (``reachable`` true, ``se`` 0: every unit differs alike); ``reason`` says which."""

    effect: float | None
    se: float
    units: int
    alpha: float
    family: int
    power: float
    reachable: bool = True
    reason: str | None = None

    @property
    def table_alpha(self) -> float:
        return self.alpha * self.family

    @property
    def floor(self) -> float:
        """The smallest p the exact test over these units can give."""
        return p_floor(self.units)

    def to_json(self) -> dict[str, Any]:
        return {
            "effect": self.effect,
            "se": self.se,
            "units": self.units,
            "alpha": self.alpha,
            "family": self.family,
            "power": self.power,
            "reachable": self.reachable,
            "reason": self.reason,
        }


def detectable(
    se: float,
    units: int,
    *,
    alpha: float = DEFAULT_ALPHA,
    family: int = 1,
    power: float = DEFAULT_POWER,
    floor: float | None = None,
) -> Detectable:
    """The MDE of a comparison with standard error ``se`` over ``units`` units, at ``alpha`` / ``family``
    (Holm's level for the smallest of ``family`` p-values); ``floor``: the test's smallest p when it is not
    the exact test's (:func:`multiplier`)."""
    level = alpha / max(1, family)
    if units < 2:
        reason = "fewer than two units: nothing to test"
        return Detectable(None, se, units, level, family, power, False, reason)
    kappa = multiplier(units, level, power, floor)
    if kappa is None:
        smallest = max(p_floor(units), floor or 0.0)
        test = "exact test" if smallest == p_floor(units) else "test with its random swaps"
        reason = f"the {test}'s smallest p over {units} units is {smallest:.2g}, above the level {level:.2g}"
        return Detectable(None, se, units, level, family, power, False, reason)
    if not math.isfinite(se) or se <= 0:
        reason = "every unit differs alike: no variance to plan from"
        return Detectable(None, se, units, level, family, power, True, reason)
    return Detectable(kappa * se, se, units, level, family, power)


def units_needed(
    components: Components,
    effect: float,
    runs: float,
    *,
    alpha: float = DEFAULT_ALPHA,
    family: int = 1,
    power: float = DEFAULT_POWER,
    most: int = 100_000,
) -> int | None:
    """The fewest units with ``runs`` runs each for which the MDE is at most ``effect``; ``None`` beyond
    ``most`` (or when nothing varies and any number would do: then 2, the least a test needs)."""
    if effect <= 0:
        raise ValueError(f"the effect to detect must be positive, got {effect}")
    level = alpha / max(1, family)

    def enough(units: int) -> bool:
        kappa = multiplier(units, level, power)
        return kappa is not None and kappa * design_se(components, units, runs) <= effect

    low = 2
    if enough(low):
        return low
    high = 4
    while not enough(high):
        low, high = high, high * 2
        if high > most:
            return None
    while high - low > 1:
        middle = (low + high) // 2
        if enough(middle):
            high = middle
        else:
            low = middle
    return high


__all__ = [
    "DEFAULT_ALPHA",
    "DEFAULT_POWER",
    "EXACT_UNITS",
    "Components",
    "Detectable",
    "components",
    "design_se",
    "detectable",
    "gradient",
    "multiplier",
    "p_floor",
    "units_needed",
]
