"""The OCL track end to end on one model: cases, baselines, run files, unusable runs, scores."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from benchmark.core.track import TrackContext
from benchmark.tracks.ocl.payload import AGREEMENT, TYPE_ERROR
from benchmark.tracks.ocl.runs import RunFileError, read_run, run_path
from benchmark.tracks.ocl.scores import judged, score
from benchmark.tracks.ocl.track import OclTrack
from benchmark.tracks.ocl.variants import modes


def make_track(root: Path, **options: object) -> OclTrack:
    values = {"ocl_baselines": ("Oracle", "Rename-blind"), "ocl_seed": 0, **options}
    return OclTrack(TrackContext(data_root=root, options=values))


def write_run(root: Path, mode: str, given: dict[str, str], **fields: object) -> Path:
    path = run_path(root, "Tester", "run01", mode)
    path.parent.mkdir(parents=True, exist_ok=True)
    document = {
        "format": "atlbench-ocl-run",
        "version": 1,
        "provider": "Tester",
        "model": "test-1",
        "run": "run01",
        "mode": mode,
        "seed": 0,
        "answers": {"library": given},
        **fields,
    }
    path.write_text(json.dumps(document), encoding="utf-8")
    return path


def test_cases_and_ids(library_root: Path) -> None:
    write_run(library_root, "rename", {})
    collection = make_track(library_root).collect()
    assert [c.case_id for c in collection.ground_truths] == sorted(f"library-{m}" for m in modes())
    ids = {c.case_id for c in collection.runs}
    assert "library-rename-Tester-run01" in ids and "library-full-Oracle" in ids
    assert len(ids) == 2 * len(modes()) + 1


def test_baselines_and_the_law(library_root: Path) -> None:
    track = make_track(library_root)
    collection = track.collect()
    for case in collection.ground_truths:
        track.check_ground_truth(case)  # the transformed references keep the recorded verdicts
    rows = [track.score_run(c) for c in collection.runs]
    assert all(row.ok for row in rows)
    scores = {(s.provider, s.mode): s for s in score(judged(rows), draws=200)}
    for mode in modes():
        assert scores[("Oracle", mode)].values["accuracy_transformed"] == 1.0
        if mode != "original":
            assert scores[("Oracle", mode)].values["robustness"] == 1.0
    blind = scores[("Rename-blind", "rename")]
    assert blind.values["accuracy_original"] == 1.0 and blind.values["accuracy_transformed"] == 0.0
    assert blind.outcomes[TYPE_ERROR] == blind.items


def test_a_run_file_is_judged_per_constraint_and_nothing_is_dropped(library_root: Path) -> None:
    track = make_track(library_root, ocl_baselines=())
    original = track.variants.variant("library", "original").references
    first, second, *rest = list(original)
    given = {cid: "no idea" for cid in rest} | {first: original[first], second: "", "stray": "x"}
    write_run(library_root, "original", given)
    (case,) = track.collect().runs
    row = track.score_run(case)
    assert row.ok and track.missing_reason(row) is None
    outcomes = {j["id"]: j["outcome"] for j in row.payload["judgements"]}
    assert outcomes[first] == AGREEMENT and outcomes[second] == "syntax error"  # an empty answer
    assert all(outcomes[cid] == "syntax error" for cid in rest) and len(outcomes) == len(original)
    assert row.payload["unknownConstraints"] == ["stray"]
    assert "missing" not in row.payload  # a judged row keeps its bytes


def test_a_run_without_an_answer_for_every_constraint_is_missing_not_a_failure(library_root: Path) -> None:
    """A constraint without an answer says nothing about the model: the run case is a missing run (an
    error row naming the constraints that wait and why), judged only once every answer is there."""
    track = make_track(library_root, ocl_baselines=())
    original = track.variants.variant("library", "original").references
    first, second, *rest = list(original)
    path = write_run(
        library_root,
        "original",
        {first: original[first]},
        generation={
            "generator": "atlbench generate",
            "answers": {f"library/{second}": {"status": "no-answer", "error": "HTTP 503: overloaded"}},
        },
    )
    (case,) = track.collect().runs
    row = track.score_run(case)
    assert not row.ok and row.payload["judgements"] == [] and row.provider == "Tester"
    reason = track.missing_reason(row)
    assert reason == (
        f"no answer for {1 + len(rest)} of {len(original)} constraints of library ({second}: HTTP 503: "
        f"overloaded; {', '.join(rest)}: the run file has no answer for it)"
    )
    assert (
        row.payload["unanswered"] == [second, *rest]
        and row.error == f"no answer was obtained for this run: {reason}"
    )
    assert judged([row]) == []  # never a failure in any number
    assert read_run(path).unanswered == {"library": {second: "HTTP 503: overloaded"}}


def test_a_run_whose_no_request_was_answered_is_still_a_case(library_root: Path) -> None:
    """A run file that records only unanswered requests (a session against a server that was down) gives
    its models' cases, missing, instead of disappearing from the tables."""
    write_run(
        library_root,
        "rename",
        {},
        answers={},
        generation={"answers": {"library/maxLoansLimit": {"status": "no-answer", "error": "timeout"}}},
    )
    track = make_track(library_root, ocl_baselines=())
    (case,) = track.collect().runs
    assert case.case_id == "library-rename-Tester-run01"
    assert "maxLoansLimit: timeout" in (track.missing_reason(track.score_run(case)) or "")


def test_a_run_file_for_another_seed_is_excluded_not_counted(library_root: Path) -> None:
    track = make_track(library_root, ocl_baselines=())
    write_run(library_root, "rename", {}, seed=3)
    (case,) = track.collect().runs
    row = track.score_run(case)
    assert not row.ok and "$.seed" in (row.error or "") and "--ocl-seed" in (row.error or "")
    assert track.missing_reason(row) is None  # an input error, not a missing answer
    assert row.payload["judgements"] == [] and row.payload["mode"] == "rename"
    assert judged([row]) == [] and score(judged([row]), draws=10) == []


def test_an_unreadable_run_file_is_a_case_with_its_reason(library_root: Path) -> None:
    path = library_root / "runs" / "broken.json"
    path.parent.mkdir(parents=True)
    path.write_text("{not json", encoding="utf-8")
    track = make_track(library_root, ocl_baselines=())
    (case,) = track.collect().runs
    row = track.score_run(case)
    assert not row.ok and str(path) in (row.error or "") and "not valid JSON" in (row.error or "")


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"format": "other"}, "$.format"),
        ({"version": 9}, "$.version"),
        ({"provider": ""}, "$.provider"),
        ({"seed": -1}, "$.seed"),
        ({"answers": []}, "$.answers"),
        ({"answers": {"library": {"x": 3}}}, "$.answers.library.x"),
        (
            {"generation": {"answers": {"library/x": {"status": "lost"}}}},
            '$.generation.answers["library/x"].status',
        ),
        ({"generation": {"answers": {"x": {"status": "no-answer"}}}}, '$.generation.answers["x"]'),
        (
            {
                "answers": {"library": {"x": "context C inv: true"}},
                "generation": {"answers": {"library/x": {"status": "no-answer"}}},
            },
            '$.generation.answers["library/x"].status',
        ),
    ],
)
def test_run_file_errors_name_file_and_field(library_root: Path, change: dict, field: str) -> None:
    path = write_run(library_root, "original", {}, **change)
    with pytest.raises(RunFileError) as error:
        read_run(path)
    assert error.value.field == field and error.value.file == str(path)


def test_a_missing_dataset_is_skipped_not_an_error(tmp_path: Path) -> None:
    collection = make_track(tmp_path / "nowhere").collect()
    assert not collection.runs and not collection.ground_truths and collection.skipped
