"""The bundled synthetic runs are what ``atlbench ocl synth`` writes today, and are labelled synthetic."""

from __future__ import annotations

from benchmark.core.rows import STUDY_TEMPLATE
from benchmark.tracks.ocl.dataset import load_dataset
from benchmark.tracks.ocl.runs import read_run, run_files, run_path
from benchmark.tracks.ocl.synth import PROFILES, TEMPLATE_PROFILES, synthesize
from benchmark.tracks.ocl.variants import VariantSource, modes
from tests.tracks.ocl.conftest import DATASET


def test_bundled_runs_are_up_to_date_for_the_library_model() -> None:
    """Regenerating one model's answers gives the committed text (a transformation change that renames
    differently must come with ``atlbench ocl synth``, or the synthetic scores silently change)."""
    dataset = load_dataset(DATASET)
    sources = {"library": VariantSource(dataset.models["library"])}
    for profile in PROFILES:
        for run in profile.runs:
            for mode in ("original", "rename", "full"):
                committed = read_run(run_path(DATASET, profile.provider, run, mode))
                fresh = synthesize(sources, profile, run, mode, committed.seed)
                assert committed.answers["library"] == fresh["library"], (profile.provider, run, mode)


# The bundled runs of the other templates (docs/OCL.md, "Synthetic runs"): written with
# `atlbench ocl synth --template T --model library --model eshop --mode original --mode rename`.
TEMPLATE_MODELS = ("eshop", "library")
TEMPLATE_MODES = ("original", "rename")


def test_every_bundled_run_is_synthetic_and_complete() -> None:
    dataset = load_dataset(DATASET)
    every = [read_run(p) for p in run_files(DATASET)]
    real = {
        (f.provider, f.run, f.mode, f.answer_format) for f in every if not f.provider.startswith("Synthetic-")
    }
    # beside them, the real runs of an open model written by atlbench generate, in three answer formats
    # (docs/LLM_RUNS.md)
    assert real == {
        ("SmolLM2-135M", "run01", mode, answer_format)
        for mode in ("original", "rename")
        for answer_format in ("free", "schema", "grounded")
    }
    files = [f for f in every if f.provider.startswith("Synthetic-")]
    assert files
    study = [f for f in files if f.template == STUDY_TEMPLATE]
    expected = {(p.provider, r, m) for p in PROFILES for r in p.runs for m in modes()}
    assert {(f.provider, f.run, f.mode) for f in study} == expected
    for f in study:
        assert set(f.answers) == set(dataset.models)
        for name, answers in f.answers.items():
            assert set(answers) == set(dataset.models[name].constraints)
    others = [f for f in files if f.template != STUDY_TEMPLATE]
    assert {(f.template, f.provider, f.run, f.mode) for f in others} == {
        (t, p.provider, r, m)
        for t, ps in TEMPLATE_PROFILES.items()
        for p in ps
        for r in p.runs
        for m in TEMPLATE_MODES
    }
    for f in others:
        assert tuple(sorted(f.answers)) == TEMPLATE_MODELS
        assert f.path == run_path(DATASET, f.provider, f.run, f.mode, f.template)


def test_bundled_runs_of_the_other_templates_are_up_to_date() -> None:
    dataset = load_dataset(DATASET)
    sources = {"library": VariantSource(dataset.models["library"])}
    for template, profiles in TEMPLATE_PROFILES.items():
        for profile in profiles:
            for run in profile.runs:
                for mode in TEMPLATE_MODES:
                    committed = read_run(run_path(DATASET, profile.provider, run, mode, template))
                    fresh = synthesize(sources, profile, run, mode, committed.seed, template)
                    assert committed.answers["library"] == fresh["library"], (template, profile.provider, run)
                    study = synthesize(sources, profile, run, mode, committed.seed)
                    assert fresh != study  # a template's draws are its own
