"""The order-statistic interval of a median (benchmark/stats/median_interval.py): its coverage against
scipy's binomial distribution, hand checks, and the coverage it claims measured on samples."""

from __future__ import annotations

import math
import random

import pytest
from scipy.stats import binom

from benchmark.stats.median_interval import median_interval


def test_five_values_give_their_whole_range_at_93_75_percent() -> None:
    assert median_interval([1.02, 0.97, 1.10, 0.95, 1.00]) == (0.95, 1.10, 0.9375)
    assert median_interval([4.0, 1.0, 3.0, 2.0]) is None  # 87.5 % at most
    assert median_interval([4.0, 1.0, 3.0, 2.0], confidence=0.85) == (1.0, 4.0, 0.875)
    assert median_interval([]) is None


def test_the_narrowest_interval_that_reaches_the_confidence() -> None:
    values = list(range(10, 0, -1))  # 10 values: k = 2 holds the median with 97.85 %, k = 3 with 89.1 %
    low, high, coverage = median_interval(values)
    assert (low, high) == (2, 9) and coverage == pytest.approx(1 - 2 * 11 / 1024)
    assert median_interval(values, confidence=0.85)[:2] == (3, 8)


@pytest.mark.parametrize("n", [5, 6, 7, 10, 15, 24])
def test_the_coverage_is_the_binomial_distributions(n: int) -> None:
    low, high, coverage = median_interval([float(i) for i in range(n)])
    k = int(low) + 1  # the k-th smallest value is k - 1
    assert high == n - k
    assert coverage == pytest.approx(1 - 2 * binom.cdf(k - 1, n, 0.5), abs=1e-12)
    assert coverage >= 0.90
    assert 1 - 2 * binom.cdf(k, n, 0.5) < 0.90  # one step narrower falls short


def test_the_claimed_coverage_holds_on_skewed_samples() -> None:
    rng = random.Random(23)
    for n in (5, 7, 12):
        hits, trials = 0, 20_000
        for _ in range(trials):
            sample = [rng.expovariate(1.0) for _ in range(n)]  # skewed, like session times
            low, high, claimed = median_interval(sample)
            hits += low <= math.log(2) <= high  # the exponential's median
        assert abs(hits / trials - claimed) < 0.01, (n, hits / trials, claimed)


def test_a_confidence_outside_zero_and_one_is_refused() -> None:
    with pytest.raises(ValueError, match="confidence"):
        median_interval([1.0] * 5, confidence=1.0)
