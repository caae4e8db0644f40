"""Cases from the manifest, stages that score."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from benchmark.core.errors import InputFormatError
from benchmark.tracks.roundtrip.reading.models import ECORE, SQL
from benchmark.tracks.roundtrip.scoring.scorer import score_stage
from benchmark.tracks.roundtrip.study.load import load_study
from benchmark.tracks.roundtrip.study.manifest import default_data_dir, manifest_cases


def test_cases_come_from_the_manifest() -> None:
    cases = manifest_cases()
    assert len(cases) == 100
    study = load_study()
    assert study.layout == "bundled" and list(study.cases) == cases and len(study.pairs) == 10
    case = next(c for c in cases if c.case_id == "shop/to_many")
    assert (case.domain, case.operator) == ("shop", "to_many")
    assert case.inverse.kind is ECORE and case.forward.kind is SQL
    assert case.inverse.given == case.delta_target and case.inverse.expected == case.delta_source
    assert case.forward.base == case.target_model and case.forward.expected == case.delta_target
    assert case.inverse.example == case.forward.example == (case.source, case.target_model)


def test_stages_score_outputs() -> None:
    case = next(c for c in manifest_cases() if c.case_id == "library/delete_class")
    perfect = score_stage(case.inverse, case.delta_source)
    assert perfect.equivalent and perfect.delta_detected
    unchanged = score_stage(case.forward, case.target_model)  # the model ignored the delta
    assert not unchanged.delta_detected and unchanged.counts.ad > 0


def test_missing_or_foreign_manifest_is_an_input_error(tmp_path: Path) -> None:
    with pytest.raises(InputFormatError, match="no manifest.json"):
        manifest_cases(tmp_path)
    (tmp_path / "manifest.json").write_text(
        json.dumps({"formatVersion": 99, "track": "atl"}), encoding="utf-8"
    )
    with pytest.raises(InputFormatError, match="not a round-trip manifest"):
        manifest_cases(tmp_path)


def test_a_missing_case_file_is_reported(tmp_path: Path) -> None:
    data = default_data_dir()
    for name in ("manifest.json", "S_blog.ecore", "T_blog.sql.xmi"):
        shutil.copy(data / name, tmp_path / name)
    with pytest.raises(InputFormatError, match="case blog/add_class: missing file"):
        manifest_cases(tmp_path)


@pytest.mark.parametrize(
    ("content", "message", "field"),
    [
        ("[]", "not a round-trip manifest", None),
        ('{"formatVersion": 1, "track": "roundtrip"}', "no case list", "$.cases"),
        (
            '{"formatVersion": 1, "track": "roundtrip", "cases": [{"id": "x/y"}, 7]}',
            "malformed case entry",
            "$.cases[0]",
        ),
    ],
)
def test_malformed_manifests_are_input_errors_that_say_where(
    tmp_path: Path, content: str, message: str, field: str | None
) -> None:
    (tmp_path / "manifest.json").write_text(content, encoding="utf-8")
    with pytest.raises(InputFormatError, match=message) as caught:
        manifest_cases(tmp_path)
    assert caught.value.field == field and caught.value.file == str(tmp_path / "manifest.json")
