import json

import pytest

from benchmark.core.errors import InputFormatError
from benchmark.core.results import Results, ResultsHeader, TransformationFacts
from benchmark.tracks.mapping.counts import RunRow
from benchmark.tracks.mapping.metrics import BindingCounts, ClassCounts


def test_results_round_trip_through_a_file(tmp_path):
    results = Results(
        header=ResultsHeader(
            created="2026-11-30T00:00:00Z", versions={"lark": "1.3.1"}, inputs={"a/b.atl": "00"}
        ),
        transformations=(TransformationFacts(name="Grafcet2Petrinet", class_pairs=5, bindings=24),),
        rows=(
            RunRow("P", "m", "Grafcet2Petrinet", "run02", classes=ClassCounts(1, 0, 0)),
            RunRow("P", "m", "Grafcet2Petrinet", "run01", bindings=BindingCounts(exact=3)),
        ),
    )
    path = results.save(tmp_path / "results.json")
    loaded = Results.load(path)
    assert [r.run for r in loaded.rows] == ["run01", "run02"]  # rows are written in key order
    assert loaded.transformations == results.transformations
    assert Results.load(path).to_json() == loaded.to_json()


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
        ("header", [], "$.header"),
        ("rows", {"provider": "P"}, "$.rows"),
    ],
)
def test_malformed_header_and_facts_name_their_field(tmp_path, key, value, field):
    path = tmp_path / "results.json"
    path.write_text(json.dumps({"format": "atlbench-results", "version": 1, key: value}))
    with pytest.raises(InputFormatError) as info:
        Results.load(path)
    assert (info.value.file, info.value.field) == (str(path), field)
