"""The JSON Schemas of the mapping track's answer: what ``--answer-format schema`` and ``grounded`` send.

``schema``: the answer the prompt asks for, as an object ``{"mappings": [entry, ...]}`` (strict dialects
need an object at the root; the answer decoder reads the one array member of an object as it reads a bare
array). An entry has the prompt's eight fields in the prompt's order, all required so that OpenAI's strict
mode can take it; the optional ones (``sourceAttribute``, ``targetAttribute``, ``guardHint``,
``conversionHint``) may be ``null``, which the reader takes as "not given". Any text (bounded, as
every free text: below) may name a class or a feature: the schema fixes the shape, not the names.

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

Every free-text string is bounded (:func:`benchmark.llm.answer_formats.bounded_text`), so that a grammar
must close it and every answer of both formats is finite by construction: a model that loops inside a
``reason`` is made to go on after :data:`REASON_CHARACTERS` characters instead of running to
``max_tokens``. The bounds keep a legitimate answer writable: :data:`REASON_CHARACTERS` is the prompt's
"one short sentence" (about 30 words; the longest ``reason`` in the bundled runs has 81 characters);
:data:`HINT_CHARACTERS` holds any binding of the bundled ATL transformations written out as a conversion
(the longest, in ``spreedsheet2XML``, has 455 characters; the median 17) and any of their filters as a
guard (the longest has 72); :data:`NAME_CHARACTERS` bounds the names of the ``schema`` format (the longest
class or feature name of the bundled metamodels and their variants has 28 characters; grounded names are
enumerations). Bounded texts cannot hold a double quote, a backslash or a line break (the price of a
bound every converter keeps: ``bounded_text``); a hint that needs a string literal writes it in single
quotes, as ATL and OCL do. They are shared definitions (``$defs``, referenced by every entry): a grounded
schema has one alternative per class pair, and a bound written out in each would make the grammar twenty
times larger (llama-cpp-python 0.3.36 turns ``mysql2km3``'s 72 pairs into 3.2 MB of GBNF that way, into
152 kB with the shared definitions).

The number of entries is not bounded (no ``maxItems``): a bound that never cuts a legitimate answer must
exceed the largest ground truth (about 130 bindings) by a margin, and that many entries are several
thousand tokens, far beyond any ``max_tokens`` a bounded string is meant to respect; a smaller bound would
make the grammar close the array, and cut a correct answer short without a word. A model that repeats
whole entries is the server's repetition penalty's to stop, over a window longer than one entry
(``docs/LLM_RUNS.md``, "The penalty window").
"""

from __future__ import annotations

from typing import Any

from benchmark.lang.ecore.view import ClassView, MetamodelView
from benchmark.llm.answer_formats import GROUNDED, SCHEMA, AnswerSchema, bounded_text

SCHEMA_NAME = "mapping_answer"
MEMBER = "mappings"
CONFIDENCE = ("high", "medium", "low")
#: The longest ``reason``, guard or conversion hint, and name (``schema`` format), in characters (why these
#: bounds: module docstring).
REASON_CHARACTERS = 200
HINT_CHARACTERS = 500
NAME_CHARACTERS = 100
_DEFINITIONS = {"name": NAME_CHARACTERS, "reason": REASON_CHARACTERS, "hint": HINT_CHARACTERS}

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


def _text(definition: str) -> dict[str, Any]:
    return {"$ref": f"#/$defs/{definition}"}


def _nullable(schema: dict[str, Any]) -> dict[str, Any]:
    return {"anyOf": [schema, {"type": "null"}]}


def _entry(source_class: Any, source_feature: Any, target_class: Any, target_feature: Any) -> dict[str, Any]:
    return {
        "type": "object",
        "properties": {
            "sourceClass": source_class,
            "sourceAttribute": source_feature,
            "targetClass": target_class,
            "targetAttribute": target_feature,
            "confidence": {"type": "string", "enum": list(CONFIDENCE)},
            "reason": _text("reason"),
            "guardHint": _nullable(_text("hint")),
            "conversionHint": _nullable(_text("hint")),
        },
        "required": list(FIELDS),
        "additionalProperties": False,
    }


def _answer(entry: dict[str, Any], definitions: tuple[str, ...]) -> dict[str, Any]:
    return {
        "type": "object",
        "properties": {MEMBER: {"type": "array", "items": entry}},
        "required": [MEMBER],
        "additionalProperties": False,
        "$defs": {name: bounded_text(_DEFINITIONS[name]) for name in definitions},
    }


def answer_schema() -> AnswerSchema:
    """The answer's shape, any names (``--answer-format schema``)."""
    name = _text("name")
    entry = _entry(name, _nullable(name), name, _nullable(name))
    return AnswerSchema.of(SCHEMA, SCHEMA_NAME, _answer(entry, ("name", "reason", "hint")))


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
    return AnswerSchema.of(GROUNDED, SCHEMA_NAME, _answer({"anyOf": pairs}, ("reason", "hint")))


__all__ = [
    "CONFIDENCE",
    "FIELDS",
    "HINT_CHARACTERS",
    "MEMBER",
    "NAME_CHARACTERS",
    "REASON_CHARACTERS",
    "SCHEMA_NAME",
    "answer_schema",
    "grounded_schema",
]
