"""Paired comparisons between modes: hand-made judgements, then the reports of a judged model."""

from __future__ import annotations

import csv
import io
from pathlib import Path
from types import SimpleNamespace

import pytest

from benchmark.core.track import TrackContext
from benchmark.tracks.ocl.pairs import compare_modes
from benchmark.tracks.ocl.reports.files import PAIRS_LATEX, mode_pairs_csv, track_report
from benchmark.tracks.ocl.reports.tables import PAIRS, pair_lines
from benchmark.tracks.ocl.scores import Judged, judged
from benchmark.tracks.ocl.track import OclTrack


def answer(constraint: str, mode: str, correct: bool, run: str = "run01", provider: str = "P") -> Judged:
    outcome = "agreement" if correct else "disagreement"
    return Judged(provider, "m", run, "shop", mode, constraint, outcome, "", (), "f")


def test_every_pair_of_modes_over_the_answers_both_have() -> None:
    # original: all ten right; rename: a, b right; full answers only a..h, a..d right
    answers = [answer(c, "original", True) for c in "abcdefghij"]
    answers += [answer(c, "rename", c in "ab") for c in "abcdefghij"]
    answers += [answer(c, "full", c in "abcd") for c in "abcdefgh"]
    pairs = {(p.first, p.second): p for p in compare_modes(answers, draws=400)}
    assert list(pairs) == [("original", "rename"), ("original", "full"), ("rename", "full")]  # study order
    first = pairs[("original", "rename")]
    assert (first.answers, first.accuracy_first, first.accuracy_second) == (10, 1.0, 0.2)
    # eight constraints differ, two do not: only "none" and "all" of the eight swapped reach |0.8|
    assert (first.first_only, first.second_only) == (8, 0) and first.p_value == pytest.approx(2 / 2**8)
    assert first.comparison.test.statistic == first.delta  # the test tests the printed difference
    last = pairs[("rename", "full")]  # i and j are not answered on full: not paired
    assert last.answers == 8 and last.delta == pytest.approx(2 / 8 - 4 / 8)
    assert (last.first_only, last.second_only) == (0, 2)
    assert last.interval is not None and last.interval.low <= last.delta <= last.interval.high
    # Holm over the provider's three pairs: the smallest p times 3, then monotone
    assert first.p_holm == pytest.approx(3 * first.p_value)
    assert all(p.p_holm >= p.p_value for p in pairs.values())
    # what each pair can detect at 0.05 / 3 over its constraints (10: the floor 2/1024 is below the level)
    assert first.detectable.family == 3 and first.detectable.units == 10 and first.detectable.reachable


def test_runs_are_paired_run_by_run_and_providers_are_separate_families() -> None:
    answers = [answer("a", "original", True, "run01"), answer("a", "rename", False, "run01")]
    answers += [answer("a", "original", False, "run02"), answer("a", "rename", True, "run02")]
    answers += [
        answer(c, m, m == "original", provider="Q") for c in "abcdefghij" for m in ("original", "rename")
    ]
    pairs = {p.provider: p for p in compare_modes(answers, draws=200)}
    assert (pairs["P"].answers, pairs["P"].constraints, pairs["P"].delta) == (2, 1, 0.0)
    assert (pairs["P"].first_only, pairs["P"].second_only) == (1, 1)
    assert pairs["Q"].p_holm == pairs["Q"].p_value  # one pair in Q's family: nothing to adjust
    alone = compare_modes([a for a in answers if a.provider == "Q"], draws=200)
    assert alone[0].interval == pairs["Q"].interval  # one generator per (provider, pair)


def test_csv_and_terminal_lines() -> None:
    answers = [
        answer(c, m, m == "original" or c == "a") for c in "abcdefghij" for m in ("original", "rename")
    ]
    pairs = compare_modes(answers, draws=100)
    (line,) = list(csv.DictReader(io.StringIO(mode_pairs_csv(pairs))))
    assert (line["mode_a"], line["mode_b"], line["a_only"], line["b_only"]) == (
        "original",
        "rename",
        "9",
        "0",
    )
    assert float(line["delta"]) == pytest.approx(0.9) and float(line["p_value"]) == pytest.approx(2 / 2**9)
    assert float(line["mde"]) > 0  # ten constraints at 0.05: something is detectable
    quiet = pair_lines(pairs, False)
    assert quiet[0].startswith("mode pairs: 1 of 1 differ") and any("+90.0" in x for x in quiet)
    same = compare_modes([answer(c, m, True) for c in "ab" for m in ("original", "rename")], draws=10)
    assert len(pair_lines(same, False)) == 1 and len(pair_lines(same, True)) > 1  # -v lists every pair


def test_track_reports_write_the_pairs(library_root: Path, tmp_path: Path) -> None:
    track = OclTrack(TrackContext(library_root, {"ocl_baselines": ("Oracle", "Rename-blind"), "ocl_seed": 0}))
    rows = [track.score_run(c) for c in track.collect().runs]
    answers = judged(rows)
    pairs = compare_modes(answers, draws=50)
    modes = {a.mode for a in answers}
    assert len(pairs) == 2 * len(modes) * (len(modes) - 1) // 2  # Oracle and Rename-blind, every pair
    oracle = [p for p in pairs if p.provider == "Oracle"]
    assert all(p.delta == 0 and p.first_only + p.second_only == 0 for p in oracle)  # right everywhere
    out = tmp_path / "out"
    out.mkdir()
    report = track_report(SimpleNamespace(rows=rows), out, draws=50)
    written = (out / PAIRS).read_text(encoding="utf-8").splitlines()
    assert len(written) == len(pairs) + 1 and out / PAIRS in report.paths
    assert r"\begin{tabular}" in (out / PAIRS_LATEX).read_text(encoding="utf-8")
    assert report.html is not None and any(s[0] == "ocl-mode-pairs" for s in report.html.sections)
    lines = track.summary_lines(None, SimpleNamespace(rows=rows), verbose=True)
    assert any(line.startswith("mode pairs: ") for line in lines)  # the track's terminal summary has them
