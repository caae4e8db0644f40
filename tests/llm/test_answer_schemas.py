"""Each track's answer schemas: valid JSON Schemas, expressible in every dialect, and read by the track's own
answer reader whatever instance a model writes (instances generated from the schema itself by
``tests/support/schema_instances.py``); a grounded mapping answer names no element its metamodels lack."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from jsonschema import Draft202012Validator
from schema_instances import instances as from_schema

from benchmark.core.errors import ConfigurationError
from benchmark.llm.answer_formats import FREE, GROUNDED, SCHEMA, AnswerSchema, parse_answer_formats
from benchmark.llm.dialects import DIALECTS, NONE, problem
from benchmark.tracks.mapping.answer_schema import answer_schema as mapping_schema
from benchmark.tracks.mapping.answer_schema import grounded_schema as mapping_grounded
from benchmark.tracks.mapping.llm_task import load_cases, parse_answer
from benchmark.tracks.mapping.scoring.compare import find_hallucinations
from benchmark.tracks.mapping.scoring.suggestions import parse_suggestions
from benchmark.tracks.ocl.answer_schema import answer_schema as ocl_schema
from benchmark.tracks.ocl.answer_schema import grounded_schema as ocl_grounded
from benchmark.tracks.ocl.scoring.extract import extract_constraint
from benchmark.tracks.roundtrip.answer_schema import envelope_schema
from benchmark.tracks.roundtrip.reading.answer import extract_model

DATA = Path(__file__).parent / "data"
FAST = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def book_case():  # type: ignore[no-untyped-def]
    (case,) = load_cases(DATA, ["Book2Publication"])
    return case


def book_grounded() -> AnswerSchema:
    assert book_case().views is not None
    return mapping_grounded(*book_case().views)


def published() -> list[AnswerSchema]:
    return [
        mapping_schema(),
        book_grounded(),
        ocl_schema(),
        ocl_grounded(["Library", "Loan", "Member"], "maxLoansLimit"),
        envelope_schema(),
    ]


def test_every_published_schema_is_a_schema_and_every_dialect_can_express_it() -> None:
    for schema in published():
        Draft202012Validator.check_schema(schema.schema)
        for dialect in DIALECTS:
            if dialect != NONE:
                assert problem(dialect, schema.schema) is None, (schema.answer_format, dialect)


def test_the_schema_keeps_its_key_order_which_is_part_of_its_hash() -> None:
    """A grammar makes the model write properties in the schema's order: the order is what is asked."""
    ab = {"type": "object", "properties": {"a": {"type": "string"}, "b": {"type": "string"}}}
    ba = {"type": "object", "properties": {"b": {"type": "string"}, "a": {"type": "string"}}}
    first, second = AnswerSchema.of(SCHEMA, "x", ab), AnswerSchema.of(SCHEMA, "x", ba)
    assert list(first.schema["properties"]) == ["a", "b"] and list(second.schema["properties"]) == ["b", "a"]
    assert first.sha256 != second.sha256 and first.sha256 == AnswerSchema.of(SCHEMA, "x", dict(ab)).sha256
    assert list(mapping_schema().schema["properties"]["mappings"]["items"]["properties"])[:2] == [
        "sourceClass",
        "sourceAttribute",
    ]  # the prompt's order
    assert list(ocl_schema().schema["properties"]) == ["context", "name", "body"]


def test_check_names_the_path_of_a_violation() -> None:
    schema = mapping_schema()
    assert schema.check('{"mappings": []}') is None
    assert schema.check('{"mappings": [') is not None and schema.check('{"mappings": [').startswith(
        "not JSON"
    )
    found = schema.check('{"mappings": [{"sourceClass": 1}]}')
    assert found is not None and found.startswith("$.mappings[0]")
    assert schema.check("[]") == "$: [] is not of type 'object'"


def test_answer_format_choice() -> None:
    assert parse_answer_formats([]) == (FREE,)
    assert parse_answer_formats(["grounded,free", "schema"]) == (FREE, SCHEMA, GROUNDED)
    assert parse_answer_formats(["all"], (FREE, SCHEMA)) == (FREE, SCHEMA)
    with pytest.raises(ConfigurationError, match="unknown answer format json; use free, schema, grounded"):
        parse_answer_formats(["json"])
    with pytest.raises(ConfigurationError, match="does not offer the answer format grounded; it offers free"):
        parse_answer_formats(["grounded"], (FREE, SCHEMA))


@FAST
@given(st.data())
def test_the_mapping_reader_accepts_every_instance_of_the_schema(data: st.DataObject) -> None:
    instance = data.draw(from_schema(mapping_schema().schema))
    decoded = parse_answer(json.dumps(instance))
    assert decoded.member == "mappings" and len(decoded.entries) == len(instance["mappings"])
    parse_suggestions(decoded.entries)  # every entry reads (usable or listed as invalid, never an error)


@FAST
@given(st.data())
def test_a_grounded_mapping_answer_reads_and_names_no_invented_element(data: st.DataObject) -> None:
    schema = book_grounded()
    instance = data.draw(from_schema(schema.schema))
    assert schema.check(json.dumps(instance)) is None
    decoded = parse_answer(json.dumps(instance))
    suggestions = parse_suggestions(decoded.entries)
    views = book_case().views
    assert views is not None
    assert find_hallucinations(suggestions.mappings, *views) == ((), ())


def test_the_grounded_schema_offers_each_pair_its_own_features_only() -> None:
    schema = book_grounded()
    good = {"sourceClass": "Book", "sourceAttribute": "title", "targetClass": "Publication"}
    entry = {**good, "targetAttribute": "title", "confidence": "high", "reason": "r"}
    entry |= {"guardHint": None, "conversionHint": None}
    assert schema.check(json.dumps({"mappings": [entry]})) is None
    for wrong in ({"sourceAttribute": "nbPages"}, {"targetClass": "Book"}, {"sourceClass": "Books"}):
        assert schema.check(json.dumps({"mappings": [entry | wrong]})) is not None, wrong


@FAST
@given(st.data())
def test_the_ocl_reader_accepts_every_instance_of_both_schemas(data: st.DataObject) -> None:
    schema = data.draw(st.sampled_from([ocl_schema(), ocl_grounded(["Library", "Loan"], "maxLoansLimit")]))
    instance = data.draw(from_schema(schema.schema))
    found = extract_constraint(json.dumps(instance))
    assert found.source == "json" and found.text is not None
    assert found.text.startswith(f"context {instance['context'].strip()} inv")


def test_an_ocl_json_answer_is_judged_as_the_constraint_it_states() -> None:
    answer = {"context": "Member", "name": "maxLoansLimit", "body": "self.loans->size() <= 5"}
    found = extract_constraint(json.dumps(answer))
    assert (found.text, found.source) == ("context Member inv maxLoansLimit: self.loans->size() <= 5", "json")
    odd = extract_constraint(json.dumps(answer | {"name": "max loans"}))  # not an identifier: unnamed
    assert odd.text == "context Member inv: self.loans->size() <= 5"
    raw = '{"context": "Member", "name": "m", "body": "self.loans->size()\n<= 5"}'  # a raw line break
    assert extract_constraint(raw).text == "context Member inv m: self.loans->size()\n<= 5"
    assert ocl_schema().check(raw) is not None  # read, but not JSON: the schema check says so


@FAST
@given(st.data())
def test_the_roundtrip_reader_unwraps_every_envelope(data: st.DataObject) -> None:
    instance = data.draw(from_schema(envelope_schema().schema))
    found = extract_model(json.dumps(instance).encode("utf-8"), "http://example.org/sql", ("Schema",))
    assert found.source.startswith("the JSON envelope's document")


def test_an_enveloped_model_reads_as_the_bare_model() -> None:
    model = '<?xml version="1.0"?>\n<sql:Schema xmlns:sql="http://example.org/sql" name="s"/>\n'
    bare = extract_model(model.encode(), "http://example.org/sql", ("Schema",))
    wrapped = extract_model(json.dumps({"document": model}).encode(), "http://example.org/sql", ("Schema",))
    assert bare.usable and wrapped.usable and wrapped.text == bare.text
    assert wrapped.source == "the JSON envelope's document (whole answer)"
    raw = '{"document": "' + model.replace('"', '\\"') + '"}'  # the line breaks unescaped
    assert extract_model(raw.encode(), "http://example.org/sql", ("Schema",)).text == bare.text
