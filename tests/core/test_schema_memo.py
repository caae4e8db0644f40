"""Checking items once per shape gives exactly jsonschema's errors (messages and paths), whatever the
documents and the order they come in."""

from __future__ import annotations

from typing import Any

import jsonschema
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from benchmark.core.errors import InputFormatError
from benchmark.core.schema_memo import shape, shape_memo_validator, shape_only
from benchmark.tracks.mapping.scoring import suggestions

END = {"type": "object", "properties": {"class": {"type": ["string", "null"]}, "feature": {"type": "string"}}}
SCHEMAS: list[dict[str, Any]] = [
    {  # shape-only items: memoised
        "type": "object",
        "required": ["items"],
        "properties": {
            "items": {
                "type": "array",
                "items": {
                    "type": "object",
                    "required": ["kind", "source"],
                    "properties": {"kind": {"type": "string"}, "source": END, "n": {"type": "integer"}},
                    "additionalProperties": False,
                },
            }
        },
    },
    {  # a const inside the items: jsonschema's own rule
        "type": "array",
        "items": {"type": "object", "properties": {"kind": {"const": "class"}, "n": {"type": "number"}}},
    },
    {"type": "array", "prefixItems": [{"type": "string"}], "items": {"type": "integer"}},
    {"type": "array", "items": False},
    {"type": "array", "items": {"type": "array", "items": {"type": ["integer", "boolean"]}}},
]

scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-3, 3),
    st.sampled_from([1.0, 2.5, -0.0]),
    st.sampled_from(["class", "attribute", ""]),
)
values = st.recursive(
    scalars,
    lambda inner: st.one_of(
        st.lists(inner, max_size=3),
        st.dictionaries(st.sampled_from(["kind", "source", "class", "feature", "n", "x"]), inner, max_size=4),
    ),
    max_leaves=12,
)
documents = st.one_of(values, st.fixed_dictionaries({"items": st.lists(values, max_size=6)}))


def _errors(validator: Any, document: Any) -> list[tuple[str, list[Any], str]]:
    return sorted((e.message, list(e.absolute_path), e.validator) for e in validator.iter_errors(document))


@settings(max_examples=300, deadline=None)
@given(schema_index=st.integers(0, len(SCHEMAS) - 1), batch=st.lists(documents, min_size=1, max_size=5))
def test_the_same_errors_as_jsonschema(schema_index: int, batch: list[Any]) -> None:
    schema = SCHEMAS[schema_index]
    plain = jsonschema.Draft202012Validator(schema)
    memo = shape_memo_validator(jsonschema.Draft202012Validator, schema)
    for document in batch + batch:  # the second pass meets every shape again
        assert _errors(memo, document) == _errors(plain, document)


def test_shapes_tell_apart_what_json_schema_tells_apart() -> None:
    assert shape(True) != shape(1) != shape(1.5)
    assert shape(1.0) != shape(1.5)  # "integer" accepts 1.0
    assert shape({"a": "x", "b": None}) == shape({"b": None, "a": "y"})
    assert shape({"a": "x"}) != shape({"a": None}) != shape({"b": "x"})
    assert shape(["x", 1]) != shape(["x"])


def test_only_type_and_key_keywords_are_shape_only() -> None:
    assert shape_only({"type": "object", "required": ["a"], "properties": {"a": {"type": "string"}}})
    assert not shape_only({"type": "string", "enum": ["a"]})
    assert not shape_only({"properties": {"a": {"const": 1}}})
    assert not shape_only({"type": "array", "items": {"type": "string"}})  # items nested: not memoised


def test_suggestion_files_are_checked_with_it_and_still_name_the_first_problem() -> None:
    entry = {"kind": "class", "source": {"class": "A"}, "target": {"class": "B"}}
    document = {"jjodel": {"exportType": "suggested-mappings", "schemaVersion": 1}, "mappings": [entry] * 3}
    suggestions.validate(document)
    bad = {**document, "mappings": [entry, {**entry, "target": {"class": 7}}, entry]}
    with pytest.raises(InputFormatError) as raised:
        suggestions.validate(bad, source="run.json")
    assert str(raised.value) == "run.json: $.mappings[1].target.class: 7 is not of type 'string', 'null'"
