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


def test_runs_of_an_unusable_transformation_keep_their_provider_in_validate_and_pytest(tmp_path):
    """``atlbench validate`` (score_folder) and the pytest track give a run of a transformation whose
    ATL file does not parse the same error row: the provider and model its file names, the options."""
    from benchmark.core.track import TrackOptions
    from benchmark.tracks.mapping.corpus import discover, score_folder
    from benchmark.tracks.mapping.track import AtlTrack

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
    (transformation,) = discover(tmp_path).transformations
    (validated,) = score_folder(transformation, partial_weight=0.25, confidence="high").rows

    track = AtlTrack(TrackOptions(validation_root=tmp_path, partial_weight=0.25, confidence="high"))
    (case,) = track.collect().runs
    scored = track.score_run(case)

    def identity(row):
        return (row.status, row.provider, row.model, row.run, row.partial_weight, row.confidence_filter)

    assert (
        identity(validated) == identity(scored) == ("error", "Claude", "claude-x", "runs/run01", 0.25, "high")
    )
    assert "T.atl:3:1" in (validated.error or "") and "T.atl:3:1" in (scored.error or "")


def test_validate_reports_the_ground_truth_problems_the_pytest_suite_fails_on(tmp_path, capsys):
    import shutil
    from pathlib import Path

    from benchmark.cli import main

    tree = Path(__file__).parents[1] / "plugin" / "data" / "tree"
    shutil.copytree(tree / "Shapes2Figures", tmp_path / "Shapes2Figures")
    atl = tmp_path / "Shapes2Figures" / "Shapes2Figures.atl"
    atl.write_text(atl.read_text().replace("name <- s.name", "title <- s.name"))
    out = tmp_path / "out.json"
    assert main(["validate", str(tmp_path), "-o", str(out)]) == 0  # the runs are still scored
    problem = "target feature Round.title (rule Circle2Round) is not defined in Figures"
    assert f"{atl}: note: {problem}" in capsys.readouterr().err
    (folder,) = json.loads(out.read_text())["transformations"]
    assert folder["problems"] == [problem]
