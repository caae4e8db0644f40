import json

from benchmark.corpus import score_file
from benchmark.interchange import InterchangeDocument, TransformationInfo


def test_a_failed_llm_run_stays_under_its_provider(tmp_path):
    path = tmp_path / "Claude-model-run02.json"
    path.write_text(
        json.dumps(
            {
                "jjodel": {"exportType": "suggested-mappings", "schemaVersion": 1},
                "analysis": {"provider": "Claude", "model": "claude-x", "modelLabel": "Claude X"},
                "generation": {"status": "failed", "error": "1:3: the answer holds no JSON array"},
            }
        )
    )
    truth = InterchangeDocument(TransformationInfo("T", "T.atl"))
    row = score_file(truth, path, transformation="T", run="runs/Claude-model-run02")
    assert (row.status, row.provider, row.model) == ("error", "Claude", "claude-x")
    assert "the run failed, no mappings to score" in (row.error or "")


def test_an_unreadable_file_has_an_unknown_provider(tmp_path):
    path = tmp_path / "broken.json"
    path.write_text("[{")
    row = score_file(InterchangeDocument(TransformationInfo("T", "T.atl")), path, transformation="T", run="r")
    assert (row.status, row.provider) == ("error", "unknown")
    assert str(path) in (row.error or "")
