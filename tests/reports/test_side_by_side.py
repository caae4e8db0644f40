"""The tracks' report files are written side by side in forked processes: the same bytes as one after the
other, and each track's terminal tables, computed beside its files, the same as computed afterwards here."""

from __future__ import annotations

import multiprocessing
from pathlib import Path

from benchmark.core import forked
from benchmark.reports import write_session_reports


def test_side_by_side_writes_what_one_after_the_other_writes(tmp_path: Path, monkeypatch):
    from three_tracks import three_track_session

    harness, results = three_track_session()
    forked_calls = []
    real_run_forked = forked.run_forked

    def watched(calls, jobs=None):
        forked_calls.append(len(calls))
        # even inside an xdist worker (other threads): not in the children, as in a real session
        monkeypatch.setattr(forked, "can_fork", lambda: not multiprocessing.current_process().daemon)
        try:
            return real_run_forked(calls, jobs=2)
        finally:
            monkeypatch.undo()

    monkeypatch.setattr("benchmark.reports.run_forked", watched)
    summaries: dict[str, list[str]] = {}
    side = write_session_reports(
        results, tmp_path / "side", harness.tracks, summaries=summaries, verbose=True
    )
    monkeypatch.undo()
    assert forked_calls[0] == 3  # one call per track, in children

    monkeypatch.setattr(forked, "can_fork", lambda: False)
    alone = write_session_reports(results, tmp_path / "alone", harness.tracks)
    assert [p.name for p in side] == [p.name for p in alone]
    for one, other in zip(side, alone, strict=True):
        assert one.read_bytes() == other.read_bytes(), one.name
    assert summaries == {
        section.track: harness.track(section.track).summary_lines(results, section, True)
        for section in results.sections
    }
    assert all(summaries.values())
