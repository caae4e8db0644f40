"""The scorer on hand-computed fixtures (docs/ROUNDTRIP.md §8): every verdict, every metric."""

from __future__ import annotations

import types
from pathlib import Path

import pytest

from benchmark.tracks.roundtrip.lines import CanonicalLine, Property
from benchmark.tracks.roundtrip.scoring import match_lines, score


def verdicts(report):  # type: ignore[no-untyped-def]
    return {(line.verdict, line.key) for line in report.lines}


def test_worked_example(tmp_path: Path, models: types.SimpleNamespace) -> None:
    report = score(
        models.write(tmp_path, "T.sql.xmi", models.BASE_T),
        models.write(tmp_path, "DeltaT.sql.xmi", models.EXPECTED_T),
        models.write(tmp_path, "out.sql.xmi", models.OUTPUT_T),
    )
    assert report.loadable and report.load_error is None and report.read_as == "model"
    counts = report.counts
    assert (counts.cr, counts.incr, counts.miss, counts.ad, counts.loc) == (4, 1, 1, 1, 6)
    assert report.pct_correct == pytest.approx(4 / 6)
    assert report.delta_detected
    assert report.pct_wsuccess == pytest.approx(1 / 6)
    assert not report.equivalent
    assert verdicts(report) == {
        ("Cr", "Book"),
        ("Cr", "Book/id"),
        ("InCr", "Book/title"),
        ("Miss", "Book/year"),
        ("Cr", "Book/pages"),
        ("Ad", "book/author"),
    }
    (title,) = [line for line in report.lines if line.key == "Book/title"]
    assert title.differences == ("nullable",)
    (pages,) = [line for line in report.lines if line.key == "Book/pages"]
    assert pages.delta == "added"
    data = report.to_json()
    assert [data[k] for k in ("LOC", "Cr", "InCr", "Ad", "Miss")] == [6, 4, 1, 1, 1]
    assert set(data) >= {
        "loadable", "loadError", "LOC", "Cr", "InCr", "Ad", "Miss", "pctCorrect", "pctWSuccess",
        "deltaDetected", "equivalent", "lines",
    }  # fmt: skip
    assert len(data["lines"]) == 7  # 6 expected lines + 1 added


def test_worked_example_without_the_delta_is_penalised(tmp_path: Path, models: types.SimpleNamespace) -> None:
    report = score(
        models.write(tmp_path, "T.sql.xmi", models.BASE_T),
        models.write(tmp_path, "DeltaT.sql.xmi", models.EXPECTED_T),
        models.write(tmp_path, "out.sql.xmi", models.OUTPUT_T_WITHOUT_DELTA),
    )
    counts = report.counts
    assert (counts.cr, counts.incr, counts.miss, counts.ad, counts.loc) == (3, 1, 2, 1, 5)
    assert not report.delta_detected
    assert report.delta_misses == (
        "added line not correct (Miss): column Book/pages; type=INTEGER; nullable=true; unique=false",
    )
    assert report.pct_wsuccess == pytest.approx(-0.6)
    assert report.pct_correct == pytest.approx(3 / 6)


def test_ecore_case_with_a_removed_key_still_present(tmp_path: Path, models: types.SimpleNamespace) -> None:
    report = score(
        models.write(tmp_path, "S.ecore", models.BASE_S),
        models.write(tmp_path, "DeltaS.ecore", models.EXPECTED_S),
        models.write(tmp_path, "out.ecore", models.OUTPUT_S),
    )
    assert report.loadable, report.load_error
    counts = report.counts
    # expected: 4 classes/enum + 4 features + 2 literals = 10 lines
    assert report.expected_lines == 10
    assert (counts.cr, counts.incr, counts.miss, counts.ad, counts.loc) == (8, 1, 1, 2, 11)
    assert report.pct_correct == pytest.approx(8 / 10)
    assert not report.delta_detected  # Book/pages was removed by the delta but is still there
    assert report.pct_wsuccess == pytest.approx((8 - 1 - 1 - 2 - 2) / 11)
    by_key = {(line.verdict, line.key): line for line in report.lines}
    assert by_key[("InCr", "Item")].differences == ("abstract",)
    assert by_key[("Cr", "Book/pageCount")].delta == "added"  # EIntegerObject is a synonym of EInt
    assert by_key[("Cr", "Book/author")].delta == "changed"
    assert by_key[("Ad", "Book/pages")].delta == "removed"
    assert ("Ad", "Book") in by_key  # the duplicate class
    assert ("Miss", "Genre/B") in by_key
    assert report.delta_misses == (
        "removed line still present: attribute Book/pages; type=EInt; lower=0; upper=1",
    )


def test_expected_against_itself_is_equivalent(tmp_path: Path, models: types.SimpleNamespace) -> None:
    expected = models.write(tmp_path, "DeltaS.ecore", models.EXPECTED_S)
    report = score(models.write(tmp_path, "S.ecore", models.BASE_S), expected, expected)
    assert report.equivalent and report.delta_detected
    assert (report.pct_correct, report.pct_wsuccess) == (1.0, 1.0)
    assert report.counts.cr == report.expected_lines == 10


def test_base_against_expected_misses_the_delta(tmp_path: Path, models: types.SimpleNamespace) -> None:
    base = models.write(tmp_path, "S.ecore", models.BASE_S)
    report = score(base, models.write(tmp_path, "DeltaS.ecore", models.EXPECTED_S), base)
    # pageCount missing (Miss), pages extra (Ad), author differs in upper (InCr)
    counts = report.counts
    assert (counts.cr, counts.incr, counts.miss, counts.ad) == (8, 1, 1, 1)
    assert not report.delta_detected and len(report.delta_misses) == 3


def line(key: str, value: str) -> CanonicalLine:
    return CanonicalLine("column", key, f"column {key.lower()}", (Property("type", value, value),))


def test_identical_lines_pair_before_differing_ones() -> None:
    expected = [line("T/a", "INTEGER")]
    output = [line("T/a", "BIGINT"), line("T/a", "INTEGER")]
    result = match_lines(expected, output)
    assert [(v.verdict, v.output.properties[0].shown if v.output else None) for v in result] == [
        ("Cr", "INTEGER"),
        ("Ad", "BIGINT"),
    ]


def test_duplicates_pair_in_order_and_count_once_each() -> None:
    expected = [line("T/a", "INTEGER"), line("T/a", "DATE")]
    output = [line("T/a", "BOOLEAN"), line("T/a", "INTEGER"), line("T/a", "DOUBLE")]
    result = match_lines(expected, output)
    assert [v.verdict for v in result] == ["Cr", "InCr", "Ad"]
    assert result[1].differences == ("type",)


def test_empty_output_scores_zero_not_nan(tmp_path: Path, models: types.SimpleNamespace) -> None:
    empty = models.BASE_T.split("  <tables")[0] + "</sql:Schema>\n"
    report = score(
        models.write(tmp_path, "T.sql.xmi", models.BASE_T),
        models.write(tmp_path, "DeltaT.sql.xmi", models.EXPECTED_T),
        models.write(tmp_path, "out.sql.xmi", empty),
    )
    assert report.loadable
    assert report.counts.loc == 0 and report.counts.miss == 6
    assert (report.pct_correct, report.pct_wsuccess) == (0.0, 0.0)
    assert not report.delta_detected


def test_unreadable_reference_is_an_input_error(tmp_path: Path, models: types.SimpleNamespace) -> None:
    from benchmark.core.errors import BenchmarkError, InputFormatError
    from benchmark.tracks.roundtrip.reading import SQL

    base = models.write(tmp_path, "T.sql.xmi", models.BASE_T)
    broken = models.write(tmp_path, "DeltaT.sql.xmi", models.EXPECTED_T.replace("</sql:Schema>", ""))
    with pytest.raises(BenchmarkError, match="not well-formed"):
        score(base, broken, broken)
    with pytest.raises(InputFormatError, match="reference model is not loadable: not well-formed"):
        score(base, broken, broken, SQL)
