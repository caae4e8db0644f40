"""The two-level bootstrap: exact distributions of tiny cases, pairing, degeneracy, reproducibility."""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest

from benchmark.stats import bootstrap
from benchmark.stats.bootstrap import (
    cluster_bootstrap,
    degeneracy_note,
    paired_bootstrap_delta,
    percentile_interval,
    resample_sums,
    rng_for,
)
from benchmark.tracks.mapping.counts import scores

A = np.array([[4.0, 1.0, 2.0]])  # one run: tp, fp, fn
B = np.array([[1.0, 3.0, 3.0]])


def test_rng_for_is_reproducible_and_separates_quantities():
    first = rng_for(7, "provider", "GPT").random(5)
    assert np.array_equal(first, rng_for(7, "provider", "GPT").random(5))
    assert not np.array_equal(first, rng_for(7, "provider", "Claude").random(5))
    assert not np.array_equal(first, rng_for(8, "provider", "GPT").random(5))
    with pytest.raises(ValueError, match="non-negative"):
        rng_for(-1, "x")


def test_transformations_are_drawn_with_replacement_in_the_exact_proportions():
    # Two transformations with one run each: a draw is (A, A), (A, B), (B, A) or (B, B), so the pooled
    # counts are 2A, A+B, 2B with probabilities 1/4, 1/2, 1/4.
    (sums,) = resample_sums([[A, B]], 8000, rng_for(1, "t"))
    seen = Counter(tuple(row) for row in sums)
    assert set(seen) == {(8.0, 2.0, 4.0), (5.0, 4.0, 5.0), (2.0, 6.0, 6.0)}
    assert seen[(8.0, 2.0, 4.0)] / 8000 == pytest.approx(0.25, abs=0.02)
    assert seen[(5.0, 4.0, 5.0)] / 8000 == pytest.approx(0.50, abs=0.02)
    assert seen[(2.0, 6.0, 6.0)] / 8000 == pytest.approx(0.25, abs=0.02)


def test_runs_are_resampled_within_each_drawn_transformation():
    # One transformation, two runs: the runs are drawn twice with replacement.
    runs = np.vstack([A, B])
    (sums,) = resample_sums([[runs]], 8000, rng_for(2, "r"))
    seen = Counter(tuple(row) for row in sums)
    assert set(seen) == {(8.0, 2.0, 4.0), (5.0, 4.0, 5.0), (2.0, 6.0, 6.0)}
    assert seen[(5.0, 4.0, 5.0)] / 8000 == pytest.approx(0.5, abs=0.02)


def test_a_transformation_keeps_its_own_run_count():
    # T1 has three runs of (1, 0, 0); T2 one run of (0, 1, 0). Every draw sums 3 runs of a T1 pick or
    # 1 run of a T2 pick, so tp + fp is 6 (T1, T1), 4 (T1, T2 either order) or 2 (T2, T2).
    t1 = np.array([[1.0, 0.0, 0.0]] * 3)
    t2 = np.array([[0.0, 1.0, 0.0]])
    (sums,) = resample_sums([[t1, t2]], 4000, rng_for(3, "n"))
    assert set((sums[:, 0] + sums[:, 1]).tolist()) == {6.0, 4.0, 2.0}


def test_interval_is_the_percentiles_of_the_metric_draws():
    groups = [A, B]
    intervals = cluster_bootstrap(groups, draws=4000, rng=rng_for(4, "p"))
    f1_values = [scores(*c).f1 for c in ([8, 2, 4], [5, 4, 5], [2, 6, 6])]
    # the 2.5% and 97.5% percentiles of a distribution on three atoms are its extreme atoms
    assert intervals["f1"].low == pytest.approx(min(f1_values))
    assert intervals["f1"].high == pytest.approx(max(f1_values))
    assert intervals["f1"].draws == 4000
    assert (
        intervals["f1"].note
        == "one run per transformation: the interval shows variation over transformations only"
    )


def test_one_transformation_one_run_is_degenerate_and_says_so():
    intervals = cluster_bootstrap([A], draws=50, rng=rng_for(5, "d"))
    point = scores(4, 1, 2)
    assert intervals["f1"].low == intervals["f1"].high == pytest.approx(point.f1)
    assert intervals["f1"].degenerate and intervals["f1"].se == 0.0
    assert "nothing to resample" in (intervals["f1"].note or "")
    assert "run-to-run variation only" in (degeneracy_note([3]) or "")
    assert degeneracy_note([2, 3]) is None
    assert cluster_bootstrap([], draws=10, rng=rng_for(5, "e")) == {}


def test_same_seed_gives_the_same_digits_and_chunking_changes_nothing(monkeypatch):
    rng_groups = np.random.default_rng(0)
    groups = [rng_groups.integers(0, 9, size=(n, 3)).astype(float) for n in (5, 3, 7, 1)]
    first = cluster_bootstrap(groups, draws=2000, rng=rng_for(11, "x"))
    again = cluster_bootstrap(groups, draws=2000, rng=rng_for(11, "x"))
    assert first == again  # every field, every digit
    other_seed = cluster_bootstrap(groups, draws=2000, rng=rng_for(12, "x"))
    assert other_seed["f1"] != first["f1"]
    monkeypatch.setattr(bootstrap, "_CELLS_PER_CHUNK", 40)  # a chunk of one draw at a time
    assert cluster_bootstrap(groups, draws=2000, rng=rng_for(11, "x")) == first


def test_paired_bootstrap_shares_the_transformation_draws():
    # Identical systems with one run per transformation: every draw picks the same transformations for
    # both, so every difference is exactly 0. Unpaired draws would scatter around 0.
    groups = [A, B, np.array([[3.0, 3.0, 0.0]])]
    interval = paired_bootstrap_delta(groups, groups, draws=500, rng=rng_for(6, "pair"))
    assert interval is not None and interval.low == interval.high == 0.0
    better = [g + np.array([[1.0, -0.5, -0.5]]) for g in groups]  # one more TP in place of errors
    interval = paired_bootstrap_delta(better, groups, draws=500, rng=rng_for(6, "pair"))
    assert interval is not None and interval.low > 0
    assert paired_bootstrap_delta([], [], draws=10, rng=rng_for(6, "none")) is None


def test_percentile_interval_and_argument_checks():
    values = np.arange(1001, dtype=float)
    interval = percentile_interval(values, confidence=0.9)
    assert (interval.low, interval.high) == (50.0, 950.0)
    with pytest.raises(ValueError, match="draws"):
        resample_sums([[A]], 0, rng_for(1, "z"))
    with pytest.raises(ValueError, match="same, non-empty"):
        resample_sums([[A], [A, B]], 5, rng_for(1, "z"))


def test_whole_number_counts_are_summed_as_integers_to_the_bit(monkeypatch):
    # Whole-number rows are summed as integers: packed side by side in one integer per row when every
    # column's sums fit in their bit field (small counts), else column by column (large ones). Either
    # way the result must be the gathered rows' sum to the bit, for one and for several systems sharing
    # the draws.
    rng_groups = np.random.default_rng(3)
    assert bootstrap._integral(np.array([[1.0, 2.0]])) and not bootstrap._integral(np.array([[0.5]]))
    for high in (50, 2**30):  # packed; too wide to pack
        first = [rng_groups.integers(0, high, size=(n, 4)).astype(float) for n in (1, 4, 2, 7, 1)]
        second = [rng_groups.integers(0, 9, size=(n, 4)).astype(float) for n in (3, 1, 1, 2, 5)]
        counted = resample_sums([first, second], 3000, rng_for(9, "c"))
        with monkeypatch.context() as patched:
            patched.setattr(bootstrap, "_integral", lambda values: False)
            gathered = resample_sums([first, second], 3000, rng_for(9, "c"))
        assert all(np.array_equal(a, b) for a, b in zip(counted, gathered, strict=True))


@pytest.mark.parametrize("bits", [np.random.PCG64, np.random.Philox])
def test_skipped_uniforms_leave_the_stream_where_drawing_them_would(bits):
    # With one run per transformation the within-transformation uniforms are not needed but belong to
    # the stream: skipping them (PCG64 advances, another generator draws) must leave the generator
    # exactly where drawing them would.
    for count in (0, 1, 7, 4096, 123_457):
        drawn, skipped = np.random.Generator(bits(21)), np.random.Generator(bits(21))
        drawn.random(3), skipped.random(3)
        drawn.random(count)
        bootstrap._skip(skipped, count)
        assert np.array_equal(drawn.random(64), skipped.random(64))
