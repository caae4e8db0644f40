"""Properties of the formulas, the comparator and the aggregation (issue 4, section 5)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from benchmark.tracks.mapping.aggregate import aggregate, micro
from benchmark.tracks.mapping.counts import BindingCounts, ClassCounts, scores
from benchmark.tracks.mapping.interchange import (
    ClassMatch,
    FeatureMatch,
    InterchangeDocument,
    TransformationInfo,
)
from benchmark.tracks.mapping.payload import RunRow
from benchmark.tracks.mapping.scoring.compare import compare
from benchmark.tracks.mapping.scoring.suggestions import parse_suggestions

SETTINGS = settings(max_examples=100, deadline=None)
EPS = 1e-12

SOURCE_CLASSES = ("A", "B", "C")
TARGET_CLASSES = ("X", "Y", "Z")
FEATURES = ("a", "b", "c", "d")
PATHS = ("a", "b", "c", "a.b", "b.c", "c.d")
CONFIDENCES = ("high", "medium", "med", "low", None, "HIGH")

weights = st.floats(min_value=0.0, max_value=1.0, allow_nan=False)
small = st.integers(min_value=0, max_value=40)
binding_counts = st.builds(
    BindingCounts,
    exact=small,
    partial=small,
    divergent=small,
    target_only=small,
    only_generated=small,
    only_atl=small,
)


@st.composite
def ground_truths(draw) -> InterchangeDocument:
    pairs = draw(
        st.sets(st.tuples(st.sampled_from(SOURCE_CLASSES), st.sampled_from(TARGET_CLASSES)), max_size=5)
    )
    matches = []
    for source, target in sorted(pairs):
        features = draw(st.sets(st.sampled_from(FEATURES), max_size=4))
        bindings = []
        for feature in sorted(features):
            paths = tuple(sorted(draw(st.sets(st.sampled_from(PATHS), max_size=3))))
            heads = tuple(sorted({p.split(".")[0] for p in paths}))
            bindings.append(FeatureMatch(feature, paths, heads))
        matches.append(ClassMatch(source, target, feature_matches=tuple(bindings)))
    return InterchangeDocument(TransformationInfo("T", "T.atl"), tuple(matches))


answer_entries = st.one_of(
    st.builds(
        lambda s, t, c: {"sourceClass": s, "targetClass": t, "confidence": c},
        st.sampled_from(SOURCE_CLASSES + ("Q",)),
        st.sampled_from(TARGET_CLASSES),
        st.sampled_from(CONFIDENCES),
    ),
    st.builds(
        lambda s, sf, t, tf, c: {
            "sourceClass": s,
            "sourceAttribute": sf,
            "targetClass": t,
            "targetAttribute": tf,
            "confidence": c,
        },
        st.sampled_from(SOURCE_CLASSES),
        st.one_of(st.none(), st.sampled_from(PATHS)),
        st.sampled_from(TARGET_CLASSES),
        st.sampled_from(FEATURES),
        st.sampled_from(CONFIDENCES),
    ),
)
answers = st.lists(answer_entries, max_size=25)


# --------------------------------------------------------------------------------------- formulas


@SETTINGS
@given(binding_counts, weights)
def test_metrics_are_bounded_and_consistent(counts, w):
    s = counts.scores(w)
    for value in (s.precision, s.recall, s.f1, s.accuracy):
        assert 0.0 <= value <= 1.0
    assert s.accuracy <= min(s.precision, s.recall) + EPS
    p, r = s.precision, s.recall
    if p > 0 and r > 0:  # then P + R - PR > 0: both identities are defined
        assert s.accuracy == pytest.approx(p * r / (p + r - p * r), abs=EPS)
        assert s.f1 == pytest.approx(2 * s.accuracy / (1 + s.accuracy), abs=EPS)


@SETTINGS
@given(small, small, small)
def test_class_metrics_are_bounded(tp, fp, fn):
    s = ClassCounts(tp, fp, fn).scores()
    assert 0.0 <= s.accuracy <= min(s.precision, s.recall) + EPS <= 1.0 + EPS


@SETTINGS
@given(binding_counts, weights, weights)
def test_denominators_do_not_depend_on_w_and_metrics_grow_with_w(counts, w1, w2):
    low, high = sorted((w1, w2))
    assert counts.tp(low) + counts.fn(low) == pytest.approx(counts.tp(high) + counts.fn(high), abs=EPS)
    assert counts.tp(low) + counts.fp(low) == pytest.approx(counts.tp(high) + counts.fp(high), abs=EPS)
    assert counts.scores(low).precision <= counts.scores(high).precision + EPS
    assert counts.scores(low).recall <= counts.scores(high).recall + EPS


@SETTINGS
@given(binding_counts)
def test_weight_one_counts_partial_as_exact(counts):
    as_exact = BindingCounts(
        exact=counts.exact + counts.partial,
        divergent=counts.divergent,
        target_only=counts.target_only,
        only_generated=counts.only_generated,
        only_atl=counts.only_atl,
    )
    assert counts.scores(1.0) == as_exact.scores(1.0)


# ------------------------------------------------------------------------------------- comparator


@SETTINGS
@given(ground_truths(), answers, weights)
def test_comparison_invariants(document, answer, w):
    result = compare(document, parse_suggestions(answer))
    levels = result.scores(w)
    for level in (levels.classes, levels.bindings, levels.overall):
        assert 0.0 <= level.accuracy <= min(level.precision, level.recall) + EPS
    # every ground-truth key and every suggested key gets exactly one category
    truth_keys = {(m.source_class, m.target_class, f.target_feature) for m in document.class_matches
                  for f in m.feature_matches}  # fmt: skip
    assert {i.key for i in result.binding_items} >= truth_keys
    b = result.bindings
    assert b.exact + b.partial + b.divergent + b.target_only + b.only_atl == len(truth_keys)
    assert result.confidence_slices["all"].classes == result.classes
    assert result.confidence_slices["all"].bindings == result.bindings


@SETTINGS
@given(ground_truths(), answers, st.lists(st.integers(min_value=0, max_value=24), max_size=10), weights)
def test_duplicating_mappings_changes_nothing(document, answer, repeats, w):
    doubled = answer + [answer[i % len(answer)] for i in repeats] if answer else answer
    original = compare(document, parse_suggestions(answer))
    again = compare(document, parse_suggestions(doubled))
    assert (again.classes, again.bindings) == (original.classes, original.bindings)
    assert again.binding_items == original.binding_items
    assert again.confidence_slices == original.confidence_slices
    assert again.suggestions.duplicate_count == original.suggestions.duplicate_count + len(doubled) - len(
        answer
    )


def _correct_entries(document: InterchangeDocument) -> list[dict]:
    entries = []
    for match in document.class_matches:
        entries.append({"sourceClass": match.source_class, "targetClass": match.target_class})
        for feature in match.feature_matches:
            for source in (feature.source_features + feature.source_paths) or (None,):
                entries.append(
                    {
                        "sourceClass": match.source_class,
                        "sourceAttribute": source,
                        "targetClass": match.target_class,
                        "targetAttribute": feature.target_feature,
                    }
                )
    return entries


@SETTINGS
@given(ground_truths(), answers, weights, st.data())
def test_adding_a_correct_mapping_never_lowers_recall(document, answer, w, data):
    correct = _correct_entries(document)
    if not correct:
        return
    extra = data.draw(st.sampled_from(correct))
    before = compare(document, parse_suggestions(answer)).scores(w)
    after = compare(document, parse_suggestions([*answer, extra])).scores(w)
    assert after.classes.recall >= before.classes.recall - EPS
    assert after.bindings.recall >= before.bindings.recall - EPS
    assert after.overall.recall >= before.overall.recall - EPS


@SETTINGS
@given(ground_truths(), weights)
def test_suggestion_built_from_the_ground_truth(document, w):
    answer = []
    for match in document.class_matches:
        answer.append(
            {"sourceClass": match.source_class, "targetClass": match.target_class, "confidence": "high"}
        )
        for feature in match.feature_matches:
            source = feature.source_features[0] if feature.source_features else None
            answer.append(
                {
                    "sourceClass": match.source_class,
                    "sourceAttribute": source,
                    "targetClass": match.target_class,
                    "targetAttribute": feature.target_feature,
                }
            )
    result = compare(document, parse_suggestions(answer))
    b = result.bindings
    assert (b.divergent, b.only_generated, b.only_atl) == (0, 0, 0)
    assert result.classes == ClassCounts(tp=len(document.class_matches))
    levels = result.scores(w)
    if b.exact + b.partial:
        expected = (b.exact + w * b.partial) / (b.exact + b.partial)
        if b.partial == 0:
            assert levels.bindings.precision == levels.bindings.recall == 1.0
        assert levels.bindings.precision == pytest.approx(expected, abs=EPS)
        assert levels.bindings.recall == pytest.approx(expected, abs=EPS)
    n = len(document.class_matches)
    if n + b.exact + b.partial:
        expected = (n + b.exact + w * b.partial) / (n + b.exact + b.partial)
        assert levels.overall.precision == pytest.approx(expected, abs=EPS)
        assert levels.overall.recall == pytest.approx(expected, abs=EPS)


# ------------------------------------------------------------------------------------ aggregation

rows = st.lists(
    st.builds(
        lambda p, t, r, c, b: RunRow.of(
            provider=p, model="m", transformation=t, run=str(r), classes=c, bindings=b
        ),
        st.sampled_from(("P1", "P2")),
        st.sampled_from(("T1", "T2", "T3")),
        st.integers(min_value=0, max_value=5),
        st.builds(ClassCounts, small, small, small),
        binding_counts,
    ),
    min_size=1,
    max_size=12,
)


@SETTINGS
@given(rows.flatmap(lambda rs: st.tuples(st.just(rs), st.permutations(rs))), weights)
def test_micro_and_macro_do_not_depend_on_row_order(pair, w):
    original, shuffled = pair
    assert aggregate(original, partial_weight=w).groups == aggregate(shuffled, partial_weight=w).groups


@SETTINGS
@given(rows, weights)
def test_micro_of_one_run_is_that_run(some_rows, w):
    for one in some_rows:
        assert micro([one], w) == one.scores(w)
        group = aggregate([one], partial_weight=w).groups[0]
        assert group.micro == one.scores(w)
        assert group.macro["overall"]["f1"].mean == one.scores(w).overall.f1


@SETTINGS
@given(rows, weights)
def test_micro_is_the_formula_of_the_pooled_counts(some_rows, w):
    total = aggregate(some_rows, partial_weight=w)
    for group in total.totals():
        mine = [r for r in some_rows if r.provider == group.provider]
        tp = sum(r.classes.tp + r.bindings.exact for r in mine) + w * sum(r.bindings.partial for r in mine)
        assert group.micro.overall.recall == pytest.approx(
            scores(tp, 0, sum(r.classes.fn + r.bindings.fn(w) for r in mine)).recall, abs=EPS
        )
