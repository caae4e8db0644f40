"""The CI gates of the pytest suite (``--min-f1``, ``--compare``/``--max-drop``) on hand-made rows."""

from __future__ import annotations

from validate_session import mapping_harness

from benchmark.core.results import Results, ResultsHeader, TrackSection
from benchmark.harness.gates import compare_with, min_score_failures
from benchmark.harness.options import Gate
from benchmark.tracks.mapping.counts import BindingCounts, ClassCounts
from benchmark.tracks.mapping.payload import RunRow

# class TP 2, FN 1; bindings: 2 exact, 2 partial, 1 only-generated.
ROW = RunRow.of(
    provider="P",
    model="m",
    transformation="T",
    run="r1",
    classes=ClassCounts(tp=2, fn=1),
    bindings=BindingCounts(exact=2, partial=2, only_generated=1),
)


def _results(*rows: RunRow, weight: float = 0.5) -> Results:
    envelopes = tuple(r.to_envelope() for r in rows)
    return Results(ResultsHeader(), (TrackSection("atl", {"partialWeight": weight}, rows=envelopes),))


def _tracks(tmp_path, weight: str = "0.5"):
    return mapping_harness(tmp_path, partial_weight=weight).tracks


def test_a_saved_session_scored_at_another_weight_is_compared_at_this_one(tmp_path) -> None:
    """Same counts, w = 1 then w = 0: nothing changed but the option (said), so no drop is reported: the
    saved counts are read at this session's weight."""
    before = _results(ROW, weight=1.0)
    now = _results(ROW, weight=0.0)
    lines, failures = compare_with(now, before, 0.0, _tracks(tmp_path, "0"))
    assert lines[1:] == [
        "  settings differ: partialWeight was 1.0, is 0.0",
        "  P: 0.5714 -> 0.5714 (+0.0000)",
    ]
    assert lines[0] == "change of micro overall F1 (atl) against the saved session:"
    assert failures == []


def test_a_real_drop_beyond_max_drop_fails(tmp_path) -> None:
    worse = ROW.replaced(bindings=BindingCounts(exact=1, partial=2, only_generated=1, only_atl=1))
    lines, failures = compare_with(_results(worse), _results(ROW), 0.01, _tracks(tmp_path))
    assert lines[1:] == ["  P: 0.7143 -> 0.6154 (-0.0989)"]
    assert len(failures) == 1 and "dropped by" in failures[0]


def test_min_f1_names_the_provider_below_its_bar_and_the_one_without_runs(tmp_path) -> None:
    gates = [Gate("atl", p, bar, f"--min-f1 {p}={bar:g}") for p, bar in (("P", 0.9), ("P", 0.5), ("Q", 0.1))]
    failures = min_score_failures(_results(ROW), gates, _tracks(tmp_path))
    assert failures == [
        "--min-f1 P=0.9: micro overall F1 is 0.7143",
        "--min-f1 Q=0.1: no scored run of provider 'Q' in the atl track",
    ]


def test_min_score_and_min_f1_are_one_gate(tmp_path) -> None:
    """``--min-score atl:P=X`` and the mapping track's ``--min-f1 P=X`` read into the same gate."""
    from benchmark.core.options import LIST
    from benchmark.core.registry import track_class
    from benchmark.harness.options import MIN_SCORE, VALIDATION_ROOT, read_session_options

    def read(option):
        given = {MIN_SCORE.flag: ["atl:P=0.9"], "--min-f1": ["P=0.9"]}
        if option is VALIDATION_ROOT:
            return str(tmp_path), tmp_path
        return given.get(option.flag, () if option.kind == LIST else option.default), tmp_path

    options = read_session_options(read, [track_class("atl")])
    assert [(g.track, g.provider, g.bar) for g in options.gates] == [("atl", "P", 0.9)] * 2


def test_compare_prints_differing_settings_and_refuses_a_verdict_across_confidence_filters(tmp_path) -> None:
    worse = ROW.replaced(bindings=BindingCounts(exact=0, partial=2, only_generated=1, only_atl=3))
    now = Results(
        ResultsHeader(),
        (TrackSection("atl", {"confidence": "high", "baselines": []}, rows=(worse.to_envelope(),)),),
    )
    before = Results(
        ResultsHeader(),
        (TrackSection("atl", {"confidence": "all", "baselines": ["EMFCompare"]}, rows=(ROW.to_envelope(),)),),
    )
    lines, failures = compare_with(now, before, 0.01, _tracks(tmp_path))
    assert "  settings differ: baselines was ['EMFCompare'], is []" in lines
    assert "  settings differ: confidence was 'all', is 'high'" in lines
    assert any(line.startswith("  no drop verdict: the confidence filters differ") for line in lines)
    assert failures == []  # a real drop, but across filters it is not a verdict
    same_filter = Results(
        ResultsHeader(), (TrackSection("atl", {"confidence": "all"}, rows=(worse.to_envelope(),)),)
    )
    assert len(compare_with(same_filter, before, 0.01, _tracks(tmp_path))[1]) == 1
