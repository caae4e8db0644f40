"""The tracks' report files are written side by side in forked processes: the same bytes as one after the
other, and each track's terminal tables, computed beside its files, the same as computed afterwards here."""

from __future__ import annotations

import multiprocessing
import os
from pathlib import Path

from report_only_track import ReportOnlyTrack

from benchmark.core import forked
from benchmark.core.results import Results, ResultsHeader, TrackSection
from benchmark.core.track import TrackContext, TrackReport
from benchmark.reports import write_session_reports
from benchmark.reports.cached import cached


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
    # each track's terminal tables, computed in the child that wrote its files, after its "Read this
    # first" (what the page's box says) and before its prompt-sensitivity tables, if any
    for section in results.sections:
        own = harness.track(section.track).summary_lines(results, section, True)
        kept = summaries[section.track]
        start = kept.index(own[0])
        assert kept[start : start + len(own)] == own
        assert start == 0 or (kept[0] == "Read this first:" and kept[start - 1] == "")
    assert set(summaries) == {section.track for section in results.sections}


class _PidTrack(ReportOnlyTrack):
    """A track whose one report value, its process id, is kept in the disk cache under ``key``."""

    def __init__(self, name: str, cache_dir: Path) -> None:
        super().__init__(TrackContext(data_root=cache_dir, cache_dir=cache_dir))
        self.name = name

    def write_reports(self, results, section, out_dir, options) -> TrackReport:
        pid = cached(self.cache, "pid", lambda: self.name, os.getpid)
        return TrackReport(lines=(f"{self.name} computed in {pid}", f"{self.name} written in {os.getpid()}"))


def test_a_track_whose_report_values_are_stored_is_written_here_the_others_in_children(
    tmp_path: Path, monkeypatch
):
    """A warm track costs a cache read, less than a fork; only the tracks with values to compute fork."""
    monkeypatch.setattr(forked, "can_fork", lambda: not multiprocessing.current_process().daemon)
    warm, cold, other = (_PidTrack(name, tmp_path / "cache") for name in ("warm", "cold", "other"))
    warm.cache.put("pid", "warm", 1)  # computed by an earlier session
    sections = tuple(TrackSection(name) for name in ("warm", "cold", "other"))
    lines: dict[str, tuple[str, ...]] = {}
    write_session_reports(
        Results(ResultsHeader(), sections),
        tmp_path / "out",
        {"warm": warm, "cold": cold, "other": other},
        save_results=False,
        on_report=lambda name, report: lines.__setitem__(name, report.lines),
    )
    here = str(os.getpid())
    assert lines["warm"] == ("warm computed in 1", f"warm written in {here}")
    for name in ("cold", "other"):
        computed, written = (line.rsplit(" ", 1)[1] for line in lines[name])
        assert computed == written != here  # computed and written in a child
    assert cold.cache.get("pid", "cold") == int(lines["cold"][0].rsplit(" ", 1)[1])  # stored for next time


def test_a_session_of_one_track_writes_it_here_without_trying_the_cache_first(tmp_path: Path, monkeypatch):
    """Nothing to write beside it: the track is written once, in this process, cold or warm."""
    from benchmark.core import phases

    monkeypatch.setenv(phases.ENV, str(tmp_path / "phases.json"))
    phases.take()
    track = _PidTrack("alone", tmp_path / "cache")
    lines: dict[str, tuple[str, ...]] = {}
    write_session_reports(
        Results(ResultsHeader(), (TrackSection("alone"),)),
        tmp_path / "out",
        {"alone": track},
        save_results=False,
        on_report=lambda name, report: lines.__setitem__(name, report.lines),
    )
    here = str(os.getpid())
    assert lines["alone"] == (f"alone computed in {here}", f"alone written in {here}")
    assert [p["phase"] for p in phases.take() if "reports of track" in str(p["phase"])] == [
        "reports of track alone"
    ]


def test_after_a_session_that_computed_values_every_track_is_written_in_a_child(tmp_path: Path, monkeypatch):
    """A cold session's reports are taken to be cold too: no track is first tried from the cache, so even
    a track whose values happen to be stored is written beside the others."""
    from benchmark.core import phases

    monkeypatch.setattr(forked, "can_fork", lambda: not multiprocessing.current_process().daemon)
    monkeypatch.setenv(phases.ENV, str(tmp_path / "phases.json"))
    phases.take()
    warm, cold = (_PidTrack(name, tmp_path / "cache") for name in ("warm", "cold"))
    warm.cache.put("pid", "warm", 1)
    lines: dict[str, tuple[str, ...]] = {}
    write_session_reports(
        Results(ResultsHeader(), (TrackSection("warm"), TrackSection("cold"))),
        tmp_path / "out",
        {"warm": warm, "cold": cold},
        save_results=False,
        on_report=lambda name, report: lines.__setitem__(name, report.lines),
        computed=True,
    )
    here = str(os.getpid())
    assert lines["warm"][0] == "warm computed in 1" and lines["warm"][1] != f"warm written in {here}"
    assert lines["cold"][1].rsplit(" ", 1)[1] != here
    assert not [p for p in phases.take() if "(from the cache)" in str(p["phase"])]
