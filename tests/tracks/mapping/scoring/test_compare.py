"""The worked example of docs/METRICS.md, computed by hand, and one test per category and rule."""

from fractions import Fraction

import pytest

from benchmark.core.rows import Row
from benchmark.tracks.mapping.counts import BindingCounts, ClassCounts
from benchmark.tracks.mapping.interchange import (
    ClassMatch,
    FeatureMatch,
    InterchangeDocument,
    TransformationInfo,
)
from benchmark.tracks.mapping.payload import RunRow
from benchmark.tracks.mapping.scoring.compare import (
    classify_binding,
    compare,
    error_row,
    ground_truth_bindings,
)
from benchmark.tracks.mapping.scoring.suggestions import load_suggestions, parse_suggestions
from benchmark.tracks.mapping.scoring.three_way import three_way


def close(value: float, fraction: Fraction | int) -> bool:
    return value == pytest.approx(float(fraction), abs=1e-12)


# ------------------------------------------------------------------------- the worked example


@pytest.fixture
def example(ground_truth, data_dir):
    return compare(ground_truth, load_suggestions(data_dir / "llm-export.json"))


def test_worked_example_class_level(example):
    assert example.classes == ClassCounts(tp=2, fp=1, fn=1)
    assert [(i.source_class, i.target_class, i.verdict, i.confidence) for i in example.class_items] == [
        ("Author", "Person", "tp", "medium"),
        ("Book", "Publication", "tp", "high"),
        ("Chapter", "Section", "fn", None),
        ("Journal", "Publication", "fp", "low"),
    ]
    s = example.scores(0.5).classes
    assert (s.precision, s.recall, s.f1, s.accuracy) == (2 / 3, 2 / 3, 2 / 3, 0.5)


def test_worked_example_binding_categories(example):
    assert {item.key: item.category for item in example.binding_items} == {
        ("Book", "Publication", "title"): "exact",
        ("Book", "Publication", "nbPages"): "exact",  # chapters.nbPages is one of P
        ("Book", "Publication", "authors"): "exact",
        ("Book", "Publication", "label"): "partial",  # H = {isbn, title}
        ("Book", "Publication", "id"): "divergent",
        ("Book", "Publication", "kind"): "targetOnly",  # H empty, key in both
        ("Book", "Publication", "publisher"): "onlyGenerated",
        ("Author", "Person", "fullName"): "partial",
        ("Author", "Person", "created"): "onlyAtl",  # target-only in the ground truth, not suggested
        ("Chapter", "Section", "title"): "onlyAtl",  # its class pair was missed too
    }
    assert example.bindings == BindingCounts(
        exact=3, partial=2, divergent=1, target_only=1, only_generated=1, only_atl=2
    )


@pytest.mark.parametrize(
    ("w", "tp", "fp", "fn"),
    [(0.0, 3, 4, 5), (0.5, 4, 3, 4), (1.0, 5, 2, 3)],
)
def test_worked_example_binding_metrics_at_each_weight(ground_truth, data_dir, w, tp, fp, fn):
    result = compare(ground_truth, load_suggestions(data_dir / "llm-export.json"))
    b = result.bindings
    assert (b.tp(w), b.fp(w), b.fn(w)) == (tp, fp, fn)
    s = result.scores(w).bindings
    assert close(s.precision, Fraction(tp, tp + fp))
    assert close(s.recall, Fraction(tp, tp + fn))
    assert close(s.f1, Fraction(2 * tp, 2 * tp + fp + fn))
    assert close(s.accuracy, Fraction(tp, tp + fp + fn))
    overall = result.scores(w).overall
    assert close(overall.precision, Fraction(2 + tp, 2 + tp + 1 + fp))
    assert close(overall.recall, Fraction(2 + tp, 2 + tp + 1 + fn))


def test_worked_example_overall_at_half(example):
    s = example.scores(0.5).overall
    assert close(s.precision, Fraction(6, 10))
    assert close(s.recall, Fraction(6, 11))
    assert close(s.f1, Fraction(4, 7))
    assert close(s.accuracy, Fraction(6, 15))


def test_both_shapes_score_identically(ground_truth, data_dir):
    export = compare(ground_truth, load_suggestions(data_dir / "llm-export.json"))
    answer = compare(ground_truth, load_suggestions(data_dir / "llm-answer.md"))
    assert export.classes == answer.classes
    assert export.bindings == answer.bindings
    assert export.binding_items == answer.binding_items
    assert export.confidence_slices == answer.confidence_slices


def test_feature_kind_split(ground_truth, data_dir, library, catalog):
    result = compare(
        ground_truth, load_suggestions(data_dir / "llm-export.json"), source_view=library, target_view=catalog
    )
    assert result.bindings_by_kind == {
        "attribute": BindingCounts(exact=2, partial=2, divergent=1, target_only=1, only_atl=2),
        "reference": BindingCounts(exact=1),
        "unknown": BindingCounts(only_generated=1),
    }
    summed = sum(result.bindings_by_kind.values(), BindingCounts())
    assert summed == result.bindings


def test_no_kind_split_without_target_view(example):
    assert example.bindings_by_kind == {}
    assert {item.feature_kind for item in example.binding_items} == {"unknown"}


def test_hallucinations(ground_truth, data_dir, library, catalog):
    suggestions = load_suggestions(data_dir / "llm-export.json")
    result = compare(ground_truth, suggestions, source_view=library, target_view=catalog)
    assert result.hallucinated_classes == ("Journal",)
    assert result.hallucinated_features == ("Book.publisher", "Publication.publisher")
    # reported beside the metrics, which do not change
    assert result.classes == compare(ground_truth, suggestions).classes
    assert compare(ground_truth, suggestions, target_view=catalog).hallucinated_classes is None


def test_hallucination_check_follows_paths_and_either_metamodel(library, catalog):
    answer = parse_suggestions(
        [
            {"sourceClass": "Book", "sourceAttribute": "chapters.nbPages", "targetClass": "Publication",
             "targetAttribute": "nbPages"},
            {"sourceClass": "Book", "sourceAttribute": "chapters.pages", "targetClass": "Publication",
             "targetAttribute": "nbPages"},
            # swapped direction: both classes exist, just not on the expected side
            {"sourceClass": "Publication", "sourceAttribute": "label", "targetClass": "Book",
             "targetAttribute": "isbn"},
        ]
    )  # fmt: skip
    document = InterchangeDocument(TransformationInfo("T", "T.atl"))
    result = compare(document, answer, source_view=library, target_view=catalog)
    assert result.hallucinated_classes == ()
    assert result.hallucinated_features == ("Book.chapters.pages",)


def test_atl_navigation_in_a_path_is_not_a_made_up_name(library, catalog):
    """``refImmediateComposite()`` is ATL's own (the ground truth spells ``c.refImmediateComposite()`` so);
    after it the container may be of any class: the next segment must be some class's feature."""
    answer = parse_suggestions(
        [
            {"sourceClass": "Chapter", "sourceAttribute": "refImmediateComposite()",
             "targetClass": "Publication", "targetAttribute": "nbPages"},
            {"sourceClass": "Chapter", "sourceAttribute": "refImmediateComposite().chapters",
             "targetClass": "Publication", "targetAttribute": "nbPages"},
            {"sourceClass": "Chapter", "sourceAttribute": "refImmediateComposite().publisher",
             "targetClass": "Publication", "targetAttribute": "nbPages"},
        ]
    )  # fmt: skip
    document = InterchangeDocument(TransformationInfo("T", "T.atl"))
    result = compare(document, answer, source_view=library, target_view=catalog)
    assert result.hallucinated_features == ("Chapter.refImmediateComposite().publisher",)


# ------------------------------------------------------------------------------ confidence slices


def test_confidence_filter_and_slices(ground_truth, data_dir):
    suggestions = load_suggestions(data_dir / "llm-export.json")
    high = compare(ground_truth, suggestions, confidence="high")
    assert high.suggestions.confidence_filter == "high"
    assert high.classes == ClassCounts(tp=1, fp=0, fn=2)
    assert high.bindings == BindingCounts(exact=2, partial=2, only_atl=5)
    # slices come from the unfiltered set, so they are the same whatever the filter
    unfiltered = compare(ground_truth, suggestions)
    assert high.confidence_slices == unfiltered.confidence_slices
    slices = unfiltered.confidence_slices
    assert set(slices) == {"high", "medium", "low", "unknown", "high+medium", "all"}
    assert slices["high"].classes == high.classes and slices["high"].bindings == high.bindings
    assert slices["medium"].classes == ClassCounts(1, 0, 2)
    assert slices["medium"].bindings == BindingCounts(exact=1, only_generated=1, only_atl=8)
    assert slices["low"].classes == ClassCounts(0, 1, 3)
    assert slices["low"].bindings == BindingCounts(divergent=1, only_atl=8)
    assert slices["unknown"].classes == ClassCounts(0, 0, 3)
    assert slices["unknown"].bindings == BindingCounts(target_only=1, only_atl=8)
    assert slices["high+medium"].classes == ClassCounts(2, 0, 1)
    assert slices["high+medium"].bindings == BindingCounts(exact=3, partial=2, only_generated=1, only_atl=4)
    assert slices["all"].classes == unfiltered.classes and slices["all"].bindings == unfiltered.bindings


# ----------------------------------------------------------------------------------- categories


def _truth(paths: tuple[str, ...]) -> FeatureMatch:
    return FeatureMatch("f", paths, tuple(sorted({p.split(".")[0] for p in paths})))


@pytest.mark.parametrize(
    ("suggested", "paths", "category"),
    [
        (None, ("a",), "onlyAtl"),
        (None, (), "onlyAtl"),  # a target-only binding nobody suggested still counts as missed
        (frozenset({"a"}), (), "targetOnly"),
        (frozenset(), (), "targetOnly"),
        (frozenset({"b"}), ("a",), "divergent"),
        (frozenset(), ("a",), "divergent"),  # a feature mapping that names no source
        (frozenset({"a"}), ("a",), "exact"),
        (frozenset({"a", "zzz"}), ("a",), "exact"),
        (frozenset({"a.b"}), ("a", "a.b"), "exact"),  # matched against P
        (frozenset({"a.c"}), ("a", "a.b"), "divergent"),
        (frozenset({"a"}), ("a", "b"), "partial"),
        (frozenset({"b.x"}), ("a", "b.x"), "partial"),
        (frozenset({"a", "b"}), ("a", "b"), "partial"),  # naming all of H is still partial (|H| > 1)
    ],
)
def test_classify_binding(suggested, paths, category):
    assert classify_binding(suggested, _truth(paths)) == category


def test_only_generated_and_impossible_key():
    assert classify_binding(frozenset({"a"}), None) == "onlyGenerated"
    with pytest.raises(ValueError):
        classify_binding(None, None)


def test_bindings_count_even_when_the_class_pair_is_missed():
    document = InterchangeDocument(
        TransformationInfo("T", "T.atl"),
        (ClassMatch("A", "B", feature_matches=(FeatureMatch("x", ("x",), ("x",)),)),),
    )
    answer = parse_suggestions([{"sourceClass": "A", "sourceAttribute": "x", "targetClass": "B",
                                 "targetAttribute": "x"}])  # fmt: skip
    result = compare(document, answer)
    assert result.classes == ClassCounts(tp=0, fp=0, fn=1)
    assert result.bindings == BindingCounts(exact=1)


def test_duplicate_pairs_in_a_hand_written_ground_truth_are_united():
    document = InterchangeDocument(
        TransformationInfo("T", "T.atl"),
        (
            ClassMatch("A", "B", feature_matches=(FeatureMatch("x", ("p",), ("p",)),)),
            ClassMatch("MM!A", "B", feature_matches=(FeatureMatch("x", ("q",), ("q",)),)),
        ),
    )
    merged = ground_truth_bindings(document)
    assert merged[("A", "B", "x")].source_features == ("p", "q")
    answer = parse_suggestions([{"sourceClass": "A", "targetClass": "B"}])
    assert compare(document, answer).classes == ClassCounts(tp=1)


def test_several_mappings_for_one_key_form_one_source_set():
    document = InterchangeDocument(
        TransformationInfo("T", "T.atl"),
        (ClassMatch("A", "B", feature_matches=(FeatureMatch("x", ("p",), ("p",)),)),),
    )
    answer = parse_suggestions(
        [
            {"sourceClass": "A", "sourceAttribute": "wrong", "targetClass": "B", "targetAttribute": "x",
             "confidence": "low"},
            {"sourceClass": "A", "sourceAttribute": "p", "targetClass": "B", "targetAttribute": "x",
             "confidence": "medium"},
        ]
    )  # fmt: skip
    result = compare(document, answer)
    (item,) = result.binding_items
    assert (item.category, item.suggested, item.confidence) == ("exact", ("p", "wrong"), "medium")


def test_partial_weight_is_checked_once_by_its_option():
    from pathlib import Path

    from benchmark.core.errors import ConfigurationError
    from benchmark.tracks.mapping.options import PARTIAL_WEIGHT

    assert PARTIAL_WEIGHT.convert("0.25", Path.cwd()) == 0.25
    with pytest.raises(ConfigurationError, match=r"--partial-weight: must be a number in \[0, 1\], got 1.5"):
        PARTIAL_WEIGHT.convert("1.5", Path.cwd())


# --------------------------------------------------------------------------------------- the row


def test_to_row_fills_every_field(ground_truth, data_dir, library, catalog):
    path = data_dir / "llm-export.json"
    result = compare(
        ground_truth, load_suggestions(path), source_view=library, target_view=catalog, confidence="high,med"
    )
    row = result.to_row(run="run01")
    assert row.key == ("atl", "ExampleLLM", "example-1", "Library2Catalog", "run01")
    assert row.file == str(path)
    assert (row.confidence_filter, row.status) == ("high,medium", "ok")
    assert "partialWeight" not in row.to_envelope().payload  # raw categories: w is the reader's
    assert row.classes == result.classes and row.bindings == result.bindings
    assert set(row.bindings_by_kind) == {"attribute", "reference", "unknown"}
    assert set(row.confidence_slices) == {"high", "medium", "low", "unknown", "high+medium", "all"}
    assert row.hallucinated_classes == () and row.hallucinated_features == (
        "Book.publisher",
        "Publication.publisher",
    )
    assert (row.suggestions, row.invalid, row.duplicates) == (8, 2, 1)
    assert len(row.class_items) == 3 and len(row.binding_items) == 10  # Journal (low) filtered out
    assert row.extra["suggestionsBeforeFilter"] == 11
    assert row.extra["modelLabel"] == "Example 1"
    assert row.extra["hallucinationsChecked"] is True
    assert RunRow.from_envelope(Row.loads(row.to_envelope().dumps())) == row  # crosses xdist workers


def test_to_row_defaults_run_to_the_file_stem(example):
    assert example.to_row().run == "llm-export"
    assert example.to_row(provider="X", transformation="Y").key[1:4] == ("X", "example-1", "Y")


def test_error_row_is_marked_and_zero():
    row = error_row(ValueError("boom"), transformation="T", run="r1", file="runs/r1.json")
    assert (row.status, row.error, row.ok) == ("error", "boom", False)
    assert row.classes == ClassCounts() and row.bindings == BindingCounts()


# --------------------------------------------------------------------------------------- three-way


def test_three_way_labels_and_residual_recall(ground_truth, data_dir):
    llm = compare(ground_truth, load_suggestions(data_dir / "llm-export.json"))
    baseline = compare(ground_truth, load_suggestions(data_dir / "baseline.json"))
    report = three_way(llm, baseline, 0.5)
    labels = {item.target_feature and (item.source_class, item.target_feature): item.label
              for item in report.binding_items}  # fmt: skip
    assert labels == {
        ("Book", "title"): "bothRight",
        ("Book", "nbPages"): "llmOnly",
        ("Book", "authors"): "llmOnly",
        ("Book", "label"): "llmOnly",
        ("Book", "id"): "baselineOnly",
        ("Book", "kind"): "llmOnly",
        ("Author", "fullName"): "llmOnly",
        ("Author", "created"): "bothWrong",
        ("Chapter", "title"): "baselineOnly",
        ("Book", "publisher"): "baselineOnly",  # the baseline avoided the LLM's made-up key
    }
    publisher = next(i for i in report.binding_items if i.target_feature == "publisher")
    assert (publisher.baseline, publisher.llm, publisher.in_ground_truth) == (
        "absent",
        "onlyGenerated",
        False,
    )
    assert report.label_counts() == {
        "class": {"bothRight": 1, "llmOnly": 1, "baselineOnly": 2, "bothWrong": 0},
        "binding": {"bothRight": 1, "llmOnly": 5, "baselineOnly": 3, "bothWrong": 1},
    }
    assert report.residual_class.to_json() == {"items": 1, "tp": 1, "fn": 0, "recall": 1.0}
    assert report.residual_binding.to_json() == {"items": 4, "tp": 3.0, "fn": 1.0, "recall": 0.75}
    assert report.residual_overall.recall == 0.8


def test_three_way_needs_one_ground_truth(ground_truth, data_dir):
    other = InterchangeDocument(TransformationInfo("Other", "Other.atl"))
    llm = compare(ground_truth, load_suggestions(data_dir / "llm-export.json"))
    with pytest.raises(ValueError):
        three_way(llm, compare(other, load_suggestions(data_dir / "baseline.json")), 0.5)


def test_diff_report_has_the_documented_fields(example):
    report = example.to_json(0.5)
    assert list(report)[:5] == ["summary", "classes", "bindings", "invalid", "duplicates"]
    assert set(report["summary"]["binding"]) == {
        "exact", "partial", "divergent", "targetOnly", "onlyGenerated", "onlyAtl",
        "tp", "fp", "fn", "precision", "recall", "f1", "accuracy",
    }  # fmt: skip
    assert set(report["summary"]["class"]) == {"tp", "fp", "fn", "precision", "recall", "f1", "accuracy"}
    assert report["summary"]["overall"]["tp"] == 6 and report["input"]["partialWeight"] == 0.5
    assert example.to_json(1.0)["summary"]["binding"]["tp"] == 5  # the same comparison read at w = 1
    assert report["duplicates"] == 1
    assert [entry["path"] for entry in report["invalid"]] == ["$.mappings[12]", "$.mappings[13]"]
