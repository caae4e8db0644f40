"""Phase timings: recorded and written only when ``ATLBENCH_PHASE_TIMES`` names a file."""

from __future__ import annotations

import json

from benchmark.core import phases


def test_nothing_is_recorded_or_written_unless_asked(monkeypatch, tmp_path):
    monkeypatch.delenv(phases.ENV, raising=False)
    with phases.phase("collection"):
        pass
    phases.record("scoring", 1.0, 2.0)
    assert phases.take() == []
    assert phases.write() is None


def test_phases_are_written_in_order_with_their_times(monkeypatch, tmp_path):
    target = tmp_path / "phases.json"
    monkeypatch.setenv(phases.ENV, str(target))
    phases.take()
    with phases.phase("reports"):
        with phases.phase("report summary.md"):
            pass
    phases.record("scoring", 1.0, 2.5)
    assert phases.write({"workers": 2}) == target
    document = json.loads(target.read_text(encoding="utf-8"))
    assert document["workers"] == 2
    assert [p["phase"] for p in document["phases"]] == ["report summary.md", "reports", "scoring"]
    inner, outer, scoring = document["phases"]
    assert outer["start"] <= inner["start"] <= inner["end"] <= outer["end"] <= document["written"]
    assert (scoring["start"], scoring["end"]) == (1.0, 2.5)
    assert phases.take() == []  # written once, then forgotten


def test_a_phase_that_raises_is_still_recorded(monkeypatch, tmp_path):
    monkeypatch.setenv(phases.ENV, str(tmp_path / "phases.json"))
    phases.take()
    try:
        with phases.phase("statistics"):
            raise ValueError("boom")
    except ValueError:
        pass
    assert [p["phase"] for p in phases.take()] == ["statistics"]


def test_tallies_sum_each_kind_of_case_work_and_are_written_once(monkeypatch, tmp_path):
    target = tmp_path / "phases.json"
    monkeypatch.delenv(phases.ENV, raising=False)
    with phases.tally("score_run"):  # not asked for: not counted
        pass
    monkeypatch.setenv(phases.ENV, str(target))
    for _ in range(3):
        with phases.tally("score_run"):
            pass
    with phases.tally("check"):
        pass
    phases.write()
    tallies = json.loads(target.read_text(encoding="utf-8"))["tallies"]
    assert {name: t["count"] for name, t in tallies.items()} == {"score_run": 3, "check": 1}
    assert all(t["seconds"] >= 0 for t in tallies.values())
    phases.write()
    assert json.loads(target.read_text(encoding="utf-8"))["tallies"] == {}
