"""The scorer on hand-computed fixtures (docs/ROUNDTRIP.md §8): every verdict, every metric."""

from __future__ import annotations

import types
from pathlib import Path

import pytest

from benchmark.tracks.roundtrip.models.lines import CanonicalLine, Property
from benchmark.tracks.roundtrip.scoring.scorer import match_lines, score


def verdicts(report):  # type: ignore[no-untyped-def]
    return {(line.verdict, line.key) for line in report.lines}


def test_worked_example(tmp_path: Path, models: types.SimpleNamespace) -> None:
    """docs/ROUNDTRIP.md §8, worked example 1 (forward stage, SQL)."""
    report = score(
        models.write(tmp_path, "T.sql.xmi", models.BASE_T),
        models.write(tmp_path, "DeltaT.sql.xmi", models.EXPECTED_T),
        models.write(tmp_path, "out.sql.xmi", models.OUTPUT_T),
    )
    assert report.loadable and report.load_error is None and report.read_as == "model"
    counts = report.counts
    assert (counts.cr, counts.incr, counts.miss, counts.ad, counts.ad_harmful, counts.loc) == (
        5,
        1,
        1,
        1,
        1,
        7,
    )
    assert report.pct_correct == pytest.approx(5 / 7)
    assert report.delta_detected
    assert report.pct_wsuccess == pytest.approx((5 - 1 - 1 - 1) / (7 + 1))
    assert report.pct_wsuccess_sheet == pytest.approx((5 - 1 - 1 - 1) / 7)
    assert (report.delta.lines, report.delta.reproduced, report.delta.output_changes) == (1, 1, 4)
    assert (report.delta.recall, report.delta.precision) == (1.0, 0.25)
    assert not report.equivalent
    assert verdicts(report) == {
        ("Cr", "lib"),
        ("Cr", "Book"),
        ("Cr", "Book/id"),
        ("InCr", "Book/title"),
        ("Miss", "Book/year"),
        ("Cr", "Book/pages"),
        ("Ad", "book/author"),
    }
    (title,) = [line for line in report.lines if line.key == "Book/title"]
    assert title.differences == ("type", "nullable")  # TEXT is not VARCHAR(255)
    (pages,) = [line for line in report.lines if line.key == "Book/pages"]
    assert pages.delta == "added"
    data = report.to_json()
    assert [data[k] for k in ("LOC", "Cr", "InCr", "Ad", "AdHarmful", "Miss")] == [7, 5, 1, 1, 1, 1]
    assert set(data) >= {
        "loadable", "loadError", "LOC", "Cr", "InCr", "Ad", "AdHarmful", "Miss", "pctCorrect", "pctWSuccess",
        "pctWSuccessSheet", "deltaDetected", "deltaRecall", "deltaPrecision", "equivalent", "flags", "lines",
    }  # fmt: skip
    assert len(data["lines"]) == 8  # 7 expected lines + 1 added


def test_worked_example_without_the_delta_is_penalised(tmp_path: Path, models: types.SimpleNamespace) -> None:
    report = score(
        models.write(tmp_path, "T.sql.xmi", models.BASE_T),
        models.write(tmp_path, "DeltaT.sql.xmi", models.EXPECTED_T),
        models.write(tmp_path, "out.sql.xmi", models.OUTPUT_T_WITHOUT_DELTA),
    )
    counts = report.counts
    assert (counts.cr, counts.incr, counts.miss, counts.ad, counts.loc) == (4, 1, 2, 1, 6)
    assert not report.delta_detected
    assert report.delta_misses == (
        "added line not correct (Miss): column Book/pages; type=INTEGER; nullable=true; unique=false",
    )
    assert report.pct_wsuccess == pytest.approx((4 - 1 - 2 - 1 - 2) / (6 + 2))  # once per stage
    assert report.pct_correct == pytest.approx(4 / 7)
    assert (report.delta.recall, report.delta.precision) == (0.0, 0.0)


ECORE_BASE = """<?xml version="1.0" encoding="UTF-8"?>
<ecore:EPackage xmi:version="2.0" {ns} name="lib" nsURI="http://example.org/lib" nsPrefix="lib">
  <eClassifiers xsi:type="ecore:EClass" name="Book">
    <eStructuralFeatures xsi:type="ecore:EAttribute" name="pages" eType="{e}EInt"/>
    <eStructuralFeatures xsi:type="ecore:EReference" name="author" eType="#//Person"/>
  </eClassifiers>
  <eClassifiers xsi:type="ecore:EClass" name="Person">
    <eStructuralFeatures xsi:type="ecore:EAttribute" name="name" eType="{e}EString"/>
  </eClassifiers>
</ecore:EPackage>
"""
ECORE_ANSWER = """Here is S':

```xml
{model}```

Person's attribute is now capitalised.
"""


def ecore_example(tmp_path: Path, models: types.SimpleNamespace) -> tuple[Path, Path, Path]:
    """docs/ROUNDTRIP.md §8, worked example 2: to_many on Book.author, answered in prose and a fence."""
    base = ECORE_BASE.format(ns=models.ECORE_NS, e=models.E)
    expected = base.replace('name="author" eType', 'name="author" upperBound="-1" eType')
    model = (
        expected.replace(
            '  <eClassifiers xsi:type="ecore:EClass" name="Book">\n',
            '  <eClassifiers xsi:type="ecore:EClass" name="Book">\n'
            "    <!-- Book_author is a join table: Book.author is to-many -->\n",
        )
        .replace(
            '    <eStructuralFeatures xsi:type="ecore:EReference" name="author"',
            '    <eStructuralFeatures xsi:type="ecore:EAttribute" name="summary" derived="true" '
            f'transient="true" volatile="true" eType="{models.E}EString"/>\n'
            '    <eStructuralFeatures xsi:type="ecore:EReference" name="author"',
        )
        .replace('name="name"', 'name="Name"')
    )
    return (
        models.write(tmp_path, "S.ecore", base),
        models.write(tmp_path, "DeltaS.ecore", expected),
        models.write(tmp_path, "answer.md", ECORE_ANSWER.format(model=model)),
    )


def test_worked_example_ecore_raw_answer(tmp_path: Path, models: types.SimpleNamespace) -> None:
    base, expected, answer = ecore_example(tmp_path, models)
    report = score(base, expected, answer)
    assert report.loadable, report.load_error
    counts = report.counts
    assert (counts.cr, counts.incr, counts.miss, counts.ad, counts.ad_harmful, counts.loc) == (
        5,
        0,
        1,
        2,
        1,
        7,
    )
    assert verdicts(report) == {
        ("Cr", "lib"),
        ("Cr", "Book"),
        ("Cr", "Book/pages"),
        ("Cr", "Book/author"),
        ("Cr", "Person"),
        ("Miss", "Person/name"),
        ("Ad", "Book/summary"),
        ("Ad", "Person/Name"),  # Ecore names are case-sensitive
    }
    harmful = {line.key: line.harmful for line in report.lines if line.verdict == "Ad"}
    assert harmful == {"Book/summary": False, "Person/Name": True}  # derived: no column
    assert report.pct_correct == pytest.approx(5 / 6)
    assert report.delta_detected
    assert (report.delta.lines, report.delta.reproduced, report.delta.output_changes) == (1, 1, 4)
    assert report.pct_wsuccess == pytest.approx((5 - 0 - 1 - 1 - 0) / (7 + 1))
    assert report.pct_wsuccess_sheet == pytest.approx((5 - 0 - 1 - 2 - 0) / 7)
    assert report.flags == ("Book_author is a join table: Book.author is to-many",)
    assert report.extraction is not None
    assert (report.extraction["source"], report.extraction["startLine"]) == ("the fenced block", 4)
    assert report.extraction["prose"] is True


def test_echo_detects_nothing_and_earns_no_delta_score(tmp_path: Path, models: types.SimpleNamespace) -> None:
    """docs/ROUNDTRIP.md §8.3: the unchanged base as the answer (the Echo baseline)."""
    base = models.write(tmp_path, "T.sql.xmi", models.BASE_T)
    report = score(base, models.write(tmp_path, "DeltaT.sql.xmi", models.EXPECTED_T), base)
    counts = report.counts
    assert (counts.cr, counts.incr, counts.miss, counts.ad, counts.loc) == (6, 0, 1, 0, 6)
    assert not report.delta_detected
    assert (report.delta.recall, report.delta.precision, report.delta.output_changes) == (0.0, 0.0, 0)
    assert report.pct_correct == pytest.approx(6 / 7)
    assert report.pct_wsuccess == pytest.approx((6 - 1 - 2) / 7)


def test_an_empty_answer_scores_below_a_half_right_one(tmp_path: Path, models: types.SimpleNamespace) -> None:
    """docs/ROUNDTRIP.md §8.4: with the sheet's /LOC an empty answer (0) beat a half-right one."""
    base = models.write(tmp_path, "T.sql.xmi", models.BASE_T)
    expected = models.write(tmp_path, "DeltaT.sql.xmi", models.EXPECTED_T)
    empty = score(base, expected, models.write(tmp_path, "empty.txt", ""))
    half = models.EXPECTED_T.replace(models.EXPECTED_T[models.EXPECTED_T.index("    <columns") :], "")
    half += (
        '    <columns xmi:id="Book.pages" name="pages" type="INTEGER" nullable="true" unique="false"/>\n'
        "  </tables>\n</sql:Schema>\n"
    )
    half_right = score(base, expected, models.write(tmp_path, "half.sql.xmi", half))
    assert (empty.counts.loc, empty.counts.miss, empty.read_as) == (0, 7, "nothing")
    assert (half_right.counts.cr, half_right.counts.miss, half_right.counts.loc) == (3, 4, 3)
    assert half_right.delta_detected
    assert empty.pct_wsuccess == pytest.approx((0 - 7 - 2) / 7)
    assert half_right.pct_wsuccess == pytest.approx((3 - 4) / 7)
    assert half_right.pct_wsuccess > empty.pct_wsuccess
    assert half_right.pct_wsuccess_sheet < empty.pct_wsuccess_sheet == 0.0  # the sheet's formula got it wrong


def test_ecore_case_with_a_removed_key_still_present(tmp_path: Path, models: types.SimpleNamespace) -> None:
    report = score(
        models.write(tmp_path, "S.ecore", models.BASE_S),
        models.write(tmp_path, "DeltaS.ecore", models.EXPECTED_S),
        models.write(tmp_path, "out.ecore", models.OUTPUT_S),
    )
    assert report.loadable, report.load_error
    counts = report.counts
    # expected: the package, 4 classes/enum, 4 features, 2 literals = 11 lines
    assert report.expected_lines == 11
    assert (counts.cr, counts.incr, counts.miss, counts.ad, counts.ad_harmful, counts.loc) == (
        9,
        1,
        1,
        2,
        2,
        12,
    )
    assert report.pct_correct == pytest.approx(9 / 11)
    assert not report.delta_detected  # Book/pages was removed by the delta but is still there
    assert report.pct_wsuccess == pytest.approx((9 - 1 - 1 - 2 - 2) / (12 + 1))
    assert (report.delta.lines, report.delta.reproduced, report.delta.output_changes) == (3, 2, 4)
    by_key = {(line.verdict, line.key): line for line in report.lines}
    assert by_key[("InCr", "Item")].differences == ("abstract",)
    assert by_key[("Cr", "Book/pageCount")].delta == "added"  # EIntegerObject is a synonym of EInt
    assert by_key[("Cr", "Book/author")].delta == "changed"
    assert by_key[("Ad", "Book/pages")].delta == "removed"
    assert ("Ad", "Book") in by_key  # the duplicate class
    assert ("Miss", "Genre/B") in by_key
    assert report.delta_misses == (
        "removed line still present: attribute Book/pages; type=EInt; lower=0; upper=1; iD=false; "
        "derived=false; transient=false; volatile=false",
    )


def test_expected_against_itself_is_equivalent(tmp_path: Path, models: types.SimpleNamespace) -> None:
    expected = models.write(tmp_path, "DeltaS.ecore", models.EXPECTED_S)
    report = score(models.write(tmp_path, "S.ecore", models.BASE_S), expected, expected)
    assert report.equivalent and report.delta_detected
    assert (report.pct_correct, report.pct_wsuccess) == (1.0, 1.0)
    assert report.counts.cr == report.expected_lines == 11
    assert (report.delta.recall, report.delta.precision) == (1.0, 1.0)


def test_base_against_expected_misses_the_delta(tmp_path: Path, models: types.SimpleNamespace) -> None:
    base = models.write(tmp_path, "S.ecore", models.BASE_S)
    report = score(base, models.write(tmp_path, "DeltaS.ecore", models.EXPECTED_S), base)
    # pageCount missing (Miss), pages extra (Ad), author differs in upper (InCr)
    counts = report.counts
    assert (counts.cr, counts.incr, counts.miss, counts.ad) == (9, 1, 1, 1)
    assert not report.delta_detected and len(report.delta_misses) == 3
    assert (report.delta.recall, report.delta.precision) == (0.0, 0.0)


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


def test_an_empty_schema_scores_no_nan(tmp_path: Path, models: types.SimpleNamespace) -> None:
    empty = models.BASE_T.split("  <tables")[0] + "</sql:Schema>\n"
    report = score(
        models.write(tmp_path, "T.sql.xmi", models.BASE_T),
        models.write(tmp_path, "DeltaT.sql.xmi", models.EXPECTED_T),
        models.write(tmp_path, "out.sql.xmi", empty),
    )
    assert report.loadable
    assert report.counts.loc == 1 and report.counts.miss == 6  # only the schema line
    assert report.pct_correct == pytest.approx(1 / 7)
    assert report.pct_wsuccess == pytest.approx((1 - 6 - 2) / 7)
    assert not report.delta_detected


def test_unreadable_reference_is_an_input_error(tmp_path: Path, models: types.SimpleNamespace) -> None:
    from benchmark.core.errors import BenchmarkError, InputFormatError
    from benchmark.tracks.roundtrip.reading.models import SQL

    base = models.write(tmp_path, "T.sql.xmi", models.BASE_T)
    broken = models.write(tmp_path, "DeltaT.sql.xmi", models.EXPECTED_T.replace("</sql:Schema>", ""))
    with pytest.raises(BenchmarkError, match="not well-formed"):
        score(base, broken, broken)
    with pytest.raises(InputFormatError, match="reference model is not loadable: not well-formed"):
        score(base, broken, broken, SQL)
