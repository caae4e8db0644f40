"""The answer-format table (benchmark/reports/answer_formats.py) on rows of a small track of our own: the
headline, usable answers, invented names, schema violations, tokens and seconds per provider and format;
formats are never pooled (nor in the prompt-sensitivity report); the files and page section appear only
when some run was asked in a format other than free."""

from __future__ import annotations

import csv
import io
from collections.abc import Sequence
from pathlib import Path

import pytest
from report_only_track import ReportOnlyTrack

from benchmark.core.results import Results, ResultsHeader, TrackSection
from benchmark.core.rows import Row
from benchmark.core.track import AnswerQuality, PairedData, TrackContext, TrackReport
from benchmark.reports import write_session_reports
from benchmark.reports.answer_formats import (
    CSV_COLUMNS,
    PAIRS_CSV_COLUMNS,
    answer_formats,
    csv_text,
    pairs_csv_text,
    table,
    tables,
    terminal_lines,
)
from benchmark.reports.sensitivity import sensitivity


class Answers(ReportOnlyTrack):
    """Headline: the mean ``score`` per series; an answer is usable when its ``usable`` is true, and its
    ``invented`` names are counted."""

    name = "answers"
    title = "Answers"
    headline_name = "mean score"

    def headline(self, rows: Sequence[Row]) -> dict[str, float]:
        values: dict[str, list[float]] = {}
        for row in rows:
            values.setdefault(row.series, []).append(row.payload["score"])
        return {series: sum(v) / len(v) for series, v in values.items()}

    def paired(self, first: Sequence[Row], second: Sequence[Row]) -> PairedData | None:
        """Per task, each run's (score, 1): the summed vectors' ratio is the mean score, the headline."""

        def entries(rows: Sequence[Row]) -> list[tuple[str, tuple[float, float]]]:
            return [(row.task, (row.payload["score"], 1.0)) for row in rows]

        return PairedData.of(entries(first), entries(second), lambda v: v[:, 0] / v[:, 1])

    def answer_quality(self, rows: Sequence[Row]) -> AnswerQuality:
        usable = sum(1 for row in rows if row.payload["usable"])
        return AnswerQuality(len(rows), usable, sum(row.payload["invented"] for row in rows))

    def write_reports(self, results, section, out_dir, options):  # type: ignore[no-untyped-def]
        return TrackReport()


def ledger(seconds: float, tokens: int, violations: int | None) -> dict[str, object]:
    data: dict[str, object] = {
        "requests": 1,
        "inputTokens": 100,
        "outputTokens": tokens,
        "costUsd": 0.0,
        "costNote": "local",
        "seconds": [seconds],
        "attempts": 1,
    }
    if violations is not None:
        data |= {"schemaChecked": 1, "schemaViolations": violations}
    return data


def row(provider: str, answer_format: str, task: str, score: float, usable: bool, invented: int) -> Row:
    violations = None if answer_format == "free" else int(not usable)
    return Row(
        "answers",
        provider,
        "m",
        task,
        "run01",
        payload={"score": score, "usable": usable, "invented": invented},
        provenance={"ledger": ledger(2.0 if answer_format == "free" else 1.0, 50, violations)},
        answer_format=answer_format,
    )


def rows() -> list[Row]:
    found = []
    for task in ("t1", "t2"):
        found += [row("A", "free", task, 0.2, task == "t1", 3), row("A", "schema", task, 0.4, True, 2)]
        found += [row("A", "grounded", task, 0.5, task == "t2", 0)]
        found += [row("B", "free", task, 0.9, True, 0)]  # only free: not in the table
    return found


@pytest.fixture
def track(tmp_path: Path) -> Answers:
    return Answers(TrackContext(tmp_path))


def test_one_line_per_provider_and_format(track: Answers) -> None:
    report = answer_formats(track, rows())
    assert report is not None and report.formats == ("free", "schema", "grounded")
    found = {
        line.answer_format: (
            line.runs,
            line.headline,
            line.quality,
            line.schema_checked,
            line.schema_violations,
        )
        for line in report.lines
    }
    assert found == {
        "free": (2, pytest.approx(0.2), AnswerQuality(2, 1, 6), 0, 0),
        "grounded": (2, pytest.approx(0.5), AnswerQuality(2, 1, 0), 2, 1),
        "schema": (2, pytest.approx(0.4), AnswerQuality(2, 2, 4), 2, 0),
    }
    assert {line.provider for line in report.lines} == {"A"}
    lines = terminal_lines(report)
    assert lines[1] == "Answer formats, answers: mean score and answers per provider and format:"
    header = lines[2].split()
    assert header[:4] == ["provider", "format", "runs", "mean"] and "invented" in header
    free = next(line for line in lines if line.startswith("A ") and " free " in line)
    assert "1/2 (50%)" in free and free.split()[-1] == "2.00" and "6" in free.split()
    grounded = next(line for line in lines if " grounded " in line)
    assert "1/2" in grounded.split()  # one of its two answers broke the schema


def test_each_format_against_free_paired_with_the_kit(track: Answers) -> None:
    report = answer_formats(track, rows())
    assert report is not None
    found = {(c.group, c.level, c.reference): c.comparison for c in report.comparisons}
    assert set(found) == {("A", "grounded", "free"), ("A", "schema", "free")}  # B has free runs only
    grounded, schema = found[("A", "grounded", "free")], found[("A", "schema", "free")]
    assert grounded is not None and schema is not None
    assert grounded.delta == pytest.approx(0.3) and schema.delta == pytest.approx(0.2)
    assert (
        grounded.units == ("t1", "t2") and grounded.p_holm is not None and grounded.p_holm >= grounded.p_value
    )
    paired = tables(report)[1]
    assert paired.title == "Answer formats, answers: each format against free, paired"
    assert paired.headers[:3] == ("provider", "format", "against")
    records = list(csv.DictReader(io.StringIO(pairs_csv_text([report]))))
    assert tuple(records[0]) == PAIRS_CSV_COLUMNS
    assert [(r["answer_format"], r["units"], r["delta"]) for r in records] == [
        ("schema", "2", "0.200000"),
        ("grounded", "2", "0.300000"),
    ]


def test_csv_and_formats_agree(track: Answers) -> None:
    report = answer_formats(track, rows())
    assert report is not None
    records = list(csv.DictReader(io.StringIO(csv_text([report]))))
    assert tuple(records[0]) == CSV_COLUMNS
    schema = next(r for r in records if r["answer_format"] == "schema")
    assert (schema["usable"], schema["invented_names"], schema["schema_violations"]) == ("2", "4", "0")
    assert schema["median_seconds"] == "1.000" and schema["output_tokens"] == "100"
    rendered = table(report)
    assert "invented names" in rendered.headers and "A & schema & 2 & 0.400 & 2/2 (100\\%)" in " ".join(
        rendered.to_latex().split()
    )


def test_nothing_without_a_constrained_run(track: Answers, tmp_path: Path) -> None:
    free_only = [r for r in rows() if r.answer_format == "free"]
    assert answer_formats(track, free_only) is None
    header = ResultsHeader()
    write_session_reports(
        Results(header, (TrackSection("answers", rows=tuple(free_only)),)), tmp_path / "a", {"answers": track}
    )
    assert not list((tmp_path / "a").glob("answer_formats.*"))
    write_session_reports(
        Results(header, (TrackSection("answers", rows=tuple(rows())),)), tmp_path / "b", {"answers": track}
    )
    assert sorted(p.name for p in (tmp_path / "b").glob("answer_formats*")) == [
        "answer_formats.csv",
        "answer_formats.md",
        "answer_formats.tex",
        "answer_formats_pairs.csv",
    ]


def test_formats_are_never_pooled_by_the_sensitivity_report(track: Answers) -> None:
    templated = [
        Row("answers", "A", "m", "t", "run01", payload={"score": s, "usable": True, "invented": 0},
            template=t, answer_format=f)
        for t, f, s in (("study", "free", 0.1), ("terse", "free", 0.3), ("study", "schema", 0.9))
    ]  # fmt: skip
    report = sensitivity(track, templated)
    assert report is not None
    assert sorted((h.provider, h.template, round(h.headline, 6)) for h in report.headlines) == [
        ("A", "study", 0.1),
        ("A", "terse", 0.3),
    ]  # A [schema] has one template: not compared, and its 0.9 is not pooled into A's study headline
    assert any("A [schema]" in note for note in report.notes)
