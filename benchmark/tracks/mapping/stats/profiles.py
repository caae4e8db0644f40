"""Confidence profile (precision and recall per confidence label, and the cumulative curve) and category
profile (how a provider's binding keys split over the comparator's categories).

Both are pooled over runs like every micro figure. Confidence slices come from the rows
(``RunRow.confidence_slices``): each slice is scored as if the run had made only those mappings, against
the full ground truth, so recall per label is "how much of the ground truth the mappings with this label
recover", and the cumulative slices high -> high+medium -> all trace a precision-recall curve.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from benchmark.tracks.mapping.confidence import CONFIDENCE_CUMULATIVE, CONFIDENCE_LABELS
from benchmark.tracks.mapping.counts import BindingCounts, ClassCounts, Scores, scores
from benchmark.tracks.mapping.payload import CountSlice, RunRow

SLICE_ORDER = (*CONFIDENCE_LABELS, *(s for s in CONFIDENCE_CUMULATIVE if s not in CONFIDENCE_LABELS))
PROFILE_CATEGORIES = ("exact", "partial", "divergent", "onlyGenerated", "onlyAtl")


def level_counts(
    classes: ClassCounts, bindings: BindingCounts, w: float, level: str
) -> tuple[float, float, float]:
    """(TP, FP, FN) at one level, as :func:`benchmark.tracks.mapping.counts.level_scores` pools them."""
    if level == "class":
        return (classes.tp, classes.fp, classes.fn)
    if level == "binding":
        return (bindings.tp(w), bindings.fp(w), bindings.fn(w))
    if level == "overall":
        return (classes.tp + bindings.tp(w), classes.fp + bindings.fp(w), classes.fn + bindings.fn(w))
    raise ValueError(f"level must be class, binding or overall, got {level!r}")


def named(classes: ClassCounts, bindings: BindingCounts, level: str) -> int:
    """How many class pairs and binding keys a slice named (to tell 'no suggestions' from 'all wrong')."""
    keys = (
        bindings.exact
        + bindings.partial
        + bindings.divergent
        + bindings.target_only
        + bindings.only_generated
    )
    pairs = classes.tp + classes.fp
    return {"class": pairs, "binding": keys, "overall": pairs + keys}[level]


@dataclass(frozen=True)
class SliceScores:
    slice: str
    named: int
    tp: float
    fp: float
    fn: float
    scores: Scores

    def to_json(self) -> dict[str, Any]:
        return {
            "slice": self.slice,
            "named": self.named,
            "tp": self.tp,
            "fp": self.fp,
            "fn": self.fn,
            **self.scores.to_json(),
        }


@dataclass(frozen=True)
class ConfidenceProfile:
    """``slices`` in :data:`SLICE_ORDER`; empty when the rows carry no confidence slices."""

    provider: str
    slices: tuple[SliceScores, ...]

    @property
    def available(self) -> bool:
        return bool(self.slices)

    def get(self, name: str) -> SliceScores | None:
        return next((s for s in self.slices if s.slice == name), None)

    def cumulative(self) -> tuple[SliceScores, ...]:
        return tuple(s for s in self.slices if s.slice in CONFIDENCE_CUMULATIVE)

    def to_json(self) -> dict[str, Any]:
        return {"provider": self.provider, "slices": [s.to_json() for s in self.slices]}


def confidence_profile(provider: str, rows: Sequence[RunRow], w: float, level: str) -> ConfidenceProfile:
    if not rows or any(not row.confidence_slices for row in rows):
        return ConfidenceProfile(provider, ())
    result = []
    for name in SLICE_ORDER:
        pooled = CountSlice()
        for row in rows:
            part = row.confidence_slices.get(name, CountSlice())
            pooled = CountSlice(pooled.classes + part.classes, pooled.bindings + part.bindings)
        tp, fp, fn = level_counts(pooled.classes, pooled.bindings, w, level)
        result.append(
            SliceScores(name, named(pooled.classes, pooled.bindings, level), tp, fp, fn, scores(tp, fp, fn))
        )
    return ConfidenceProfile(provider, tuple(result))


@dataclass(frozen=True)
class CategoryProfile:
    """Shares of :data:`PROFILE_CATEGORIES` among a group's binding keys (target-only keys are neutral
    and reported as a count beside the shares, not in them)."""

    provider: str
    transformation: str
    counts: dict[str, int]
    target_only: int

    @property
    def total(self) -> int:
        return sum(self.counts.values())

    @property
    def shares(self) -> dict[str, float]:
        total = self.total
        return {c: (n / total if total else 0.0) for c, n in self.counts.items()}

    def to_json(self) -> dict[str, Any]:
        return {
            "provider": self.provider,
            "transformation": self.transformation,
            "counts": self.counts,
            "shares": self.shares,
            "targetOnly": self.target_only,
        }


def category_profile(provider: str, transformation: str, bindings: BindingCounts) -> CategoryProfile:
    data = bindings.to_json()
    return CategoryProfile(
        provider, transformation, {c: data[c] for c in PROFILE_CATEGORIES}, bindings.target_only
    )


__all__ = [
    "PROFILE_CATEGORIES",
    "SLICE_ORDER",
    "CategoryProfile",
    "ConfidenceProfile",
    "SliceScores",
    "category_profile",
    "confidence_profile",
    "level_counts",
]
