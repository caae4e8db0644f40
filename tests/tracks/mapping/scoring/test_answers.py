"""The one decoder of LLM answers: every unambiguous shape is read and named, anything else is refused."""

from __future__ import annotations

import pytest

from benchmark.core.errors import InputFormatError
from benchmark.tracks.mapping.scoring.answers import decode_answer

ENTRY = '{"sourceClass": "Book", "targetClass": "Publication"}'


@pytest.mark.parametrize(
    ("text", "shape", "member"),
    [
        (f"[{ENTRY}]", "array", None),
        (f"\n  [{ENTRY}]  \n", "array", None),
        (f"```json\n[{ENTRY}]\n```", "fenced-array", None),
        (f"Here you go:\n```\n[{ENTRY}]\n```\nAnything else?", "fenced-array", None),
        (f"The mappings: [{ENTRY}] as requested.", "array-in-prose", None),
        (f'{{"mappings": [{ENTRY}]}}', "object", "mappings"),  # OpenAI's JSON mode
        (f'```json\n{{"result": [{ENTRY}], "note": "two tables"}}\n```', "fenced-object", "result"),
        (f'Sure! {{"mappings": [{ENTRY}], "warnings": ["x is odd"]}}', "object-in-prose", "mappings"),
        ('{"mappings": []}', "object", "mappings"),
    ],
)
def test_every_unambiguous_shape_is_read_and_named(text, shape, member):
    decoded = decode_answer(text)
    assert (decoded.shape, decoded.member) == (shape, member)
    expected = [] if text == '{"mappings": []}' else [{"sourceClass": "Book", "targetClass": "Publication"}]
    assert decoded.entries == expected
    record = decoded.to_json()
    assert record["answerShape"] == shape and record.get("answerMember") == member


def test_an_object_with_two_mapping_arrays_is_refused_not_guessed():
    text = f'{{"classMappings": [{ENTRY}], "featureMappings": [{ENTRY}]}}'
    with pytest.raises(InputFormatError) as caught:
        decode_answer(text, source="response")
    assert "2 arrays of objects (classMappings, featureMappings)" in caught.value.message
    assert "ambiguous" in caught.value.message
    assert (caught.value.file, caught.value.line, caught.value.column) == ("response", 1, 1)


def test_an_object_without_a_mapping_array_names_its_keys():
    with pytest.raises(InputFormatError, match=r"found a JSON object without an array of mapping objects "
                       r"\(its keys: 'answer', 'tags'\)"):  # fmt: skip
        decode_answer('{"answer": 42, "tags": ["a"]}')


def test_a_truncated_answer_says_so_in_a_whole_sentence():
    with pytest.raises(InputFormatError) as caught:
        decode_answer('[{"sourceClass": "Boo', source="response")
    message = caught.value.message
    assert message == (
        "the answer's JSON array is not valid JSON: Unterminated string starting at line 1, column 18; "
        "the text ends before the JSON does (cut off?)"
    )
    with pytest.raises(InputFormatError, match=r"Expecting value; the text ends before the JSON does"):
        decode_answer('```json\n[{"sourceClass": ')


def test_placeholders_are_invalid_json_with_line_and_column():
    with pytest.raises(InputFormatError) as caught:
        decode_answer('[\n  {"sourceClass": <class_name>, "targetClass": "B"}\n]', source="response")
    assert (caught.value.line, caught.value.column) == (2, 19)
    assert caught.value.message == "the answer's JSON array is not valid JSON: Expecting value"


def test_prose_without_json_is_refused():
    with pytest.raises(InputFormatError, match="found no JSON array or object"):
        decode_answer("I cannot help with that {sorry}.")
