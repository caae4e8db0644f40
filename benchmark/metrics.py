"""The metric formulas, written once.

Everything the suite prints goes through :func:`scores`; ``docs/METRICS.md`` states the definitions with a
worked example. A zero denominator gives 0.0 (not NaN): a run that suggests nothing has precision 0, and
an empty ground truth gives recall 0, which keeps tables and averages well-defined.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import numpy as np

DEFAULT_PARTIAL_WEIGHT = 0.5


def _ratio(numerator: float, denominator: float) -> float:
    return numerator / denominator if denominator > 0 else 0.0


@dataclass(frozen=True)
class Scores:
    precision: float
    recall: float
    f1: float
    accuracy: float

    def to_json(self) -> dict[str, float]:
        return {"precision": self.precision, "recall": self.recall, "f1": self.f1, "accuracy": self.accuracy}


def scores(tp: float, fp: float, fn: float) -> Scores:
    """Precision TP/(TP+FP), recall TP/(TP+FN), F1 = 2PR/(P+R), accuracy TP/(TP+FP+FN) (Jaccard).

    True negatives are undefined for mapping sets, hence Jaccard rather than classification accuracy.
    """
    precision = _ratio(tp, tp + fp)
    recall = _ratio(tp, tp + fn)
    f1 = _ratio(2 * precision * recall, precision + recall)
    accuracy = _ratio(tp, tp + fp + fn)
    return Scores(precision=precision, recall=recall, f1=f1, accuracy=accuracy)


def scores_array(tp: np.ndarray, fp: np.ndarray, fn: np.ndarray) -> dict[str, np.ndarray]:
    """:func:`scores` element-wise over arrays (bootstrap draws), with the same zero-denominator rule.

    The operations are the ones :func:`scores` performs, in the same order, so each element equals the
    scalar result bit for bit (``tests/core/test_metrics.py`` checks it).
    """
    import numpy as np

    def ratio(numerator: np.ndarray, denominator: np.ndarray) -> np.ndarray:
        safe = np.where(denominator > 0, denominator, 1.0)
        return np.where(denominator > 0, numerator / safe, 0.0)

    tp, fp, fn = (np.asarray(a, dtype=float) for a in (tp, fp, fn))
    precision = ratio(tp, tp + fp)
    recall = ratio(tp, tp + fn)
    f1 = ratio(2 * precision * recall, precision + recall)
    accuracy = ratio(tp, tp + fp + fn)
    return {"precision": precision, "recall": recall, "f1": f1, "accuracy": accuracy}


def check_partial_weight(weight: float) -> float:
    if not 0.0 <= weight <= 1.0:
        raise ValueError(f"partial weight must be in [0, 1], got {weight}")
    return float(weight)


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

    def tp(self, w: float = DEFAULT_PARTIAL_WEIGHT) -> float:
        return self.exact + w * self.partial

    def fp(self, w: float = DEFAULT_PARTIAL_WEIGHT) -> float:
        return self.only_generated + self.divergent + (1 - w) * self.partial

    def fn(self, w: float = DEFAULT_PARTIAL_WEIGHT) -> float:
        return self.only_atl + self.divergent + (1 - w) * self.partial

    def scores(self, w: float = DEFAULT_PARTIAL_WEIGHT) -> Scores:
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
    """Overall = class counts + binding counts, pooled before the formulas are applied."""
    return LevelScores(
        classes=classes.scores(),
        bindings=bindings.scores(w),
        overall=scores(classes.tp + bindings.tp(w), classes.fp + bindings.fp(w), classes.fn + bindings.fn(w)),
    )


@dataclass(frozen=True)
class LineCounts:
    """Round-trip track: canonical-line verdicts of one output model (see ``docs/ROUNDTRIP.md``).

    Cr: key present, every property equal; InCr: key present, some property differs; Miss: expected key
    absent; Ad: output key not expected. LOC counts the output's lines (Cr + InCr + Ad).
    """

    cr: int = 0
    incr: int = 0
    miss: int = 0
    ad: int = 0

    @property
    def loc(self) -> int:
        return self.cr + self.incr + self.ad

    def pct_correct(self) -> float:
        """%Correct = Cr / (LOC + Miss - Ad), i.e. Cr over the expected lines (Cr + InCr + Miss)."""
        return _ratio(self.cr, self.loc + self.miss - self.ad)

    def pct_wsuccess(self, delta_detected: bool) -> float:
        """%WSuccess = (Cr - InCr - Miss - Ad - 2 x [delta undetected]) / LOC; may be negative."""
        return _ratio(self.cr - self.incr - self.miss - self.ad - (0 if delta_detected else 2), self.loc)

    def equivalent(self) -> bool:
        """Every expected line correct (Cr = expected count) and nothing wrong or extra (InCr = Ad = 0)."""
        return self.incr == 0 and self.miss == 0 and self.ad == 0

    def to_json(self) -> dict[str, int]:
        return {"LOC": self.loc, "Cr": self.cr, "InCr": self.incr, "Ad": self.ad, "Miss": self.miss}
