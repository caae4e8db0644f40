"""The study's scores, per provider and mode, with bootstrap intervals over constraints.

A judged answer is one (provider, run, dataset model, constraint, mode); it is **correct** when its
outcome is ``agreement`` (:mod:`.judge`). For a provider and a transformation mode ``M`` the items are the
answers on ``M``, each paired with the same provider's and run's answer for the same constraint on the
``original`` mode:

``accuracy_original``     correct on the original / items that have an original answer;
``accuracy_transformed``  correct on ``M`` / items;
``robustness``            correct on both / items that have an original answer: the share of generated
                          constraints that *stay* semantically equivalent to the reference after the
                          transformation (the study's score; an answer that was wrong before does not
                          count as robust);
``retention``             correct on both / correct on the original: of what the provider got right, how
                          much survives the transformation (separates robustness from plain skill);
``drop``                  accuracy_transformed - accuracy_original on the paired items (a paired comparison
                          of ``M`` against the original: same constraints, same runs).

The ``original`` mode itself gets one line with its accuracy. Intervals are percentile bootstrap intervals
that resample **constraints** (the independent units: one misunderstood requirement drags every run with
it) and, within each drawn constraint, its runs (:func:`benchmark.stats.bootstrap.resample_sums`), with
one generator per (provider, mode) so adding a provider changes no other interval.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from benchmark.stats.bootstrap import (
    DEFAULT_DRAWS,
    DEFAULT_SEED,
    Interval,
    degeneracy_note,
    percentile_interval,
    resample_sums,
    rng_for,
)
from benchmark.tracks.ocl.payload import AGREEMENT, OUTCOMES, OclPayload

ORIGINAL = "original"
METRICS = ("accuracy_original", "accuracy_transformed", "robustness", "retention", "drop")

# Columns of an item's count vector.
_ORIG_CORRECT, _HAS_ORIG, _TRANS_CORRECT, _ITEM, _BOTH = range(5)


@dataclass(frozen=True)
class Judged:
    """One judged answer, flattened from a row's payload."""

    provider: str
    llm: str
    run: str
    model: str
    mode: str
    constraint: str
    outcome: str
    detail: str
    states: tuple[str, ...]
    file: str

    @property
    def correct(self) -> bool:
        return self.outcome == AGREEMENT


def judged(rows: Iterable[Any]) -> list[Judged]:
    """Every judged answer of the track's scored rows. Error rows (missing runs, unreadable run files, an
    unusable ground truth) are excluded: they judge nothing (an older results.json gave their
    constraints the outcome ``missing``; read today, they are excluded as they would be now)."""
    out = []
    for row in rows:
        if not row.ok:
            continue
        payload = OclPayload.of_row(row)
        for item in payload.judgements:
            out.append(
                Judged(
                    row.series,  # the provider, with its prompt template when not the study's
                    row.model,
                    row.run,
                    payload.dataset_model,
                    payload.mode,
                    item.constraint,
                    item.outcome,
                    item.detail,
                    item.states,
                    row.file,
                )
            )
    return sorted(out, key=lambda j: (j.provider, j.mode, j.model, j.constraint, j.run))


@dataclass(frozen=True)
class ModeScore:
    provider: str
    mode: str
    items: int
    paired: int  # items with an original answer
    values: dict[str, float]  # metric -> point estimate (NaN when undefined)
    intervals: dict[str, Interval] = field(default_factory=dict)
    outcomes: dict[str, int] = field(default_factory=dict)  # outcome -> count on this mode


def _values(sums: np.ndarray) -> dict[str, np.ndarray]:
    """Each metric from summed count vectors (rows: draws); NaN where its denominator is zero."""
    with np.errstate(divide="ignore", invalid="ignore"):
        orig = sums[:, _ORIG_CORRECT] / sums[:, _HAS_ORIG]
        trans = sums[:, _TRANS_CORRECT] / sums[:, _ITEM]
        both = sums[:, _BOTH] / sums[:, _HAS_ORIG]
        retention = sums[:, _BOTH] / sums[:, _ORIG_CORRECT]
    return {
        "accuracy_original": orig,
        "accuracy_transformed": trans,
        "robustness": both,
        "retention": retention,
        "drop": trans - orig,
    }


def score(
    answers: Sequence[Judged], *, draws: int = DEFAULT_DRAWS, seed: int = DEFAULT_SEED
) -> list[ModeScore]:
    """One :class:`ModeScore` per (provider, mode) present in ``answers``, original mode first."""
    original: dict[tuple[str, str, str, str, str], bool] = {}
    for j in answers:
        if j.mode == ORIGINAL:
            original[(j.provider, j.llm, j.run, j.model, j.constraint)] = j.correct
    groups: dict[tuple[str, str], dict[tuple[str, str], list[list[float]]]] = defaultdict(
        lambda: defaultdict(list)
    )
    outcomes: dict[tuple[str, str], dict[str, int]] = defaultdict(lambda: dict.fromkeys(OUTCOMES, 0))
    for j in answers:
        key = (j.provider, j.mode)
        outcomes[key][j.outcome] = outcomes[key].get(j.outcome, 0) + 1
        before = original.get((j.provider, j.llm, j.run, j.model, j.constraint))
        if j.mode == ORIGINAL:
            before = j.correct
        vector = [
            float(bool(before)),
            float(before is not None),
            float(j.correct),
            1.0,
            float(bool(before) and j.correct),
        ]
        groups[key][(j.model, j.constraint)].append(vector)
    scores = []
    for (provider, mode), by_constraint in groups.items():
        arrays = [np.array(by_constraint[k], dtype=float) for k in sorted(by_constraint)]
        total = np.sum([a.sum(axis=0) for a in arrays], axis=0)[None, :]
        points = {m: float(v[0]) for m, v in _values(total).items()}
        (sums,) = resample_sums([arrays], draws, rng_for(seed, "ocl", provider, mode))
        note = degeneracy_note([len(a) for a in arrays], "constraint")
        intervals = {}
        for metric, drawn in _values(sums).items():
            finite = drawn[np.isfinite(drawn)]
            if len(finite) and not math.isnan(points[metric]):
                intervals[metric] = percentile_interval(finite, note=note)
        scores.append(
            ModeScore(
                provider,
                mode,
                int(total[0, _ITEM]),
                int(total[0, _HAS_ORIG]),
                points,
                intervals,
                dict(outcomes[(provider, mode)]),
            )
        )
    return sorted(scores, key=lambda s: (s.provider, s.mode != ORIGINAL, s.mode))


def headline(scores: Sequence[ModeScore]) -> dict[str, float]:
    """Per provider, the mean robustness over its transformation modes (what ``--min-score`` gates)."""
    by: dict[str, list[float]] = defaultdict(list)
    for s in scores:
        value = s.values["robustness"]
        if s.mode != ORIGINAL and not math.isnan(value):
            by[s.provider].append(value)
    return {provider: sum(v) / len(v) for provider, v in by.items() if v}


def mean_robustness(sums: np.ndarray) -> np.ndarray:
    """The headline from summed per-mode vectors (both correct, has an original) side by side, one pair of
    columns per mode: each mode's robustness where it has an original answer, averaged over those modes."""
    sums = np.atleast_2d(np.asarray(sums, dtype=float))
    both, has = sums[:, 0::2], sums[:, 1::2]
    defined = has > 0
    ratios = np.where(defined, both / np.where(defined, has, 1.0), 0.0)
    counted = defined.sum(axis=1)
    return np.where(counted > 0, ratios.sum(axis=1) / np.maximum(counted, 1), 0.0)


def paired_robustness(first: Iterable[Any], second: Iterable[Any]) -> Any:
    """Two sets of rows as one paired comparison of :func:`headline` (mean robustness over modes), on the
    transformation modes both answered: per constraint (the unit of the study's intervals), one vector per
    transformed answer, with (correct on both, has an original answer) in its mode's two columns."""
    from benchmark.core.track import PairedData

    sides = [judged(rows) for rows in (first, second)]
    modes = sorted(set.intersection(*({j.mode for j in side if j.mode != ORIGINAL} for side in sides)))
    column = {mode: index for index, mode in enumerate(modes)}

    def entries(answers: list[Judged]) -> list[tuple[str, list[float]]]:
        before = {(j.llm, j.run, j.model, j.constraint): j.correct for j in answers if j.mode == ORIGINAL}
        found = []
        for j in answers:
            if j.mode not in column:
                continue
            was = before.get((j.llm, j.run, j.model, j.constraint))
            vector = [0.0] * (2 * len(modes))
            vector[2 * column[j.mode]] = float(bool(was) and j.correct)
            vector[2 * column[j.mode] + 1] = float(was is not None)
            found.append((f"{j.model}/{j.constraint}", vector))
        return found

    if not modes:
        return None
    return PairedData.of(entries(sides[0]), entries(sides[1]), mean_robustness)


__all__ = [
    "METRICS",
    "Judged",
    "ModeScore",
    "headline",
    "judged",
    "mean_robustness",
    "paired_robustness",
    "score",
]
