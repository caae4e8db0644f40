"""Writing jJodel "suggested-mappings" exports, the file shape every run of this suite is stored in.

The jJodel editor exports LLM suggestions in this shape; baselines, the synthetic-run generator and the LLM
runner write the same shape so that one reader (:mod:`benchmark.tracks.mapping.scoring.suggestions`) scores
them all. Reading (with validation, normalisation and error reporting) is
:mod:`benchmark.tracks.mapping.scoring.suggestions`'s job; this module only builds and writes documents.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from benchmark.core.rows import FREE_FORMAT, STUDY_TEMPLATE

EXPORT_TYPE = "suggested-mappings"
SCHEMA_VERSION = 1
KIND_CLASS = "class"
KIND_ATTRIBUTE = "attribute"  # jJodel's name for any feature mapping, attribute or reference


@dataclass(frozen=True)
class MappingEntry:
    """One suggested correspondence. A class mapping has no features; a feature mapping has both."""

    kind: str
    source_class: str
    target_class: str
    source_feature: str | None = None
    target_feature: str | None = None
    confidence: str | None = None
    reason: str | None = None
    guard_hint: str | None = None
    conversion_hint: str | None = None

    def to_json(self, provider: str) -> dict[str, Any]:
        data: dict[str, Any] = {
            "kind": self.kind,
            "source": {"class": self.source_class, "feature": self.source_feature},
            "target": {"class": self.target_class, "feature": self.target_feature},
            "confidence": self.confidence,
            "provider": provider,
        }
        if self.reason is not None:
            data["reason"] = self.reason
        if self.guard_hint is not None:
            data["guardHint"] = self.guard_hint
        if self.conversion_hint is not None:
            data["conversionHint"] = self.conversion_hint
        return data


def export_document(
    *,
    transformation: str,
    source: str,
    target: str,
    provider: str,
    model: str,
    mappings: Iterable[MappingEntry],
    model_label: str | None = None,
    extra: Mapping[str, Any] | None = None,
    template: str = STUDY_TEMPLATE,
    answer_format: str = FREE_FORMAT,
) -> dict[str, Any]:
    """A complete export. ``extra`` adds top-level blocks (``generation``, ``matches``, ``synthetic``);
    ``analysis.template`` names the prompt template when it is not the study's, ``analysis.answerFormat``
    the answer format when it is not free (no key otherwise)."""
    analysis = {"provider": provider, "model": model, "modelLabel": model_label or model}
    if template != STUDY_TEMPLATE:
        analysis["template"] = template
    if answer_format != FREE_FORMAT:
        analysis["answerFormat"] = answer_format
    document: dict[str, Any] = {
        "jjodel": {"exportType": EXPORT_TYPE, "schemaVersion": SCHEMA_VERSION},
        "transformation": {"name": transformation, "source": source, "target": target},
        "analysis": analysis,
        "mappings": [m.to_json(provider) for m in mappings],
    }
    for key, value in (extra or {}).items():
        if key in document:
            raise ValueError(f"extra block {key!r} would overwrite a standard export field")
        document[key] = value
    return document
