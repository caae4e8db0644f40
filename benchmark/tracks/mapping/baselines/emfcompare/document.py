"""The ``EMFCompare`` baseline as a jJodel suggested-mappings export.

* one class mapping per matched ``EClass`` pair;
* one attribute mapping (jJodel's kind for any feature) per matched ``EAttribute`` or ``EReference`` pair,
  its source and target class being the features' owning classes, whether or not those classes were
  matched to each other (EMF Compare matches features across unmatched owners);
* ``"matches"``: every matched pair of any metaclass, ``{"metaclass", "source", "target"}``, named as
  described in :mod:`.naming`, in the source metamodel's order.

Mappings follow the source metamodel's order too. The ``reason`` records how the pair was found (same
``xmi:id``, identical, or the distance and the threshold it had to stay under), which is what a reader
of a surprising mapping needs.
"""

from __future__ import annotations

from typing import Any

from benchmark.tracks.mapping.baselines.emfcompare import Resource, match
from benchmark.tracks.mapping.baselines.emfcompare.matcher import Match, MatchResult
from benchmark.tracks.mapping.baselines.emfcompare.naming import qualified_name
from benchmark.tracks.mapping.jjodel import KIND_ATTRIBUTE, KIND_CLASS, MappingEntry, export_document

PROVIDER = "EMFCompare"
MODEL = "EMF Compare 3.5.3 default match engine (port)"
CONFIDENCE = "high"
FEATURE_METACLASSES = ("EAttribute", "EReference")


def _reason(pair: Match) -> str:
    if pair.distance is None:
        return "same xmi:id"
    if pair.distance == 0:
        return "identical"
    assert pair.left is not None and pair.right is not None
    threshold = max(pair.left.threshold, pair.right.threshold)
    return f"EMF Compare distance {pair.distance:g} (threshold {threshold:g})"


def _name(node: Any) -> str:
    value = getattr(node.obj, "name", None)
    return "" if value is None else str(value)


def _owner_name(feature_node: Any) -> str:
    owner = feature_node.container
    return _name(owner) if owner is not None and owner.metaclass == "EClass" else ""


def mapping_entries(result: MatchResult) -> list[MappingEntry]:
    """Class and feature mappings of the matched pairs, in the source metamodel's order."""
    entries: list[MappingEntry] = []
    for pair in sorted(result.pairs(), key=_source_order):
        assert pair.left is not None and pair.right is not None
        kind = pair.metaclass
        if kind == "EClass":
            entries.append(
                MappingEntry(
                    KIND_CLASS,
                    _name(pair.left),
                    _name(pair.right),
                    confidence=CONFIDENCE,
                    reason=_reason(pair),
                )
            )
        elif kind in FEATURE_METACLASSES:
            entries.append(
                MappingEntry(
                    KIND_ATTRIBUTE,
                    _owner_name(pair.left),
                    _owner_name(pair.right),
                    source_feature=_name(pair.left),
                    target_feature=_name(pair.right),
                    confidence=CONFIDENCE,
                    reason=_reason(pair),
                )
            )
    return entries


def raw_matches(result: MatchResult) -> list[dict[str, str]]:
    """Every matched pair of any metaclass, for the export's ``"matches"`` block."""
    rows: list[dict[str, str]] = []
    for pair in sorted(result.pairs(), key=_source_order):
        assert pair.left is not None and pair.right is not None
        rows.append(
            {
                "metaclass": pair.metaclass,
                "source": qualified_name(pair.left),
                "target": qualified_name(pair.right),
            }
        )
    return rows


def _source_order(pair: Match) -> int:
    assert pair.left is not None
    return pair.left.uid


def result_document(result: MatchResult, *, transformation: str, source: str, target: str) -> dict[str, Any]:
    return export_document(
        transformation=transformation,
        source=source,
        target=target,
        provider=PROVIDER,
        model=MODEL,
        model_label=PROVIDER,
        mappings=mapping_entries(result),
        extra={"matches": raw_matches(result)},
    )


def emf_compare(source: Resource, target: Resource) -> dict[str, Any]:
    """The baseline: EMF Compare's matches between two loaded metamodels, as a jJodel export."""
    from benchmark.lang.ecore.build import main_package_name

    source_name = main_package_name(source)  # type: ignore[arg-type]
    target_name = main_package_name(target)  # type: ignore[arg-type]
    return result_document(
        match(source, target),
        transformation=f"{source_name}2{target_name}",
        source=source_name,
        target=target_name,
    )
