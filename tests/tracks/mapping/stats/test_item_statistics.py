"""Item-level statistics: mapping sets and stability, baseline-relative recall, confidence and category
profiles, against hand-computed values and the comparator's own three-way report."""

from __future__ import annotations

import itertools
import random

import pytest

from benchmark.tracks.mapping import interchange
from benchmark.tracks.mapping.counts import BindingCounts
from benchmark.tracks.mapping.scoring.compare import compare
from benchmark.tracks.mapping.scoring.suggestions import load_suggestions
from benchmark.tracks.mapping.scoring.three_way import three_way
from benchmark.tracks.mapping.stats import (
    baseline_relative_recall,
    category_profile,
    confidence_profile,
    is_right,
    jaccard,
    majority_right,
    mapping_set,
    mean_pairwise_jaccard,
    missed_by_baseline,
    stability,
)


def test_right_follows_the_comparator():
    assert all(is_right(c) for c in ("exact", "partial", "targetOnly", "tp", "absent"))
    assert not any(is_right(c) for c in ("divergent", "onlyGenerated", "onlyAtl", "fp", "fn"))
    assert majority_right(["exact", "exact", "onlyAtl"])
    assert not majority_right(["exact", "onlyAtl"])  # a tie is not a majority


def test_mapping_set_lists_what_the_run_suggested(make_row):
    row = make_row(
        "P",
        "T",
        "r1",
        classes=[("A", "X", "tp"), ("B", "Y", "fp"), ("C", "Z", "fn")],
        bindings=[
            ("A", "X", "f", "exact", ("f1",)),
            ("A", "X", "g", "onlyAtl"),
            ("A", "X", "h", "divergent", ("h1", "h2")),
            ("A", "X", "k", "targetOnly", ()),
        ],
    )
    assert mapping_set(row) == {
        ("class", "A", "X"),
        ("class", "B", "Y"),
        ("binding", "A", "X", "f", "f1"),
        ("binding", "A", "X", "h", "h1"),
        ("binding", "A", "X", "h", "h2"),
        ("binding", "A", "X", "k", ""),
    }


def test_jaccard_hand_computed():
    assert jaccard(frozenset("abc"), frozenset("bcd")) == 0.5
    assert jaccard(frozenset(), frozenset()) == 1.0
    sets = [frozenset({1, 2}), frozenset({2, 3}), frozenset({1, 2, 3})]
    # J = 1/3, 2/3, 2/3
    assert mean_pairwise_jaccard(sets) == pytest.approx(5 / 9)
    assert mean_pairwise_jaccard(sets[:1]) is None


def test_matrix_jaccard_equals_the_pairwise_definition():
    rng = random.Random(4)
    for _ in range(20):
        sets = [frozenset(rng.sample(range(12), rng.randint(0, 8))) for _ in range(rng.randint(2, 7))]
        pairs = list(itertools.combinations(sets, 2))
        expected = sum(jaccard(a, b) for a, b in pairs) / len(pairs)
        assert mean_pairwise_jaccard(sets) == pytest.approx(expected, abs=1e-12)


def test_stability_per_transformation_and_mean(make_row):
    rows = [
        make_row("P", "T1", "r1", classes=[("A", "X", "tp"), ("B", "Y", "fp")]),
        make_row("P", "T1", "r2", classes=[("A", "X", "tp"), ("B", "Y", "fn")]),  # J = 1/2
        make_row("P", "T2", "r1", classes=[("A", "X", "tp")]),
        make_row("P", "T2", "r2", classes=[("A", "X", "tp")]),  # J = 1
        make_row("P", "T3", "r1", classes=[("A", "X", "tp")]),  # one run: no value
    ]
    result = stability(rows)
    assert result.per_transformation == {"T1": 0.5, "T2": 1.0, "T3": None}
    assert result.mean == pytest.approx(0.75)
    single = stability([rows[0], rows[2]])
    assert single.mean is None and "two runs" in (single.note or "")


def test_stability_refuses_rows_without_verdicts(make_row):

    row = make_row("P", "T", "r1", classes=[("A", "X", "tp")])
    stripped = row.replaced(class_items=())
    result = stability([stripped, row])
    assert result.mean is None and "verdicts" in (result.note or "")


def test_baseline_relative_recall_hand_computed(make_row):
    truth = {("A", "X", "t"): ()}  # a target-only key: never counted
    base = make_row(
        "EMFCompare",
        "T",
        "b",
        classes=[("A", "X", "tp"), ("B", "Y", "fn")],
        bindings=[
            ("A", "X", "k1", "onlyAtl"),
            ("A", "X", "k2", "divergent"),
            ("A", "X", "k3", "exact"),
            ("A", "X", "k4", "partial"),
            ("A", "X", "t", "onlyAtl"),
        ],
        truth=truth,
    )
    missed = missed_by_baseline([base])
    assert missed.class_pairs == (("B", "Y"),)
    assert missed.binding_keys == (("A", "X", "k1"), ("A", "X", "k2"))
    runs = [
        make_row(
            "P",
            "T",
            "r1",
            classes=[("B", "Y", "tp")],
            bindings=[("A", "X", "k1", "exact"), ("A", "X", "k2", "partial")],
        ),
        make_row(
            "P",
            "T",
            "r2",
            classes=[("B", "Y", "fn")],
            bindings=[("A", "X", "k1", "onlyAtl"), ("A", "X", "k2", "divergent")],
        ),
    ]
    result = baseline_relative_recall(runs, [base], 0.5)
    assert result is not None
    cls, bind, overall = (result.levels[k] for k in ("class", "binding", "overall"))
    assert (cls.items, cls.tp, cls.fn, cls.recall) == (1, 1, 1, 0.5)
    # binding: TP = 1 + 0.5, FN = 0.5 (partial) + 1 (onlyAtl) + 1 (divergent)
    assert (bind.items, bind.tp, bind.fn) == (2, 1.5, 2.5)
    assert bind.recall == pytest.approx(1.5 / 4)
    assert (overall.items, overall.tp, overall.fn) == (3, 2.5, 3.5)
    assert result.per_transformation["T"]["binding"].recall == pytest.approx(0.375)
    assert baseline_relative_recall(runs, [make_row("EMFCompare", "Other", "b")], 0.5) is None


def test_baseline_relative_recall_agrees_with_the_three_way_diff(compare_data):
    """METRICS.md §9: residual recall class 1/1, binding 3/4, overall 4/5 on the worked example."""
    truth = interchange.load(compare_data / "library2catalog.interchange.json")
    llm = compare(truth, load_suggestions(compare_data / "llm-export.json"))
    base = compare(truth, load_suggestions(compare_data / "baseline.json"))
    reference = three_way(llm, base, 0.5)
    result = baseline_relative_recall([llm.to_row(provider="LLM")], [base.to_row(provider="EMFCompare")], 0.5)
    assert result is not None
    for level, expected in (
        ("class", reference.residual_class),
        ("binding", reference.residual_binding),
        ("overall", reference.residual_overall),
    ):
        got = result.levels[level]
        assert (got.items, got.tp, got.fn) == (expected.items, expected.tp, expected.fn)
    assert result.levels["binding"].recall == 0.75 and result.levels["overall"].recall == 0.8


def test_confidence_profile_matches_the_worked_example(compare_data):
    """METRICS.md §8: slice high = class 1/0/2, bindings exact 2, partial 2, onlyAtl 5."""
    truth = interchange.load(compare_data / "library2catalog.interchange.json")
    row = compare(truth, load_suggestions(compare_data / "llm-export.json")).to_row(provider="LLM")
    profile = confidence_profile("LLM", [row, row], 0.5, "overall")
    high = profile.get("high")
    assert high is not None
    # overall at w = 0.5, two identical runs pooled: TP = 2 * (1 + 2 + 1), FP = 2 * 1, FN = 2 * (2 + 5 + 1)
    assert (high.tp, high.fp, high.fn) == (8, 2, 16)
    assert high.scores.precision == pytest.approx(0.8) and high.scores.recall == pytest.approx(1 / 3)
    assert high.named == 2 * (1 + 4)  # one class pair, four binding keys per run
    assert [s.slice for s in profile.cumulative()] == ["high", "high+medium", "all"]
    everything = profile.get("all")
    assert everything is not None and everything.scores == row.scores(0.5).overall
    binding = confidence_profile("LLM", [row], 0.5, "binding").get("low")
    assert binding is not None and (binding.named, binding.tp) == (1, 0)  # one divergent key
    assert not confidence_profile("LLM", [], 0.5, "overall").available


def test_category_profile_shares():
    counts = BindingCounts(exact=3, partial=2, divergent=1, target_only=1, only_generated=1, only_atl=2)
    profile = category_profile("P", "T", counts)
    assert profile.total == 9 and profile.target_only == 1
    assert profile.shares == pytest.approx(
        {"exact": 3 / 9, "partial": 2 / 9, "divergent": 1 / 9, "onlyGenerated": 1 / 9, "onlyAtl": 2 / 9}
    )
    assert sum(profile.shares.values()) == pytest.approx(1.0)
    assert category_profile("P", "T", BindingCounts()).shares == dict.fromkeys(profile.shares, 0.0)


def test_blockwise_jaccard_equals_one_block(monkeypatch):
    import importlib

    stability_module = importlib.import_module("benchmark.tracks.mapping.stats.stability")

    rng = random.Random(8)
    sets = [frozenset(rng.sample(range(30), rng.randint(0, 20))) for _ in range(40)]
    whole = mean_pairwise_jaccard(sets)
    monkeypatch.setattr(stability_module, "_CELLS_PER_BLOCK", 50)  # one row at a time
    assert mean_pairwise_jaccard(sets) == pytest.approx(whole, abs=1e-12)
