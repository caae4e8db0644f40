"""The count table: one row per (track, provider, model, transformation, run).

It is the single source of truth for every metric, table and plot: the pytest suite records rows, the
aggregate and statistics modules read nothing else, and ``results.json`` stores them so a saved session
can be re-scored and re-plotted without any other file. A row therefore carries raw counts (never
derived metrics) plus the per-item verdicts that paired statistics, stability and drill-down pages need.

The harness carries rows as envelopes (:meth:`RunRow.to_envelope`: identity in the envelope, the counts in
the payload) and the track decodes them back (:meth:`RunRow.from_envelope`).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

from benchmark.core.rows import STATUS_ERROR, STATUS_OK, Row
from benchmark.tracks.mapping.metrics import (
    DEFAULT_PARTIAL_WEIGHT,
    BindingCounts,
    ClassCounts,
    LevelScores,
    level_scores,
)

ROW_FORMAT_VERSION = 1


FEATURE_KINDS = ("attribute", "reference", "unknown")
CONFIDENCE_LABELS = ("high", "medium", "low", "unknown")
# Cumulative confidence slices, from the most to the least selective.
CONFIDENCE_CUMULATIVE = ("high", "high+medium", "all")


@dataclass(frozen=True)
class CountSlice:
    """Class and binding counts for one subset of a run's suggestions (a confidence slice)."""

    classes: ClassCounts = ClassCounts()
    bindings: BindingCounts = BindingCounts()

    def to_json(self) -> dict[str, Any]:
        return {"class": self.classes.to_json(), "binding": self.bindings.to_json()}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> CountSlice:
        return cls(ClassCounts.from_json(data["class"]), BindingCounts.from_json(data["binding"]))


@dataclass(frozen=True)
class ClassItem:
    """Verdict on one class pair: ``tp`` (both), ``fp`` (suggested only) or ``fn`` (ground truth only)."""

    source_class: str
    target_class: str
    verdict: str
    confidence: str | None = None

    def to_json(self) -> dict[str, Any]:
        return {
            "sourceClass": self.source_class,
            "targetClass": self.target_class,
            "verdict": self.verdict,
            "confidence": self.confidence,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> ClassItem:
        return cls(data["sourceClass"], data["targetClass"], data["verdict"], data.get("confidence"))


@dataclass(frozen=True)
class BindingItem:
    """Verdict on one binding key (sourceClass, targetClass, targetFeature).

    ``category`` is one of :data:`benchmark.tracks.mapping.metrics.BINDING_CATEGORIES`; ``suggested`` the
    source features the run named for this key, ``ground_truth`` the ground truth's source paths.
    """

    source_class: str
    target_class: str
    target_feature: str
    category: str
    feature_kind: str = "unknown"
    suggested: tuple[str, ...] = ()
    ground_truth: tuple[str, ...] = ()
    confidence: str | None = None

    @property
    def key(self) -> tuple[str, str, str]:
        return (self.source_class, self.target_class, self.target_feature)

    def to_json(self) -> dict[str, Any]:
        return {
            "sourceClass": self.source_class,
            "targetClass": self.target_class,
            "targetFeature": self.target_feature,
            "category": self.category,
            "featureKind": self.feature_kind,
            "suggested": list(self.suggested),
            "groundTruth": list(self.ground_truth),
            "confidence": self.confidence,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> BindingItem:
        return cls(
            source_class=data["sourceClass"],
            target_class=data["targetClass"],
            target_feature=data["targetFeature"],
            category=data["category"],
            feature_kind=data.get("featureKind", "unknown"),
            suggested=tuple(data.get("suggested", [])),
            ground_truth=tuple(data.get("groundTruth", [])),
            confidence=data.get("confidence"),
        )


@dataclass(frozen=True)
class RunRow:
    """One scored run. Identity: (track, provider, model, transformation, run).

    ``status`` is ``ok`` or ``error``; an error row keeps its identity and ``error`` text so reports can
    say which runs were excluded and why, and carries zero counts that aggregation skips.
    """

    provider: str
    model: str
    transformation: str
    run: str
    track: str = "atl"
    file: str = ""
    partial_weight: float = DEFAULT_PARTIAL_WEIGHT
    confidence_filter: str = "all"
    status: str = STATUS_OK
    error: str | None = None
    classes: ClassCounts = ClassCounts()
    bindings: BindingCounts = BindingCounts()
    bindings_by_kind: dict[str, BindingCounts] = field(default_factory=dict)
    confidence_slices: dict[str, CountSlice] = field(default_factory=dict)
    hallucinated_classes: tuple[str, ...] = ()
    hallucinated_features: tuple[str, ...] = ()
    suggestions: int = 0
    invalid: int = 0
    duplicates: int = 0
    class_items: tuple[ClassItem, ...] = ()
    binding_items: tuple[BindingItem, ...] = ()
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def key(self) -> tuple[str, str, str, str, str]:
        return (self.track, self.provider, self.model, self.transformation, self.run)

    @property
    def ok(self) -> bool:
        return self.status == STATUS_OK

    def scores(self, w: float | None = None) -> LevelScores:
        """Metrics of this run alone, at the row's own partial weight unless ``w`` is given."""
        return level_scores(self.classes, self.bindings, self.partial_weight if w is None else w)

    def with_error(self, message: str) -> RunRow:
        return replace(self, status=STATUS_ERROR, error=message)

    def to_json(self) -> dict[str, Any]:
        return {
            "rowFormat": ROW_FORMAT_VERSION,
            "track": self.track,
            "provider": self.provider,
            "model": self.model,
            "transformation": self.transformation,
            "run": self.run,
            "file": self.file,
            "partialWeight": self.partial_weight,
            "confidenceFilter": self.confidence_filter,
            "status": self.status,
            "error": self.error,
            "class": self.classes.to_json(),
            "binding": self.bindings.to_json(),
            "bindingByKind": {k: v.to_json() for k, v in sorted(self.bindings_by_kind.items())},
            "confidenceSlices": {k: v.to_json() for k, v in sorted(self.confidence_slices.items())},
            "hallucinations": {
                "classes": sorted(self.hallucinated_classes),
                "features": sorted(self.hallucinated_features),
            },
            "suggestions": self.suggestions,
            "invalid": self.invalid,
            "duplicates": self.duplicates,
            "classItems": [
                i.to_json() for i in sorted(self.class_items, key=lambda i: (i.source_class, i.target_class))
            ],
            "bindingItems": [i.to_json() for i in sorted(self.binding_items, key=lambda i: i.key)],
            "extra": self.extra,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any], *, items: bool = True) -> RunRow:
        """The row of :meth:`to_json`; with ``items=False`` without its class and binding items (the
        per-item detail, most of a row's size), for a reader that needs the counts only."""
        hallucinations = data.get("hallucinations", {})
        return cls(
            track=data.get("track", "atl"),
            provider=data["provider"],
            model=data["model"],
            transformation=data["transformation"],
            run=data["run"],
            file=data.get("file", ""),
            partial_weight=float(data.get("partialWeight", DEFAULT_PARTIAL_WEIGHT)),
            confidence_filter=data.get("confidenceFilter", "all"),
            status=data.get("status", STATUS_OK),
            error=data.get("error"),
            classes=ClassCounts.from_json(data["class"]),
            bindings=BindingCounts.from_json(data["binding"]),
            bindings_by_kind={
                k: BindingCounts.from_json(v) for k, v in data.get("bindingByKind", {}).items()
            },
            confidence_slices={
                k: CountSlice.from_json(v) for k, v in data.get("confidenceSlices", {}).items()
            },
            hallucinated_classes=tuple(hallucinations.get("classes", [])),
            hallucinated_features=tuple(hallucinations.get("features", [])),
            suggestions=int(data.get("suggestions", 0)),
            invalid=int(data.get("invalid", 0)),
            duplicates=int(data.get("duplicates", 0)),
            class_items=tuple(ClassItem.from_json(i) for i in data.get("classItems", [])) if items else (),
            binding_items=(
                tuple(BindingItem.from_json(i) for i in data.get("bindingItems", [])) if items else ()
            ),
            extra=dict(data.get("extra", {})),
        )

    def to_envelope(self) -> Row:
        """The harness's row: identity in the envelope, everything else in the payload."""
        data = self.to_json()
        payload = {k: v for k, v in data.items() if k not in _ENVELOPE}
        return Row(
            track=self.track,
            provider=self.provider,
            model=self.model,
            task=self.transformation,
            run=self.run,
            file=self.file,
            status=self.status,
            error=self.error,
            payload=payload,
        )

    @classmethod
    def from_envelope(cls, row: Row, *, items: bool = True) -> RunRow:
        identity = {
            "track": row.track,
            "provider": row.provider,
            "model": row.model,
            "transformation": row.task,
            "run": row.run,
            "file": row.file,
            "status": row.status,
            "error": row.error,
        }
        return cls.from_json({**row.payload, **identity}, items=items)


# Keys of :meth:`RunRow.to_json` that the envelope carries.
_ENVELOPE = ("rowFormat", "track", "provider", "model", "transformation", "run", "file", "status", "error")
