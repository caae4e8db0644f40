"""Do several rankings of the same items agree? Kendall's W, and the pairs of items whose order flips.

The prompt-sensitivity report (:mod:`benchmark.reports.sensitivity`) ranks the providers of a track once
per prompt template; a study's conclusion ("A is better than B") survives a change of wording only when
the rankings agree. Two answers, both exact for any number of items:

* **Kendall's coefficient of concordance** W over m rankings (the templates, as "judges") of the same
  n items (the providers), with average ranks for ties and the tie correction:
  ``W = 12 S / (m^2 (n^3 - n) - m sum_j T_j)``, ``S = sum_i (R_i - m (n + 1) / 2)^2``, ``R_i`` the rank sum
  of item i, ``T_j = sum (t^3 - t)`` over the groups of t tied items of ranking j. W = 1: every ranking
  orders the items alike; W = 0: the rank sums are all equal (no agreement at all). W is undefined (None)
  for fewer than two items or rankings, or when every ranking ties every item.
* **Swapped pairs**: the pairs (a, b) that one ranking puts a ahead of b and another b ahead of a, with the
  rankings on each side. A pair tied under some rankings and ordered one way under all others is not a
  swap.

Higher scores rank first. No p-value is given: with a handful of providers the chi-square approximation
of W's test (m (n - 1) W on n - 1 degrees of freedom) is poor, and the swapped pairs say more.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from itertools import combinations


def average_ranks(values: Sequence[float]) -> list[float]:
    """The ranks of ``values`` from 1 (smallest), tied values sharing the mean of their positions: what
    ``scipy.stats.rankdata(values, method="average")`` gives (exact halves), without importing
    ``scipy.stats`` (about a second, in every session that writes the prompt-sensitivity report). A NaN
    among them makes every rank NaN, as rankdata's default ``nan_policy`` does."""
    if any(value != value for value in values):
        return [float("nan")] * len(values)
    order = sorted(range(len(values)), key=values.__getitem__)
    ranks = [0.0] * len(values)
    start = 0
    while start < len(order):
        end = start
        while end + 1 < len(order) and values[order[end + 1]] == values[order[start]]:
            end += 1
        for position in range(start, end + 1):
            ranks[order[position]] = (start + end) / 2 + 1
        start = end + 1
    return ranks


@dataclass(frozen=True)
class Swap:
    """Items ``first`` and ``second`` (in the given item order), the rankings that put ``first`` ahead and
    those that put ``second`` ahead."""

    first: str
    second: str
    first_ahead: tuple[str, ...]
    second_ahead: tuple[str, ...]


@dataclass(frozen=True)
class RankAgreement:
    """Kendall's W of the rankings (None when undefined), how many items and rankings it is over, and the
    pairs that swap."""

    w: float | None
    items: tuple[str, ...]
    rankings: tuple[str, ...]
    swaps: tuple[Swap, ...]


def kendall_w(scores: Sequence[Sequence[float]]) -> float | None:
    """W of m rankings given as scores: ``scores[j][i]`` is item i's score under ranking j (higher ranks
    first, ties get average ranks)."""
    m = len(scores)
    n = len(scores[0]) if m else 0
    if m < 2 or n < 2 or any(len(row) != n for row in scores):
        return None
    ranks = [average_ranks([-value for value in row]) for row in scores]
    sums = [sum(float(r[i]) for r in ranks) for i in range(n)]
    mean = m * (n + 1) / 2
    s = sum((total - mean) ** 2 for total in sums)
    ties = 0.0
    for row in scores:
        counts: dict[float, int] = {}
        for value in row:
            counts[value] = counts.get(value, 0) + 1
        ties += sum(t**3 - t for t in counts.values())
    denominator = m**2 * (n**3 - n) - m * ties
    if denominator <= 0:
        return None
    return 12 * s / denominator


def swapped_pairs(scores: Mapping[str, Mapping[str, float]], items: Sequence[str]) -> tuple[Swap, ...]:
    """Every pair of ``items`` ordered one way by some ranking of ``scores`` (ranking -> item -> score)
    and the other way by another, in the order of ``items``."""
    found = []
    for first, second in combinations(items, 2):
        ahead = [name for name, row in scores.items() if row[first] > row[second]]
        behind = [name for name, row in scores.items() if row[second] > row[first]]
        if ahead and behind:
            found.append(Swap(first, second, tuple(ahead), tuple(behind)))
    return tuple(found)


def rank_agreement(scores: Mapping[str, Mapping[str, float]], items: Sequence[str]) -> RankAgreement:
    """W and the swapped pairs of the rankings ``scores`` (ranking name -> item -> score), each of which
    scores every one of ``items``."""
    names = tuple(scores)
    matrix = [[scores[name][item] for item in items] for name in names]
    return RankAgreement(kendall_w(matrix), tuple(items), names, swapped_pairs(scores, items))


__all__ = ["RankAgreement", "Swap", "kendall_w", "rank_agreement", "swapped_pairs"]
