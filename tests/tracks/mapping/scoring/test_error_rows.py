import json

import pytest

from benchmark.tracks.mapping.interchange import InterchangeDocument, TransformationInfo
from benchmark.tracks.mapping.scoring.outcomes import (
    OUTCOME_ERROR,
    OUTCOME_MISSING,
    OUTCOME_SCORED,
    OUTCOME_UNUSABLE,
    count_outcomes,
    outcome_reason,
    run_outcome,
)
from benchmark.tracks.mapping.scoring.runs import score_file

HEADER = {"jjodel": {"exportType": "suggested-mappings", "schemaVersion": 1}}
CLAUDE = {"provider": "Claude", "model": "claude-x", "modelLabel": "Claude X"}


def _write(path, document):
    path.write_text(json.dumps(document))
    return path


@pytest.mark.parametrize("status", ["unusable", "failed"])  # "failed": files of earlier versions
def test_an_unusable_llm_run_is_scored_as_empty_under_its_provider(tmp_path, ground_truth, status):
    path = _write(
        tmp_path / "Claude-model-run02.json",
        {**HEADER, "analysis": CLAUDE, "generation": {"status": status, "error": "1:3: holds no JSON array"}},
    )
    row = score_file(ground_truth, path, transformation="T", run="runs/Claude-model-run02")
    assert (row.status, row.provider, row.model) == ("ok", "Claude", "claude-x")
    assert run_outcome(row) == OUTCOME_UNUSABLE
    assert outcome_reason(row) == "1:3: holds no JSON array"
    # every ground-truth item is a false negative, nothing is suggested
    assert (row.classes.tp, row.classes.fp, row.classes.fn) == (0, 0, 3)
    assert row.bindings.only_atl > 0 and row.suggestions == 0
    assert row.scores(0.5).overall.precision == 0.0  # the documented zero-denominator rule


def test_a_run_that_got_no_answer_is_missing_not_zero(tmp_path, ground_truth):
    path = _write(
        tmp_path / "Claude-model-run03.json",
        {**HEADER, "analysis": CLAUDE, "generation": {"status": "no-answer", "error": "HTTP 429, 5 tries"}},
    )
    row = score_file(ground_truth, path, transformation="T", run="runs/Claude-model-run03")
    assert (row.status, row.provider, row.model) == ("error", "Claude", "claude-x")
    assert run_outcome(row) == OUTCOME_MISSING
    assert outcome_reason(row) == "HTTP 429, 5 tries"
    assert "no answer was obtained for this run: HTTP 429" in (row.error or "")


def test_a_broken_file_stays_an_input_error_and_outcomes_are_counted(tmp_path, ground_truth):
    ok = _write(tmp_path / "Claude-model-run01.json", {**HEADER, "analysis": CLAUDE, "mappings": []})
    broken = tmp_path / "Claude-model-run02.json"
    broken.write_text('{"jjodel": ')  # a truncated hand export
    rows = [score_file(ground_truth, p, transformation="T", run=p.stem) for p in (ok, broken)]
    assert [run_outcome(r) for r in rows] == [OUTCOME_SCORED, OUTCOME_ERROR]
    assert "not valid JSON" in (outcome_reason(rows[1]) or "")
    assert count_outcomes(rows) == {
        ("Claude", "claude-x"): {"scored": 1, "unusable": 0, "missing": 0, "error": 1}
    }


def test_a_broken_run_file_keeps_the_provider_its_name_gives(tmp_path):
    """The sibling with the same ``<provider>-<model>`` part says where the dash falls; without one,
    the whole part is the provider."""
    _write(tmp_path / "Claude-opus-4-run01.json", {**HEADER, "analysis": CLAUDE, "mappings": []})
    (tmp_path / "Claude-opus-4-run02.json").write_text('{"jjodel": ')
    (tmp_path / "Gemini-flash-run01.json").write_text("[{")
    truth = InterchangeDocument(TransformationInfo("T", "T.atl"))
    sibling = score_file(truth, tmp_path / "Claude-opus-4-run02.json", transformation="T", run="r")
    assert (sibling.status, sibling.provider, sibling.model) == ("error", "Claude", "claude-x")
    alone = score_file(truth, tmp_path / "Gemini-flash-run01.json", transformation="T", run="r")
    assert (alone.status, alone.provider, alone.model) == ("error", "Gemini-flash", "unknown")


def test_an_unreadable_file_with_another_name_has_an_unknown_provider(tmp_path):
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
    (scored,) = score_tree(tmp_path, partial_weight="0.25", confidence="high", atl_baselines="none")
    identity = (
        scored.status,
        scored.provider,
        scored.model,
        scored.run,
        scored.confidence_filter,
    )
    assert identity == ("error", "Claude", "claude-x", "runs/run01", "high")
    assert "T.atl:3:1" in (scored.error or "")


def test_validate_fails_on_the_ground_truth_problems_the_pytest_suite_fails_on(tmp_path, capsys):
    import shutil
    from pathlib import Path

    from benchmark.cli import main

    tree = Path(__file__).resolve().parents[3] / "harness" / "data" / "tree"
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


def test_validate_fails_on_missing_runs_in_one_line_unless_they_are_accepted(tmp_path, capsys):
    """``atlbench validate`` fails as the pytest session does: one line naming every run that got no
    answer and why (not one error per run), and passes with ``--allow-missing-runs``."""
    import shutil
    from pathlib import Path

    from benchmark.cli import main

    tree = Path(__file__).resolve().parents[3] / "harness" / "data" / "tree"
    shutil.copytree(tree / "Library2Catalog", tmp_path / "Library2Catalog")
    runs = tmp_path / "Library2Catalog" / "runs"
    for path in runs.glob("*Noisy-run01.json"):  # the tree's truncated export: an input error, not missing
        path.unlink()
    for run, reason in (("run01", "HTTP 429, 5 tries"), ("run02", "timeout after 600 s")):
        _write(
            runs / f"Claude-model-{run}.json",
            {**HEADER, "analysis": CLAUDE, "generation": {"status": "no-answer", "error": reason}},
        )
    assert main(["validate", str(tmp_path), "--track", "atl", "--baseline", "none"]) == 1
    err = capsys.readouterr().err.splitlines()
    assert err == [
        "error: 2 runs got no answer (missing, not scored): atl Library2Catalog Claude "
        "runs/Claude-model-run01: HTTP 429, 5 tries; atl Library2Catalog Claude runs/Claude-model-run02: "
        "timeout after 600 s; fill them in with `atlbench generate` (cached answers are replayed) or accept "
        "them with --allow-missing-runs"
    ]
    assert (
        main(["validate", str(tmp_path), "--track", "atl", "--baseline", "none", "--allow-missing-runs"]) == 0
    )
    captured = capsys.readouterr()
    assert captured.err == ""
    assert "2 runs got no answer (missing, not scored)" in captured.out
    assert "; accepted by --allow-missing-runs" in captured.out


def test_validate_says_a_cause_shared_by_a_transformations_runs_once(tmp_path, capsys):
    """A broken ATL file excludes each of its runs with one message: one error line for them all."""
    import shutil
    from pathlib import Path

    from benchmark.cli import main

    tree = Path(__file__).resolve().parents[3] / "harness" / "data" / "tree"
    shutil.copytree(tree / "Shapes2Figures", tmp_path / "Shapes2Figures")
    atl = tmp_path / "Shapes2Figures" / "Shapes2Figures.atl"
    atl.write_text(atl.read_text().replace("to f :", "to f ;"))
    assert main(["validate", str(tmp_path), "--track", "atl", "--baseline", "none"]) == 1
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 3 and err[0].startswith("error: ground truth Shapes2Figures: ")
    assert err[1].startswith(
        "error: atl Shapes2Figures (2 runs: runs/Synthetic-Noisy-run01, runs/Synthetic-Oracle-run01): "
        "ground truth of Shapes2Figures is unusable: "
    )
    # and, every run excluded, the session measured nothing: one more line says so
    assert "no run was scored" in err[2] and "every one of the session's 2 runs was excluded" in err[2]
