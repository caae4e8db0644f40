"""The OCL track end to end on one model: cases, baselines, run files, unusable runs, scores."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from benchmark.core.track import TrackContext
from benchmark.tracks.ocl.payload import AGREEMENT, MISSING, TYPE_ERROR
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
    write_run(library_root, "original", {first: original[first], second: "no idea", "stray": "x"})
    (case,) = track.collect().runs
    row = track.score_run(case)
    outcomes = {j["id"]: j["outcome"] for j in row.payload["judgements"]}
    assert outcomes[first] == AGREEMENT and outcomes[second] == "syntax error"
    assert all(outcomes[cid] == MISSING for cid in rest) and len(outcomes) == len(original)
    assert row.payload["unknownConstraints"] == ["stray"]


def test_an_unusable_run_counts_as_failures(library_root: Path) -> None:
    track = make_track(library_root, ocl_baselines=())
    write_run(library_root, "rename", {}, seed=3)
    (case,) = track.collect().runs
    row = track.score_run(case)
    assert not row.ok and "$.seed" in (row.error or "") and "--ocl-seed" in (row.error or "")
    assert {j["outcome"] for j in row.payload["judgements"]} == {MISSING}
    (only,) = score(judged([row]), draws=10)
    assert only.values["accuracy_transformed"] == 0.0


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
