"""The JSON Schemas of the OCL track's answer: one invariant, as ``--answer-format schema`` and ``grounded``
send it.

The prompt asks for ``context C inv NAME: expression``; as JSON that is ``{"context": C, "name": NAME,
"body": expression}`` (an object at the root, every property required, no others: what every dialect,
OpenAI's strict mode included, can take). The answer reader
(:func:`benchmark.tracks.ocl.scoring.extract.extract_constraint`) turns any instance back into
``context C inv NAME: expression`` and judges it like any other answer; whether the body is OCL is the
model's to get right (a body that does not parse is a syntax error, as in a free answer).

``schema``: any strings. ``grounded``: the context is one of the model's classes (as the task's variant
names them) and the name is the constraint's id the prompt gives, so the answer cannot put the invariant
on a class the model lacks; the body stays free text (OCL is not a JSON Schema's to constrain).

Every free-text string is bounded (:func:`benchmark.llm.answer_formats.bounded_text`), so that a grammar
must close it and every answer is finite by construction: the ``body`` at :data:`BODY_CHARACTERS`, the
largest bound every llama.cpp grammar keeps (:data:`~benchmark.llm.answer_formats.MAX_TEXT_CHARACTERS`),
four times the longest invariant body of the bundled specification (243 characters; the median 82), so
that an invariant stays writable; the ``context`` and ``name`` of the ``schema`` format at
:data:`NAME_CHARACTERS` (the bundled ones have at most 23). A bounded body cannot hold a line break, a
double quote or a backslash: OCL needs none of them (it ignores line breaks between tokens and quotes its
strings with single quotes), and the line breaks that llama-cpp-python 0.3.36's unbounded string rule let
into the body were raw control characters, which JSON forbids.
"""

from __future__ import annotations

from typing import Any

from benchmark.llm.answer_formats import GROUNDED, MAX_TEXT_CHARACTERS, SCHEMA, AnswerSchema, bounded_text

SCHEMA_NAME = "ocl_invariant"
FIELDS = ("context", "name", "body")
#: The longest body, and context or name (``schema`` format), in characters (why: module docstring).
BODY_CHARACTERS = MAX_TEXT_CHARACTERS
NAME_CHARACTERS = 100


def _schema(context: dict[str, Any], name: dict[str, Any]) -> dict[str, Any]:
    return {
        "type": "object",
        "properties": {"context": context, "name": name, "body": bounded_text(BODY_CHARACTERS)},
        "required": list(FIELDS),
        "additionalProperties": False,
    }


def answer_schema() -> AnswerSchema:
    """One invariant, any names (``--answer-format schema``)."""
    name = bounded_text(NAME_CHARACTERS)
    return AnswerSchema.of(SCHEMA, SCHEMA_NAME, _schema(name, name))


def grounded_schema(classes: list[str], constraint_id: str) -> AnswerSchema:
    """One invariant on one of ``classes``, named ``constraint_id`` (``--answer-format grounded``)."""
    if not classes:
        raise ValueError("a model without classes has nothing to ground an invariant in")
    context = {"type": "string", "enum": list(dict.fromkeys(classes))}
    return AnswerSchema.of(
        GROUNDED, SCHEMA_NAME, _schema(context, {"type": "string", "enum": [constraint_id]})
    )


__all__ = ["BODY_CHARACTERS", "FIELDS", "NAME_CHARACTERS", "SCHEMA_NAME", "answer_schema", "grounded_schema"]
