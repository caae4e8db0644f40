"""Three-way comparison: one run and a baseline against the same ground truth, item by item.

Each class pair and binding key of either side gets both verdicts and an agreement label (both right, the
LLM only, the baseline only, both wrong); the LLM's recall on the ground-truth items the baseline misses is
its residual recall (MELT's R+). ``atlbench diff --baseline`` reports it, and the statistics' "right on an
item" is :func:`agreement_label`'s.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from benchmark.tracks.mapping.counts import BindingCounts, scores
from benchmark.tracks.mapping.scoring.compare import (
    ABSENT,
    DIVERGENT,
    EXACT,
    ONLY_ATL,
    PARTIAL,
    TARGET_ONLY,
    VERDICT_FN,
    VERDICT_TP,
    BindingKey,
    ClassPair,
    Comparison,
    ground_truth_bindings,
    ground_truth_pairs,
)

# Three-way agreement labels.
BOTH_RIGHT, LLM_ONLY, BASELINE_ONLY, BOTH_WRONG = "bothRight", "llmOnly", "baselineOnly", "bothWrong"
AGREEMENT_LABELS = (BOTH_RIGHT, LLM_ONLY, BASELINE_ONLY, BOTH_WRONG)
_RIGHT_CATEGORIES = frozenset({EXACT, PARTIAL, TARGET_ONLY, VERDICT_TP, ABSENT})


@dataclass(frozen=True)
class ThreeWayItem:
    """One class pair (``target_feature`` None) or binding key, with both sides' verdicts and the label."""

    source_class: str
    target_class: str
    target_feature: str | None
    in_ground_truth: bool
    baseline: str
    llm: str
    label: str

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"sourceClass": self.source_class, "targetClass": self.target_class}
        if self.target_feature is not None:
            data["targetFeature"] = self.target_feature
        data.update({"inGroundTruth": self.in_ground_truth, "baseline": self.baseline, "llm": self.llm})
        data["agreement"] = self.label
        return data


def agreement_label(baseline: str, llm: str) -> str:
    """Both right / LLM only / baseline only / both wrong. A side is right on a key when it earns credit
    or avoids a penalty: ``tp``, ``exact``, ``partial``, ``targetOnly`` (naming the key removes an FN),
    or ``absent`` (not suggesting a key the ground truth lacks)."""
    baseline_right, llm_right = baseline in _RIGHT_CATEGORIES, llm in _RIGHT_CATEGORIES
    if baseline_right and llm_right:
        return BOTH_RIGHT
    if llm_right:
        return LLM_ONLY
    if baseline_right:
        return BASELINE_ONLY
    return BOTH_WRONG


@dataclass(frozen=True)
class ResidualRecall:
    """The LLM's recall on the ground-truth items the baseline misses (MELT's R+). ``items`` is how many
    such items there are: with none, recall is 0.0 by the zero-denominator rule and ``items`` says why."""

    items: int
    tp: float
    fn: float

    @property
    def recall(self) -> float:
        return scores(self.tp, 0, self.fn).recall

    def to_json(self) -> dict[str, float | int]:
        return {"items": self.items, "tp": self.tp, "fn": self.fn, "recall": self.recall}


@dataclass(frozen=True)
class ThreeWay:
    """Ground truth, baseline and LLM side by side, per class pair and per binding key."""

    llm: Comparison
    baseline: Comparison
    class_items: tuple[ThreeWayItem, ...]
    binding_items: tuple[ThreeWayItem, ...]
    residual_class: ResidualRecall
    residual_binding: ResidualRecall

    @property
    def residual_overall(self) -> ResidualRecall:
        c, b = self.residual_class, self.residual_binding
        return ResidualRecall(c.items + b.items, c.tp + b.tp, c.fn + b.fn)

    def label_counts(self) -> dict[str, dict[str, int]]:
        def count(items: tuple[ThreeWayItem, ...]) -> dict[str, int]:
            labels = [item.label for item in items]
            return {label: labels.count(label) for label in AGREEMENT_LABELS}

        return {"class": count(self.class_items), "binding": count(self.binding_items)}

    def to_json(self, w: float) -> dict[str, Any]:
        return {
            "baseline": {
                "file": self.baseline.suggestions.file,
                "provider": self.baseline.suggestions.provider,
                "model": self.baseline.suggestions.model,
                "summary": self.baseline.summary_json(w),
                "invalid": [entry.to_json() for entry in self.baseline.suggestions.invalid],
                "duplicates": self.baseline.suggestions.duplicate_count,
            },
            "agreement": self.label_counts(),
            "residualRecall": {
                "class": self.residual_class.to_json(),
                "binding": self.residual_binding.to_json(),
                "overall": self.residual_overall.to_json(),
            },
            "classes": [item.to_json() for item in self.class_items],
            "bindings": [item.to_json() for item in self.binding_items],
        }


def three_way(llm: Comparison, baseline: Comparison, w: float) -> ThreeWay:
    """Align two comparisons against the same ground truth (e.g. an LLM run and the EMF Compare run); the
    residual recall on bindings counts a partial binding with weight ``w``."""
    if llm.ground_truth is not baseline.ground_truth and llm.ground_truth != baseline.ground_truth:
        raise ValueError("a three-way comparison needs both runs scored against the same ground truth")

    def by_pair(comparison: Comparison) -> dict[ClassPair, str]:
        return {(i.source_class, i.target_class): i.verdict for i in comparison.class_items}

    def by_key(comparison: Comparison) -> dict[BindingKey, str]:
        return {i.key: i.category for i in comparison.binding_items}

    llm_pairs, base_pairs = by_pair(llm), by_pair(baseline)
    truth_pairs = ground_truth_pairs(llm.ground_truth)
    class_items = []
    residual_c_tp = residual_c_fn = residual_c_n = 0
    for pair in sorted(set(llm_pairs) | set(base_pairs)):
        base_verdict, llm_verdict = base_pairs.get(pair, ABSENT), llm_pairs.get(pair, ABSENT)
        class_items.append(
            ThreeWayItem(
                pair[0],
                pair[1],
                None,
                pair in truth_pairs,
                base_verdict,
                llm_verdict,
                agreement_label(base_verdict, llm_verdict),
            )
        )
        if pair in truth_pairs and base_verdict == VERDICT_FN:
            residual_c_n += 1
            residual_c_tp += llm_verdict == VERDICT_TP
            residual_c_fn += llm_verdict == VERDICT_FN

    llm_keys, base_keys = by_key(llm), by_key(baseline)
    truth = ground_truth_bindings(llm.ground_truth)
    binding_items = []
    residual = BindingCounts()
    for key in sorted(set(llm_keys) | set(base_keys)):
        base_category, llm_category = base_keys.get(key, ABSENT), llm_keys.get(key, ABSENT)
        binding_items.append(
            ThreeWayItem(
                key[0],
                key[1],
                key[2],
                key in truth,
                base_category,
                llm_category,
                agreement_label(base_category, llm_category),
            )
        )
        if key in truth and truth[key].source_features and base_category in (DIVERGENT, ONLY_ATL):
            residual = residual.add_category(llm_category)
    return ThreeWay(
        llm=llm,
        baseline=baseline,
        class_items=tuple(class_items),
        binding_items=tuple(binding_items),
        residual_class=ResidualRecall(residual_c_n, residual_c_tp, residual_c_fn),
        residual_binding=ResidualRecall(
            residual.exact + residual.partial + residual.divergent + residual.only_atl,
            residual.tp(w),
            residual.fn(w),
        ),
    )


__all__ = ["AGREEMENT_LABELS", "ResidualRecall", "ThreeWay", "ThreeWayItem", "agreement_label", "three_way"]
