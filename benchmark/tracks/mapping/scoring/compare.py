"""The comparator: one suggestion set against one ground truth, exactly as ``docs/METRICS.md`` defines it.

Every verdict is kept as an item (a class pair or a binding key with its category), and counts are derived
from the items, so a number in a table can always be traced back to the mappings that produced it. The
formulas themselves live in :mod:`benchmark.tracks.mapping.counts`; this module only decides categories.

* Class level: suggested pairs are the (source class, target class) of the class mappings; a pair is
  ``tp`` (in both), ``fp`` (suggested only) or ``fn`` (ground truth only).
* Binding level: bindings are aligned on (sourceClass, targetClass, targetFeature) over all pairs, whatever
  the class level said. With L the source features the suggestions name for a key, and the ground truth's
  source paths P and first segments H: only in the ground truth -> ``onlyAtl``; only suggested ->
  ``onlyGenerated``; in both with H empty -> ``targetOnly`` (neutral); no element of L in H or P ->
  ``divergent``; otherwise ``exact`` when |H| = 1 and ``partial`` when |H| > 1.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from benchmark.lang.ecore.view import MetamodelView
from benchmark.tracks.mapping.confidence import CONFIDENCE_ALL, CONFIDENCE_LABELS, CONFIDENCE_SLICES
from benchmark.tracks.mapping.counts import (
    BindingCounts,
    ClassCounts,
    LevelScores,
    level_scores,
)
from benchmark.tracks.mapping.extractor.operations import NAVIGATING_OPERATIONS
from benchmark.tracks.mapping.interchange import FeatureMatch, InterchangeDocument
from benchmark.tracks.mapping.payload import (
    FEATURE_KINDS,
    BindingItem,
    ClassItem,
    CountSlice,
    RunRow,
)
from benchmark.tracks.mapping.scoring.outcomes import ROW_UNUSABLE
from benchmark.tracks.mapping.scoring.suggestions import (
    Suggestion,
    SuggestionSet,
    filter_confidence,
    normalise_name,
)

BindingKey = tuple[str, str, str]
ClassPair = tuple[str, str]

VERDICT_TP = "tp"
VERDICT_FP = "fp"
VERDICT_FN = "fn"
ABSENT = "absent"  # three-way: the key is in neither the ground truth nor this side's suggestions

EXACT, PARTIAL, DIVERGENT = "exact", "partial", "divergent"
TARGET_ONLY, ONLY_GENERATED, ONLY_ATL = "targetOnly", "onlyGenerated", "onlyAtl"


# ----------------------------------------------------------------------------------- ground truth


def ground_truth_pairs(document: InterchangeDocument) -> set[ClassPair]:
    """The ground truth's class pairs, with names normalised like the suggestions' names."""
    pairs: set[ClassPair] = set()
    for match in document.class_matches:
        source, target = normalise_name(match.source_class), normalise_name(match.target_class)
        if source and target:
            pairs.add((source, target))
    return pairs


def ground_truth_bindings(document: InterchangeDocument) -> dict[BindingKey, FeatureMatch]:
    """:meth:`InterchangeDocument.binding_keys`, robust to a hand-written document that lists one pair or
    one target feature twice: such bindings are united (paths and features), never overwritten."""
    merged: dict[BindingKey, FeatureMatch] = {}
    for match in document.class_matches:
        source, target = normalise_name(match.source_class), normalise_name(match.target_class)
        if not (source and target):
            continue
        for feature in match.feature_matches:
            name = normalise_name(feature.target_feature)
            if not name:
                continue
            key = (source, target, name)
            earlier = merged.get(key)
            if earlier is None:
                merged[key] = feature
            else:
                merged[key] = _union(name, earlier, feature)
    return merged


def _union(name: str, first: FeatureMatch, second: FeatureMatch) -> FeatureMatch:
    def both(a: tuple[str, ...], b: tuple[str, ...]) -> tuple[str, ...]:
        return tuple(sorted(set(a) | set(b)))

    return FeatureMatch(
        target_feature=name,
        source_paths=both(first.source_paths, second.source_paths),
        source_features=both(first.source_features, second.source_features),
        helpers=both(first.helpers, second.helpers),
        rules=both(first.rules, second.rules),
    )


def classify_binding(suggested_sources: frozenset[str] | None, truth: FeatureMatch | None) -> str:
    """The category of one binding key (the definition, in one place).

    ``suggested_sources`` is L, or ``None`` when no suggestion names the key; ``truth`` the ground-truth
    binding, or ``None`` when the ground truth has no such key.
    """
    if truth is None:
        if suggested_sources is None:
            raise ValueError("a binding key must come from the ground truth or the suggestions")
        return ONLY_GENERATED
    if suggested_sources is None:
        return ONLY_ATL
    heads = set(truth.source_features)
    if not heads:
        return TARGET_ONLY
    if not suggested_sources & (heads | set(truth.source_paths)):
        return DIVERGENT
    return EXACT if len(heads) == 1 else PARTIAL


def _most_confident(labels: Iterable[str]) -> str | None:
    present = set(labels)
    for label in CONFIDENCE_LABELS:
        if label in present:
            return label
    return None


# ------------------------------------------------------------------------------------ verdicts


@dataclass(frozen=True)
class _Verdicts:
    class_items: tuple[ClassItem, ...]
    binding_items: tuple[BindingItem, ...]

    @property
    def classes(self) -> ClassCounts:
        verdicts = [item.verdict for item in self.class_items]
        return ClassCounts(verdicts.count(VERDICT_TP), verdicts.count(VERDICT_FP), verdicts.count(VERDICT_FN))

    @property
    def bindings(self) -> BindingCounts:
        return _count_bindings(self.binding_items)


def _count_bindings(items: Iterable[BindingItem]) -> BindingCounts:
    totals = dict.fromkeys(BindingCounts().to_json(), 0)
    for item in items:
        totals[item.category] += 1
    return BindingCounts.from_json(totals)


def _verdicts(
    pairs: set[ClassPair],
    bindings: Mapping[BindingKey, FeatureMatch],
    mappings: Iterable[Suggestion],
    target_view: MetamodelView | None,
) -> _Verdicts:
    class_labels: dict[ClassPair, list[str]] = {}
    binding_sources: dict[BindingKey, set[str]] = {}
    binding_labels: dict[BindingKey, list[str]] = {}
    for mapping in mappings:
        if mapping.is_class:
            class_labels.setdefault((mapping.source_class, mapping.target_class), []).append(
                mapping.confidence
            )
        else:
            assert mapping.target_feature is not None
            key = (mapping.source_class, mapping.target_class, mapping.target_feature)
            sources = binding_sources.setdefault(key, set())
            if mapping.source_feature is not None:
                sources.add(mapping.source_feature)
            binding_labels.setdefault(key, []).append(mapping.confidence)

    class_items = []
    for pair in sorted(pairs | set(class_labels)):
        if pair in class_labels:
            verdict = VERDICT_TP if pair in pairs else VERDICT_FP
        else:
            verdict = VERDICT_FN
        class_items.append(ClassItem(pair[0], pair[1], verdict, _most_confident(class_labels.get(pair, ()))))

    binding_items = []
    for key in sorted(set(bindings) | set(binding_sources)):
        truth = bindings.get(key)
        named = binding_sources.get(key)
        category = classify_binding(frozenset(named) if named is not None else None, truth)
        kind = target_view.feature_kind(key[1], key[2]) if target_view is not None else "unknown"
        binding_items.append(
            BindingItem(
                source_class=key[0],
                target_class=key[1],
                target_feature=key[2],
                category=category,
                feature_kind=kind,
                suggested=tuple(sorted(named or ())),
                ground_truth=tuple(sorted(set(truth.source_paths))) if truth is not None else (),
                confidence=_most_confident(binding_labels.get(key, ())),
            )
        )
    return _Verdicts(tuple(class_items), tuple(binding_items))


# ------------------------------------------------------------------------------- hallucinations


#: ATL's own navigation written as a path segment (``refImmediateComposite()``, the ground truth's spelling
#: of ``v.refImmediateComposite()``): no metamodel defines it, yet it names nothing made up.
_PSEUDO_FEATURES = frozenset(f"{operation}()" for operation in NAVIGATING_OPERATIONS)


def _path_exists(view: MetamodelView, class_name: str, path: str) -> bool:
    """Whether a dotted feature path navigates from ``class_name`` within one metamodel. A pseudo-feature
    (``refImmediateComposite()``) exists on every class and leads to a container of any class, so the
    segment after it exists when some class of the metamodel has a feature of that name."""
    current: str | None = class_name
    for segment in path.split("."):
        if segment in _PSEUDO_FEATURES:
            current = None
            continue
        if current is None:
            features = (cls.feature(segment) for cls in view.classes)
            feature = next((found for found in features if found is not None), None)
        else:
            feature = view.find_feature(current, segment)
        if feature is None:
            return False
        current = normalise_name(feature.type_name) or feature.type_name
    return True


def find_hallucinations(
    mappings: Iterable[Suggestion], source_view: MetamodelView, target_view: MetamodelView
) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """(classes, features) named by the suggestions that exist in neither metamodel, sorted and distinct.

    A class exists when either metamodel defines it. A feature ``C.f`` exists when either metamodel has a
    class ``C`` with feature ``f`` (own or inherited); a source path ``C.a.b`` must navigate within one
    metamodel. Features of a made-up class are therefore made up too and listed as well.
    """
    views = (source_view, target_view)
    classes: set[str] = set()
    features: set[str] = set()
    for mapping in mappings:
        for name in (mapping.source_class, mapping.target_class):
            if not any(view.has_class(name) for view in views):
                classes.add(name)
        ends = (
            (mapping.source_class, mapping.source_feature),
            (mapping.target_class, mapping.target_feature),
        )
        for owner, feature in ends:
            if feature is not None and not any(_path_exists(view, owner, feature) for view in views):
                features.add(f"{owner}.{feature}")
    return tuple(sorted(classes)), tuple(sorted(features))


# ----------------------------------------------------------------------------------- comparison


def summary_json(classes: ClassCounts, bindings: BindingCounts, w: float) -> dict[str, dict[str, Any]]:
    """The ``summary`` block of ``atlbench diff``: counts and metrics at the three levels."""
    levels = level_scores(classes, bindings, w)
    overall = {"tp": classes.tp + bindings.tp(w), "fp": classes.fp + bindings.fp(w)}
    overall["fn"] = classes.fn + bindings.fn(w)
    return {
        "class": {**classes.to_json(), **levels.classes.to_json()},
        "binding": {
            **bindings.to_json(),
            "tp": bindings.tp(w),
            "fp": bindings.fp(w),
            "fn": bindings.fn(w),
            **levels.bindings.to_json(),
        },
        "overall": {**overall, **levels.overall.to_json()},
    }


@dataclass(frozen=True)
class Comparison:
    """The outcome of scoring one run: counts, per-item verdicts and the side facts reported beside them.

    ``suggestions`` is the scored set (after the confidence filter); ``confidence_slices`` were computed
    from the set before filtering, so confidence curves can be drawn from any row. ``bindings_by_kind`` is
    empty and ``hallucinated_*`` are ``None`` when the metamodels needed for them were not given.
    """

    ground_truth: InterchangeDocument
    suggestions: SuggestionSet
    classes: ClassCounts
    bindings: BindingCounts
    class_items: tuple[ClassItem, ...]
    binding_items: tuple[BindingItem, ...]
    bindings_by_kind: dict[str, BindingCounts] = field(default_factory=dict)
    confidence_slices: dict[str, CountSlice] = field(default_factory=dict)
    hallucinated_classes: tuple[str, ...] | None = None
    hallucinated_features: tuple[str, ...] | None = None
    suggestions_before_filter: int = 0

    def scores(self, w: float) -> LevelScores:
        return level_scores(self.classes, self.bindings, w)

    def summary_json(self, w: float) -> dict[str, dict[str, Any]]:
        return summary_json(self.classes, self.bindings, w)

    def to_json(self, w: float) -> dict[str, Any]:
        """The ``atlbench diff`` report with partial weight ``w`` (``docs/METRICS.md`` lists every field)."""
        hallucinations = None
        if self.hallucinated_classes is not None:
            hallucinations = {
                "classes": list(self.hallucinated_classes),
                "features": list(self.hallucinated_features or ()),
            }
        return {
            "summary": summary_json(self.classes, self.bindings, w),
            "classes": [item.to_json() for item in self.class_items],
            "bindings": [item.to_json() for item in self.binding_items],
            "invalid": [entry.to_json() for entry in self.suggestions.invalid],
            "duplicates": self.suggestions.duplicate_count,
            "duplicateEntries": [d.to_json() for d in self.suggestions.duplicates],
            "notices": [n.to_json() for n in self.suggestions.notices],
            "byKind": {
                kind: {**counts.to_json(), **counts.scores(w).to_json()}
                for kind, counts in self.bindings_by_kind.items()
            },
            "hallucinations": hallucinations,
            "input": {
                "groundTruth": self.ground_truth.transformation.file or self.ground_truth.transformation.name,
                "transformation": self.ground_truth.transformation.name,
                "suggestions": self.suggestions.file,
                "shape": self.suggestions.shape,
                "provider": self.suggestions.provider,
                "model": self.suggestions.model,
                "modelLabel": self.suggestions.model_label,
                "partialWeight": w,
                "confidence": self.suggestions.confidence_filter,
                "mappingsScored": len(self.suggestions.mappings),
                "mappingsBeforeFilter": self.suggestions_before_filter,
                "unusable": self.suggestions.unusable_reason,
                "answerShape": self.suggestions.answer_shape,
            },
        }

    def to_row(
        self,
        *,
        provider: str | None = None,
        model: str | None = None,
        transformation: str | None = None,
        run: str | None = None,
        track: str = "atl",
        file: str | Path | None = None,
        extra: Mapping[str, Any] | None = None,
    ) -> RunRow:
        """The count-table row of this run; identity fields default to what the files say."""
        suggestion_file = str(file) if file is not None else (self.suggestions.file or "")
        row_extra: dict[str, Any] = {
            "modelLabel": self.suggestions.model_label,
            "shape": self.suggestions.shape,
            "groundTruth": self.ground_truth.transformation.file,
            "suggestionsBeforeFilter": self.suggestions_before_filter,
            "notices": len(self.suggestions.notices),
            "featureKindsChecked": bool(self.bindings_by_kind),
            "hallucinationsChecked": self.hallucinated_classes is not None,
        }
        # Only when there is something to say, so rows of ordinary runs keep their exact shape.
        if self.suggestions.unusable_reason is not None:
            row_extra[ROW_UNUSABLE] = self.suggestions.unusable_reason
        if self.suggestions.answer_shape is not None:
            row_extra["answerShape"] = self.suggestions.answer_shape
        row_extra.update(extra or {})
        return RunRow.of(
            provider=provider or self.suggestions.provider,
            model=model or self.suggestions.model,
            transformation=transformation or self.ground_truth.transformation.name,
            run=run or (Path(suggestion_file).stem if suggestion_file else "run"),
            track=track,
            file=suggestion_file,
            confidence_filter=self.suggestions.confidence_filter,
            classes=self.classes,
            bindings=self.bindings,
            bindings_by_kind=dict(self.bindings_by_kind),
            confidence_slices=dict(self.confidence_slices),
            hallucinated_classes=self.hallucinated_classes or (),
            hallucinated_features=self.hallucinated_features or (),
            suggestions=len(self.suggestions.mappings),
            invalid=len(self.suggestions.invalid),
            duplicates=self.suggestions.duplicate_count,
            class_items=self.class_items,
            binding_items=self.binding_items,
            extra=row_extra,
        )


def compare(
    ground_truth: InterchangeDocument,
    suggestions: SuggestionSet,
    *,
    source_view: MetamodelView | None = None,
    target_view: MetamodelView | None = None,
    confidence: str | Iterable[str] | None = None,
) -> Comparison:
    """Score ``suggestions`` against ``ground_truth``.

    ``confidence`` (``all``, ``high``, ``high,medium`` ...) filters the suggestions before scoring; the
    confidence slices are computed from the set as given, so they do not depend on the filter. The
    target view enables the split by feature kind; both views enable the hallucination count.
    """
    pairs = ground_truth_pairs(ground_truth)
    bindings = ground_truth_bindings(ground_truth)
    scored = filter_confidence(suggestions, confidence)
    verdicts = _verdicts(pairs, bindings, scored.mappings, target_view)

    by_kind: dict[str, BindingCounts] = {}
    if target_view is not None:
        for kind in FEATURE_KINDS:
            by_kind[kind] = _count_bindings(i for i in verdicts.binding_items if i.feature_kind == kind)

    slices: dict[str, CountSlice] = {}
    for name, labels in CONFIDENCE_SLICES.items():
        subset = [m for m in suggestions.mappings if m.confidence in labels]
        sliced = _verdicts(pairs, bindings, subset, None)
        slices[name] = CountSlice(sliced.classes, sliced.bindings)

    hallucinated_classes = hallucinated_features = None
    if source_view is not None and target_view is not None:
        hallucinated_classes, hallucinated_features = find_hallucinations(
            scored.mappings, source_view, target_view
        )

    return Comparison(
        ground_truth=ground_truth,
        suggestions=scored,
        classes=verdicts.classes,
        bindings=verdicts.bindings,
        class_items=verdicts.class_items,
        binding_items=verdicts.binding_items,
        bindings_by_kind=by_kind,
        confidence_slices=slices,
        hallucinated_classes=hallucinated_classes,
        hallucinated_features=hallucinated_features,
        suggestions_before_filter=len(suggestions.mappings),
    )


def error_row(
    error: BaseException | str,
    *,
    provider: str = "unknown",
    model: str = "unknown",
    transformation: str,
    run: str,
    file: str | Path = "",
    track: str = "atl",
    confidence_filter: str = CONFIDENCE_ALL,
) -> RunRow:
    """A row for a run that could not be scored: identity and reason kept, counts zero, excluded from
    aggregation and listed by it."""
    return RunRow.of(
        provider=provider,
        model=model,
        transformation=transformation,
        run=run,
        track=track,
        file=str(file),
        confidence_filter=confidence_filter,
    ).with_error(str(error))


__all__ = [
    "Comparison",
    "classify_binding",
    "compare",
    "error_row",
    "find_hallucinations",
    "ground_truth_bindings",
    "ground_truth_pairs",
    "summary_json",
]
