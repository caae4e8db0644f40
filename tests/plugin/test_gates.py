"""The CI gates of the pytest suite (``--min-f1``, ``--compare``/``--max-drop``) on hand-made rows."""

from __future__ import annotations

from dataclasses import replace

from benchmark.core.results import Results, ResultsHeader
from benchmark.harness.plugin import compare_with, min_f1_failures
from benchmark.tracks.mapping.counts import RunRow
from benchmark.tracks.mapping.metrics import BindingCounts, ClassCounts

# class TP 2, FN 1; bindings: 2 exact, 2 partial, 1 only-generated.
ROW = RunRow(
    provider="P",
    model="m",
    transformation="T",
    run="r1",
    classes=ClassCounts(tp=2, fn=1),
    bindings=BindingCounts(exact=2, partial=2, only_generated=1),
)


def _results(*rows: RunRow) -> Results:
    return Results(header=ResultsHeader(), rows=rows)


def test_a_saved_session_scored_at_another_weight_is_compared_at_this_one() -> None:
    """Same counts, w = 0 then w = 1: nothing changed but the option, so no drop is reported."""
    before = _results(replace(ROW, partial_weight=1.0))
    now = _results(replace(ROW, partial_weight=0.0))
    lines, failures = compare_with(now, before, max_drop=0.0)
    assert lines == ["  P: 0.5714 -> 0.5714 (+0.0000)"]
    assert failures == []


def test_a_real_drop_beyond_max_drop_fails() -> None:
    worse = replace(ROW, bindings=BindingCounts(exact=1, partial=2, only_generated=1, only_atl=1))
    lines, failures = compare_with(_results(worse), _results(ROW), max_drop=0.01)
    assert lines == ["  P: 0.7143 -> 0.6154 (-0.0989)"]
    assert len(failures) == 1 and "dropped by" in failures[0]


def test_min_f1_names_the_provider_below_its_bar_and_the_one_without_runs() -> None:
    failures = min_f1_failures(_results(ROW), (("P", 0.9), ("P", 0.5), ("Q", 0.1)))
    assert failures == [
        "--min-f1 P=0.9: micro overall F1 is 0.7143",
        "--min-f1 Q=0.1: no scored run of provider 'Q'",
    ]
