"""One story per comparison: for every comparison builder of every track, the permutation test's observed
statistic is the Δ its row prints, and the interval and the p-value agree on the side of zero away from the
boundary (property tests over random paired count tables).

The builders: the mapping track's provider pairs and task variants, the OCL track's mode pairs, and the
paired comparisons of prompt templates of every track (:mod:`benchmark.reports.levels`, through each
track's :meth:`~benchmark.core.track.Track.paired`)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from benchmark.core.metrics import scores_array
from benchmark.core.rows import Row
from benchmark.core.track import TrackContext
from benchmark.reports.levels import compare_levels
from benchmark.stats.bootstrap import rng_for
from benchmark.stats.paired import Paired, compare
from benchmark.tracks.mapping.counts import BindingCounts, ClassCounts
from benchmark.tracks.mapping.payload import RunRow
from benchmark.tracks.mapping.stats.summary import compute_statistics
from benchmark.tracks.mapping.stats.variants import compute_variant_statistics
from benchmark.tracks.ocl.pairs import compare_modes
from benchmark.tracks.ocl.scores import Judged

SETTINGS = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def f1(sums: np.ndarray) -> np.ndarray:
    return scores_array(*np.atleast_2d(sums).T)["f1"]


@st.composite
def count_tables(draw: st.DrawFn, min_units: int = 2, max_units: int = 20) -> tuple:
    """Two sides' (TP, FP, FN) per unit and run: a shared difficulty per unit and a side effect, so that
    some tables hold a clear difference and others none; runs per unit per side from one to three."""
    units = draw(st.integers(min_units, max_units))
    effect = draw(st.sampled_from([0.0, 0.0, 0.1, 0.3, 0.6]))
    seed = draw(st.integers(0, 2**31))
    runs_first = draw(st.integers(1, 3))
    runs_second = draw(st.sampled_from([runs_first, 1, 2]))
    rng = np.random.default_rng(seed)
    first, second = [], []
    for _ in range(units):
        size = int(rng.integers(3, 30))
        recall = rng.beta(3, 3)
        for side, runs, rate in (
            (first, runs_first, np.clip(recall + effect, 0, 1)),
            (second, runs_second, recall),
        ):
            tp = rng.binomial(size, rate, runs)
            side.append(np.stack([tp, rng.poisson(2, runs), size - tp], axis=1).astype(float))
    return first, second


def _agree(found: Paired) -> None:
    """The test's statistic is the printed Δ; far from the boundary the interval and p say the same."""
    assert found.test.statistic == found.delta
    interval = found.interval
    assert interval is not None
    if interval.se > 0 and len(found.units) >= 12:
        z = found.delta / interval.se
        if abs(z) > 4:  # zero far outside the interval
            assert found.p_value < 0.05, (found.delta, interval, found.p_value)
            assert (interval.low > 0) == (found.delta > 0) and (interval.high < 0) == (found.delta < 0)
        if abs(z) < 0.5:  # zero well inside it
            assert found.p_value > 0.05, (found.delta, interval, found.p_value)
            assert interval.low <= 0 <= interval.high


@SETTINGS
@given(count_tables())
def test_the_kit_compares_the_quantity_it_prints(table: tuple) -> None:
    first, second = table
    units = [f"t{i}" for i in range(len(first))]
    found = compare(
        units,
        first,
        second,
        f1,
        interval_rng=rng_for(1, "i"),
        test_rng=rng_for(1, "t"),
        draws=400,
        permutations=999,
    )
    _agree(found)
    combine = (lambda g: g.mean(axis=0)) if found.mean_runs else (lambda g: g.sum(axis=0))
    pooled = [np.sum([combine(g) for g in side], axis=0) for side in (first, second)]
    assert found.delta == f1(pooled[0])[0] - f1(pooled[1])[0]
    assert found.mean_runs == any(len(a) != len(b) for a, b in zip(first, second, strict=True))


def _mapping_rows(table: tuple, names: tuple[str, str], variant: str | None = None) -> list[RunRow]:
    rows = []
    for side, name in zip(table, names, strict=True):
        for t, group in enumerate(side):
            for r, (tp, fp, fn) in enumerate(group):
                extra = {"variant": variant} if variant and name == names[0] else {}
                rows.append(
                    RunRow.of(
                        "P" if variant else name,
                        "m",
                        f"T{t:02d}",
                        f"run{r + 1:02d}",
                        classes=ClassCounts(int(tp), int(fp), int(fn)),
                        bindings=BindingCounts(),
                        suggestions=int(tp + fp),
                        **extra,
                    )
                )
    return rows


@SETTINGS
@given(count_tables())
def test_the_mapping_pairs_test_the_delta_they_print(table: tuple) -> None:
    stats = compute_statistics(_mapping_rows(table, ("A", "B")), draws=300)
    (pair,) = stats.pairs
    assert pair.delta_f1 == pair.permutation.statistic  # the printed ΔF1 is the tested one
    sign = 1 if pair.first == "A" else -1
    expected = compare(
        [f"T{t:02d}" for t in range(len(table[0]))],
        *table,
        f1,
        interval_rng=rng_for(0, "i"),
        test_rng=rng_for(0, "t"),
        draws=0,
    ).delta
    assert np.isclose(pair.delta_f1, sign * expected)
    _agree(pair.comparison)


@SETTINGS
@given(count_tables())
def test_the_variants_table_tests_the_delta_it_prints(table: tuple) -> None:
    rows = _mapping_rows(table, ("synonym", "original"), variant="synonym")
    stats = compute_variant_statistics(rows, draws=300)
    entry = next(e for e in stats.entries if e.variant == "synonym")
    assert entry.delta_f1 == entry.permutation.statistic
    _agree(entry.comparison)


@SETTINGS
@given(count_tables(min_units=2, max_units=16))
def test_the_ocl_mode_pairs_test_the_difference_they_print(table: tuple) -> None:
    # each constraint's runs answered on two modes: a run is right on a mode when its TP beat its FN
    answers = []
    for t, (group_a, group_b) in enumerate(zip(*table, strict=True)):
        runs = min(len(group_a), len(group_b))
        for r in range(runs):
            for mode, group in (("original", group_a), ("rename", group_b)):
                tp, _, fn = group[r]
                outcome = "agreement" if tp > fn else "disagreement"
                answers.append(Judged("P", "m", f"run{r}", "model", mode, f"c{t}", outcome, "", (), "f"))
    (pair,) = compare_modes(answers, draws=300)
    assert pair.delta == pair.comparison.test.statistic
    assert np.isclose(pair.delta, pair.accuracy_first - pair.accuracy_second)
    _agree(pair.comparison)


def _template_rows(table: tuple) -> Sequence[Row]:
    rows = []
    for side, template in zip(table, ("terse", "study"), strict=True):
        for t, group in enumerate(side):
            for r, (tp, fp, fn) in enumerate(group):
                mapping = RunRow.of(
                    "P",
                    "m",
                    f"T{t:02d}",
                    f"run{r + 1:02d}",
                    classes=ClassCounts(int(tp), int(fp), int(fn)),
                    bindings=BindingCounts(),
                    suggestions=int(tp + fp),
                )
                rows.append(replace(mapping.to_envelope(), template=template))
    return rows


@SETTINGS
@given(table=count_tables())
def test_template_comparisons_test_the_delta_they_print(tmp_path_factory, table: tuple) -> None:  # type: ignore[no-untyped-def]
    from benchmark.reports.sensitivity import template_order
    from benchmark.tracks.mapping.track import AtlTrack

    track = AtlTrack(TrackContext(tmp_path_factory.getbasetemp()))
    rows = _template_rows(table)
    (found,) = compare_levels(track, rows, lambda r: r.template, template_order, axis="template", draws=300)
    assert (found.level, found.reference) == ("terse", "study")
    assert found.comparison.delta == found.comparison.test.statistic
    # Δ is the difference of the headline the sensitivity table prints, when the runs are balanced
    if not found.comparison.mean_runs:
        headline = track.headline(rows)
        assert np.isclose(found.comparison.delta, headline["P (terse)"] - headline["P"])
    _agree(found.comparison)
