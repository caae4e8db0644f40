"""Paired significance tests: sign-flip permutation test, McNemar, Holm's step-down correction.

Providers answer the same transformations, so comparisons are paired. Overlapping single-system
intervals are *not* a test (that would be an unpaired comparison at maximal variance).

* Across transformations, for a statistic of pooled counts (micro F1): :func:`paired_swap_test`. Under H0
  "no difference" the two systems' count vectors on each transformation are exchangeable, so swapping them
  on any subset of the transformations gives a statistic as likely as the observed one; the two-sided
  p-value is the share of swap patterns whose |statistic| is at least the observed one. The test measures
  the same quantity as the point estimate and the paired bootstrap interval (the micro difference),
  so the interval and the p-value cannot tell different stories.
* Across transformations, for a mean of per-transformation differences d_t: :func:`sign_flip_test` (the
  d_t are exchangeable in sign under H0; the statistic is their mean).
* Both: with up to ``exact_max`` transformations every one of the 2^T patterns is enumerated (an exact
  p); beyond that a seeded Monte Carlo sample is used with the (count + 1) / (resamples + 1) estimator,
  which never gives 0.
* Within a transformation: McNemar on paired binary outcomes. With b + c discordant items below 25 the
  exact two-sided binomial test (p = 1/2, summed in integers) is used, otherwise the chi-square
  statistic with continuity correction (|b - c| - 1)^2 / (b + c) on one degree of freedom.
* Many pairs: Holm's step-down adjustment controls the family-wise error rate without assuming
  independence.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

EXACT_SIGN_FLIP_MAX = 16  # 2^16 = 65 536 sign patterns
DEFAULT_PERMUTATIONS = 9999
MCNEMAR_EXACT_BELOW = 25

_CHUNK = 1 << 16


@dataclass(frozen=True)
class PermutationResult:
    """``statistic`` is the observed statistic (the mean difference of a sign-flip test, the difference
    of a swap test); ``exact`` says whether all 2^n patterns were enumerated."""

    statistic: float
    p_value: float
    n: int
    exact: bool
    resamples: int

    def to_json(self) -> dict[str, Any]:
        return {
            "statistic": self.statistic,
            "pValue": self.p_value,
            "n": self.n,
            "exact": self.exact,
            "resamples": self.resamples,
        }


def _tolerance(observed: float) -> float:
    # Sign patterns that reproduce the observed |mean| up to rounding must count as "as extreme".
    return 100 * np.finfo(float).eps * max(abs(observed), 1.0)


def sign_flip_test(
    differences: Sequence[float],
    *,
    exact_max: int = EXACT_SIGN_FLIP_MAX,
    resamples: int = DEFAULT_PERMUTATIONS,
    rng: np.random.Generator | None = None,
) -> PermutationResult:
    """Two-sided sign-flip permutation test of mean(differences) = 0."""
    d = np.asarray(differences, dtype=float)
    n = len(d)
    if n == 0:
        return PermutationResult(0.0, 1.0, 0, True, 0)
    observed = float(d.mean())
    threshold = abs(observed) - _tolerance(observed)
    if n <= exact_max:
        total = 1 << n
        extreme = 0
        bits = np.arange(n)
        for start in range(0, total, _CHUNK):
            patterns = np.arange(start, min(total, start + _CHUNK))
            signs = ((patterns[:, None] >> bits) & 1) * 2 - 1
            extreme += int((np.abs(signs @ d / n) >= threshold).sum())
        return PermutationResult(observed, extreme / total, n, True, total)
    if rng is None:
        raise ValueError("a Monte Carlo sign-flip test needs a seeded generator")
    extreme = 0
    per_chunk = max(1, _CHUNK * 16 // n)
    for start in range(0, resamples, per_chunk):
        size = min(per_chunk, resamples - start)
        signs = np.where(rng.random((size, n)) < 0.5, -1.0, 1.0)
        extreme += int((np.abs(signs @ d / n) >= threshold).sum())
    return PermutationResult(observed, (extreme + 1) / (resamples + 1), n, False, resamples)


def paired_swap_test(
    first: np.ndarray,
    second: np.ndarray,
    statistic: Callable[[np.ndarray, np.ndarray], np.ndarray],
    *,
    exact_max: int = EXACT_SIGN_FLIP_MAX,
    resamples: int = DEFAULT_PERMUTATIONS,
    rng: np.random.Generator | None = None,
) -> PermutationResult:
    """Two-sided paired permutation test of ``statistic(sum of first, sum of second) = 0``.

    ``first[t]`` and ``second[t]`` are the two systems' count vectors on unit ``t`` (shape ``(T, k)``);
    ``statistic(a, b)`` maps summed count vectors (rows: patterns, shape ``(P, k)``) to one value per
    row (the micro F1 of ``a`` minus that of ``b``, say). Each pattern swaps the two systems' vectors on
    a subset of the units."""
    a = np.asarray(first, dtype=float)
    b = np.asarray(second, dtype=float)
    n = len(a)
    if n == 0:
        return PermutationResult(0.0, 1.0, 0, True, 0)
    base_a, base_b, swap = a.sum(axis=0), b.sum(axis=0), b - a

    def values(patterns: np.ndarray) -> np.ndarray:
        moved = patterns @ swap  # what each pattern moves from one side to the other
        return np.asarray(statistic(base_a + moved, base_b - moved), dtype=float)

    observed = float(values(np.zeros((1, n)))[0])
    threshold = abs(observed) - _tolerance(observed)
    if n <= exact_max:
        total = 1 << n
        extreme = 0
        bits = np.arange(n)
        for start in range(0, total, _CHUNK):
            patterns = np.arange(start, min(total, start + _CHUNK))
            chosen = ((patterns[:, None] >> bits) & 1).astype(float)
            extreme += int((np.abs(values(chosen)) >= threshold).sum())
        return PermutationResult(observed, extreme / total, n, True, total)
    if rng is None:
        raise ValueError("a Monte Carlo swap test needs a seeded generator")
    extreme = 0
    per_chunk = max(1, _CHUNK * 16 // n)
    for start in range(0, resamples, per_chunk):
        size = min(per_chunk, resamples - start)
        chosen = (rng.random((size, n)) < 0.5).astype(float)
        extreme += int((np.abs(values(chosen)) >= threshold).sum())
    return PermutationResult(observed, (extreme + 1) / (resamples + 1), n, False, resamples)


@dataclass(frozen=True)
class McNemarResult:
    """``b``: items the first system got right and the second wrong; ``c``: the reverse."""

    b: int
    c: int
    p_value: float
    method: str
    statistic: float | None = None

    @property
    def discordant(self) -> int:
        return self.b + self.c

    def to_json(self) -> dict[str, Any]:
        return {
            "b": self.b,
            "c": self.c,
            "discordant": self.discordant,
            "statistic": self.statistic,
            "pValue": self.p_value,
            "method": self.method,
        }


MCNEMAR_NONE = "no discordant items"
MCNEMAR_EXACT = "exact binomial"
MCNEMAR_CHI2 = "chi-square with continuity correction"


def mcnemar(b: int, c: int, *, exact_below: int = MCNEMAR_EXACT_BELOW) -> McNemarResult:
    """McNemar's test on the discordant counts of a paired 2x2 table."""
    if b < 0 or c < 0:
        raise ValueError("discordant counts cannot be negative")
    n = b + c
    if n == 0:
        return McNemarResult(b, c, 1.0, MCNEMAR_NONE)
    if n < exact_below:
        return McNemarResult(b, c, binomial_two_sided_half(b, n), MCNEMAR_EXACT)
    statistic = (abs(b - c) - 1) ** 2 / n
    return McNemarResult(b, c, chi2_sf_one_dof(statistic), MCNEMAR_CHI2, float(statistic))


def binomial_two_sided_half(k: int, n: int) -> float:
    """The two-sided p-value of ``k`` successes in ``n`` trials under p = 1/2, computed exactly.

    The distribution is symmetric, so the outcomes at most as likely as ``k`` are the two tails beyond
    ``min(k, n - k)``: p = 2 * sum_{i <= m} C(n, i) / 2^n, capped at 1 (``k = n/2`` gives 1). Integer
    arithmetic makes it the exact value rounded once; ``scipy.stats.binomtest`` agrees to the last bit or
    two (tested) and costs 0.7 s to import in a session that needs nothing else from scipy.stats.
    """
    m = min(k, n - k)
    tail = sum(math.comb(n, i) for i in range(m + 1))
    return min(1.0, tail / 2 ** (n - 1))


def chi2_sf_one_dof(x: float) -> float:
    """P(X >= x) for a chi-square variable with one degree of freedom.

    ``scipy.special.chdtrc`` is what ``scipy.stats.chi2.sf`` computes, to the bit (tested), at a third of
    the import (0.2 s against 0.7 s). ``erfc(sqrt(x / 2))`` would do without scipy but differs in the last
    digits, and the report files must stay what they were.
    """
    from scipy.special import chdtrc

    return float(chdtrc(1, x))


def holm(p_values: Sequence[float]) -> list[float]:
    """Holm-adjusted p-values in the input order: sorted ascending, p_(i) times (m - i + 1), made
    monotone with a running maximum, capped at 1."""
    m = len(p_values)
    order = sorted(range(m), key=lambda i: (p_values[i], i))
    adjusted = [0.0] * m
    running = 0.0
    for rank, index in enumerate(order):
        running = max(running, min(1.0, (m - rank) * p_values[index]))
        adjusted[index] = running
    return adjusted


__all__ = [
    "DEFAULT_PERMUTATIONS",
    "EXACT_SIGN_FLIP_MAX",
    "MCNEMAR_CHI2",
    "MCNEMAR_EXACT",
    "MCNEMAR_EXACT_BELOW",
    "MCNEMAR_NONE",
    "McNemarResult",
    "PermutationResult",
    "holm",
    "mcnemar",
    "paired_swap_test",
    "sign_flip_test",
]
