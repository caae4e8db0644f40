"""The mapping track's payloads: what a row holds beside its identity, and a ground truth's facts.

The count table (one row per track, provider, model, transformation and run) is the single source of
truth for every metric, table and plot: the pytest suite records rows, the aggregate and statistics modules
read nothing else, and ``results.json`` stores them so a saved session can be re-scored and re-plotted
without any other file. The harness carries a row as its envelope (:class:`benchmark.core.rows.Row`:
identity and status) with a payload only this module writes and reads (:class:`MappingPayload`: raw
counts, never derived metrics, and per-item verdicts); :class:`RunRow` is the two together, as the
track's aggregation, statistics and reports read them. :class:`TransformationFacts` is the payload of a
ground truth's facts.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from benchmark.core.errors import ConfigurationError
from benchmark.core.rows import STATUS_OK, Facts, Row
from benchmark.tracks.mapping.counts import (
    DEFAULT_PARTIAL_WEIGHT,
    BindingCounts,
    ClassCounts,
    LevelScores,
    level_scores,
)
from benchmark.tracks.mapping.variants.names import ORIGINAL

ROW_FORMAT_VERSION = 1


FEATURE_KINDS = ("attribute", "reference", "unknown")


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

    ``category`` is one of :data:`benchmark.tracks.mapping.counts.BINDING_CATEGORIES`; ``suggested`` the
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


PAYLOAD_FIELDS = (
    "confidence_filter",
    "classes",
    "bindings",
    "bindings_by_kind",
    "confidence_slices",
    "hallucinated_classes",
    "hallucinated_features",
    "suggestions",
    "invalid",
    "duplicates",
    "class_items",
    "binding_items",
    "extra",
    "variant",
    "variant_detail",
)


@dataclass(frozen=True)
class MappingPayload:
    """What a mapping row holds beside its identity: the raw counts of one run (never derived metrics,
    and no partial weight: w is applied where scores are read), the per-item verdicts that paired
    statistics, stability and the drill-down need, and side facts. A payload of an older session that
    carries ``partialWeight`` reads as well (the weight is the session's, :func:`saved_partial_weight`).

    Written and read here only (:meth:`to_json` / :meth:`from_json`): ``results.json`` stores it as the
    payload of the harness's row envelope.
    """

    confidence_filter: str = "all"
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
    #: the task variant the run answered (``docs/VARIANTS.md``) and what its run file records of it (seed
    #: and renaming); written only for a variant other than ``original``, so other rows keep their shape
    variant: str = ORIGINAL
    variant_detail: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        data = self._counts_json()
        if self.variant != ORIGINAL:
            data["variant"] = {"name": self.variant, **self.variant_detail}
        return data

    def _counts_json(self) -> dict[str, Any]:
        return {
            "confidenceFilter": self.confidence_filter,
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
    def from_json(cls, data: dict[str, Any], *, items: bool = True) -> MappingPayload:
        """The payload of :meth:`to_json`; with ``items=False`` without its class and binding items (the
        per-item detail, most of a row's size), for a reader that needs the counts only."""
        hallucinations = data.get("hallucinations", {})
        variant = data.get("variant") or {}
        return cls(
            confidence_filter=data.get("confidenceFilter", "all"),
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
            variant=str(variant.get("name", ORIGINAL)),
            variant_detail={k: v for k, v in variant.items() if k != "name"},
        )


@dataclass(frozen=True)
class RunRow:
    """One scored run as the mapping track reads it: the harness's envelope (identity, status) and the
    typed payload. Identity: (track, provider, model, transformation, run); ``transformation`` is the
    envelope's task. An error row keeps its identity and ``error`` text, so reports can say which runs
    were excluded and why, and carries zero counts that aggregation skips."""

    envelope: Row
    payload: MappingPayload = MappingPayload()

    @classmethod
    def of(
        cls,
        provider: str,
        model: str,
        transformation: str,
        run: str,
        *,
        track: str = "atl",
        file: str = "",
        status: str = STATUS_OK,
        error: str | None = None,
        **payload: Any,
    ) -> RunRow:
        """A row from its identity and payload fields (:data:`PAYLOAD_FIELDS`)."""
        envelope = Row(track, provider, model, transformation, run, file, status, error)
        return cls(envelope, MappingPayload(**payload))

    # identity, from the envelope
    @property
    def track(self) -> str:
        return self.envelope.track

    @property
    def provider(self) -> str:
        """The provider as the tables name it: with its prompt template when that is not the study's
        (``Claude (terse)``), so that runs prompted differently form series of their own."""
        return self.envelope.series

    @property
    def model(self) -> str:
        return self.envelope.model

    @property
    def transformation(self) -> str:
        return self.envelope.task

    @property
    def run(self) -> str:
        return self.envelope.run

    @property
    def file(self) -> str:
        return self.envelope.file

    @property
    def status(self) -> str:
        return self.envelope.status

    @property
    def error(self) -> str | None:
        return self.envelope.error

    @property
    def key(self) -> tuple[str, str, str, str, str]:
        return (self.track, self.provider, self.model, self.transformation, self.run)

    @property
    def ok(self) -> bool:
        return self.envelope.ok

    # the payload's fields, read through
    @property
    def confidence_filter(self) -> str:
        return self.payload.confidence_filter

    @property
    def classes(self) -> ClassCounts:
        return self.payload.classes

    @property
    def bindings(self) -> BindingCounts:
        return self.payload.bindings

    @property
    def bindings_by_kind(self) -> dict[str, BindingCounts]:
        return self.payload.bindings_by_kind

    @property
    def confidence_slices(self) -> dict[str, CountSlice]:
        return self.payload.confidence_slices

    @property
    def hallucinated_classes(self) -> tuple[str, ...]:
        return self.payload.hallucinated_classes

    @property
    def hallucinated_features(self) -> tuple[str, ...]:
        return self.payload.hallucinated_features

    @property
    def suggestions(self) -> int:
        return self.payload.suggestions

    @property
    def invalid(self) -> int:
        return self.payload.invalid

    @property
    def duplicates(self) -> int:
        return self.payload.duplicates

    @property
    def class_items(self) -> tuple[ClassItem, ...]:
        return self.payload.class_items

    @property
    def binding_items(self) -> tuple[BindingItem, ...]:
        return self.payload.binding_items

    @property
    def extra(self) -> dict[str, Any]:
        return self.payload.extra

    @property
    def variant(self) -> str:
        return self.payload.variant

    def scores(self, w: float) -> LevelScores:
        """Metrics of this run alone, with partial weight ``w`` (the row holds raw categories only)."""
        return level_scores(self.classes, self.bindings, w)

    def replaced(self, **changes: Any) -> RunRow:
        """A copy with some identity fields (``provider``, ``transformation``...) or payload fields
        changed."""
        payload = {k: v for k, v in changes.items() if k in PAYLOAD_FIELDS}
        identity = {
            ("task" if k == "transformation" else k): v for k, v in changes.items() if k not in payload
        }
        return RunRow(replace(self.envelope, **identity), replace(self.payload, **payload))

    def with_error(self, message: str) -> RunRow:
        return RunRow(self.envelope.with_error(message), self.payload)

    def to_json(self) -> dict[str, Any]:
        """The row as one flat object (``results.json`` version 1 stored rows so)."""
        identity = {
            "rowFormat": ROW_FORMAT_VERSION,
            "track": self.track,
            "provider": self.provider,
            "model": self.model,
            "transformation": self.transformation,
            "run": self.run,
            "file": self.file,
        }
        return {**identity, **self.payload.to_json(), "status": self.status, "error": self.error}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> RunRow:
        return cls.from_envelope(Row.from_v1({"rowFormat": 1, **data}))

    def to_envelope(self) -> Row:
        """The harness's row: identity in the envelope, the payload's JSON in its payload."""
        return replace(self.envelope, payload=self.payload.to_json())

    @classmethod
    def from_envelope(cls, row: Row, *, items: bool = True) -> RunRow:
        return cls(replace(row, payload={}), MappingPayload.from_json(row.payload, items=items))


@dataclass(frozen=True)
class TransformationFacts:
    """Size and shape of one ground truth, for the validation-set characteristics table."""

    name: str
    track: str = "atl"
    file: str = ""
    matched_rules: int = 0
    lazy_rules: int = 0
    called_rules: int = 0
    helpers: int = 0
    class_pairs: int = 0
    bindings: int = 0
    partial_bindings: int = 0  # bindings whose ground truth reads more than one source feature
    target_only_bindings: int = 0
    source_metamodel: str = ""
    target_metamodel: str = ""
    error: str | None = None  # the ground truth could not be read (syntax error, missing metamodel...)

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "track": self.track,
            "file": self.file,
            "matchedRules": self.matched_rules,
            "lazyRules": self.lazy_rules,
            "calledRules": self.called_rules,
            "helpers": self.helpers,
            "classPairs": self.class_pairs,
            "bindings": self.bindings,
            "partialBindings": self.partial_bindings,
            "targetOnlyBindings": self.target_only_bindings,
            "sourceMetamodel": self.source_metamodel,
            "targetMetamodel": self.target_metamodel,
            "error": self.error,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> TransformationFacts:
        return cls(
            name=data["name"],
            track=data.get("track", "atl"),
            file=data.get("file", ""),
            matched_rules=int(data.get("matchedRules", 0)),
            lazy_rules=int(data.get("lazyRules", 0)),
            called_rules=int(data.get("calledRules", 0)),
            helpers=int(data.get("helpers", 0)),
            class_pairs=int(data.get("classPairs", 0)),
            bindings=int(data.get("bindings", 0)),
            partial_bindings=int(data.get("partialBindings", 0)),
            target_only_bindings=int(data.get("targetOnlyBindings", 0)),
            source_metamodel=data.get("sourceMetamodel", ""),
            target_metamodel=data.get("targetMetamodel", ""),
            error=data.get("error"),
        )

    def to_facts(self) -> Facts:
        data = self.to_json()
        payload = {k: v for k, v in data.items() if k not in ("name", "track", "file", "error")}
        return Facts(track=self.track, task=self.name, file=self.file, error=self.error, payload=payload)

    @classmethod
    def from_facts(cls, facts: Facts) -> TransformationFacts:
        return cls.from_json(
            {
                **facts.payload,
                "name": facts.task,
                "track": facts.track,
                "file": facts.file,
                "error": facts.error,
            }
        )


def saved_partial_weight(options: Mapping[str, Any], rows: Sequence[Row]) -> float:
    """The partial weight a saved session was scored with: its options' (``partialWeight``); a session
    written before rows stopped carrying the weight says it in every row instead (rows of different
    weights are refused: choose one with ``--partial-weight``); the default when neither says."""
    if "partialWeight" in options:
        return float(options["partialWeight"])
    weights = sorted({float(row.payload["partialWeight"]) for row in rows if "partialWeight" in row.payload})
    if len(weights) > 1:
        raise ConfigurationError(
            f"rows were scored with different partial weights {weights}; choose one", field="--partial-weight"
        )
    return weights[0] if weights else DEFAULT_PARTIAL_WEIGHT
