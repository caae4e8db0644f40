"""Delta scores against the bundled data: the delta lines are the operator's witness lines, and the two
baselines (Echo: the unchanged base; Oracle: the expected model itself) bracket every case."""

from __future__ import annotations

import json

import pytest

from benchmark.tracks.roundtrip.scoring.scorer import score_stage
from benchmark.tracks.roundtrip.study.manifest import default_data_dir, manifest_cases

CASES = manifest_cases()
MANIFEST = {
    entry["id"]: entry for entry in json.loads((default_data_dir() / "manifest.json").read_text())["cases"]
}


@pytest.mark.parametrize("case", CASES[::7], ids=lambda case: case.case_id)
@pytest.mark.parametrize("stage_name", ["inverse", "forward"])
def test_delta_lines_are_the_witness_lines_and_the_baselines_bracket_them(case, stage_name: str) -> None:  # type: ignore[no-untyped-def]
    stage = case.inverse if stage_name == "inverse" else case.forward
    witness = MANIFEST[case.case_id]["witness"]["S" if stage_name == "inverse" else "T"]
    witness_lines = len(witness["appears"]) + len(witness["changes"]) + len(witness["disappears"])
    oracle = score_stage(stage, stage.expected)
    echo = score_stage(stage, stage.base)
    assert oracle.delta.lines == echo.delta.lines == witness_lines > 0
    assert (
        oracle.equivalent
        and oracle.delta_detected
        and (oracle.delta.recall, oracle.delta.precision) == (1, 1)
    )
    assert oracle.pct_correct == oracle.pct_wsuccess == 1.0
    assert not echo.delta_detected and (echo.delta.recall, echo.delta.precision) == (0, 0)
    assert echo.pct_wsuccess < 1.0 and not echo.equivalent
