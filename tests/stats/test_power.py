"""What a comparison can detect (benchmark/stats/power.py): the exact test's floor, the multiplier, the
variance components, and the calibration of the minimum detectable effect by simulation: studies planted
with an effect of the computed size are detected by the comparison's own permutation test in about 80 % of
the draws."""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy import optimize, stats

from benchmark.core.metrics import scores_array
from benchmark.stats.paired import compare
from benchmark.stats.power import (
    EXACT_UNITS,
    components,
    design_se,
    detectable,
    multiplier,
    p_floor,
    units_needed,
)


def accuracy(sums: np.ndarray) -> np.ndarray:
    sums = np.atleast_2d(sums)
    return sums[:, 0] / sums[:, 1]


def f1(sums: np.ndarray) -> np.ndarray:
    return scores_array(*np.atleast_2d(sums).T)["f1"]


def test_the_exact_test_has_a_floor_below_which_nothing_is_detectable() -> None:
    assert p_floor(8) == 2 / 256 and p_floor(1) == 1.0 and p_floor(0) == 1.0
    assert multiplier(8, 0.05 / 55) is None  # the bundled 55 provider pairs over 8 transformations
    assert multiplier(8, 0.05 / 4) is not None  # 0.0125 >= 2/256
    assert multiplier(5, 0.05) is None and multiplier(6, 0.05) is not None  # 2/32 > 0.05 > 2/64
    found = detectable(0.01, 8, alpha=0.05, family=55)
    assert found.effect is None and not found.reachable and found.alpha == pytest.approx(0.05 / 55)
    assert "0.0078, above the level 0.00091" in found.reason
    assert detectable(0.0, 20).effect is None and detectable(0.0, 20).reachable  # no variance to plan from
    assert detectable(0.1, 1).reason == "fewer than two units: nothing to test"


def test_a_monte_carlo_test_cannot_go_below_one_over_its_swaps() -> None:
    assert multiplier(105, 0.05 / 1000) is not None  # the exact floor is 2/2^105
    assert multiplier(105, 0.05 / 1000, floor=1 / 10_000) is None  # 9999 random swaps: p >= 0.0001
    found = detectable(0.01, 105, family=1000, floor=1 / 10_000)
    assert not found.reachable and "random swaps" in found.reason


def test_beyond_the_exact_range_the_multiplier_is_students() -> None:
    for units, alpha in ((30, 0.05), (105, 0.01), (EXACT_UNITS + 5, 0.05)):
        expected = stats.t.ppf(1 - alpha / 2, units - 1) + stats.t.ppf(0.8, units - 1)
        assert multiplier(units, alpha) == pytest.approx(expected, rel=1e-9)
    # with many units it is Miller's z formula
    assert multiplier(10_000, 0.05) == pytest.approx(stats.norm.ppf(0.975) + stats.norm.ppf(0.8), rel=1e-3)


def test_near_the_floor_the_exact_test_needs_more_than_the_normal_formula() -> None:
    t_formula = stats.t.ppf(1 - 0.0125 / 2, 7) + stats.t.ppf(0.8, 7)
    exact = multiplier(8, 0.0125)
    assert exact is not None and exact > 1.2 * t_formula  # 8 units at 0.05 / 4: about 5.4 against 4.2
    # away from the floor the two agree within a few percent
    assert multiplier(12, 0.05) == pytest.approx(stats.t.ppf(0.975, 11) + stats.t.ppf(0.8, 11), rel=0.03)
    # more power, or a stricter level, needs a larger effect
    assert multiplier(10, 0.05, 0.9) > multiplier(10, 0.05, 0.8) and multiplier(10, 0.01) > multiplier(
        10, 0.05
    )


def test_the_components_split_run_noise_from_unit_noise() -> None:
    rng = np.random.default_rng(3)
    units, runs = 4000, 3
    # accuracy: per unit a base rate shared by both sides (cancels in the pairing), plus an effect that
    # varies between units (the between part) and binomial run noise (the within part)
    first, second = [], []
    for _ in range(units):
        base, shift = rng.uniform(0.3, 0.7), rng.normal(0, 0.1)
        first.append(np.stack([rng.binomial(10, np.clip(base + shift, 0, 1), runs), np.full(runs, 10)], 1))
        second.append(np.stack([rng.binomial(10, base, runs), np.full(runs, 10)], 1))
    found = components(first, second, accuracy, mean_runs=False)
    assert found.between == pytest.approx(0.1**2, rel=0.15)
    assert found.within_first == pytest.approx(
        np.mean([p * (1 - p) / 10 for p in np.linspace(0.3, 0.7)]), rel=0.1
    )
    # the measured design's SE, and the same from the components with the design's runs
    assert design_se(found, units, runs) == pytest.approx(found.se, rel=0.05)
    # more runs shrink only the within part; more units shrink everything
    assert design_se(found, units, 100) > math.sqrt(found.between / units) * 0.99
    assert design_se(found, 4 * units, runs) == pytest.approx(found.se / 2, rel=0.05)
    single = components([g[:1] for g in first], [g[:1] for g in second], accuracy, mean_runs=False)
    assert single.within_first is None and single.within_second is None  # one run: no split


def _accuracy_study(rng, units, runs_first, runs_second, effect, answers=8):  # type: ignore[no-untyped-def]
    first, second = [], []
    for _ in range(units):
        base = rng.beta(4, 3)
        spread = rng.normal(0, 0.05)
        rate_first = np.clip(base + effect + spread, 0, 1)
        first.append(
            np.stack([rng.binomial(answers, rate_first, runs_first), np.full(runs_first, answers)], 1)
        )
        second.append(np.stack([rng.binomial(answers, base, runs_second), np.full(runs_second, answers)], 1))
    return first, second


def _detected(rng, studies, make, statistic) -> float:  # type: ignore[no-untyped-def]
    hits = 0
    for index in range(studies):
        first, second = make()
        units = [str(t) for t in range(len(first))]
        found = compare(
            units,
            first,
            second,
            statistic,
            interval_rng=rng,
            test_rng=np.random.default_rng(index),
            draws=0,
            permutations=999,
        )
        hits += found.p_value < 0.05
    return hits / studies


@pytest.mark.parametrize(
    ("units", "runs_first", "runs_second"),
    [(8, 3, 3), (10, 1, 1), (24, 1, 1), (40, 3, 1)],  # exact and t regions; balanced and averaged runs
)
def test_effects_of_the_computed_size_are_detected_in_about_80_percent_of_studies(
    units: int, runs_first: int, runs_second: int
) -> None:
    rng = np.random.default_rng(units * 7 + runs_first)
    # a large pilot of the same design estimates the components; the MDE of a study of ``units`` units
    pilot_first, pilot_second = _accuracy_study(rng, 3000, runs_first, runs_second, 0.0)
    mean_runs = runs_first != runs_second
    found = components(pilot_first, pilot_second, accuracy, mean_runs=mean_runs)
    if runs_first == runs_second:
        se = design_se(found, units, runs_first)
    else:  # the pilot's own design, scaled to fewer units
        se = found.se * math.sqrt(found.units / units)
    effect = detectable(se, units).effect
    assert effect is not None
    rate = _detected(rng, 300, lambda: _accuracy_study(rng, units, runs_first, runs_second, effect), accuracy)
    assert 0.70 <= rate <= 0.90, f"planted {effect:.3f}: detected in {rate:.0%} of studies"
    # and a null study is detected at about the level
    null = _detected(rng, 300, lambda: _accuracy_study(rng, units, runs_first, runs_second, 0.0), accuracy)
    assert null <= 0.09


def _f1_study(rng, units, runs, boost, size=12):  # type: ignore[no-untyped-def]
    """Per unit, mapping counts: ``size`` true correspondences, each found with the unit's recall (A: raised
    by ``boost`` of what is missed), and a few false ones."""
    first, second = [], []
    for _ in range(units):
        recall, noise = rng.beta(5, 3), rng.poisson(3)
        for side, rate in ((first, recall + boost * (1 - recall)), (second, recall)):
            tp = rng.binomial(size, rate, runs)
            side.append(np.stack([tp, rng.poisson(noise, runs), size - tp], 1).astype(float))
    return first, second


def _population_delta(boost: float) -> float:
    rng = np.random.default_rng(11)
    recall = rng.beta(5, 3, 200_000)
    noise = rng.poisson(3, 200_000)
    expected_b = np.array([[12 * recall.sum(), noise.sum(), 12 * (1 - recall).sum()]])
    found_a = 12 * (recall + boost * (1 - recall))
    expected_a = np.array([[found_a.sum(), noise.sum(), (12 - found_a).sum()]])
    return float(f1(expected_a)[0] - f1(expected_b)[0])


def test_an_f1_difference_of_the_computed_size_is_detected_in_about_80_percent_of_studies() -> None:
    rng = np.random.default_rng(17)
    units, runs = 16, 2
    pilot = components(*_f1_study(rng, 4000, runs, 0.0), f1, mean_runs=False)
    effect = detectable(design_se(pilot, units, runs), units, family=2).effect  # at 0.05 / 2
    assert effect is not None
    boost = optimize.brentq(lambda b: _population_delta(b) - effect, 0.0, 1.0)
    hits = 0
    for index in range(300):
        first, second = _f1_study(rng, units, runs, boost)
        found = compare(
            [str(t) for t in range(units)],
            first,
            second,
            f1,
            interval_rng=rng,
            test_rng=np.random.default_rng(index),
            draws=0,
            permutations=999,
        )
        hits += found.p_value < 0.025
    assert 0.70 <= hits / 300 <= 0.90, f"ΔF1 {effect:.3f}: detected in {hits / 300:.0%}"


def test_the_units_a_study_needs() -> None:
    rng = np.random.default_rng(5)
    found = components(*_accuracy_study(rng, 500, 2, 2, 0.0), accuracy, mean_runs=False)
    needed = units_needed(found, 0.1, 2)
    assert needed is not None and needed > 2
    assert detectable(design_se(found, needed, 2), needed).effect <= 0.1
    assert detectable(design_se(found, needed - 1, 2), needed - 1).effect > 0.1  # the fewest
    assert units_needed(found, 0.05, 2) > needed  # half the effect: about four times the units
    assert units_needed(found, 0.1, 5) <= needed  # more runs never need more units
    with pytest.raises(ValueError):
        units_needed(found, 0.0, 2)
