"""The report's statistics and figures from the disk cache: the same files to the byte, fewer computed."""

from __future__ import annotations

from pathlib import Path

import pytest

from benchmark.core.diskcache import DiskCache
from benchmark.tracks.mapping.reports.cached import statistics_key
from benchmark.tracks.mapping.reports.figures import FIGURES
from benchmark.tracks.mapping.reports.files import track_report

DRAWS = 50


def files(paths: list[Path]) -> dict[str, bytes]:
    return {path.name: path.read_bytes() for path in paths}


def test_a_second_report_of_the_same_rows_reads_everything_from_the_cache(small_results, tmp_path):
    plain = track_report(small_results, tmp_path / "plain", draws=DRAWS)
    cache = DiskCache(tmp_path / "cache")
    first = track_report(small_results, tmp_path / "first", draws=DRAWS, cache=cache)
    assert (cache.hits, cache.misses) == (0, 1)  # the statistics computed and stored
    stored = sorted(p.name for p in (tmp_path / "cache" / "report-figures").iterdir())
    assert len(stored) == len(FIGURES)
    second = track_report(small_results, tmp_path / "second", draws=DRAWS, cache=cache)
    assert (cache.hits, cache.misses) == (1, 1)
    assert files(list(first.paths)) == files(list(plain.paths)) == files(list(second.paths))
    assert first.html == plain.html == second.html


def test_other_rows_or_options_are_other_entries(small_results):
    rows = small_results.rows
    options = {"level": "overall", "draws": DRAWS, "seed": 0, "partial_weight": None, "baseline": "X"}
    key = statistics_key(rows, options)
    assert statistics_key(rows, dict(options, draws=DRAWS + 1)) != key
    assert statistics_key(rows, dict(options, level="class")) != key
    changed = rows[-1].replaced(suggestions=rows[-1].suggestions + 1)
    assert statistics_key([*rows[:-1], changed], options) != key
    assert statistics_key(list(rows), dict(options)) == key


def test_a_figure_missing_from_the_cache_is_drawn_again(small_results, tmp_path):
    cache = DiskCache(tmp_path / "cache")
    first = track_report(small_results, tmp_path / "first", draws=DRAWS, cache=cache)
    stored = sorted((tmp_path / "cache" / "report-figures").iterdir())
    stored[0].unlink()
    again = track_report(small_results, tmp_path / "again", draws=DRAWS, cache=cache)
    assert files(list(again.paths)) == files(list(first.paths))
    assert len(list((tmp_path / "cache" / "report-figures").iterdir())) == len(FIGURES)


@pytest.mark.parametrize("broken", [b"", b"not a pickle"])
def test_a_damaged_entry_is_computed_again(small_results, tmp_path, broken):
    cache = DiskCache(tmp_path / "cache")
    first = track_report(small_results, tmp_path / "first", draws=DRAWS, cache=cache)
    for entry in (tmp_path / "cache").rglob("*.pickle"):
        entry.write_bytes(broken)
    again = track_report(small_results, tmp_path / "again", draws=DRAWS, cache=cache)
    assert files(list(again.paths)) == files(list(first.paths))
