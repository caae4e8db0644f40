"""Baseline-relative recall (MELT's residual recall R+): what a provider finds that the baseline misses.

Per transformation, the items the baseline misses are

* class level: the ground-truth class pairs whose baseline verdict is ``fn`` in every baseline run;
* binding level: the ground-truth keys that read the source (non-empty ground-truth paths; target-only
  keys are left out, nobody can gain recall on them) whose baseline category is ``divergent`` or
  ``onlyAtl`` in every baseline run (a ``partial`` earns the baseline credit, so it is not a miss).

These are exactly the items ``atlbench diff --baseline`` counts
(``benchmark.tracks.mapping.scoring.three_way.three_way``); the baseline is deterministic, so "every run"
normally means its one run. A provider's counts on those items are pooled over its runs like any micro
figure: class TP = its ``tp`` verdicts, FN = its ``fn`` verdicts; binding TP = exact + w*partial and FN =
onlyAtl + divergent + (1-w)*partial. Recall = TP / (TP + FN); overall pools both levels.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from benchmark.tracks.mapping.baselines.emfcompare.document import PROVIDER as EMF_COMPARE_PROVIDER
from benchmark.tracks.mapping.counts import BindingCounts
from benchmark.tracks.mapping.payload import RunRow
from benchmark.tracks.mapping.scoring.three_way import ResidualRecall
from benchmark.tracks.mapping.stats.items import BindingKey, ClassPair, binding_categories, class_verdicts

BASELINE_PROVIDER = EMF_COMPARE_PROVIDER  # the provider name of the EMF Compare baseline's rows

_MISSED_BINDING = frozenset({"divergent", "onlyAtl"})


@dataclass(frozen=True)
class MissedItems:
    """The ground-truth items the baseline misses on one transformation."""

    class_pairs: tuple[ClassPair, ...]
    binding_keys: tuple[BindingKey, ...]


def missed_by_baseline(baseline_rows: Sequence[RunRow]) -> MissedItems:
    pairs = tuple(pair for pair, v in class_verdicts(baseline_rows).items() if all(x == "fn" for x in v))
    truth_paths: dict[BindingKey, bool] = {}
    for row in baseline_rows:
        for item in row.binding_items:
            truth_paths[item.key] = truth_paths.get(item.key, False) or bool(item.ground_truth)
    keys = tuple(
        key
        for key, categories in binding_categories(baseline_rows).items()
        if truth_paths.get(key) and all(c in _MISSED_BINDING for c in categories)
    )
    return MissedItems(pairs, keys)


@dataclass(frozen=True)
class BaselineRelativeRecall:
    """One provider's recall on the items the baseline misses, per level, pooled and per transformation."""

    provider: str
    baseline: str
    levels: dict[str, ResidualRecall]
    per_transformation: dict[str, dict[str, ResidualRecall]]

    def to_json(self) -> dict[str, Any]:
        return {
            "provider": self.provider,
            "baseline": self.baseline,
            "levels": {k: v.to_json() for k, v in self.levels.items()},
            "perTransformation": {
                t: {k: v.to_json() for k, v in levels.items()}
                for t, levels in self.per_transformation.items()
            },
        }


def _recall_on(rows: Sequence[RunRow], missed: MissedItems, w: float) -> dict[str, ResidualRecall]:
    wanted_pairs, wanted_keys = set(missed.class_pairs), set(missed.binding_keys)
    class_tp = class_fn = 0
    totals = dict.fromkeys(BindingCounts().to_json(), 0)
    for row in rows:
        verdicts = {(i.source_class, i.target_class): i.verdict for i in row.class_items}
        for pair in wanted_pairs:
            if verdicts.get(pair) == "tp":
                class_tp += 1
            else:  # a ground-truth pair is tp or fn in every run of the same ground truth
                class_fn += 1
        categories = {i.key: i.category for i in row.binding_items}
        for key in wanted_keys:
            totals[categories.get(key, "onlyAtl")] += 1
    bindings = BindingCounts.from_json(totals)
    class_level = ResidualRecall(len(wanted_pairs), class_tp, class_fn)
    binding_level = ResidualRecall(len(wanted_keys), bindings.tp(w), bindings.fn(w))
    overall = ResidualRecall(
        class_level.items + binding_level.items,
        class_level.tp + binding_level.tp,
        class_level.fn + binding_level.fn,
    )
    return {"class": class_level, "binding": binding_level, "overall": overall}


def baseline_relative_recall(
    rows: Sequence[RunRow], baseline_rows: Sequence[RunRow], w: float, *, baseline: str = BASELINE_PROVIDER
) -> BaselineRelativeRecall | None:
    """Recall of a provider (its ok rows) on what the baseline (its ok rows) misses, over the
    transformations both have runs on; None when they share none."""
    by_t: dict[str, list[RunRow]] = {}
    for row in rows:
        by_t.setdefault(row.transformation, []).append(row)
    base_by_t: dict[str, list[RunRow]] = {}
    for row in baseline_rows:
        base_by_t.setdefault(row.transformation, []).append(row)
    common = sorted(set(by_t) & set(base_by_t))
    if not common:
        return None
    per = {t: _recall_on(by_t[t], missed_by_baseline(base_by_t[t]), w) for t in common}
    pooled = {
        level: ResidualRecall(
            sum(p[level].items for p in per.values()),
            sum(p[level].tp for p in per.values()),
            sum(p[level].fn for p in per.values()),
        )
        for level in ("class", "binding", "overall")
    }
    provider = rows[0].provider if rows else ""
    return BaselineRelativeRecall(provider, baseline, pooled, per)


__all__ = [
    "BASELINE_PROVIDER",
    "BaselineRelativeRecall",
    "MissedItems",
    "baseline_relative_recall",
    "missed_by_baseline",
]
