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
import re
from collections.abc import Iterator, Mapping, Sequence
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

#: The largest bound :func:`bounded_text` takes: the largest every llama.cpp grammar keeps. llama.cpp's
#: GBNF parser (``src/llama-grammar.cpp``, ``MAX_REPETITION_THRESHOLD``, in the llama.cpp that
#: llama-cpp-python 0.3.36 builds; llama-server and Ollama parse their grammars with it) turns ``x{0,N}``
#: with N above 2000 into ``x*`` without a word, the form llama.cpp's own converter writes; llama-cpp-python
#: 0.3.36's converter writes the bound out as N nested optional groups instead, which that parser refuses
#: above N = 1000 ("number of rules that are going to be repeated ... exceeds sane defaults"). Both measured
#: by converting bounded strings with each converter and parsing the grammar with that llama.cpp.
MAX_TEXT_CHARACTERS = 1000
#: One character of a bounded text: anything but the JSON string's quote, its escape character and the
#: control characters JSON forbids raw (:func:`bounded_text` says why).
TEXT_CHARACTER = '[^\\u0000-\\u001f"\\\\]'


def bounded_text(characters: int) -> dict[str, Any]:
    """The schema of a free-text string of at most ``characters`` characters that a grammar must close.

    Why: a grammar constrains what a string may hold, not how long it runs, so a small model at
    temperature 0 can loop inside a string until ``max_tokens`` cuts the answer off (the bundled
    SmolLM2-135M runs did, in a ``reason`` and a ``guardHint``); with a bound, the grammar closes the
    string after ``characters`` characters and the answer goes on. Why a ``pattern`` and not
    ``maxLength``: OpenAI's strict mode refuses ``maxLength`` (:data:`benchmark.llm.dialects.SUPPORTED`)
    and takes ``pattern``, and the grammar converters turn ``^[...]{0,N}$`` into a bounded rule (checked:
    llama-cpp-python 0.3.36's converter, whose server then closes the string at the bound; llama.cpp's own
    converter, which writes ``{0,N}``; llguidance 1.9.1, one of vLLM's backends, which accepts the text up
    to the bound and not a character more). Why this character class: the converters emit the pattern's
    class as it is, as a class of the JSON *text*, so a ``"`` in it would end the string early and a
    ``\\`` would start escapes the pattern does not describe; excluding them (and the control characters,
    which JSON forbids raw: llama-cpp-python 0.3.36's own string rule lets raw line breaks through) makes
    the text the grammar allows and the value the pattern validates the same characters. The price: such
    a string cannot hold a double quote, a backslash or a line break."""
    if not 0 < characters <= MAX_TEXT_CHARACTERS:
        raise ValueError(
            f"a text bound must be between 1 and {MAX_TEXT_CHARACTERS} characters (llama.cpp drops or refuses"
            f" a larger one), not {characters}"
        )
    return {"type": "string", "pattern": f"^{TEXT_CHARACTER}{{0,{characters}}}$"}


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


def _ecma_pattern(validator: Any, pattern: str, instance: Any, schema: Any) -> Iterator[Any]:
    """``pattern`` as JSON Schema means it (ECMA-262, no multiline flag): a final ``$`` matches at the end
    of the text only. Python's ``re``, which ``jsonschema`` uses, also matches it before a final line
    break, so ``"a\\n"`` would pass ``^a$`` here while no grammar built from the pattern can write it."""
    from jsonschema import ValidationError

    if not validator.is_type(instance, "string"):
        return
    anchored = pattern.endswith("$") and not pattern.endswith("\\$")
    if not re.search(pattern[:-1] + r"\Z" if anchored else pattern, instance):
        yield ValidationError(f"{instance!r} does not match {pattern!r}")


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
        from jsonschema.validators import extend

        return extend(Draft202012Validator, {"pattern": _ecma_pattern})(self.schema)

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
    "MAX_TEXT_CHARACTERS",
    "TEXT_CHARACTER",
    "AnswerSchema",
    "RequestedSchema",
    "answer_schema_record",
    "bounded_text",
    "canonical_json",
    "parse_answer_formats",
]
