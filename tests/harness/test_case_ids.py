"""Run case ids name the provider, so that ``-k PROVIDER`` selects a provider's runs."""

from __future__ import annotations

import json
from pathlib import Path

from validate_session import mapping_track


def _export(provider: str) -> str:
    return json.dumps(
        {
            "jjodel": {"exportType": "suggested-mappings", "schemaVersion": 1},
            "analysis": {"provider": provider, "model": "m"},
            "mappings": [],
        }
    )


def test_same_file_name_in_two_subfolders_keeps_the_provider_in_the_id(tmp_path: Path) -> None:
    folder = tmp_path / "T"
    for batch in ("january", "march"):
        (folder / "runs" / batch).mkdir(parents=True)
        (folder / "runs" / batch / "run01.json").write_text(_export("Claude"))
    (folder / "runs" / "answer.json").write_text(_export("GPT"))
    (folder / "T.atl").write_text("module T;\ncreate OUT : B from IN : A;\n")
    track = mapping_track(tmp_path)
    assert [case.case_id for case in track.collect().runs] == [
        "T-Claude-runs-january-run01",
        "T-Claude-runs-march-run01",
        "T-GPT-answer",
    ]
