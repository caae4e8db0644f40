"""Answer formats: how a track asks a model to answer, and the JSON Schema it sends when it constrains one.

Whether constraining the answer helps or hurts is an open question, task by task (Tam et al. 2024 found
JSON formats lowered reasoning scores; the .txt team found the opposite when prompt and schema agree), so
the benchmark measures it like a prompt template: the answer format is an axis of ``atlbench generate``
(``--answer-format free,schema,grounded``), named in run files and rows, and compared in each track's
answer-format table (``docs/LLM_RUNS.md``, "Answer formats").

``free``      the prompt alone, no schema sent: what every run was before formats existed;
``schema``    the JSON Schema of the track's answer (the shape its parser reads) is sent with the request;
``grounded``  the schema of ``schema`` with the task's names (classes, features) as enumerations, so the
              model cannot name an element its metamodels do not have; offered by the tracks whose answers
              name model elements.

A track publishes the schema of each format it offers (:class:`AnswerSchema`); the provider's dialect
(:mod:`benchmark.llm.dialects`) decides how it is sent, and refuses it before any request when it cannot
express it. Every answer is then checked against the schema it was asked with (:meth:`AnswerSchema.check`),
whatever the server promised: llama-cpp-python, for one, falls back to plain JSON without a word when it
cannot turn a schema into a grammar, and an answer cut off at ``max_tokens`` is cut off whatever the
grammar. The verdict goes into the run file (:func:`answer_schema_record`) and into the tables.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import Any

from benchmark.core.errors import ConfigurationError
from benchmark.core.fileio import sha256_text
from benchmark.core.rows import ANSWER_FORMAT_NAME, FREE_FORMAT

FREE = FREE_FORMAT
SCHEMA = "schema"
GROUNDED = "grounded"
FORMATS = (FREE, SCHEMA, GROUNDED)
ALL = "all"


def parse_answer_formats(values: Sequence[str], offered: Sequence[str] = FORMATS) -> tuple[str, ...]:
    """The formats of ``--answer-format`` (comma lists, repeatable, ``all``: every one ``offered``), in the
    track's order; none given: ``free``. An unknown name, or one the track does not offer, is a
    configuration error naming the ones it does."""
    names = [part.strip() for value in values for part in value.split(",") if part.strip()]
    if not names:
        return (FREE,)
    if ALL in names:
        return tuple(offered)
    unknown = [name for name in names if name not in FORMATS or not ANSWER_FORMAT_NAME.match(name)]
    if unknown:
        raise ConfigurationError(
            f"unknown answer format {', '.join(unknown)}; use {', '.join(FORMATS)} (or {ALL})",
            field="--answer-format",
        )
    refused = [name for name in names if name not in offered]
    if refused:
        raise ConfigurationError(
            f"this track does not offer the answer format {', '.join(refused)}; it offers "
            f"{', '.join(offered)}",
            field="--answer-format",
        )
    return tuple(name for name in offered if name in names)


def canonical_json(value: Any) -> str:
    """The one text of a schema, sent and hashed: compact, and in the order it was written. Key order is
    kept because it is part of what is asked: a grammar built from the schema makes the model write the
    properties in that order (Tam et al. 2024 found the order of a schema's keys moved scores), so two
    schemas that differ only in order are two requests, with two hashes."""
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


@dataclass(frozen=True)
class AnswerSchema:
    """The JSON Schema of one answer format of one task, as sent. Immutable (kept as its compact text, key
    order included: :func:`canonical_json`) so that a request holding it can be hashed into the cache key."""

    answer_format: str
    name: str  # the schema's name where a dialect needs one (OpenAI's json_schema.name, a tool's name)
    text: str  # canonical JSON

    @classmethod
    def of(cls, answer_format: str, name: str, schema: Mapping[str, Any]) -> AnswerSchema:
        from jsonschema import Draft202012Validator

        Draft202012Validator.check_schema(schema)  # a schema we publish must be a schema
        return cls(answer_format, name, canonical_json(schema))

    @property
    def schema(self) -> dict[str, Any]:
        return json.loads(self.text)

    @property
    def sha256(self) -> str:
        return sha256_text(self.text)

    @cached_property
    def _validator(self) -> Any:
        from jsonschema import Draft202012Validator

        return Draft202012Validator(self.schema)

    def check(self, text: str) -> str | None:
        """Why ``text`` is not an instance of the schema (the first error, with its JSON path), or
        ``None`` when it is. The answer must be the JSON value alone, as constrained decoding writes it."""
        try:
            value = json.loads(text)
        except ValueError as error:
            return f"not JSON: {error}"
        errors = sorted(self._validator.iter_errors(value), key=lambda e: (list(e.absolute_path), e.message))
        if not errors:
            return None
        first = errors[0]
        where = "$" + "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in first.absolute_path)
        more = f" (and {len(errors) - 1} more)" if len(errors) > 1 else ""
        return f"{where}: {first.message}{more}"


@dataclass(frozen=True)
class RequestedSchema:
    """What a request carries when it asks for a constrained answer: the schema and the dialect it is sent
    in (both part of the cache key, only when a schema is sent)."""

    schema: AnswerSchema
    dialect: str

    def key_fields(self) -> dict[str, str]:
        return {"format": self.schema.answer_format, "dialect": self.dialect, "sha256": self.schema.sha256}


def answer_schema_record(requested: RequestedSchema | None, text: str | None) -> dict[str, Any] | None:
    """The run file's record of a constrained request: format, dialect, the schema's hash, and whether the
    answer is an instance of it (``violation`` says why not). ``None`` for a free answer: its files keep
    the bytes they had before formats existed. ``text`` ``None``: no answer came back."""
    if requested is None:
        return None
    record: dict[str, Any] = {
        "format": requested.schema.answer_format,
        "dialect": requested.dialect,
        "schemaSha256": requested.schema.sha256,
    }
    if text is not None:
        violation = requested.schema.check(text)
        record["valid"] = violation is None
        if violation is not None:
            record["violation"] = violation
    return record


__all__ = [
    "ALL",
    "FORMATS",
    "FREE",
    "GROUNDED",
    "SCHEMA",
    "AnswerSchema",
    "RequestedSchema",
    "answer_schema_record",
    "canonical_json",
    "parse_answer_formats",
]
