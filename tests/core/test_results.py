import json

import pytest

from benchmark.core.errors import InputFormatError
from benchmark.core.results import Results, ResultsHeader, TrackSection
from benchmark.core.rows import Facts, Row


def test_results_of_several_tracks_round_trip_through_a_file(tmp_path):
    """Version 2: one section per track, each with its options, facts and rows, payloads untouched."""
    results = Results(
        header=ResultsHeader(
            created="2026-11-30T00:00:00Z", versions={"lark": "1.3.1"}, inputs={"a/b.atl": "00"}
        ),
        sections=(
            TrackSection(
                "atl",
                {"partialWeight": 0.5},
                (Facts("atl", "Grafcet2Petrinet", payload={"classPairs": 5}),),
                (
                    Row("atl", "P", "m", "Grafcet2Petrinet", "run02", payload={"class": {"tp": 1}}),
                    Row("atl", "P", "m", "Grafcet2Petrinet", "run01", payload={"class": {"tp": 2}}),
                ),
            ),
            TrackSection("toy", {}, (), (Row("toy", "P", "m", "t1", "r1", status="error", error="why"),)),
        ),
    )
    path = results.save(tmp_path / "results.json")
    loaded = Results.load(path)
    assert loaded.tracks == ("atl", "toy")
    assert [r.run for r in loaded.section("atl").rows] == ["run01", "run02"]  # rows are written in key order
    assert loaded.section("atl").facts == results.section("atl").facts
    assert loaded.section("toy").rows[0].error == "why"
    assert Results.load(path).to_json() == loaded.to_json()
    # the file is the same object as to_json(); one fact and one row per line, the rest indented
    text = path.read_text(encoding="utf-8")
    assert json.loads(text) == results.to_json()
    lines = text.splitlines()
    assert [line.strip()[:18] for line in lines if '"rowFormat"' in line] == ['{"rowFormat": 2, "'] * 3
    assert sum('"task": "Grafcet2Petrinet"' in line for line in lines) == 3  # a fact and two rows
    assert '      "lark": "1.3.1"' in lines and text.endswith("\n}\n")
    assert json.loads(Results(results.header).dumps()) == Results(results.header).to_json()
    unicode = Results(
        ResultsHeader(), (TrackSection("atl", {}, (), (Row("atl", "Modèle→Δ", "m", "t", "r"),)),)
    )
    assert "Modèle→Δ" in unicode.dumps() and json.loads(unicode.dumps()) == unicode.to_json()


def test_a_version_1_file_reads_as_the_mapping_track(tmp_path):
    path = tmp_path / "results.json"
    row = {
        "rowFormat": 1,
        "track": "atl",
        "provider": "P",
        "model": "m",
        "transformation": "T",
        "run": "r",
        "status": "ok",
        "error": None,
        "class": {"tp": 1, "fp": 0, "fn": 0},
    }
    fact = {"name": "T", "track": "atl", "file": "T.atl", "classPairs": 1}
    path.write_text(
        json.dumps(
            {
                "format": "atlbench-results",
                "version": 1,
                "header": {"options": {"x": 1}},
                "transformations": [fact],
                "rows": [row],
            }
        )
    )
    loaded = Results.load(path)
    (section,) = loaded.sections
    assert section.track == "atl" and section.options == {"x": 1}
    assert section.rows[0].key == ("atl", "P", "m", "T", "r", "study", "free")
    assert section.rows[0].payload == {"class": {"tp": 1, "fp": 0, "fn": 0}}
    assert section.facts[0].payload == {"classPairs": 1}


def test_foreign_file_is_refused_with_its_path(tmp_path):
    path = tmp_path / "other.json"
    path.write_text(json.dumps({"format": "something-else"}))
    with pytest.raises(InputFormatError, match="not an atlbench-results file") as info:
        Results.load(path)
    assert info.value.file == str(path)


def test_malformed_row_names_its_index(tmp_path):
    path = tmp_path / "results.json"
    path.write_text(json.dumps({"format": "atlbench-results", "version": 1, "rows": [{"provider": "P"}]}))
    with pytest.raises(InputFormatError) as info:
        Results.load(path)
    assert info.value.field == "$.rows[0]"


def test_missing_file_is_an_input_error(tmp_path):
    with pytest.raises(InputFormatError, match="cannot read results") as info:
        Results.load(tmp_path / "absent.json")
    assert info.value.file == str(tmp_path / "absent.json")


@pytest.mark.parametrize(
    ("key", "value", "field"),
    [
        ("transformations", [{"track": "atl"}], "$.transformations[0]"),
        ("tracks", [], "$.tracks"),
        ("header", [], "$.header"),
        ("rows", {"provider": "P"}, "$.rows"),
    ],
)
def test_malformed_header_and_facts_name_their_field(tmp_path, key, value, field):
    path = tmp_path / "results.json"
    version = 2 if key == "tracks" else 1
    path.write_text(json.dumps({"format": "atlbench-results", "version": version, key: value}))
    with pytest.raises(InputFormatError) as info:
        Results.load(path)
    assert (info.value.file, info.value.field) == (str(path), field)
