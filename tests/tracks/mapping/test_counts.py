import math

import pytest

from benchmark.tracks.mapping.counts import BindingCounts, ClassCounts, level_scores, scores


def test_scores_hand_computed():
    s = scores(tp=3, fp=1, fn=2)
    assert s.precision == pytest.approx(0.75)
    assert s.recall == pytest.approx(0.6)
    assert s.f1 == pytest.approx(2 * 0.75 * 0.6 / 1.35)
    assert s.accuracy == pytest.approx(0.5)


def test_zero_denominators_give_zero_not_nan():
    s = scores(0, 0, 0)
    assert (s.precision, s.recall, s.f1, s.accuracy) == (0.0, 0.0, 0.0, 0.0)
    assert not any(math.isnan(v) for v in s.to_json().values())


def test_binding_counts_apply_partial_weight():
    b = BindingCounts(exact=2, partial=2, divergent=1, target_only=5, only_generated=1, only_atl=3)
    assert b.tp(0.5) == 3.0
    assert b.fp(0.5) == 1 + 1 + 1.0
    assert b.fn(0.5) == 3 + 1 + 1.0
    assert b.tp(1.0) == 4.0 and b.fp(1.0) == 2.0 and b.fn(1.0) == 4.0
    # target-only keys are neutral: they change no formula
    assert b.scores(0.5) == BindingCounts(2, 2, 1, 0, 1, 3).scores(0.5)


def test_overall_pools_class_and_binding_counts():
    levels = level_scores(ClassCounts(2, 1, 1), BindingCounts(exact=4, only_atl=4), 0.5)
    assert levels.overall == scores(6, 1, 5)
    assert levels.classes == scores(2, 1, 1)


def test_add_category_rejects_unknown_names():
    assert BindingCounts().add_category("partial", 2).partial == 2
    with pytest.raises(ValueError, match="unknown binding category"):
        BindingCounts().add_category("nearly")


def test_scores_array_equals_scalar_scores_bit_for_bit():
    import numpy as np

    from benchmark.tracks.mapping.counts import scores_array

    rng = np.random.default_rng(7)
    tp = np.concatenate([rng.integers(0, 20, 500) + 0.5 * rng.integers(0, 3, 500), [0, 0, 3]])
    fp = np.concatenate([rng.integers(0, 20, 500) + 0.5 * rng.integers(0, 3, 500), [0, 4, 0]])
    fn = np.concatenate([rng.integers(0, 20, 500) * 1.0, [0, 0, 0]])
    vectorised = scores_array(tp, fp, fn)
    for i in range(len(tp)):
        expected = scores(float(tp[i]), float(fp[i]), float(fn[i])).to_json()
        assert {k: float(v[i]) for k, v in vectorised.items()} == expected
