"""Per-item views of runs: which mappings a run made, and whether it was right on each binding key.

Rows carry a verdict per class pair and per binding key (:class:`benchmark.tracks.mapping.payload.ClassItem`,
:class:`benchmark.tracks.mapping.payload.BindingItem`); stability, McNemar, baseline-relative recall and the
drill-down page all read them through this module. "Right" is the comparator's own definition
(:func:`benchmark.tracks.mapping.scoring.three_way.agreement_label`): a run is right on a key when it earns
credit or avoids a penalty (``exact``, ``partial``, ``targetOnly``, a class ``tp``, or ``absent``: not
suggesting a key the ground truth lacks); it is wrong on ``divergent``, ``onlyGenerated`` and ``onlyAtl``
(class ``fp``/``fn``). So false positives are discordant outcomes too, as McNemar on matchings requires.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from benchmark.tracks.mapping.counts import BINDING_CATEGORIES
from benchmark.tracks.mapping.payload import RunRow
from benchmark.tracks.mapping.scoring.compare import ABSENT, VERDICT_FN, VERDICT_FP, VERDICT_TP
from benchmark.tracks.mapping.scoring.three_way import BOTH_RIGHT, agreement_label

BindingKey = tuple[str, str, str]
ClassPair = tuple[str, str]
Mapping = tuple[str, ...]

ONLY_ATL = "onlyAtl"


def is_right(verdict: str) -> bool:
    """Whether a category or class verdict (or ``absent``) is a right outcome, as the comparator says."""
    return agreement_label(verdict, verdict) == BOTH_RIGHT


def has_verdicts(row: RunRow) -> bool:
    """Whether the row carries its per-item verdicts (a row with counts but no items cannot be used for
    item-level statistics; a row with no counts at all has nothing to list)."""
    if row.class_items or row.binding_items:
        return True
    classes, bindings = row.classes, row.bindings
    return classes.tp + classes.fp + classes.fn == 0 and sum(bindings.to_json().values()) == 0


def mapping_set(row: RunRow) -> frozenset[Mapping]:
    """The mappings a run made: its class pairs, and (key, source feature) for each feature mapping
    (a feature mapping that named no source feature counts as (key, ""))."""
    mappings: set[Mapping] = set()
    for item in row.class_items:
        if item.verdict in (VERDICT_TP, VERDICT_FP):
            mappings.add(("class", item.source_class, item.target_class))
    for binding in row.binding_items:
        if binding.category == ONLY_ATL:
            continue
        for source in binding.suggested or ("",):
            mappings.add(("binding", *binding.key, source))
    return frozenset(mappings)


def binding_categories(
    rows: Sequence[RunRow], *, truth_keys: Iterable[BindingKey] = ()
) -> dict[BindingKey, list[str]]:
    """Per binding key (the union over the rows and ``truth_keys``), its category in each row.

    A row that does not list a key gets ``onlyAtl`` when the key is in the ground truth (according to any
    of the rows, or ``truth_keys``: the row missed it) and ``absent`` otherwise (it neither suggested the
    key nor had it in its ground truth). Rows of one ground truth always list every ground-truth key, so
    the fill only matters for rows of different origins.
    """
    truth = set(truth_keys)
    keys: set[BindingKey] = set(truth)
    per_row = []
    for row in rows:
        by_key = {item.key: item.category for item in row.binding_items}
        keys.update(by_key)
        truth.update(key for key, category in by_key.items() if in_ground_truth(category))
        per_row.append(by_key)
    return {
        key: [by_key.get(key, ONLY_ATL if key in truth else ABSENT) for by_key in per_row]
        for key in sorted(keys)
    }


def truth_keys(rows: Iterable[RunRow]) -> set[BindingKey]:
    """The binding keys the rows' ground truth contains."""
    return {item.key for row in rows for item in row.binding_items if in_ground_truth(item.category)}


def class_verdicts(
    rows: Sequence[RunRow], *, truth_pairs: Iterable[ClassPair] = ()
) -> dict[ClassPair, list[str]]:
    """Per class pair (the union over the rows and ``truth_pairs``), its verdict in each row; a row that
    does not list a ground-truth pair gets ``fn``, any other missing pair ``absent``."""
    truth = set(truth_pairs)
    pairs: set[ClassPair] = set(truth)
    per_row = []
    for row in rows:
        by_pair = {(i.source_class, i.target_class): i.verdict for i in row.class_items}
        pairs.update(by_pair)
        truth.update(pair for pair, verdict in by_pair.items() if verdict in (VERDICT_TP, VERDICT_FN))
        per_row.append(by_pair)
    return {
        pair: [by_pair.get(pair, VERDICT_FN if pair in truth else ABSENT) for by_pair in per_row]
        for pair in sorted(pairs)
    }


def majority_right(categories: Iterable[str]) -> bool:
    """Right in more than half of the runs (a tie counts as not right)."""
    outcomes = [is_right(c) for c in categories]
    return 2 * sum(outcomes) > len(outcomes)


def in_ground_truth(category: str) -> bool:
    """Whether a verdict implies the item is in the ground truth (every category but onlyGenerated)."""
    return category not in ("onlyGenerated", ABSENT, VERDICT_FP)


__all__ = [
    "BINDING_CATEGORIES",
    "VERDICT_FN",
    "binding_categories",
    "class_verdicts",
    "has_verdicts",
    "in_ground_truth",
    "is_right",
    "majority_right",
    "mapping_set",
    "truth_keys",
]
