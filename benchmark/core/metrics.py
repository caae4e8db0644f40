"""The generic metric formulas, written once: precision, recall, F1 and accuracy (Jaccard).

Every track that scores sets of items goes through :func:`scores`; ``docs/METRICS.md`` states the
definitions with a worked example. A zero denominator gives 0.0 (not NaN): a run that suggests nothing has
precision 0, and an empty ground truth gives recall 0, which keeps tables and averages well-defined.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import numpy as np


def ratio(numerator: float, denominator: float) -> float:
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
    precision = ratio(tp, tp + fp)
    recall = ratio(tp, tp + fn)
    f1 = ratio(2 * precision * recall, precision + recall)
    accuracy = ratio(tp, tp + fp + fn)
    return Scores(precision=precision, recall=recall, f1=f1, accuracy=accuracy)


def scores_array(tp: np.ndarray, fp: np.ndarray, fn: np.ndarray) -> dict[str, np.ndarray]:
    """:func:`scores` element-wise over arrays (bootstrap draws), with the same zero-denominator rule.

    The operations are the ones :func:`scores` performs, in the same order, so each element equals the
    scalar result bit for bit (``tests/tracks/mapping/test_counts.py`` checks it).
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
