"""The JSON Schema of the round-trip track's answer: an envelope, and nothing more.

A stage's answer is a whole document (an Ecore model or an SQL schema, serialised as XMI). A JSON Schema
cannot describe XML inside a string, and a grammar over the XMI itself would be a metamodel's, not a
JSON Schema's; so the only schema the track offers (``--answer-format schema``) is an envelope,
``{"document": "<the XMI, as text>"}``: it keeps prose, fences and a second draft out of the answer, and
leaves the document exactly as free as before. The answer reader
(:func:`benchmark.tracks.roundtrip.reading.answer.extract_model`) unwraps any instance of it and reads the
document by the same rules as a free answer; what it holds is then judged as usual. ``grounded`` is not
offered: a document names no elements the envelope could enumerate.
"""

from __future__ import annotations

from benchmark.llm.answer_formats import FREE, SCHEMA, AnswerSchema

SCHEMA_NAME = "roundtrip_document"
MEMBER = "document"
OFFERED = (FREE, SCHEMA)


def envelope_schema() -> AnswerSchema:
    """``{"document": string}``, every property required, no others (every dialect can take it)."""
    schema = {
        "type": "object",
        "properties": {MEMBER: {"type": "string"}},
        "required": [MEMBER],
        "additionalProperties": False,
    }
    return AnswerSchema.of(SCHEMA, SCHEMA_NAME, schema)


__all__ = ["MEMBER", "OFFERED", "SCHEMA_NAME", "envelope_schema"]
