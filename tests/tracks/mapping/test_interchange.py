import json

import pytest

from benchmark.core.errors import InputFormatError
from benchmark.tracks.mapping import interchange
from benchmark.tracks.mapping.interchange import (
    ClassMatch,
    FeatureMatch,
    InterchangeDocument,
    ModelDecl,
    TransformationInfo,
)


def _document() -> InterchangeDocument:
    return InterchangeDocument(
        transformation=TransformationInfo(
            name="Book2Publication",
            file="Book2Publication.atl",
            in_models=(ModelDecl("IN", "Book"),),
            out_models=(ModelDecl("OUT", "Publication"),),
        ),
        class_matches=(
            ClassMatch(
                source_class="Book",
                target_class="Publication",
                source_metamodel="Book",
                target_metamodel="Publication",
                rules=("Book2Publication",),
                feature_matches=(
                    FeatureMatch("title", ("title",), ("title",), (), ("Book2Publication",)),
                    FeatureMatch(
                        "nbPages",
                        ("chapters", "chapters.nbPages"),
                        ("chapters",),
                        ("getSumPages",),
                        ("Book2Publication",),
                    ),
                ),
            ),
        ),
    )


def test_round_trip_is_byte_stable():
    text = interchange.dumps(_document())
    again = interchange.dumps(interchange.loads(text))
    assert text == again
    data = json.loads(text)
    # lists are sorted for byte stability
    assert [f["targetFeature"] for f in data["classMatches"][0]["featureMatches"]] == ["nbPages", "title"]


def test_binding_keys_align_on_source_target_feature():
    keys = _document().binding_keys()
    assert set(keys) == {("Book", "Publication", "title"), ("Book", "Publication", "nbPages")}
    assert keys[("Book", "Publication", "nbPages")].source_features == ("chapters",)


def test_schema_violation_names_the_json_path(tmp_path):
    data = _document().to_json()
    data["classMatches"][0]["featureMatches"][1]["sourcePaths"] = "chapters"
    path = tmp_path / "gt.json"
    path.write_text(json.dumps(data))
    with pytest.raises(InputFormatError) as info:
        interchange.load(path)
    assert info.value.field == "$.classMatches[0].featureMatches[1].sourcePaths"
    assert str(path) in str(info.value)


def test_invalid_json_reports_line_and_column(tmp_path):
    path = tmp_path / "broken.json"
    path.write_text('{\n  "format": }\n')
    with pytest.raises(InputFormatError) as info:
        interchange.load(path)
    assert (info.value.line, info.value.column) == (2, 13)


def test_a_file_that_is_not_utf8_is_an_input_error_naming_it(tmp_path):
    path = tmp_path / "latin.json"
    path.write_bytes(interchange.dumps(_document()).replace("Book", "B\u00f6ok").encode("latin-1"))
    with pytest.raises(InputFormatError) as info:
        interchange.load(path)
    assert info.value.file == str(path) and info.value.message.startswith("not UTF-8 text (byte ")
