"""Variants through the disk cache: a cached variant judges exactly as a fresh one, and what is cached
depends on the inputs (an edited state is a new entry, never the stale one)."""

from __future__ import annotations

from pathlib import Path

import pytest

from benchmark.core.diskcache import DiskCache
from benchmark.tracks.ocl.baselines import baseline_answers
from benchmark.tracks.ocl.dataset import load_dataset
from benchmark.tracks.ocl.scoring.judge import Referee
from benchmark.tracks.ocl.variants import ORIGINAL, VariantSource


@pytest.mark.parametrize("mode", ["original", "association", "full"])
def test_a_cached_variant_judges_as_a_fresh_one(library_root: Path, tmp_path: Path, mode: str) -> None:
    entry = load_dataset(library_root).models["library"]
    cache = DiskCache(tmp_path / "cache")
    fresh = VariantSource(entry).variant(mode)
    VariantSource(entry, cache).variant(mode)  # fills the cache
    misses = cache.misses
    loaded_source = VariantSource(entry, cache)
    loaded = loaded_source.variant(mode)
    assert cache.misses == misses and cache.hits >= 1  # read back, not rebuilt
    assert loaded is not fresh and loaded.references == fresh.references and loaded.puml == fresh.puml
    assert loaded.texts == fresh.texts and list(loaded.states) == list(fresh.states)
    referee, expected = Referee.of(loaded), Referee.of(fresh)
    assert referee.verdicts == expected.verdicts
    original = loaded_source.variant(ORIGINAL)
    for baseline in ("Oracle", "Rename-blind"):
        answers = baseline_answers(baseline, loaded, original)
        for cid, text in answers.items():
            assert referee.judge(cid, text) == expected.judge(cid, text), (baseline, cid)


def test_an_edited_state_is_a_new_entry(library_root: Path, tmp_path: Path) -> None:
    entry = load_dataset(library_root).models["library"]
    cache = DiskCache(tmp_path / "cache")
    before = VariantSource(entry, cache)
    before.variant("rename")
    state = entry.state_path(next(iter(entry.verdicts)))
    state.write_text(state.read_text(encoding="utf-8") + "-- edited\n", encoding="utf-8")
    after = VariantSource(entry, cache)
    assert after.key != before.key
    misses = cache.misses
    after.variant("rename")
    assert cache.misses == misses + 2  # the parsed states and the variant, both computed again
