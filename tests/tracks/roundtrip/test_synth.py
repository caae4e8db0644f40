"""Synthetic chained runs: labelled, deterministic, bundled up to date, and the profiles do what they say."""

from __future__ import annotations

import dataclasses

from benchmark.core.fileio import dumps_json
from benchmark.tracks.roundtrip.reading.models import read_answer_data
from benchmark.tracks.roundtrip.reading.runfile import read_run
from benchmark.tracks.roundtrip.scoring.scorer import reference_lines, score_lines
from benchmark.tracks.roundtrip.study.load import load_study
from benchmark.tracks.roundtrip.synth import (
    BUNDLED_EXAMPLES,
    BUNDLED_PROFILES,
    PROFILES,
    TEMPLATE_NOISE,
    synthetic_runs,
    under_template,
)

STUDY = load_study()
FEW = dataclasses.replace(STUDY, cases=STUDY.cases[::17])


def score(case, run):  # type: ignore[no-untyped-def]
    stage = case.stage(run.stage)
    read = read_answer_data((run.answer or "").encode("utf-8"), "answer.json", stage.kind)
    return score_lines(
        reference_lines(stage.base, stage.kind), reference_lines(stage.expected, stage.kind), read
    )


def test_the_bundled_runs_are_what_the_generator_writes() -> None:
    for profile in BUNDLED_PROFILES:
        for k in BUNDLED_EXAMPLES:
            for path, run in synthetic_runs(FEW, PROFILES[profile], k, 1):
                assert path.read_text(encoding="utf-8") == dumps_json(run.to_json()), path


# The bundled runs of the other templates (docs/ROUNDTRIP.md §14): written with
# `atlbench roundtrip synth --template T --examples 1 --runs 2 -k library/add_attribute -k shop/to_many`.
TEMPLATE_CASES = ("library/add_attribute", "shop/to_many")


def test_the_bundled_runs_of_the_other_templates_are_what_the_generator_writes() -> None:
    chosen = dataclasses.replace(STUDY, cases=[c for c in STUDY.cases if c.case_id in TEMPLATE_CASES])
    assert len(chosen.cases) == 2
    written = 0
    for template in TEMPLATE_NOISE:
        for profile in BUNDLED_PROFILES:
            for run_index in (1, 2):
                for path, run in synthetic_runs(chosen, PROFILES[profile], 1, run_index, 0, template):
                    assert f"-{template}-k1-run0{run_index}-" in path.name
                    assert path.read_text(encoding="utf-8") == dumps_json(run.to_json()), path
                    assert read_run(path).template == template
                    written += 1
    assert written == 32
    bundled = sorted((STUDY.root / "runs").rglob("*-terse-*.json")) + sorted(
        (STUDY.root / "runs").rglob("*-stepwise-*.json")
    )
    assert len(bundled) == written  # nothing else of another template is bundled


def test_a_template_scales_the_noise_but_not_the_presentation() -> None:
    sloppy = PROFILES["Synthetic-Sloppy"]
    stepwise = under_template(sloppy, "stepwise")
    assert stepwise.ignore_delta == sloppy.ignore_delta * TEMPLATE_NOISE["stepwise"]["Synthetic-Sloppy"]
    assert (stepwise.prose, stepwise.flag, stepwise.k_gain) == (sloppy.prose, sloppy.flag, sloppy.k_gain)
    assert under_template(sloppy, "study") is sloppy


def test_synthetic_runs_say_so() -> None:
    for path, run in synthetic_runs(FEW, PROFILES["Synthetic-Careful"], 1, 1):
        stored = read_run(path)
        assert stored.provider.startswith("Synthetic-") and stored.model == "atlbench-roundtrip-synth-v1"
        assert run.extra["generation"]["generator"] == "atlbench roundtrip synth"
        assert run.extra["generation"]["synthetic"]["seed"].startswith("0:Synthetic-Careful:")


def test_the_oracle_profile_is_equivalent_and_the_echo_profile_detects_nothing() -> None:
    cases = {case.case_id: case for case in FEW.cases}
    for _, run in synthetic_runs(FEW, PROFILES["Synthetic-Oracle"], 1, 1):
        report = score(cases[run.case_id], run)
        assert report.equivalent and report.delta_detected, run.case_id
    for _, run in synthetic_runs(FEW, PROFILES["Synthetic-Echo"], 1, 1):
        report = score(cases[run.case_id], run)
        assert not report.delta_detected, run.case_id


def test_a_refused_inverse_stage_files_the_forward_stage_as_not_run() -> None:
    refusing = dataclasses.replace(PROFILES["Synthetic-Oracle"], name="Synthetic-Refusing", refuse=1.0)
    runs = synthetic_runs(FEW, refusing, 1, 1)
    assert {(run.stage, run.status) for _, run in runs} == {("inverse", "unusable"), ("forward", "not-run")}
    forward = next(run for _, run in runs if run.stage == "forward")
    assert forward.answer is None and forward.reason is not None and forward.reason.startswith("not run:")


def test_the_same_inputs_give_the_same_bytes_and_k_changes_the_noise() -> None:
    sloppy = PROFILES["Synthetic-Sloppy"]
    first = [dumps_json(run.to_json()) for _, run in synthetic_runs(FEW, sloppy, 1, 1)]
    assert first == [dumps_json(run.to_json()) for _, run in synthetic_runs(FEW, sloppy, 1, 1)]
    fired_k1 = [
        run.extra["generation"]["synthetic"]["fired"] for _, run in synthetic_runs(STUDY, sloppy, 1, 1)
    ]
    fired_k4 = [
        run.extra["generation"]["synthetic"]["fired"] for _, run in synthetic_runs(STUDY, sloppy, 4, 1)
    ]
    noise = ("ignore_delta", "drop_attribute", "drop_column", "retype_column", "truncate", "refuse")
    assert sum(op in noise for f in fired_k4 for op in f) < sum(op in noise for f in fired_k1 for op in f)
