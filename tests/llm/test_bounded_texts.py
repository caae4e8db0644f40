"""Bounded texts: every free-text string of the mapping and OCL answer schemas has a bound a grammar must
close, and the bound is written so that the text a grammar lets through and the value the schema check
accepts are the same characters (the converters emit a pattern's character class over the JSON text)."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from benchmark.llm.answer_formats import MAX_TEXT_CHARACTERS, AnswerSchema, bounded_text
from benchmark.tracks.mapping import answer_schema as mapping
from benchmark.tracks.mapping.llm_task import load_cases, parse_answer
from benchmark.tracks.mapping.scoring.suggestions import parse_suggestions
from benchmark.tracks.ocl import answer_schema as ocl
from benchmark.tracks.ocl.scoring.extract import extract_constraint
from benchmark.tracks.roundtrip.answer_schema import envelope_schema

DATA = Path(__file__).parent / "data"

BOUND = re.compile(r"^\^\[\^[^\]]*\]\{0,(\d+)\}\$$")


def _strings(schema: Any, root: dict[str, Any], path: str = "$") -> Iterator[tuple[str, dict[str, Any]]]:
    """Every string-typed subschema of ``schema`` with its path (references followed)."""
    if isinstance(schema, list):
        for index, item in enumerate(schema):
            yield from _strings(item, root, f"{path}[{index}]")
    elif isinstance(schema, dict):
        if "$ref" in schema:
            name = schema["$ref"].removeprefix("#/$defs/")
            yield from _strings(root["$defs"][name], root, f"{path}->{name}")
            return
        if schema.get("type") == "string":
            yield path, schema
        for key, value in schema.items():
            if key != "$defs":
                yield from _strings(value, root, f"{path}.{key}")


def _unbounded(published: AnswerSchema) -> list[str]:
    """The paths of the strings that are neither an enumeration nor a bounded text."""
    root = published.schema
    return [
        path
        for path, sub in _strings(root, root)
        if "enum" not in sub and not BOUND.match(sub.get("pattern", ""))
    ]


def _published() -> list[AnswerSchema]:
    (case,) = load_cases(DATA, ["Book2Publication"])
    assert case.views is not None
    return [
        mapping.answer_schema(),
        mapping.grounded_schema(*case.views),
        ocl.answer_schema(),
        ocl.grounded_schema(["Library", "Loan"], "maxLoansLimit"),
    ]


def test_every_free_text_of_the_mapping_and_ocl_schemas_is_bounded() -> None:
    for published in _published():
        assert _unbounded(published) == [], published.answer_format
    assert _unbounded(envelope_schema()) == ["$.properties.document"]  # a document is as long as it is


@given(st.integers(1, 64), st.text(max_size=80))
def test_a_bounded_text_is_valid_exactly_when_its_json_needs_no_escape(bound: int, text: str) -> None:
    """The law that makes the grammar and the check agree: a value the pattern accepts is written in JSON
    as itself between quotes, so a grammar over the JSON text lets through exactly these values."""
    schema = AnswerSchema.of("schema", "t", {"type": "string", **bounded_text(bound)})
    as_json = json.dumps(text, ensure_ascii=False)
    writes_itself = as_json == f'"{text}"'  # no quote, backslash or control character to escape
    assert (schema.check(as_json) is None) == (writes_itself and len(text) <= bound)


def test_a_bound_is_refused_where_llama_cpp_would_drop_it() -> None:
    assert bounded_text(MAX_TEXT_CHARACTERS)["pattern"].endswith("{0,1000}$")
    for wrong in (0, MAX_TEXT_CHARACTERS + 1):
        with pytest.raises(ValueError, match="llama.cpp drops or refuses a larger one"):
            bounded_text(wrong)


def test_a_mapping_answer_with_every_text_at_its_bound_is_valid_and_read() -> None:
    """The bounds keep the longest legitimate texts writable: an entry at every bound is an instance and
    reads as a suggestion; one character more is a violation."""
    name = "N" * mapping.NAME_CHARACTERS
    hint = "x.y->collect(e | e.z)".ljust(mapping.HINT_CHARACTERS, " ")
    entry = {
        "sourceClass": name,
        "sourceAttribute": name,
        "targetClass": name,
        "targetAttribute": name,
        "confidence": "low",
        "reason": "r" * mapping.REASON_CHARACTERS,
        "guardHint": hint,
        "conversionHint": hint,
    }
    schema = mapping.answer_schema()
    assert schema.check(json.dumps({"mappings": [entry]})) is None
    decoded = parse_answer(json.dumps({"mappings": [entry]}))
    assert len(parse_suggestions(decoded.entries).mappings) == 1
    for field in ("reason", "guardHint", "sourceClass"):
        longer = entry | {field: str(entry[field]) + "x"}
        assert schema.check(json.dumps({"mappings": [longer]})) is not None, field


def test_an_ocl_body_at_its_bound_is_valid_and_read_and_a_line_break_is_not_valid() -> None:
    body = "self.loans->size() <= 5".ljust(ocl.BODY_CHARACTERS, " ")
    answer = {"context": "Member", "name": "maxLoansLimit", "body": body}
    assert ocl.answer_schema().check(json.dumps(answer)) is None
    assert extract_constraint(json.dumps(answer)).text == f"context Member inv maxLoansLimit: {body.strip()}"
    escaped = json.dumps(answer | {"body": "self.loans->size()\n<= 5"})  # valid JSON, but not one line
    assert ocl.answer_schema().check(escaped) is not None
