"""The JSON Schemas of the mapping track's answer: what ``--answer-format schema`` and ``grounded`` send.

``schema``: the answer the prompt asks for, as an object ``{"mappings": [entry, ...]}`` (strict dialects
need an object at the root; the answer decoder reads the one array member of an object as it reads a bare
array). An entry has the prompt's eight fields in the prompt's order, all required so that OpenAI's strict
mode can take it; the optional ones (``sourceAttribute``, ``targetAttribute``, ``guardHint``,
``conversionHint``) may be ``null``, which the reader takes as "not given". Any string may name a class or
a feature: the schema fixes the shape, not the names.

``grounded``: the same answer, built from the task's two metamodels (as its variant shows them): an entry
is one of the (source class, target class) pairs, each with the enumeration of *that pair's own* features
(own and inherited) as its ``sourceAttribute`` and ``targetAttribute``, so only real classes, and features
of the very classes named, can be written. What it changes about the task (``docs/LLM_RUNS.md``, "Answer
formats"): a model can no longer invent a name, so the invented-names column measures nothing under it,
and the score measures choosing among the metamodels' names; the ``"parent"`` convention of the prompt's
rule 5 (not a feature of any class) cannot be written either. Abstract classes stay in the enumerations:
they are real, and the prompt's rule 1 (do not map them) is the model's to follow. A task that shows no
metamodel (the ``name-only`` variant) has no grounded schema: its enumerations would show the model what
the prompt withholds.
"""

from __future__ import annotations

from typing import Any

from benchmark.lang.ecore.view import ClassView, MetamodelView
from benchmark.llm.answer_formats import GROUNDED, SCHEMA, AnswerSchema

SCHEMA_NAME = "mapping_answer"
MEMBER = "mappings"
CONFIDENCE = ("high", "medium", "low")
_NULLABLE_STRING: dict[str, Any] = {"anyOf": [{"type": "string"}, {"type": "null"}]}
FIELDS = (
    "sourceClass",
    "sourceAttribute",
    "targetClass",
    "targetAttribute",
    "confidence",
    "reason",
    "guardHint",
    "conversionHint",
)


def _entry(source_class: Any, source_feature: Any, target_class: Any, target_feature: Any) -> dict[str, Any]:
    return {
        "type": "object",
        "properties": {
            "sourceClass": source_class,
            "sourceAttribute": source_feature,
            "targetClass": target_class,
            "targetAttribute": target_feature,
            "confidence": {"type": "string", "enum": list(CONFIDENCE)},
            "reason": {"type": "string"},
            "guardHint": _NULLABLE_STRING,
            "conversionHint": _NULLABLE_STRING,
        },
        "required": list(FIELDS),
        "additionalProperties": False,
    }


def _answer(entry: dict[str, Any]) -> dict[str, Any]:
    return {
        "type": "object",
        "properties": {MEMBER: {"type": "array", "items": entry}},
        "required": [MEMBER],
        "additionalProperties": False,
    }


def answer_schema() -> AnswerSchema:
    """The answer's shape, any names (``--answer-format schema``)."""
    string = {"type": "string"}
    return AnswerSchema.of(
        SCHEMA, SCHEMA_NAME, _answer(_entry(string, _NULLABLE_STRING, string, _NULLABLE_STRING))
    )


def _classes(view: MetamodelView) -> list[ClassView]:
    """The view's classes, one per name (a name defined in two packages is one name to write)."""
    seen: dict[str, ClassView] = {}
    for found in view.classes:
        seen.setdefault(found.name, found)
    return list(seen.values())


def _features(found: ClassView) -> dict[str, Any]:
    names = list(dict.fromkeys(feature.name for feature in found.all_features))
    if not names:
        return {"type": "null"}
    return {"anyOf": [{"type": "string", "enum": names}, {"type": "null"}]}


def grounded_schema(source: MetamodelView, target: MetamodelView) -> AnswerSchema:
    """The answer's shape with only the two metamodels' names (``--answer-format grounded``): one
    alternative per (source class, target class) pair, each naming that pair's own features."""
    pairs = [
        _entry(
            {"type": "string", "enum": [s.name]},
            _features(s),
            {"type": "string", "enum": [t.name]},
            _features(t),
        )
        for s in _classes(source)
        for t in _classes(target)
    ]
    if not pairs:
        raise ValueError(f"no class pair in {source.name} and {target.name}: nothing to ground an answer in")
    return AnswerSchema.of(GROUNDED, SCHEMA_NAME, _answer({"anyOf": pairs}))


__all__ = ["CONFIDENCE", "FIELDS", "MEMBER", "SCHEMA_NAME", "answer_schema", "grounded_schema"]
