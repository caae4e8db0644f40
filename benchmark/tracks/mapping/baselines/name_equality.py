"""The ``NameEquality`` baseline: the floor any matcher should beat, and the base for relative recall.

Semantics (case-sensitive, exact string equality, nothing normalised):

* **Classes.** For every class name defined in both metamodels, one class mapping ``Name -> Name``.
  Packages are ignored: a name defined in several packages still gives one mapping, since mappings name
  classes by simple name. Abstract classes and interfaces count like any other class.
* **Features.** Only inside those same-named class pairs: for each feature of the source class (its own
  features first, then inherited ones, nearest supertype first) for which the target class has a feature
  (own or inherited) of the same name, one feature mapping ``Name.feature -> Name.feature``. Kinds are not
  compared: an attribute may map to a reference of the same name. Same-named features of differently
  named classes are not mapped.

Every mapping has confidence ``high``; order follows the source metamodel (classes in declaration order,
each class's class mapping before its feature mappings).
"""

from __future__ import annotations

from typing import Any

from benchmark.lang.ecore.build import build_view
from benchmark.lang.ecore.loader import LoadedMetamodel
from benchmark.lang.ecore.view import ClassView, MetamodelView
from benchmark.tracks.mapping.jjodel import KIND_ATTRIBUTE, KIND_CLASS, MappingEntry, export_document

PROVIDER = "NameEquality"
MODEL = "name-equality"
CONFIDENCE = "high"


def _classes_by_name(view: MetamodelView) -> dict[str, list[ClassView]]:
    classes: dict[str, list[ClassView]] = {}
    for cls in view.classes:
        classes.setdefault(cls.name, []).append(cls)
    return classes


def name_equality_mappings(source: MetamodelView, target: MetamodelView) -> list[MappingEntry]:
    """The mappings of the module docstring, for two views."""
    targets = _classes_by_name(target)
    mappings: list[MappingEntry] = []
    seen_features: set[tuple[str, str]] = set()
    for name, source_classes in _classes_by_name(source).items():
        target_classes = targets.get(name)
        if not target_classes:
            continue
        mappings.append(
            MappingEntry(KIND_CLASS, name, name, confidence=CONFIDENCE, reason="identical class names")
        )
        for source_class in source_classes:
            for feature in source_class.all_features:
                if (name, feature.name) in seen_features:
                    continue
                if any(t.feature(feature.name) is not None for t in target_classes):
                    seen_features.add((name, feature.name))
                    mappings.append(
                        MappingEntry(
                            KIND_ATTRIBUTE,
                            name,
                            name,
                            source_feature=feature.name,
                            target_feature=feature.name,
                            confidence=CONFIDENCE,
                            reason="identical class and feature names",
                        )
                    )
    return mappings


def name_equality(source: LoadedMetamodel, target: LoadedMetamodel) -> dict[str, Any]:
    """The baseline as a jJodel export (provider ``NameEquality``)."""
    source_view = build_view(source)
    target_view = build_view(target)
    return export_document(
        transformation=f"{source_view.name}2{target_view.name}",
        source=source_view.name,
        target=target_view.name,
        provider=PROVIDER,
        model=MODEL,
        model_label=PROVIDER,
        mappings=name_equality_mappings(source_view, target_view),
    )
