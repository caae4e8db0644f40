"""The round-trip track as the harness runs it: cases, ids, baselines, rows, JUnit properties."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from benchmark.core.errors import InputFormatError
from benchmark.core.track import GroundTruthProblem, TrackContext
from benchmark.tracks.roundtrip.study.manifest import default_data_dir
from benchmark.tracks.roundtrip.track import RoundTripTrack

DATA = default_data_dir()


def track(root: Path = DATA, baselines: tuple[str, ...] = ("Echo", "Oracle")) -> RoundTripTrack:
    return RoundTripTrack(TrackContext(root, {"roundtrip_baselines": baselines}))


def small_study(
    root: Path, pairs: tuple[str, ...] = ("library", "shop"), ops: tuple[str, ...] = ("to_many",)
) -> Path:
    root.mkdir(parents=True)
    for pair in pairs:
        for name in (f"S_{pair}.ecore", f"T_{pair}.sql.xmi"):
            shutil.copy(DATA / name, root / name)
        for op in ops:
            for name in (f"Delta_{op}_S_{pair}.ecore", f"Delta_{op}_T_{pair}.sql.xmi"):
                shutil.copy(DATA / name, root / name)
    return root


def test_the_bundled_track_has_a_case_per_stage_evaluation_with_selectable_ids() -> None:
    collection = track().collect()
    assert len(collection.ground_truths) == 100
    ids = [case.case_id for case in collection.runs]
    # 2 synthetic providers x k in {1, 2} x 2 stages, the baselines, the runs of the other prompt
    # templates (2 pairs x 2 providers x 2 templates x 2 stages, k1; docs/TEMPLATES.md), and the real runs
    # of SmolLM2-135M (2 pairs x 2 operators x 2 stages x 2 answer formats, k1; docs/LLM_RUNS.md)
    assert len(ids) == 100 * 2 * 2 * 2 + 100 * 2 * 2 + 2 * 2 * 2 * 2 * 2 + 2 * 2 * 2 * 2
    assert ids == sorted(ids) and len(set(ids)) == len(ids)
    assert "library-to_many-k2-inverse-Synthetic-Careful-run01" in ids
    assert "library-to_many-forward-Oracle" in ids
    selected = [i for i in ids if all(word in i for word in ("to_many", "k2", "inverse"))]
    assert len(selected) == 10 * 2  # pytest -k "to_many and k2 and inverse"
    generated = {case.provider for case in collection.runs if case.file is not None}
    assert {p for p in generated if not p.startswith("Synthetic-")} == {"SmolLM2-135M"}


def test_oracle_is_perfect_and_echo_detects_no_delta_on_any_row() -> None:
    subject = track()
    rows = [subject.score_run(case) for case in subject.collect().runs if case.baseline is not None]
    assert len(rows) == 400 and all(row.ok for row in rows)
    oracle = [row.payload for row in rows if row.provider == "Oracle"]
    echo = [row.payload for row in rows if row.provider == "Echo"]
    assert all(p["equivalent"] and p["deltaDetected"] and p["pctWSuccess"] == 1.0 for p in oracle)
    assert all((p["deltaRecall"], p["deltaPrecision"]) == (1.0, 1.0) for p in oracle)
    assert not any(p["deltaDetected"] for p in echo)
    assert all((p["deltaRecall"], p["deltaPrecision"]) == (0.0, 0.0) for p in echo)
    assert max(p["pctWSuccess"] for p in echo) < 1.0
    headline = subject.headline(rows)
    assert headline["Oracle"] == 1.0 and headline["Echo"] < 0.9


def test_a_row_carries_the_sheet_and_junit_the_nine_columns() -> None:
    subject = track()
    case = next(
        c
        for c in subject.collect().runs
        if c.case_id == "shop-rename_class-k1-forward-Synthetic-Sloppy-run01"
    )
    row = subject.score_run(case)
    assert row.ok and (row.task, row.run, row.provider) == (
        "shop/rename_class",
        "k1-run01-forward",
        "Synthetic-Sloppy",
    )
    assert (row.payload["pair"], row.payload["operator"], row.payload["k"], row.payload["stage"]) == (
        "shop", "rename_class", 1, "forward",
    )  # fmt: skip
    names = [name for name, _ in subject.junit_properties(row)]
    assert names[:9] == [
        "LOC",
        "Cr",
        "InCr",
        "Ad",
        "Miss",
        "pctCorrect",
        "pctWSuccess",
        "deltaDetected",
        "loadable",
    ]
    assert "flags" in names and "deltaRecall" in names


def test_the_study_layout_runs_its_answers_and_the_baselines(tmp_path: Path) -> None:
    root = small_study(tmp_path / "study")
    shutil.copy(root / "Delta_to_many_S_library.ecore", root / "GPT5_inverse_to_many_library_k2.ecore")
    (root / "GPT5_forward_to_many_library_k2_sql.xmi").write_text("```xml\n<broken", encoding="utf-8")
    subject = track(root)
    rows = {case.case_id: subject.score_run(case) for case in subject.collect().runs}
    assert sorted(rows) == [
        "library-to_many-forward-Echo", "library-to_many-forward-Oracle", "library-to_many-inverse-Echo",
        "library-to_many-inverse-Oracle", "library-to_many-k2-forward-GPT5-run01",
        "library-to_many-k2-inverse-GPT5-run01", "shop-to_many-forward-Echo", "shop-to_many-forward-Oracle",
        "shop-to_many-inverse-Echo", "shop-to_many-inverse-Oracle",
    ]  # fmt: skip
    assert rows["library-to_many-k2-inverse-GPT5-run01"].payload["equivalent"]
    broken = rows["library-to_many-k2-forward-GPT5-run01"].payload
    assert broken["loadable"] is False and broken["LOC"] == 0 and broken["pctWSuccess"] < 0


def test_an_unreadable_run_file_is_a_case_whose_row_says_why(tmp_path: Path) -> None:
    """Never a silent skip: a run file that cannot be read is a case of its own, excluded and listed with
    its positioned message."""
    root = small_study(tmp_path / "study", pairs=("library",))
    runs = root / "runs" / "library" / "to_many"
    runs.mkdir(parents=True)
    (runs / "x.json").write_text("{not json", encoding="utf-8")
    (runs / "y.json").write_text(json.dumps({"format": "something else"}), encoding="utf-8")
    subject = track(root, ())
    collection = subject.collect()
    assert [case.case_id for case in collection.runs] == [
        "unreadable-runs-library-to_many-x",
        "unreadable-runs-library-to_many-y",
    ]
    rows = [subject.score_run(case) for case in collection.runs]
    assert [row.ok for row in rows] == [False, False] and subject.missing_reason(rows[0]) is None
    assert (
        rows[0].error
        == f"{runs / 'x.json'}:1:2: not valid JSON: Expecting property name enclosed in double quotes"
    )
    assert (
        rows[1].error
        == f"{runs / 'y.json'}: not a round-trip run file (format 'atlbench-roundtrip-run' expected)"
    )
    assert subject.facts("runs").error == "run files that cannot be read"  # results.json can be built


def test_two_files_of_one_stage_evaluation_are_an_input_error(tmp_path: Path) -> None:
    root = small_study(tmp_path / "study", pairs=("library",))
    shutil.copy(root / "Delta_to_many_S_library.ecore", root / "GPT5_inverse_to_many_library.ecore")
    shutil.copy(root / "Delta_to_many_S_library.ecore", root / "GPT5_inverse_library_to_many_run1.ecore")
    with pytest.raises(InputFormatError, match="several runs are the same stage evaluation"):
        track(root).collect()


def test_a_case_whose_delta_changes_nothing_is_a_ground_truth_problem(tmp_path: Path) -> None:
    root = small_study(tmp_path / "study", pairs=("library",))
    shutil.copy(root / "T_library.sql.xmi", root / "Delta_to_many_T_library.sql.xmi")
    subject = track(root)
    (case,) = subject.collect().ground_truths
    with pytest.raises(GroundTruthProblem, match="changes no canonical line on the forward side"):
        subject.check_ground_truth(case)


def test_an_unloadable_reference_makes_every_run_of_the_case_an_error_row(tmp_path: Path) -> None:
    root = small_study(tmp_path / "study", pairs=("library",))
    (root / "Delta_to_many_T_library.sql.xmi").write_text("<broken", encoding="utf-8")
    subject = track(root)
    rows = [subject.score_run(case) for case in subject.collect().runs]
    assert rows and all(not row.ok for row in rows)
    assert "case library/to_many is unusable" in str(rows[0].error)


def test_a_process_that_scored_part_of_its_last_task_stores_it_when_its_cases_are_done(
    tmp_path: Path,
) -> None:
    """A pytest-xdist worker (or ``-k``) handles some of a task's run cases, the last task it sees: at the
    session's end (the harness calls ``scoring_done``) their payloads go to the disk cache, so the next
    session computes none of them."""
    root = small_study(tmp_path / "study", pairs=("library",))
    context = TrackContext(root, {"roundtrip_baselines": ("Echo", "Oracle")}, cache_dir=tmp_path / "cache")
    first = RoundTripTrack(context)
    part = [case for case in first.collect().runs if case.provider == "Oracle"]
    assert part and len(part) < len(first.collect().runs)
    rows = [first.score_run(case).payload for case in part]
    assert first.cache.misses > len(part)  # the payloads, and the task's reference models
    first.scoring_done()
    second = RoundTripTrack(context)
    assert [second.score_run(case).payload for case in part] == rows
    assert second.cache.misses == 0 and second.cache.hits > len(part)
    RoundTripTrack(context).scoring_done()  # a process that scored nothing has nothing to store
