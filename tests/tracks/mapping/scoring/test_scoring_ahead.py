"""Scoring ahead: the helper a cold session forks stores in the disk cache the rows the session would
compute, from the last case backwards, and stops where the session has scored already."""

from __future__ import annotations

from pathlib import Path

import pytest

from benchmark.core import forked
from benchmark.core.diskcache import DiskCache
from benchmark.core.track import TrackContext
from benchmark.tracks.mapping.scoring import ahead
from benchmark.tracks.mapping.track import AtlTrack

VALIDATION = Path(__file__).resolve().parents[4] / "validation"


@pytest.fixture
def forking(monkeypatch):
    """Forking allowed even in a pytest-xdist worker (its other threads stay idle meanwhile)."""
    for module in (forked, ahead):
        monkeypatch.setattr(module, "can_fork", lambda: True)
        monkeypatch.setattr(module, "usable_cpus", lambda: 2)


def track(cache_dir: Path) -> AtlTrack:
    return AtlTrack(TrackContext(data_root=VALIDATION, options={}, cache_dir=cache_dir))


def cases(atl: AtlTrack, transformation: str = "xml2ant"):
    chosen = [case for case in atl.collect().runs if case.task == transformation]
    assert len(chosen) > 2
    return chosen


def test_the_helper_stores_the_rows_the_session_computes(tmp_path, forking):
    helped = track(tmp_path / "cache")
    chosen = cases(helped)
    scoring = ahead.ScoringAhead()
    scoring.start(helped.scorer, chosen, helped.cache)
    scoring._process.join(60)  # all of them: nothing was scored here meanwhile
    scoring.stop()
    alone = track(tmp_path / "other")
    for case in chosen:
        key = helped.scorer.row_key(case)
        stored = helped.cache.get("rows", key)
        assert stored is not None, case.case_id
        assert stored.to_envelope() == alone.scorer.score(case).to_envelope()


def test_the_helper_stops_where_the_session_has_scored(tmp_path, forking):
    session = track(tmp_path / "cache")
    chosen = cases(session)
    last = chosen[-1]
    session.scorer.score(last)  # the session has reached the last case already
    scoring = ahead.ScoringAhead()
    scoring.start(session.scorer, chosen, session.cache)
    scoring._process.join(60)
    scoring.stop()
    for case in chosen[:-1]:
        assert session.cache.get("rows", session.scorer.row_key(case)) is None, case.case_id


def test_no_helper_without_a_cache_directory_or_where_forking_is_unsafe(tmp_path, monkeypatch):
    atl = track(tmp_path / "cache")
    scoring = ahead.ScoringAhead()
    scoring.start(atl.scorer, cases(atl), DiskCache(None))
    assert scoring._process is None
    monkeypatch.setattr(ahead, "can_fork", lambda: False)
    scoring = ahead.ScoringAhead()
    scoring.start(atl.scorer, cases(atl), atl.cache)
    assert scoring._process is None
    scoring.stop()  # nothing to stop


def test_a_helper_ended_midway_leaves_no_temporary_file(tmp_path, forking):
    session = track(tmp_path / "cache")
    every = list(session.collect().runs)
    scoring = ahead.ScoringAhead()
    scoring.start(session.scorer, every, session.cache)
    process = scoring._process
    process.join(0.5)  # somewhere in the middle of its work, most likely storing something
    scoring.stop()
    assert not process.is_alive()
    assert not list((tmp_path / "cache").rglob("*.tmp"))


def test_a_report_writer_forked_from_the_session_ends_the_helper(tmp_path, forking):
    """In a session of several tracks the mapping report is written in a process forked from the session:
    it ends the helper (its sibling), which it cannot wait for; the session reaps it."""
    import multiprocessing

    session = track(tmp_path / "cache")
    scoring = ahead.ScoringAhead()
    scoring.start(session.scorer, list(session.collect().runs), session.cache)
    helper = scoring._process

    def write_reports() -> None:
        scoring.stop()  # raised "can only join a child process" before

    writer = multiprocessing.get_context("fork").Process(target=write_reports)
    writer.start()
    writer.join(60)
    assert writer.exitcode == 0
    helper.join(60)
    assert not helper.is_alive()
    scoring.stop()  # the session's own stop still reaps it
