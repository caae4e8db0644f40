"""The bundled synthetic runs are what ``atlbench ocl synth`` writes today, and are labelled synthetic."""

from __future__ import annotations

from benchmark.tracks.ocl.dataset import load_dataset
from benchmark.tracks.ocl.runs import read_run, run_files, run_path
from benchmark.tracks.ocl.synth import PROFILES, synthesize
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


def test_every_bundled_run_is_synthetic_and_complete() -> None:
    dataset = load_dataset(DATASET)
    files = [read_run(p) for p in run_files(DATASET)]
    assert files and all(f.provider.startswith("Synthetic-") for f in files)
    expected = {(p.provider, r, m) for p in PROFILES for r in p.runs for m in modes()}
    assert {(f.provider, f.run, f.mode) for f in files} == expected
    for f in files:
        assert set(f.answers) == set(dataset.models)
        for name, answers in f.answers.items():
            assert set(answers) == set(dataset.models[name].constraints)
