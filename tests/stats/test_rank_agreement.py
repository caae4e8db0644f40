"""Kendall's W and the swapped pairs (benchmark/stats/rank_agreement.py): hand checks, ties, and W against
Friedman's statistic from scipy (chi-square = m (n - 1) W, tie corrections included in both)."""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st
from scipy.stats import friedmanchisquare, rankdata

from benchmark.stats.rank_agreement import Swap, average_ranks, kendall_w, rank_agreement


def test_hand_checks() -> None:
    assert kendall_w([[3, 2, 1], [3, 1, 2]]) == pytest.approx(0.75)  # docs/STATISTICS.md §3.5
    assert kendall_w([[3, 2, 1], [30, 20, 10], [0.3, 0.2, 0.1]]) == pytest.approx(1.0)
    assert kendall_w([[3, 2, 1], [1, 2, 3]]) == pytest.approx(0.0)


def test_ties_are_averaged_and_corrected() -> None:
    assert kendall_w([[1, 1, 0], [1, 1, 0]]) == pytest.approx(1.0)
    assert kendall_w([[1, 1, 1], [2, 2, 2]]) is None  # every ranking ties every item: undefined
    assert kendall_w([[1.0, 0.5]]) is None and kendall_w([[1.0], [2.0]]) is None  # too few


def test_w_agrees_with_friedmans_statistic() -> None:
    rng = random.Random(7)
    for _ in range(20):
        m, n = rng.randint(2, 5), rng.randint(3, 6)
        scores = [[float(rng.randint(0, 4)) for _ in range(n)] for _ in range(m)]
        if all(len(set(row)) == 1 for row in scores):
            continue
        statistic = friedmanchisquare(*[[row[i] for row in scores] for i in range(n)]).statistic
        assert kendall_w(scores) == pytest.approx(statistic / (m * (n - 1)))


def test_swapped_pairs_name_the_rankings_on_each_side() -> None:
    found = rank_agreement(
        {"study": {"A": 0.9, "B": 0.5, "C": 0.1}, "terse": {"A": 0.4, "B": 0.5, "C": 0.1},
         "stepwise": {"A": 0.8, "B": 0.8, "C": 0.2}},
        ["A", "B", "C"],
    )  # fmt: skip
    assert found.rankings == ("study", "terse", "stepwise") and found.items == ("A", "B", "C")
    assert found.swaps == (Swap("A", "B", ("study",), ("terse",)),)  # a tie under stepwise is no swap
    assert found.w is not None and 0 < found.w < 1


@given(st.lists(st.sampled_from([0.0, 0.25, 0.5, 0.5, 1.0, -3.0, 2.5, float("nan")]), max_size=12))
def test_average_ranks_are_scipys_rankdata(values):
    expected = [float(r) for r in rankdata(values, method="average")] if values else []
    got = average_ranks(values)
    assert len(got) == len(expected)
    assert all((g == e) or (g != g and e != e) for g, e in zip(got, expected, strict=True))
