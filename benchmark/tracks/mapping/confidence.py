"""Confidence labels: what a mapping may carry, how a label is read, and which labels a filter keeps.

A suggested mapping carries ``high``, ``medium`` or ``low`` (any case, ``med`` accepted) or no label
(``unknown``); ``--confidence`` keeps the mappings with the given labels (``all``: every one). Every row
carries the counts of each label's mappings and of the cumulative slices high, high+medium and all
(:data:`CONFIDENCE_SLICES`), so that confidence curves can be drawn from any row, whatever the filter.
"""

from __future__ import annotations

from collections.abc import Iterable

from benchmark.core.errors import ConfigurationError

UNKNOWN = "unknown"  # the label of a mapping that carries none
CONFIDENCE_LABELS = ("high", "medium", "low", UNKNOWN)  # most to least confident
CONFIDENCE_ALL = "all"
# Cumulative confidence slices, from the most to the least selective.
CONFIDENCE_CUMULATIVE = ("high", "high+medium", CONFIDENCE_ALL)
# The confidence slices every row carries: one per label, plus the cumulative ones (high is both).
CONFIDENCE_SLICES: dict[str, frozenset[str]] = {
    **{label: frozenset({label}) for label in CONFIDENCE_LABELS},
    "high+medium": frozenset({"high", "medium"}),
    CONFIDENCE_ALL: frozenset(CONFIDENCE_LABELS),
}
_ALIASES = {"high": "high", "medium": "medium", "med": "medium", "low": "low", UNKNOWN: UNKNOWN}


def normalise_confidence(value: str | None) -> tuple[str, bool]:
    """(label, recognised). Absent or blank gives ``unknown`` (recognised); an unknown word gives
    ``unknown`` and ``False`` so the caller can leave a notice."""
    if value is None or not value.strip():
        return UNKNOWN, True
    label = _ALIASES.get(value.strip().lower())
    return (label, True) if label is not None else (UNKNOWN, False)


def parse_confidence_filter(spec: str | Iterable[str] | None) -> frozenset[str] | None:
    """``all`` (or ``None``/empty) gives ``None`` (keep everything); otherwise the set of labels.

    Accepts ``high``, ``high,medium``, ``med``, any case, and ``unknown`` for entries without a label.
    """
    if spec is None:
        return None
    parts = [p.strip() for p in (spec.split(",") if isinstance(spec, str) else spec)]
    parts = [p for p in parts if p]
    if not parts or (len(parts) == 1 and parts[0].lower() == CONFIDENCE_ALL):
        return None
    labels: set[str] = set()
    for part in parts:
        label = _ALIASES.get(part.lower())
        if label is None:
            raise ConfigurationError(
                f"unknown confidence label {part!r}; use 'all' or a comma-separated list of "
                "high, medium (or med), low, unknown",
                field="--confidence",
            )
        labels.add(label)
    return frozenset(labels)


def confidence_filter_name(labels: frozenset[str] | None) -> str:
    """Canonical spelling of a filter: ``all`` or labels in confidence order joined by ``,``."""
    if labels is None or set(labels) >= set(CONFIDENCE_LABELS):
        return CONFIDENCE_ALL
    return ",".join(label for label in CONFIDENCE_LABELS if label in labels)


__all__ = [
    "CONFIDENCE_ALL",
    "CONFIDENCE_CUMULATIVE",
    "CONFIDENCE_LABELS",
    "CONFIDENCE_SLICES",
    "UNKNOWN",
    "confidence_filter_name",
    "normalise_confidence",
    "parse_confidence_filter",
]
