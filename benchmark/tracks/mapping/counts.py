"""The mapping track's counts: class and binding confusion counts, the partial weight w, level scores.

The formulas themselves are :mod:`benchmark.core.metrics`; this module says what is counted for RQ1
(exact / partial / target-only / divergent bindings, ``docs/METRICS.md``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from benchmark.core.metrics import Scores, ratio, scores, scores_array  # noqa: F401  (re-exported)

DEFAULT_PARTIAL_WEIGHT = 0.5  # what --partial-weight says when it is not given (its Option checks the range)


@dataclass(frozen=True)
class ClassCounts:
    """Class-level outcome: suggested (source, target) pairs against the ground-truth pairs."""

    tp: int = 0
    fp: int = 0
    fn: int = 0

    def __add__(self, other: ClassCounts) -> ClassCounts:
        return ClassCounts(self.tp + other.tp, self.fp + other.fp, self.fn + other.fn)

    def scores(self) -> Scores:
        return scores(self.tp, self.fp, self.fn)

    def to_json(self) -> dict[str, int]:
        return {"tp": self.tp, "fp": self.fp, "fn": self.fn}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> ClassCounts:
        return cls(tp=int(data["tp"]), fp=int(data["fp"]), fn=int(data["fn"]))


BINDING_CATEGORIES = ("exact", "partial", "divergent", "targetOnly", "onlyGenerated", "onlyAtl")


@dataclass(frozen=True)
class BindingCounts:
    """Binding-level outcome: how many aligned keys fell in each category (see ``docs/METRICS.md``).

    Raw category counts are stored, not TP/FP/FN, so any partial weight can be applied afterwards
    without re-running the comparison.
    """

    exact: int = 0
    partial: int = 0
    divergent: int = 0
    target_only: int = 0
    only_generated: int = 0
    only_atl: int = 0

    def __add__(self, other: BindingCounts) -> BindingCounts:
        return BindingCounts(
            self.exact + other.exact,
            self.partial + other.partial,
            self.divergent + other.divergent,
            self.target_only + other.target_only,
            self.only_generated + other.only_generated,
            self.only_atl + other.only_atl,
        )

    def tp(self, w: float) -> float:
        return self.exact + w * self.partial

    def fp(self, w: float) -> float:
        return self.only_generated + self.divergent + (1 - w) * self.partial

    def fn(self, w: float) -> float:
        return self.only_atl + self.divergent + (1 - w) * self.partial

    def scores(self, w: float) -> Scores:
        return scores(self.tp(w), self.fp(w), self.fn(w))

    def add_category(self, category: str, n: int = 1) -> BindingCounts:
        """A copy with ``n`` more keys in ``category`` (one of :data:`BINDING_CATEGORIES`)."""
        data = self.to_json()
        if category not in data:
            raise ValueError(f"unknown binding category {category!r}")
        data[category] += n
        return BindingCounts.from_json(data)

    def to_json(self) -> dict[str, int]:
        return {
            "exact": self.exact,
            "partial": self.partial,
            "divergent": self.divergent,
            "targetOnly": self.target_only,
            "onlyGenerated": self.only_generated,
            "onlyAtl": self.only_atl,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> BindingCounts:
        return cls(
            exact=int(data["exact"]),
            partial=int(data["partial"]),
            divergent=int(data["divergent"]),
            target_only=int(data["targetOnly"]),
            only_generated=int(data["onlyGenerated"]),
            only_atl=int(data["onlyAtl"]),
        )


@dataclass(frozen=True)
class LevelScores:
    """Scores at the three levels the suite reports: classes, bindings, and both pooled."""

    classes: Scores
    bindings: Scores
    overall: Scores


def level_scores(classes: ClassCounts, bindings: BindingCounts, w: float) -> LevelScores:
    """The partial weight applied: binding TP = exact + w·partial (FP and FN likewise), and overall = class
    counts + binding counts, pooled before the formulas are applied. Every score of the track is read
    through here or :meth:`BindingCounts.tp` itself (``docs/TRACKS.md``, "The partial weight")."""
    tp, fp, fn = bindings.tp(w), bindings.fp(w), bindings.fn(w)
    return LevelScores(
        classes=classes.scores(),
        bindings=scores(tp, fp, fn),
        overall=scores(classes.tp + tp, classes.fp + fp, classes.fn + fn),
    )
