import json

import pytest

from benchmark.core.errors import ConfigurationError, InputFormatError
from benchmark.tracks.mapping.confidence import (
    confidence_filter_name,
    normalise_confidence,
    parse_confidence_filter,
)
from benchmark.tracks.mapping.jjodel import MappingEntry, export_document
from benchmark.tracks.mapping.scoring.run_status import MissingRunError
from benchmark.tracks.mapping.scoring.suggestions import (
    SHAPE_EXPORT,
    SHAPE_LLM_ANSWER,
    extract_json_array,
    filter_confidence,
    load_suggestions,
    normalise_name,
    parse_suggestions,
    peek_provider,
)

# ----------------------------------------------------------------------------------- normalisation


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ("Book", "Book"),
        ("  Book\t", "Book"),
        ("Library!Book", "Book"),
        ("pkg::Book", "Book"),
        ("pkg::sub::Book", "Book"),
        ("MM!pkg::Book", "Book"),
        ("chapters.nbPages", "chapters.nbPages"),  # a navigation path is kept whole
        ("", None),
        ("   ", None),
        (None, None),
    ],
)
def test_names_are_trimmed_and_unqualified(raw, expected):
    assert normalise_name(raw) == expected


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ("high", ("high", True)),
        ("HIGH", ("high", True)),
        (" Medium ", ("medium", True)),
        ("med", ("medium", True)),
        ("MED", ("medium", True)),
        ("low", ("low", True)),
        (None, ("unknown", True)),
        ("", ("unknown", True)),
        ("very sure", ("unknown", False)),
    ],
)
def test_confidence_is_normalised(raw, expected):
    assert normalise_confidence(raw) == expected


# ----------------------------------------------------------------------------------------- shapes


def test_jjodel_export_is_read_and_normalised(data_dir):
    found = load_suggestions(data_dir / "llm-export.json")
    assert found.shape == SHAPE_EXPORT
    assert (found.provider, found.model, found.model_label) == ("ExampleLLM", "example-1", "Example 1")
    assert found.transformation is not None and found.transformation.name == "Library2Catalog"
    assert len(found.mappings) == 11  # 14 entries - 1 duplicate - 2 invalid
    assert [m.path for m in found.class_mappings] == ["$.mappings[0]", "$.mappings[1]", "$.mappings[2]"]
    title = found.mappings[3]
    assert (title.source_class, title.source_feature, title.target_class, title.target_feature) == (
        "Book",
        "title",
        "Publication",
        "title",
    )
    assert title.confidence == "high"
    assert found.mappings[4].confidence == "medium"  # "med"
    assert found.mappings[6].source_feature == "isbn"
    kind = next(m for m in found.mappings if m.target_feature == "kind")
    assert kind.confidence == "unknown"  # no label given
    authors = next(m for m in found.mappings if m.target_feature == "authors")
    assert authors.conversion_hint == "resolve(authors, Person)"


def test_invalid_entries_are_listed_with_path_and_reason(data_dir):
    found = load_suggestions(data_dir / "llm-export.json")
    assert [(i.path, i.reason) for i in found.invalid] == [
        ("$.mappings[12]", "feature mapping without target feature (target.feature is empty)"),
        ("$.mappings[13]", "unknown kind 'reference' (expected 'class' or 'attribute')"),
    ]
    assert found.invalid[1].entry["target"]["feature"] == "sections"  # the raw entry is kept


def test_exact_duplicates_are_scored_once_and_reported(data_dir):
    found = load_suggestions(data_dir / "llm-export.json")
    assert found.duplicate_count == 1
    assert (found.duplicates[0].path, found.duplicates[0].first_path) == ("$.mappings[11]", "$.mappings[3]")


def test_same_mapping_with_another_confidence_is_not_a_duplicate():
    answer = [
        {"sourceClass": "A", "targetClass": "B", "confidence": "high"},
        {"sourceClass": "A", "targetClass": "B", "confidence": "low"},
        {"sourceClass": "A", "targetClass": "B", "confidence": "High", "reason": "other words"},
    ]
    found = parse_suggestions(answer)
    assert [m.confidence for m in found.mappings] == ["high", "low"]
    assert [d.path for d in found.duplicates] == ["$[2]"]


def test_llm_answer_in_a_fence_gives_the_same_mappings_as_the_export(data_dir):
    answer = load_suggestions(data_dir / "llm-answer.md")
    export = load_suggestions(data_dir / "llm-export.json")
    assert answer.shape == SHAPE_LLM_ANSWER
    assert (answer.provider, answer.model) == ("unknown", "unknown")
    assert [(m.identity, m.confidence) for m in answer.mappings] == [
        (m.identity, m.confidence) for m in export.mappings
    ]
    assert answer.duplicate_count == 1
    assert [(i.path, i.reason) for i in answer.invalid] == [
        ("$[12]", "feature mapping without target feature (targetAttribute is empty)")
    ]


def test_raw_answer_kind_follows_the_attributes():
    found = parse_suggestions(
        [
            {"sourceClass": "A", "sourceAttribute": None, "targetClass": "B", "targetAttribute": None},
            {"sourceClass": "A", "sourceAttribute": None, "targetClass": "B", "targetAttribute": "x"},
            {"sourceClass": "A", "targetClass": "B", "sourceAttribute": "  ", "targetAttribute": "y"},
        ]
    )
    assert [m.kind for m in found.mappings] == ["class", "attribute", "attribute"]
    assert [m.source_feature for m in found.mappings] == [
        None,
        None,
        None,
    ]  # a feature mapping naming no source


def test_provider_falls_back_to_the_mappings_then_unknown():
    document = export_document(
        transformation="T",
        source="S",
        target="U",
        provider="FromMappings",
        model="m",
        mappings=[MappingEntry("class", "A", "B", confidence="high")],
    )
    del document["analysis"]["provider"]
    assert parse_suggestions(document).provider == "FromMappings"
    document["mappings"][0]["provider"] = None
    assert parse_suggestions(document).provider == "unknown"
    assert parse_suggestions(document, provider=" Claude ", model="opus").provider == "Claude"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("{document}", ("Peeked", "m1")),
        ("\ufeff{document}", ("Peeked", "m1")),
        ("Here is the export:\n```json\n{document}\n```\n", ("Peeked", "m1")),
        ('[{{"sourceClass": "A", "targetClass": "B"}}]', ("unknown", "unknown")),
        ('{{"jjodel": ', ("unknown", "unknown")),
    ],
)
def test_peek_provider_agrees_with_the_parser(tmp_path, text, expected):
    """Cases are named and ``--provider``-filtered by the peeked provider: it must be the row's."""
    document = export_document(
        transformation="T",
        source="S",
        target="U",
        provider="Peeked",
        model="m1",
        mappings=[MappingEntry("class", "A", "B", confidence="high")],
    )
    path = tmp_path / "run.json"
    path.write_text(text.format(document=json.dumps(document)), encoding="utf-8")
    assert peek_provider(path) == expected
    if expected[0] != "unknown":
        found = load_suggestions(path)
        assert (found.provider, found.model) == expected


def test_conflicting_providers_leave_a_notice():
    document = export_document(
        transformation="T",
        source="S",
        target="U",
        provider="P",
        model="m",
        mappings=[MappingEntry("class", "A", "B")],
    )
    document["mappings"][0]["provider"] = "Q"
    found = parse_suggestions(document)
    assert found.provider == "P"
    assert [n.path for n in found.notices] == ["$.mappings"]


def test_unrecognised_confidence_is_kept_as_unknown_with_a_notice():
    found = parse_suggestions([{"sourceClass": "A", "targetClass": "B", "confidence": "certain"}])
    assert found.mappings[0].confidence == "unknown"
    assert [(n.path, "certain" in n.message) for n in found.notices] == [("$[0]", True)]


def test_class_mapping_naming_a_feature_is_invalid():
    document = export_document(
        transformation="T",
        source="S",
        target="U",
        provider="P",
        model="m",
        mappings=[MappingEntry("class", "A", "B", source_feature="x")],
    )
    found = parse_suggestions(document)
    assert found.mappings == ()
    assert found.invalid[0].path == "$.mappings[0]"


def test_empty_or_missing_class_name_is_invalid():
    found = parse_suggestions([{"sourceClass": "Pkg::", "targetClass": "B"}, {"sourceClass": "A"}])
    assert found.mappings == ()
    assert [(i.path, i.reason) for i in found.invalid] == [
        ("$[0]", "sourceClass is missing or empty"),
        ("$[1]", "targetClass is missing or empty"),
    ]
    document = export_document(
        transformation="T",
        source="S",
        target="U",
        provider="P",
        model="m",
        mappings=[MappingEntry("class", "A", "B")],
    )
    del document["mappings"][0]["target"]["class"]
    assert parse_suggestions(document).invalid[0].reason == "target.class is missing or empty"


def _run(generation, **extra):
    document = export_document(
        transformation="T", source="S", target="U", provider="P", model="m", mappings=[],
        extra={"generation": generation},
    )  # fmt: skip
    del document["mappings"]
    document.update(extra)
    return document


@pytest.mark.parametrize("status", ["unusable", "failed"])  # "failed": what generate wrote before
def test_an_unusable_run_reads_as_a_run_with_no_suggestions(status):
    found = parse_suggestions(_run({"status": status, "error": "response:1:1: no JSON"}), source="r.json")
    assert found.mappings == () and found.unusable
    assert found.unusable_reason == "response:1:1: no JSON"
    assert (found.provider, found.model) == ("P", "m")
    no_reason = parse_suggestions(_run({"status": status}))
    assert no_reason.unusable_reason == "the model's answer was unusable (the file records no reason)"


def test_a_run_without_answer_is_missing_with_its_reason_and_provider():
    with pytest.raises(MissingRunError) as caught:
        parse_suggestions(_run({"status": "no-answer", "error": "timeout after 600 s"}), source="r.json")
    error = caught.value
    assert (error.reason, error.provider, error.model) == ("timeout after 600 s", "P", "m")
    assert str(error) == "r.json: $.generation: no answer was obtained for this run: timeout after 600 s"


@pytest.mark.parametrize(
    ("generation", "extra", "field", "message"),
    [
        ({"error": "429"}, {"mappings": []}, "$.generation.status", "cannot tell whether the model answered"),
        ({"status": "ok", "error": "boom"}, {"mappings": []}, "$.generation.status", "generation.error is"),
        ({"status": "done"}, {"mappings": []}, "$.generation.status", "unknown generation.status 'done'"),
        ({"status": "unusable", "error": "x"}, {"mappings": []}, "$.mappings", "has a 'mappings' key"),
        ({"status": "ok"}, {}, "$", "'mappings' is a required property"),
    ],
)
def test_a_run_record_that_contradicts_itself_is_an_input_error(generation, extra, field, message):
    with pytest.raises(InputFormatError) as caught:
        parse_suggestions(_run(generation, **extra), source="runs/P-m-run01.json")
    assert caught.value.field == field and message in caught.value.message
    assert not isinstance(caught.value, MissingRunError)


def test_an_answer_whose_every_entry_is_invalid_is_unusable_and_an_empty_one_is_not():
    found = parse_suggestions([{"sourceClass": "A"}, {"targetClass": "B"}])
    assert found.mappings == () and len(found.invalid) == 2
    assert found.unusable_reason == (
        "all 2 entries are unusable (first: $[0]: targetClass is missing or empty)"
    )
    assert parse_suggestions([]).unusable_reason is None  # "no mapping" is an answer
    partly = parse_suggestions([{"sourceClass": "A"}, {"sourceClass": "A", "targetClass": "B"}])
    assert partly.unusable_reason is None and len(partly.mappings) == 1


def test_the_answer_shape_is_known_for_raw_answers_and_generated_files():
    entry = '{"sourceClass": "A", "targetClass": "B"}'
    assert parse_suggestions(f"[{entry}]").answer_shape == "array"
    assert parse_suggestions(f"Sure: [{entry}]").answer_shape == "array-in-prose"
    assert parse_suggestions([{"sourceClass": "A", "targetClass": "B"}]).answer_shape is None  # not decoded
    with pytest.raises(InputFormatError, match="'jjodel' is a required property"):
        parse_suggestions(f'{{"mappings": [{entry}]}}')  # a file holding an object is an export
    generated = export_document(
        transformation="T", source="S", target="U", provider="P", model="m",
        mappings=[MappingEntry("class", "A", "B")],
        extra={"generation": {"status": "ok", "answerShape": "object"}},
    )  # fmt: skip
    assert parse_suggestions(generated).answer_shape == "object"
    assert parse_suggestions(json.dumps(generated)).answer_shape == "object"


def test_suggestion_round_trips_through_an_export():
    found = parse_suggestions(
        '```json\n[{"sourceClass": "A", "sourceAttribute": "a", "targetClass": "B", "targetAttribute": "b",'
        ' "confidence": "med", "reason": "r", "guardHint": "g"}]\n```'
    )
    document = export_document(
        transformation="T",
        source="S",
        target="U",
        provider="P",
        model="m",
        mappings=[m.to_entry() for m in found.mappings],
    )
    again = parse_suggestions(json.loads(json.dumps(document)))
    assert [(m.identity, m.confidence, m.reason, m.guard_hint) for m in again.mappings] == [
        (("attribute", "A", "a", "B", "b"), "medium", "r", "g")
    ]


# ------------------------------------------------------------------------------- answer extraction


def test_extract_bare_array():
    assert extract_json_array('[{"a": 1}]') == [{"a": 1}]


def test_extract_from_fence_without_language_and_prose_around():
    text = 'Sure!\n```\n[\n {"a": 1}\n]\n```\nAnything else?'
    assert extract_json_array(text) == [{"a": 1}]


def test_extract_from_prose_without_fence():
    assert extract_json_array('The mappings: [{"a": [1, 2]}] as requested.') == [{"a": [1, 2]}]


def test_extract_empty_array():
    assert extract_json_array("```json\n[]\n```") == []


def test_extract_truncated_answer_names_line_and_column():
    text = 'Here:\n```json\n[\n  {"a": 1},\n  {"b": '
    with pytest.raises(InputFormatError) as caught:
        extract_json_array(text, source="answer.txt")
    error = caught.value
    assert error.file == "answer.txt"
    assert (error.line, error.column) == (5, 9)  # just past `  {"b": `, where the answer stops
    assert "not valid JSON" in error.message


def test_extract_never_falls_back_to_an_inner_array():
    # The outer array is broken; its inner [{...}] must not be taken as the answer.
    with pytest.raises(InputFormatError):
        extract_json_array('[{"sourceClass": "A", "list": [{"x": 1}]')


def test_extract_without_array_says_so():
    with pytest.raises(InputFormatError, match="found no JSON array"):
        extract_json_array("I cannot help with that.", source="a.txt")
    with pytest.raises(InputFormatError, match="found a JSON object"):
        extract_json_array('{"answer": 42}')


# -------------------------------------------------------------------------------------- bad files


def test_schema_error_names_file_and_json_path(tmp_path):
    path = tmp_path / "bad.json"
    document = export_document(
        transformation="T",
        source="S",
        target="U",
        provider="P",
        model="m",
        mappings=[MappingEntry("class", "A", "B"), MappingEntry("attribute", "A", "B", "a", "b")],
    )
    document["mappings"][1]["target"]["feature"] = 7
    path.write_text(json.dumps(document))
    with pytest.raises(InputFormatError) as caught:
        load_suggestions(path)
    assert caught.value.file == str(path)
    assert caught.value.field == "$.mappings[1].target.feature"
    assert str(caught.value).startswith(f"{path}: $.mappings[1].target.feature: 7 is not of type")


def test_wrong_export_type_is_an_error(tmp_path):
    path = tmp_path / "x.json"
    path.write_text(json.dumps({"jjodel": {"exportType": "model", "schemaVersion": 1}, "mappings": []}))
    with pytest.raises(InputFormatError) as caught:
        load_suggestions(path)
    assert caught.value.field == "$.jjodel.exportType"


def test_object_without_jjodel_header_is_an_error():
    with pytest.raises(InputFormatError) as caught:
        parse_suggestions({"mappings": []}, source="m.json")
    assert caught.value.field == "$"
    assert "'jjodel' is a required property" in caught.value.message


def test_raw_entry_of_wrong_type_names_its_index():
    with pytest.raises(InputFormatError) as caught:
        parse_suggestions('[{"sourceClass": "A", "targetClass": "B"}, "oops"]', source="a.json")
    assert caught.value.field == "$[1]"


def test_invalid_json_names_line_and_column(tmp_path):
    path = tmp_path / "broken.json"
    path.write_text('{\n  "jjodel": {"exportType": "suggested-mappings",\n  "schemaVersion": 1\n')
    with pytest.raises(InputFormatError) as caught:
        load_suggestions(path)
    assert (caught.value.file, caught.value.line) == (str(path), 4)


def test_trailing_garbage_after_an_export_is_an_error():
    text = json.dumps({"jjodel": {"exportType": "suggested-mappings", "schemaVersion": 1}, "mappings": []})
    with pytest.raises(InputFormatError, match="extra data"):
        parse_suggestions(text + "\n}", source="x.json")


def test_missing_and_non_utf8_files(tmp_path):
    with pytest.raises(InputFormatError, match="cannot read"):
        load_suggestions(tmp_path / "absent.json")
    path = tmp_path / "latin1.json"
    path.write_bytes(b'[{"sourceClass": "\xe9", "targetClass": "B"}]')
    with pytest.raises(InputFormatError, match="not UTF-8"):
        load_suggestions(path)


def test_byte_order_mark_is_tolerated(tmp_path):
    path = tmp_path / "bom.json"
    path.write_bytes(b'\xef\xbb\xbf[{"sourceClass": "A", "targetClass": "B"}]')
    assert len(load_suggestions(path).mappings) == 1


# ---------------------------------------------------------------------------------- confidence filter


@pytest.mark.parametrize(
    ("spec", "labels", "name"),
    [
        ("all", None, "all"),
        (None, None, "all"),
        ("", None, "all"),
        ("high", {"high"}, "high"),
        ("High, MED", {"high", "medium"}, "high,medium"),
        ("medium,high", {"high", "medium"}, "high,medium"),
        ("low,unknown", {"low", "unknown"}, "low,unknown"),
        ("high,medium,low,unknown", {"high", "medium", "low", "unknown"}, "all"),
        (["high", "low"], {"high", "low"}, "high,low"),
    ],
)
def test_confidence_filter_parsing(spec, labels, name):
    parsed = parse_confidence_filter(spec)
    assert (set(parsed) if parsed is not None else None) == labels
    assert confidence_filter_name(parsed) == name


def test_unknown_confidence_label_is_a_configuration_error():
    with pytest.raises(ConfigurationError, match="unknown confidence label 'sure'") as caught:
        parse_confidence_filter("high,sure")
    assert caught.value.field == "--confidence"


def test_filter_keeps_selected_labels_and_the_file_facts(data_dir):
    found = load_suggestions(data_dir / "llm-export.json")
    high = filter_confidence(found, "high")
    assert high.confidence_filter == "high"
    assert {m.confidence for m in high.mappings} == {"high"}
    assert len(high.mappings) == 5
    assert len(filter_confidence(found, "high,medium").mappings) == 8
    assert len(filter_confidence(found, "unknown").mappings) == 1
    assert filter_confidence(found, "all") is found
    assert high.invalid == found.invalid and high.duplicates == found.duplicates
    assert filter_confidence(high, "high,medium").confidence_filter == "high"  # filters compose


def test_shipped_schema_is_valid_and_accepts_what_the_writer_writes():
    import jsonschema

    from benchmark.tracks.mapping.scoring.suggestions import schema, validate

    jsonschema.Draft202012Validator.check_schema(schema())
    document = export_document(
        transformation="T", source="S", target="U", provider="P", model="m",
        mappings=[MappingEntry("class", "A", "B"), MappingEntry("attribute", "A", "B", "a", "b", "low", "r")],
        extra={"generation": {"run": 1}},
    )  # fmt: skip
    validate(document)  # raises on any problem
    with pytest.raises(InputFormatError):
        validate("not a document", source="x")
