"""Sign-flip and paired swap permutation tests, McNemar and Holm against hand-computed values and SciPy."""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest
from scipy import stats as scipy_stats

from benchmark.core.metrics import scores_array
from benchmark.stats.bootstrap import rng_for
from benchmark.stats.significance import (
    MCNEMAR_CHI2,
    MCNEMAR_EXACT,
    MCNEMAR_NONE,
    holm,
    mcnemar,
    paired_swap_test,
    sign_flip_test,
)


def f1_difference(first: np.ndarray, second: np.ndarray) -> np.ndarray:
    return scores_array(*first.T)["f1"] - scores_array(*second.T)["f1"]


def test_swap_test_hand_computed():
    # three units, A right on all (2 TP each), B wrong on all (2 FN each): micro F1 1 against 0. Swapping
    # one unit gives A' = (4, 0, 2), F1 0.8, and B' = (2, 0, 4), F1 0.5: 0.3; two units -0.3; all three -1.
    # Only "none" and "all" reach |1|: p = 2/8.
    first = np.array([[2.0, 0, 0]] * 3)
    second = np.array([[0.0, 0, 2]] * 3)
    result = paired_swap_test(first, second, f1_difference)
    assert (result.statistic, result.p_value, result.exact, result.resamples, result.n) == (
        1.0,
        0.25,
        True,
        8,
        3,
    )
    assert paired_swap_test(first, first, f1_difference).p_value == 1.0  # identical systems
    assert paired_swap_test(first[:0], second[:0], f1_difference).p_value == 1.0


def test_swap_test_monte_carlo_beyond_the_exact_limit():
    rng = np.random.default_rng(7)
    first = rng.integers(0, 9, size=(14, 3)).astype(float)
    second = rng.integers(0, 9, size=(14, 3)).astype(float)
    exact = paired_swap_test(first, second, f1_difference, exact_max=16)
    sampled = paired_swap_test(
        first, second, f1_difference, exact_max=10, resamples=40000, rng=rng_for(3, "swap")
    )
    assert exact.exact and not sampled.exact and sampled.statistic == exact.statistic
    assert sampled.p_value == pytest.approx(exact.p_value, abs=0.01)
    with pytest.raises(ValueError, match="seeded generator"):
        paired_swap_test(first, second, f1_difference, exact_max=4)


def test_sign_flip_hand_computed():
    # d = (1, 2, 3): of the 8 sign patterns only +++ and --- reach |mean| = 2, so p = 2/8.
    result = sign_flip_test([1.0, 2.0, 3.0])
    assert (result.statistic, result.p_value, result.exact, result.resamples) == (2.0, 0.25, True, 8)
    # d = (1, -1): the observed mean is 0, every pattern is as extreme
    assert sign_flip_test([1.0, -1.0]).p_value == 1.0
    # one transformation: both signs give the same |mean|, the test can never reject
    assert sign_flip_test([0.4]).p_value == 1.0
    assert sign_flip_test([]).p_value == 1.0


def _scipy_sign_flip(d: np.ndarray) -> float:
    result = scipy_stats.permutation_test(
        (d,), np.mean, permutation_type="samples", n_resamples=np.inf, alternative="two-sided"
    )
    return float(result.pvalue)


@pytest.mark.parametrize("seed", range(6))
def test_sign_flip_matches_scipy_exact_enumeration(seed):
    rng = np.random.default_rng(seed)
    d = np.round(rng.normal(0.05, 0.1, size=int(rng.integers(3, 10))), 3)
    assert sign_flip_test(d).p_value == pytest.approx(_scipy_sign_flip(d), rel=1e-12)


def test_sign_flip_counts_ties_from_rounding_as_extreme():
    # 0.1 + 0.2 + 0.3 and its sign patterns differ only by rounding; the all-positive and all-negative
    # patterns must both count: p = 2/8.
    assert sign_flip_test([0.1, 0.2, 0.3]).p_value == 0.25


def test_sign_flip_monte_carlo_beyond_the_exact_limit():
    rng = np.random.default_rng(9)
    d = rng.normal(0.03, 0.1, size=18)
    exact = sign_flip_test(d, exact_max=18).p_value
    sampled = sign_flip_test(d, exact_max=16, resamples=40000, rng=rng_for(1, "mc"))
    assert not sampled.exact and sampled.resamples == 40000
    assert sampled.p_value == pytest.approx(exact, abs=0.01)
    assert sampled == sign_flip_test(d, exact_max=16, resamples=40000, rng=rng_for(1, "mc"))
    with pytest.raises(ValueError, match="seeded generator"):
        sign_flip_test(d, exact_max=4)
    # the Monte Carlo estimator never reports 0
    assert sign_flip_test([1.0] * 30, resamples=99, rng=rng_for(2, "mc")).p_value == pytest.approx(1 / 100)


def test_mcnemar_exact_hand_computed():
    # b = 8, c = 2: two-sided binomial p = 2 * (C(10,0) + C(10,1) + C(10,2)) / 2^10 = 112/1024
    result = mcnemar(8, 2)
    assert result.method == MCNEMAR_EXACT
    assert result.p_value == pytest.approx(112 / 1024, rel=1e-12)
    assert result.discordant == 10 and result.statistic is None
    assert mcnemar(5, 5).p_value == pytest.approx(1.0)


def test_mcnemar_chi_square_with_continuity_correction():
    result = mcnemar(30, 10)
    assert result.method == MCNEMAR_CHI2
    assert result.statistic == pytest.approx((20 - 1) ** 2 / 40)
    assert result.p_value == pytest.approx(scipy_stats.chi2.sf(9.025, 1))
    assert result.p_value == pytest.approx(0.002663, abs=1e-6)


def test_mcnemar_switches_at_25_discordant_items():
    assert mcnemar(20, 4).method == MCNEMAR_EXACT
    assert mcnemar(20, 5).method == MCNEMAR_CHI2
    assert mcnemar(20, 4).p_value == pytest.approx(scipy_stats.binomtest(20, 24, 0.5).pvalue)
    none = mcnemar(0, 0)
    assert (none.method, none.p_value) == (MCNEMAR_NONE, 1.0)
    with pytest.raises(ValueError):
        mcnemar(-1, 3)


def test_mcnemar_agrees_with_scipy_on_every_exact_table_and_across_the_chi_square_range():
    for n in range(1, 25):
        for b in range(n + 1):
            expected = float(scipy_stats.binomtest(b, n, 0.5, alternative="two-sided").pvalue)
            assert mcnemar(b, n - b).p_value == pytest.approx(min(1.0, expected), rel=1e-12), (b, n)
    for n in range(25, 2000, 13):
        for b in range(0, n + 1, max(1, n // 30)):
            x = (abs(b - (n - b)) - 1) ** 2 / n
            assert mcnemar(b, n - b).p_value == pytest.approx(scipy_stats.chi2.sf(x, 1), rel=1e-10), (b, n)


def test_mcnemar_does_not_import_scipy_stats():
    """A report's McNemar tests never import scipy.stats (0.7 s of a cold session); the exact test needs no
    scipy at all."""
    code = "import sys\nfrom benchmark.stats.significance import mcnemar\nmcnemar(8, 2)\n"
    code += "print('scipy' in sys.modules, end=' ')\nmcnemar(30, 10)\nprint('scipy.stats' in sys.modules)"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert (done.returncode, done.stdout.strip()) == (0, "False False"), done.stderr


def test_the_chi_square_tail_is_scipys_to_the_bit():
    for n in range(25, 3000, 7):
        for b in range(0, n + 1, max(1, n // 40)):
            x = (abs(b - (n - b)) - 1) ** 2 / n
            assert mcnemar(b, n - b).p_value == float(scipy_stats.chi2.sf(x, 1)), (b, n)


def test_holm_hand_computed():
    # sorted: 0.005*4 = 0.02, 0.01*3 = 0.03, 0.03*2 = 0.06, 0.04*1 = 0.04 -> running max 0.06
    assert holm([0.01, 0.04, 0.03, 0.005]) == pytest.approx([0.03, 0.06, 0.06, 0.02])
    assert holm([0.5, 0.6]) == [1.0, 1.0]
    assert holm([0.02]) == [0.02]
    assert holm([]) == []
    p = [0.001, 0.2, 0.04, 0.04]
    adjusted = holm(p)
    assert all(a >= raw for a, raw in zip(adjusted, p, strict=True))
