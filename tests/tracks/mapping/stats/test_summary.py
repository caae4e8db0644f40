"""compute_statistics: consistency with the aggregation, paired comparisons, and the edge cases a real
session produces (one provider, one run, one transformation, error rows, silent providers, many runs)."""

from __future__ import annotations

import pytest

from benchmark.core.errors import ConfigurationError
from benchmark.core.metrics import scores
from benchmark.stats.bootstrap import rng_for
from benchmark.stats.significance import MCNEMAR_EXACT, mcnemar, sign_flip_test
from benchmark.tracks.mapping.aggregate import aggregate
from benchmark.tracks.mapping.scoring.compare import error_row
from benchmark.tracks.mapping.stats import compute_statistics
from benchmark.tracks.mapping.stats.profiles import level_counts


def test_micro_and_macro_come_from_the_aggregation(small_results):
    stats = compute_statistics(small_results.rows, draws=200)
    totals = {g.provider: g for g in aggregate(small_results.rows).totals()}
    for provider in stats.providers:
        group = totals[provider.provider]
        assert provider.micro == group.micro.overall
        assert provider.macro == group.macro["overall"]
        assert provider.runs == group.runs
        ci = provider.intervals["f1"]
        assert ci.low <= provider.micro.f1 <= ci.high
    f1 = [p.micro.f1 for p in stats.providers]
    assert f1 == sorted(f1, reverse=True)
    assert stats.baseline == "EMFCompare"
    assert len(stats.aggregation.excluded) == 1 and "excluded" in stats.notes[0]


def test_levels_change_the_statistic(small_results):
    binding = compute_statistics(small_results.rows, level="binding", draws=100)
    totals = {g.provider: g for g in aggregate(small_results.rows).totals()}
    for provider in binding.providers:
        assert provider.micro == totals[provider.provider].micro.bindings


def test_pairs_cover_every_pair_once_with_holm(small_results):
    stats = compute_statistics(small_results.rows, draws=200)
    names = [p.provider for p in stats.providers]
    assert [(p.first, p.second) for p in stats.pairs] == [
        (names[i], names[j]) for i in range(len(names)) for j in range(i + 1, len(names))
    ]
    groups = {(g.provider, g.transformation): g for g in stats.aggregation.groups}

    def f1_of_mean_counts(provider: str, common: tuple[str, ...]) -> float:
        """Micro F1 over ``common``, each transformation's counts averaged over the provider's runs."""
        sums = [0.0, 0.0, 0.0]
        for t in common:
            group = groups[(provider, t)]
            counts = level_counts(group.classes, group.bindings, stats.partial_weight, "overall")
            sums = [total + value / group.runs for total, value in zip(sums, counts, strict=True)]
        return scores(*sums).f1

    for pair in stats.pairs:
        first, second = stats.provider(pair.first), stats.provider(pair.second)
        expected = f1_of_mean_counts(pair.first, pair.transformations)
        expected -= f1_of_mean_counts(pair.second, pair.transformations)
        assert pair.delta_f1 == pytest.approx(expected, abs=1e-12)
        # the micro F1 difference of the results table (one provider lost a run to the error row)
        assert pair.delta_f1 == pytest.approx(first.micro.f1 - second.micro.f1, abs=0.01)
        assert pair.permutation is not None and pair.p_holm is not None
        assert pair.permutation.statistic == pair.delta_f1  # the test is about the ΔF1 shown
        assert pair.interval is not None and pair.interval.low <= pair.delta_f1 <= pair.interval.high
        assert pair.p_holm >= pair.permutation.p_value
        assert pair.permutation.exact and pair.permutation.resamples == 2 ** len(pair.transformations)
        assert [t.transformation for t in pair.mcnemar] == list(pair.transformations)
        for test in pair.mcnemar:
            assert test.result is not None and test.p_holm is not None and test.p_holm >= test.result.p_value


def test_mcnemar_counts_items_by_majority_over_runs(make_row):
    rows = [
        # A: right on k1 (2 of 2), k2 (2 of 2); wrong on k3; avoids the made-up key k4
        make_row(
            "A",
            "T",
            "r1",
            bindings=[("S", "T", "k1", "exact"), ("S", "T", "k2", "exact"), ("S", "T", "k3", "onlyAtl")],
        ),
        make_row(
            "A",
            "T",
            "r2",
            bindings=[("S", "T", "k1", "exact"), ("S", "T", "k2", "partial"), ("S", "T", "k3", "onlyAtl")],
        ),
        # B: right on k1 in one run of two (a tie: not right), wrong on k2, right on k3, makes up k4
        make_row(
            "B",
            "T",
            "r1",
            bindings=[
                ("S", "T", "k1", "exact"),
                ("S", "T", "k2", "divergent"),
                ("S", "T", "k3", "exact"),
                ("S", "T", "k4", "onlyGenerated"),
            ],
        ),
        make_row(
            "B",
            "T",
            "r2",
            bindings=[
                ("S", "T", "k1", "onlyAtl"),
                ("S", "T", "k2", "divergent"),
                ("S", "T", "k3", "exact"),
                ("S", "T", "k4", "onlyGenerated"),
            ],
        ),
    ]
    stats = compute_statistics(rows, draws=50)
    (pair,) = stats.pairs
    (test,) = pair.mcnemar
    assert test.items == 4
    # b (first right, second wrong) and c depend on which provider is listed first
    first_right = {"k1", "k2", "k4"} if pair.first == "A" else {"k3"}
    expected_b = len(first_right)
    expected_c = 4 - expected_b - 0  # no item is right for both or wrong for both
    assert test.result is not None
    assert (test.result.b, test.result.c) == (expected_b, expected_c)
    assert test.result.method == MCNEMAR_EXACT
    assert test.result.p_value == mcnemar(expected_b, expected_c).p_value


def test_one_provider_has_no_pairs_and_says_so(small_results):
    rows = [r for r in small_results.rows if r.provider == "Alpha"]
    stats = compute_statistics(rows, draws=100)
    assert stats.pairs == ()
    assert any("one provider" in n for n in stats.notes)
    assert any("EMFCompare" in n for n in stats.notes)  # no baseline rows either
    assert stats.providers[0].baseline_recall is None


def test_one_run_has_no_standard_deviation(make_row):
    rows = [
        make_row("A", "T1", "r1", classes=[("S", "X", "tp")]),
        make_row("B", "T1", "r1", classes=[("S", "X", "fn")]),
    ]
    stats = compute_statistics(rows, draws=100)
    for provider in stats.providers:
        assert provider.macro["f1"].sd is None
        assert provider.stability.mean is None
        assert "one run: standard deviation undefined" in provider.notes
        assert provider.intervals["f1"].degenerate
    assert any("one transformation" in n for n in stats.notes)
    (pair,) = stats.pairs
    assert pair.permutation is not None and pair.permutation.p_value == 1.0


def test_error_rows_are_excluded_and_listed(make_row):
    rows = [
        make_row("A", "T1", "r1", classes=[("S", "X", "tp")]),
        make_row("A", "T1", "r2", classes=[("S", "X", "tp")]),
        error_row("truncated answer", provider="A", transformation="T2", run="r1", file="T2/r1.json"),
        error_row("no file", provider="Ghost", transformation="T1", run="r1"),
    ]
    stats = compute_statistics(rows, draws=100)
    assert [p.provider for p in stats.providers] == ["A"]
    assert stats.providers[0].transformations == ("T1",)
    assert [(e.provider, e.error) for e in stats.aggregation.excluded] == [
        ("A", "truncated answer"),
        ("Ghost", "no file"),
    ]
    assert compute_statistics([rows[2]], draws=10).providers == ()


def test_a_provider_that_suggests_nothing(make_row):
    rows = [
        make_row("Quiet", "T1", f"r{i}", classes=[("S", "X", "fn")], bindings=[("S", "X", "f", "onlyAtl")])
        for i in range(3)
    ] + [make_row("Loud", "T1", f"r{i}", classes=[("S", "X", "tp")]) for i in range(3)]
    stats = compute_statistics(rows, draws=100)
    quiet = stats.provider("Quiet")
    assert quiet.suggestions == 0 and "made no suggestions" in quiet.notes
    assert (quiet.micro.precision, quiet.micro.recall, quiet.micro.f1) == (0.0, 0.0, 0.0)
    assert quiet.intervals["f1"].low == quiet.intervals["f1"].high == 0.0
    assert quiet.stability.mean == 1.0  # three identical (empty) runs
    assert stats.providers[0].provider == "Loud"


def test_many_runs_stay_fast_and_exact(make_row):
    base = make_row(
        "A",
        "T1",
        "r",
        classes=[("S", "X", "tp"), ("S", "Y", "fp")],
        bindings=[("S", "X", "f", "exact"), ("S", "X", "g", "onlyAtl")],
    )
    other = make_row("B", "T1", "r", classes=[("S", "X", "fn")], bindings=[("S", "X", "f", "divergent")])
    rows = [base.replaced(run=f"r{i:04d}") for i in range(600)]
    rows += [other.replaced(run=f"r{i:04d}") for i in range(600)]
    stats = compute_statistics(rows, draws=300)
    a = stats.provider("A")
    assert a.runs == 600 and a.stability.mean == 1.0
    assert a.intervals["f1"].low == a.intervals["f1"].high == a.micro.f1  # identical runs: no variation
    (pair,) = stats.pairs
    (test,) = pair.mcnemar
    # f: A right, B divergent; g: both miss it (B's rows do not list it: filled in as onlyAtl, since
    # A's rows say it is in the ground truth)
    assert test.result is not None and (test.result.b, test.result.c) == (1, 0)


def test_options_are_checked():
    for kwargs, field in (
        ({"level": "feature"}, "level"),
        ({"draws": 0}, "draws"),
        ({"confidence": 1.0}, "confidence"),
        ({"alpha": 0.0}, "alpha"),
        ({"seed": -3}, "seed"),
    ):
        with pytest.raises(ConfigurationError) as caught:
            compute_statistics([], **kwargs)
        assert caught.value.field == field


def test_statistics_are_reproducible_and_seed_dependent(small_results):
    first = compute_statistics(small_results.rows, draws=300, seed=5).to_json()
    assert first == compute_statistics(small_results.rows, draws=300, seed=5).to_json()
    assert first != compute_statistics(small_results.rows, draws=300, seed=6).to_json()


def test_a_table_whose_test_cannot_reject_says_it_can_detect_nothing(small_results, make_row):
    from benchmark.tracks.mapping.reports.tables import pairs_sentence

    # three transformations: smallest p = 2/8 = 0.25, above 0.05 / 3 pairs: no MDE, and the sentence says so
    stats = compute_statistics(small_results.rows, draws=50)
    assert all(p.detectable is not None and p.detectable.effect is None for p in stats.pairs)
    assert "0.25, above the level 0.017" in stats.pairs[0].detectable.reason
    assert not stats.pairs[0].detectable.reachable
    sentence = pairs_sentence(stats)
    assert sentence.startswith("Paired comparisons of providers: with these 3 transformations no difference")
    assert "after Holm over 3 comparisons" in sentence

    # five transformations, one pair: 2/32 = 0.0625 >= 0.05 still nothing; six: 2/64 < 0.05, an MDE
    def classes(provider: str, t: int) -> list[tuple[str, str, str]]:
        right = [(f"S{i}", f"X{i}", "tp") for i in range(1 + t % 3)]
        return right + [(f"S{i}", f"Y{i}", "fp") for i in range((t + (provider == "A")) % 2 + 1)]

    rows = [make_row(p, f"T{t}", "r1", classes=classes(p, t)) for p in ("A", "B") for t in range(6)]
    six = compute_statistics(rows, draws=20).pairs[0].detectable
    assert six.effect is not None and six.effect > 0 and six.family == 1 and six.alpha == 0.05
    assert "can detect |ΔF1| ≥" in pairs_sentence(compute_statistics(rows, draws=20))
    five = compute_statistics(rows[:5] + rows[6:11], draws=20).pairs[0].detectable
    assert five.effect is None and "0.062" in five.reason
    one = compute_statistics(rows[:1] + rows[6:7], draws=20).pairs[0].detectable
    assert one.effect is None and one.reason == "fewer than two units: nothing to test"


def test_the_interval_and_the_test_of_a_pair_measure_the_same_difference(make_row):
    """A provider a little better on many small transformations and worse on one large one: its mean
    per-transformation F1 difference is positive everywhere (a sign-flip test on it is significant), yet
    the micro ΔF1 the table shows is close to 0 and its interval spans 0; the p-value now tests that
    micro ΔF1, so it is not significant either (before, p < 0.001 stood beside an interval across 0)."""
    rows = []
    for t in range(20):  # small: A gets 2 of 3 classes right, B 1 of 3
        rows.append(
            make_row("A", f"S{t:02d}", "r1", classes=[("S", "X", "tp"), ("S", "Y", "tp"), ("S", "Z", "fn")])
        )
        rows.append(
            make_row("B", f"S{t:02d}", "r1", classes=[("S", "X", "tp"), ("S", "Y", "fn"), ("S", "Z", "fn")])
        )
    big = [("S", f"C{i}", "tp") for i in range(60)]
    rows.append(make_row("A", "Large", "r1", classes=big[:20] + [(s, c, "fn") for s, c, _ in big[20:]]))
    rows.append(make_row("B", "Large", "r1", classes=big[:40] + [(s, c, "fn") for s, c, _ in big[40:]]))
    stats = compute_statistics(rows, draws=500, seed=1)
    (pair,) = stats.pairs
    assert pair.permutation is not None and pair.interval is not None
    assert sign_flip_test(list(pair.differences.values()), rng=rng_for(1, "x")).p_value < 0.001
    assert pair.interval.low < 0 < pair.interval.high
    assert pair.permutation.statistic == pair.delta_f1 and pair.permutation.p_value > 0.2


def test_each_transformation_weighs_as_one_run_whatever_the_runs(make_row):
    """ΔF1 averages a provider's runs per transformation: five identical runs of A on a transformation
    count as one, so A against B with the same answers differs by exactly 0, and the swap test finds
    nothing (with pooled counts the five runs would outweigh the other transformation)."""
    answers = {"T1": [("S", "X", "tp"), ("S", "Y", "fn")], "T2": [("S", "X", "fp")]}
    rows = [
        make_row("A", t, f"r{i}", classes=c) for t, c in answers.items() for i in range(5 if t == "T1" else 1)
    ]
    rows += [make_row("B", t, "r1", classes=c) for t, c in answers.items()]
    (pair,) = compute_statistics(rows, draws=200).pairs
    assert pair.delta_f1 == 0.0 and pair.permutation is not None and pair.permutation.p_value == 1.0
    assert pair.interval is not None and pair.interval.low == pair.interval.high == 0.0
