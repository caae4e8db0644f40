import json

from benchmark.tracks.mapping.corpus import score_file
from benchmark.tracks.mapping.interchange import InterchangeDocument, TransformationInfo


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


def test_runs_of_an_unusable_transformation_keep_their_provider_and_the_options(tmp_path):
    """A run of a transformation whose ATL file does not parse gets an error row with the provider and
    model its file names and the session's options (validate and pytest share this one scoring path)."""
    from validate_session import score_tree

    folder = tmp_path / "T"
    (folder / "runs").mkdir(parents=True)
    (folder / "T.atl").write_text("module T;\ncreate OUT : B from IN : A;\nrul R {}\n")
    (folder / "runs" / "run01.json").write_text(
        json.dumps(
            {
                "jjodel": {"exportType": "suggested-mappings", "schemaVersion": 1},
                "analysis": {"provider": "Claude", "model": "claude-x"},
                "mappings": [],
            }
        )
    )
    (scored,) = score_tree(tmp_path, partial_weight="0.25", confidence="high", baseline="none")
    identity = (
        scored.status,
        scored.provider,
        scored.model,
        scored.run,
        scored.partial_weight,
        scored.confidence_filter,
    )
    assert identity == ("error", "Claude", "claude-x", "runs/run01", 0.25, "high")
    assert "T.atl:3:1" in (scored.error or "")


def test_validate_fails_on_the_ground_truth_problems_the_pytest_suite_fails_on(tmp_path, capsys):
    import shutil
    from pathlib import Path

    from benchmark.cli import main

    tree = Path(__file__).parents[1] / "plugin" / "data" / "tree"
    shutil.copytree(tree / "Shapes2Figures", tmp_path / "Shapes2Figures")
    atl = tmp_path / "Shapes2Figures" / "Shapes2Figures.atl"
    atl.write_text(atl.read_text().replace("name <- s.name", "title <- s.name"))
    out = tmp_path / "out.json"
    assert main(["validate", str(tmp_path), "-o", str(out), "--baseline", "none"]) == 1
    problem = "target feature Round.title (rule Circle2Round) is not defined in Figures"
    err = capsys.readouterr().err
    assert "error: ground truth Shapes2Figures:" in err and problem in err
    saved = json.loads(out.read_text())["tracks"]["atl"]
    assert {row["status"] for row in saved["rows"]} == {"ok"}  # the runs are still scored
