"""The report's statistics, figures and drill-down from the disk cache: the same files to the byte, fewer
computed, and a session's rows decoded without their per-item verdicts when nothing needs them."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from benchmark.core.diskcache import DiskCache
from benchmark.tracks.mapping.reports.cached import statistics_key
from benchmark.tracks.mapping.reports.figures import FIGURES
from benchmark.tracks.mapping.reports.files import section_report, track_report
from benchmark.tracks.mapping.reports.results import MappingResults, from_section

DRAWS = 50


def files(paths: list[Path]) -> dict[str, bytes]:
    return {path.name: path.read_bytes() for path in paths}


def test_a_second_report_of_the_same_rows_reads_everything_from_the_cache(small_results, tmp_path):
    plain = track_report(small_results, tmp_path / "plain", draws=DRAWS)
    cache = DiskCache(tmp_path / "cache")
    first = track_report(small_results, tmp_path / "first", draws=DRAWS, cache=cache)
    assert (cache.hits, cache.misses) == (0, 2)  # the statistics and the drill-down computed and stored
    stored = sorted(p.name for p in (tmp_path / "cache" / "report-figures").iterdir())
    assert len(stored) == len(FIGURES)
    second = track_report(small_results, tmp_path / "second", draws=DRAWS, cache=cache)
    assert (cache.hits, cache.misses) == (2, 2)
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
    # the session's stored rows key as their decoded rows do; a ledger (the cost columns) is part of it
    envelopes = [row.to_envelope() for row in rows]
    assert statistics_key(envelopes, options) == key
    paid = replace(envelopes[0], provenance={"ledger": {"requests": 1, "costUsd": 0.5, "seconds": [1.0]}})
    assert statistics_key([paid, *envelopes[1:]], options) != key


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


def test_a_sessions_rows_are_decoded_with_their_items_only_to_compute(small_results, tmp_path, monkeypatch):
    session = small_results.results()
    section = session.sections[0]
    view = from_section(session, section)
    assert view.stored == section.rows and not any(row.binding_items for row in view.rows)
    assert view.with_items().rows == small_results.rows  # the verdicts, decoded from the stored rows
    odd = view.only(lambda row: row.provider == "Alpha")
    assert odd.with_items().rows == tuple(row for row in small_results.rows if row.provider == "Alpha")
    cache = DiskCache(tmp_path / "cache")
    first, _ = section_report(session, section, tmp_path / "first", {"atl_draws": DRAWS}, cache)
    assert first.paths and (cache.hits, cache.misses) == (0, 2)
    plain = track_report(small_results, tmp_path / "plain", draws=DRAWS)
    assert files(list(plain.paths)) == files(list(first.paths))

    def refused(self):  # noqa: ARG001
        raise AssertionError("the per-item verdicts were decoded, though the cache holds what reads them")

    monkeypatch.setattr(MappingResults, "with_items", refused)
    again, _ = section_report(session, section, tmp_path / "again", {"atl_draws": DRAWS}, cache)
    assert files(list(again.paths)) == files(list(first.paths)) and again.html == first.html
