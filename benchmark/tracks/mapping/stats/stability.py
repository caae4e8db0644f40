"""Run-to-run stability: how much a provider's repeated runs on one transformation agree.

For each transformation, the mean Jaccard index |A ∩ B| / |A ∪ B| over all pairs of the provider's runs, where
a run's set is its mappings (:func:`benchmark.tracks.mapping.stats.items.mapping_set`); the provider's
stability is the mean over the transformations with at least two runs. Two empty runs agree perfectly (1.0).
Intersections come from one matrix product over a run x mapping incidence matrix, so thousands of runs stay
fast.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from benchmark.tracks.mapping.payload import RunRow
from benchmark.tracks.mapping.stats.items import Mapping, has_verdicts, mapping_set

_CELLS_PER_BLOCK = 1 << 22


def jaccard(first: frozenset[Mapping], second: frozenset[Mapping]) -> float:
    union = len(first | second)
    return len(first & second) / union if union else 1.0


def mean_pairwise_jaccard(sets: Sequence[frozenset[Mapping]]) -> float | None:
    """Mean Jaccard over the n(n-1)/2 pairs; None for fewer than two sets."""
    n = len(sets)
    if n < 2:
        return None
    index: dict[Mapping, int] = {}
    for mapping_set_ in sets:
        for mapping in mapping_set_:
            index.setdefault(mapping, len(index))
    incidence = np.zeros((n, max(1, len(index))), dtype=np.float64)
    for row, mapping_set_ in enumerate(sets):
        incidence[row, [index[m] for m in mapping_set_]] = 1.0
    sizes = incidence.sum(axis=1)
    total = 0.0
    block = max(1, _CELLS_PER_BLOCK // n)  # rows of the n x n intersection matrix held at once
    columns = np.arange(n)
    for start in range(0, n, block):
        stop = min(n, start + block)
        intersection = incidence[start:stop] @ incidence.T  # exact: small integers in float64
        union = sizes[start:stop, None] + sizes[None, :] - intersection
        upper = columns[None, :] > np.arange(start, stop)[:, None]
        values = np.where(union > 0, intersection / np.where(union > 0, union, 1.0), 1.0)
        total += float(values[upper].sum())
    return total / (n * (n - 1) // 2)


@dataclass(frozen=True)
class Stability:
    """``mean`` over the transformations with two or more runs (None when there are none);
    ``per_transformation`` None where a transformation has a single run."""

    mean: float | None
    per_transformation: dict[str, float | None]
    note: str | None = None

    def to_json(self) -> dict[str, Any]:
        return {"mean": self.mean, "perTransformation": self.per_transformation, "note": self.note}


def stability(rows: Sequence[RunRow]) -> Stability:
    """Stability of one provider from its ok rows."""
    if any(not has_verdicts(row) for row in rows):
        return Stability(None, {}, "rows without per-item verdicts")
    by_transformation: dict[str, list[RunRow]] = {}
    for row in rows:
        by_transformation.setdefault(row.transformation, []).append(row)
    per = {
        t: mean_pairwise_jaccard([mapping_set(r) for r in sorted(group, key=lambda r: r.run)])
        for t, group in sorted(by_transformation.items())
    }
    values = [v for v in per.values() if v is not None]
    if not values:
        return Stability(None, per, "one run per transformation: stability needs two runs")
    return Stability(math.fsum(values) / len(values), per)


__all__ = ["Stability", "jaccard", "mean_pairwise_jaccard", "stability"]
