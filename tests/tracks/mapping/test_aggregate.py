"""Micro and macro aggregation against numbers computed by hand."""

import csv
import io
import math
from fractions import Fraction

import pytest

from benchmark.core.errors import ConfigurationError
from benchmark.reports.table import Table
from benchmark.tracks.mapping.aggregate import (
    ALL,
    CSV_COLUMNS,
    aggregate,
    csv_records,
    run_records,
    split_rows,
    spread,
    table_rows,
)
from benchmark.tracks.mapping.counts import BindingCounts, ClassCounts
from benchmark.tracks.mapping.payload import RunRow
from benchmark.tracks.mapping.scoring.compare import error_row


def row(provider, transformation, run, classes, bindings, model="m", **kwargs):
    return RunRow.of(
        provider=provider,
        model=model,
        transformation=transformation,
        run=run,
        classes=ClassCounts(*classes),
        bindings=BindingCounts(**bindings),
        **kwargs,
    )


EXAMPLE = {"exact": 3, "partial": 2, "divergent": 1, "target_only": 1, "only_generated": 1, "only_atl": 2}


@pytest.fixture
def rows():
    return [
        row("P1", "T1", "run1", (2, 1, 1), EXAMPLE, bindings_by_kind={"attribute": BindingCounts(exact=3)}),
        row("P1", "T1", "run2", (1, 0, 2), {"exact": 1, "only_atl": 3}),
        row("P1", "T2", "run1", (0, 0, 0), {}),
        row("P2", "T1", "run1", (3, 0, 0), {"exact": 4}, hallucinated_classes=("X",)),
        error_row("broken JSON", provider="P1", transformation="T2", run="run2", file="T2/run2.json"),
    ]


def approx(fraction):
    return pytest.approx(float(fraction), abs=1e-12)


def test_groups_are_ordered_with_all_rows_last(rows):
    result = aggregate(rows)
    assert [(g.provider, g.transformation, g.runs) for g in result.groups] == [
        ("P1", "T1", 2),
        ("P1", "T2", 1),
        ("P1", ALL, 3),
        ("P2", "T1", 1),
        ("P2", ALL, 1),
    ]
    assert [g.provider for g in result.totals()] == ["P1", "P2"]
    assert result.rows_used == 4


def test_micro_pools_counts_then_applies_the_formulas(rows):
    p1_t1 = aggregate(rows).groups[0]
    assert p1_t1.classes == ClassCounts(3, 1, 3)
    assert p1_t1.bindings == BindingCounts(
        exact=4, partial=2, divergent=1, target_only=1, only_generated=1, only_atl=5
    )
    overall = p1_t1.micro.overall  # TP 3+5=8, FP 1+3=4, FN 3+7=10
    assert overall.precision == approx(Fraction(8, 12))
    assert overall.recall == approx(Fraction(8, 18))
    assert overall.f1 == approx(Fraction(16, 30))
    assert overall.accuracy == approx(Fraction(8, 22))


def test_macro_is_the_mean_of_per_run_metrics_with_sample_sd(rows):
    groups = aggregate(rows).groups
    f1 = groups[0].macro["overall"]["f1"]  # runs: 4/7 and 4/9
    assert f1.mean == approx(Fraction(32, 63))
    assert f1.sd == pytest.approx(float(Fraction(8, 63)) / math.sqrt(2), abs=1e-12)
    assert f1.n == 2
    all_p1 = groups[2].macro["overall"]["f1"]  # the empty run scores 0 and is averaged in
    assert all_p1.mean == approx(Fraction(64, 189))
    single = groups[3].macro["overall"]["f1"]
    assert (single.mean, single.sd, single.n) == (1.0, None, 1)


def test_macro_f1_is_not_the_f1_of_macro_precision_and_recall(rows):
    group = aggregate(rows).groups[0]
    p, r = group.macro["overall"]["precision"].mean, group.macro["overall"]["recall"].mean
    assert group.macro["overall"]["f1"].mean != pytest.approx(2 * p * r / (p + r))


def test_all_row_pools_every_transformation(rows):
    all_p1 = aggregate(rows).groups[2]
    assert all_p1.classes == ClassCounts(3, 1, 3)  # T2's only ok run is empty
    assert all_p1.micro == aggregate(rows).groups[0].micro


def test_error_rows_are_excluded_and_listed(rows):
    result = aggregate(rows)
    assert [(e.provider, e.transformation, e.run, e.error) for e in result.excluded] == [
        ("P1", "T2", "run2", "broken JSON")
    ]
    assert aggregate([r for r in rows if r.ok]).groups == result.groups


def test_repeated_runs_pool_counts_not_sets():
    same = row("P", "T", "a", (1, 0, 0), {"exact": 1})
    twice = aggregate([same, row("P", "T", "b", (1, 0, 0), {"exact": 1})]).groups[0]
    assert twice.classes == ClassCounts(2, 0, 0)
    assert twice.bindings == BindingCounts(exact=2)


def test_weight_is_reapplied_from_raw_counts(rows):
    ok = [r for r in rows if r.ok]
    at_one = aggregate(ok, partial_weight=1.0).groups[0]
    assert at_one.partial_weight == 1.0
    # TP = 3 + 4 + 2, FP = 1 + 1 + 1, FN = 3 + 5 + 1
    assert at_one.micro.overall.precision == approx(Fraction(9, 12))


def test_an_older_session_with_the_weight_in_its_rows_still_reads():
    """Rows used to carry ``partialWeight``; a session saved then reads at that weight, and rows of
    different weights need a choice."""
    from dataclasses import replace

    from benchmark.tracks.mapping.payload import RunRow, saved_partial_weight

    def old(run, weight):
        envelope = row("P", "T", run, (1, 0, 0), {}).to_envelope()
        return replace(envelope, payload={**envelope.payload, "partialWeight": weight})

    assert saved_partial_weight({}, [old("a", 0.25), old("b", 0.25)]) == 0.25
    assert saved_partial_weight({"partialWeight": 1.0}, [old("a", 0.25)]) == 1.0
    assert saved_partial_weight({}, []) == 0.5
    with pytest.raises(ConfigurationError, match="different partial weights"):
        saved_partial_weight({}, [old("a", 0.5), old("b", 1.0)])
    assert (
        RunRow.from_envelope(old("a", 0.25)).to_envelope().payload
        == row("P", "T", "a", (1, 0, 0), {}).to_envelope().payload
    )


def test_by_model_separates_models():
    rows = [row("P", "T", "a", (1, 0, 0), {}, model="m1"), row("P", "T", "b", (0, 1, 0), {}, model="m2")]
    assert [(g.model, g.transformation) for g in aggregate(rows, by_model=True).groups] == [
        ("m1", "T"),
        ("m1", ALL),
        ("m2", "T"),
        ("m2", ALL),
    ]
    pooled = aggregate(rows).groups[0]
    assert (pooled.model, pooled.models) == (None, ("m1", "m2"))


def test_kind_split_and_side_counts_are_pooled(rows):
    group = aggregate(rows).groups[0]
    assert group.bindings_by_kind == {"attribute": BindingCounts(exact=3)}
    assert group.micro_by_kind()["attribute"].precision == 1.0
    assert aggregate(rows).groups[3].hallucinated_classes == 1


def test_csv_records_have_fixed_columns_and_blank_for_unmeasured(rows):
    records = csv_records(aggregate(rows))
    assert all(list(record) == list(CSV_COLUMNS) for record in records)
    first = records[0]
    assert (first["overall_tp"], first["overall_fp"], first["overall_fn"]) == (8, 4, 10)
    assert first["micro_attribute_precision"] == 1.0 and first["micro_reference_precision"] == ""
    assert records[3]["macro_overall_f1_sd"] == ""  # one run: no standard deviation
    buffer = io.StringIO()
    writer = csv.DictWriter(buffer, fieldnames=CSV_COLUMNS)
    writer.writeheader()
    writer.writerows(records)
    assert len(buffer.getvalue().splitlines()) == 1 + len(records)


def test_run_records_include_error_rows(rows):
    records = run_records(rows)
    assert [r["status"] for r in records].count("error") == 1
    example = next(
        r for r in records if r["provider"] == "P1" and r["run"] == "run1" and r["transformation"] == "T1"
    )
    assert (example["binding_tp"], example["binding_fp"], example["binding_fn"]) == (4.0, 3.0, 4.0)
    assert example["overall_precision"] == approx(Fraction(6, 10))


def test_table_rows_print_as_a_terminal_table(rows):
    result = aggregate(rows)
    totals = table_rows(result, totals_only=True)
    assert [(r["provider"], r["transformation"], r["runs"]) for r in totals] == [
        ("P1", ALL, 3),
        ("P2", ALL, 1),
    ]
    assert totals[0]["F1"] == round(16 / 30, 3)
    assert totals[0]["macro F1"].startswith("0.339 ± ")
    assert totals[1]["macro F1"] == "1.000"
    text = "\n".join(Table.from_records("totals", "Totals", totals).to_terminal())
    assert "macro F1" in text.splitlines()[0] and text.splitlines()[2].startswith("P1 ")
    assert table_rows(result, level="class")[0]["P"] == 0.75
    with pytest.raises(ValueError):
        table_rows(result, level="feature")
    split = split_rows(result)
    assert split[0]["attribute F1"] == 1.0 and split[1]["attribute F1"] is None


def test_spread_of_nothing():
    assert spread([]).n == 0


def test_tables_print_every_metric_with_three_decimals(rows):
    from benchmark.tracks.mapping.reports.terminal import format_tables

    text = format_tables(aggregate(rows))
    p2 = next(line for line in text.splitlines() if line.startswith("P2") and "ALL" in line)
    assert p2.split()[3:8] == ["0", "1.000", "1.000", "1.000", "1.000"]  # unusable runs; then not "1"
    split_table = text.split("Split by level and feature kind")[1]
    split = next(line for line in split_table.splitlines() if line.startswith("P1"))
    assert split.split()[1:3] == ["0.600", "0.500"]  # P1's class and binding F1, not 0.6 and 0.5


def test_an_excluded_run_names_its_file_once(rows):
    from benchmark.tracks.mapping.reports.terminal import format_tables

    parsed = error_row(
        "T3/r.json:1:2: not valid JSON", provider="P1", transformation="T3", run="r", file="T3/r.json"
    )
    lines = format_tables(aggregate([*rows, parsed])).splitlines()
    assert "  T3/r.json:1:2: not valid JSON" in lines
    assert "  T2/run2.json: broken JSON" in lines


def test_runs_excluded_by_one_cause_are_listed_once_per_transformation(rows):
    """An unusable ground truth excludes every run of its transformation with the same message: the list
    says it once, naming the runs (the provider first when the run id does not say it); runs excluded
    for causes of their own keep a line each."""
    from benchmark.tracks.mapping.reports.terminal import excluded_lines, format_tables

    cause = "ground truth of Alpha2Beta is unusable: Alpha2Beta.atl:6:7: unexpected ';'"
    shared = [
        error_row(cause, provider=p, transformation="Alpha2Beta", run=r, file=f"Alpha2Beta/{r}.json")
        for p, r in (("Claude", "runs/Claude-run01"), ("EMFCompare", "EMFCompare"), ("Local", "export (3)"))
    ]
    lines = excluded_lines(aggregate([*rows, *shared]).excluded)
    assert lines == [
        "Alpha2Beta (3 runs: runs/Claude-run01, EMFCompare, Local export (3)): " + cause,
        "T2/run2.json: broken JSON",
    ]
    text = format_tables(aggregate([*rows, *shared]))
    assert text.count(cause) == 1 and "4 runs excluded" in text


def test_names_sort_ignoring_case_in_groups_records_and_statistics():
    """``book2publication`` sorts among the B's (a case-sensitive sort put it after every capital)."""
    from benchmark.tracks.mapping.stats.summary import compute_statistics

    names = ["xml2ant", "Class2Relational", "book2publication", "Java2Table"]
    rows = [row(p, t, "run1", (1, 0, 0), {"exact": 1}) for p in ("beta", "Alpha") for t in names]
    rows.append(error_row("broken", provider="beta", transformation="book2publication", run="r2"))
    rows.append(error_row("broken", provider="Alpha", transformation="xml2ant", run="r2"))
    expected = ["book2publication", "Class2Relational", "Java2Table", "xml2ant"]
    groups = aggregate(rows).groups
    assert [(g.provider, g.transformation) for g in groups] == [
        *(("Alpha", t) for t in expected),
        ("Alpha", ALL),
        *(("beta", t) for t in expected),
        ("beta", ALL),
    ]
    assert [(e.provider, e.transformation) for e in aggregate(rows).excluded] == [
        ("Alpha", "xml2ant"),
        ("beta", "book2publication"),
    ]
    records = run_records(rows)
    assert [r["transformation"] for r in records if r["provider"] == "Alpha"] == [
        "book2publication",
        "Class2Relational",
        "Java2Table",
        "xml2ant",
        "xml2ant",
    ]
    assert list(compute_statistics(rows, draws=10).transformations) == expected


def test_a_feature_kind_the_ground_truth_lacks_has_no_f1_not_zero():
    """Reference F1 is "–" when the ground truth has no reference binding (it was 0.000); a kind that
    the ground truth has, but the run missed entirely, is a real 0."""
    from benchmark.tracks.mapping.reports.tables import split_table
    from benchmark.tracks.mapping.reports.terminal import format_tables
    from benchmark.tracks.mapping.stats.summary import compute_statistics

    by_kind = {
        "attribute": BindingCounts(exact=2, only_atl=1),
        "reference": BindingCounts(only_generated=2),  # suggested only: nothing to recall
        "unknown": BindingCounts(),
    }
    missed = {"attribute": BindingCounts(exact=1), "reference": BindingCounts(only_atl=2)}
    rows = [
        row(
            "P",
            "T",
            "run1",
            (1, 0, 0),
            {"exact": 2, "only_atl": 1, "only_generated": 2},
            bindings_by_kind=by_kind,
        ),
        row("Q", "T", "run1", (1, 0, 0), {"exact": 1, "only_atl": 2}, bindings_by_kind=missed),
    ]
    result = aggregate(rows)
    split = {r["provider"]: r for r in split_rows(result)}
    assert split["P"]["attribute F1"] == 0.8 and split["P"]["reference F1"] is None
    assert split["Q"]["reference F1"] == 0.0  # the ground truth has reference bindings: a real zero
    p_all = next(r for r in csv_records(result) if r["provider"] == "P" and r["transformation"] == ALL)
    assert p_all["micro_reference_f1"] == "" and p_all["micro_attribute_f1"] == 0.8
    terminal = format_tables(result).split("Split by level and feature kind")[1]
    p_line = next(line for line in terminal.splitlines() if line.startswith("P "))
    assert p_line.split()[3:5] == ["0.800", "-"]
    report = {r[0]: r for r in split_table(compute_statistics(rows, draws=10)).rows}
    assert report["P"][4] == "–" and report["Q"][4] == "0.000"


def test_unusable_runs_are_scored_and_counted_per_provider():
    """An unusable answer is a run with no suggestions (every ground-truth item missed), and each table
    says how many of a provider's runs were such answers (CSV column ``unusable_runs``)."""
    from benchmark.tracks.mapping.aggregate import CSV_COLUMNS, aggregate, csv_records
    from benchmark.tracks.mapping.scoring.outcomes import ROW_UNUSABLE

    usable = row("P", "T1", "r1", (2, 0, 0), {"exact": 2})
    unusable = row("P", "T1", "r2", (0, 0, 2), {"only_atl": 2}, extra={ROW_UNUSABLE: "no array"})
    aggregation = aggregate([usable, unusable])
    total = next(g for g in aggregation.groups if g.is_total)
    assert (total.runs, total.unusable_runs) == (2, 1)
    assert total.micro.overall.recall == 0.5  # the unusable run's misses count
    assert "unusable_runs" in CSV_COLUMNS
    assert {r["unusable_runs"] for r in csv_records(aggregation)} == {1}
    assert total.to_json()["unusableRuns"] == 1
