"""The prompt-sensitivity report (benchmark/reports/sensitivity.py) on rows of a small track of our own:
the headline per provider and template with its run-to-run range, the spread across templates, the rank
agreement, the tasks compared, the CSV and every table format, and the files and page section that
``write_session_reports`` adds only when some provider was measured under two templates."""

from __future__ import annotations

import csv
import io
from collections.abc import Sequence
from pathlib import Path

import pytest
from report_only_track import ReportOnlyTrack
from text_tables import squeezed

from benchmark.core.results import Results, ResultsHeader, TrackSection
from benchmark.core.rows import Row
from benchmark.core.track import (
    HtmlPart,
    TrackContext,
    TrackReport,
)
from benchmark.reports import write_session_reports
from benchmark.reports.sensitivity import (
    CSV_COLUMNS,
    csv_text,
    sensitivity,
    sentence,
    tables,
    terminal_lines,
)


class Scores(ReportOnlyTrack):
    """A track whose headline is the mean of its rows' ``score`` per series."""

    name = "scores"
    title = "Scores"
    headline_name = "mean score"

    def headline(self, rows: Sequence[Row]) -> dict[str, float]:
        values: dict[str, list[float]] = {}
        for row in rows:
            values.setdefault(row.series, []).append(row.payload["score"])
        return {series: sum(v) / len(v) for series, v in values.items()}

    def write_reports(self, results, section, out_dir, options):  # type: ignore[no-untyped-def]
        return TrackReport(html=HtmlPart(sections=(("own", "Own", "<p>own</p>"),)), lines=("own line",))


class PairedScores(Scores):
    """The same track, whose tasks are the units of a paired comparison of its mean score."""

    unit_name = "task"

    def paired(self, first, second):  # type: ignore[no-untyped-def]
        from benchmark.core.track import PairedData

        def mean(sums):  # type: ignore[no-untyped-def]
            import numpy as np

            sums = np.atleast_2d(sums)
            return sums[:, 0] / sums[:, 1]

        def entries(rows):  # type: ignore[no-untyped-def]
            return [(row.task, (row.payload["score"], 1.0)) for row in rows]

        return PairedData.of(entries(first), entries(second), mean)


def row(provider: str, template: str, task: str, run: str, score: float) -> Row:
    return Row("scores", provider, "m", task, run, payload={"score": score}, template=template)


def rows() -> list[Row]:
    found = []
    for task in ("t1", "t2"):
        # A is better than B under the study's template, worse under terse: they swap
        found += [row("A", "study", task, "run01", 0.8), row("A", "study", task, "run02", 0.6)]
        found += [row("A", "terse", task, "run01", 0.3), row("A", "terse", task, "run02", 0.35)]
        found += [row("B", "study", task, "run01", 0.5), row("B", "terse", task, "run01", 0.5)]
        found += [row("Base", "study", task, "Base", 0.1)]  # a baseline: one template
    found += [row("A", "study", "t3", "run01", 1.0)]  # a task no other template has: left out
    return found


@pytest.fixture
def track(tmp_path: Path) -> Scores:
    return Scores(TrackContext(tmp_path))


def test_headline_per_template_with_the_run_to_run_range(track: Scores) -> None:
    report = sensitivity(track, rows())
    assert report is not None
    assert report.templates == ("study", "terse") and (report.tasks, report.left_out) == (2, 1)
    found = {(h.provider, h.template): (h.runs, h.headline, h.low, h.high) for h in report.headlines}
    assert found == {
        ("A", "study"): (2, pytest.approx(0.7), 0.6, 0.8),
        ("A", "terse"): (2, pytest.approx(0.325), 0.3, 0.35),
        ("B", "study"): (1, 0.5, 0.5, 0.5),
        ("B", "terse"): (1, 0.5, 0.5, 0.5),
    }
    a, b = report.spreads
    assert (a.provider, a.mean, a.minimum, a.maximum) == (
        "A",
        pytest.approx(0.5125),
        pytest.approx(0.325),
        pytest.approx(0.7),
    )
    assert a.spread == pytest.approx(0.375) and a.run_spread == pytest.approx(0.2) and a.template_effect
    assert (a.best(), a.worst()) == ("study", "terse")
    assert b.spread == 0 and not b.template_effect
    assert report.agreement is not None and report.agreement.w == pytest.approx(0.0)
    (swap,) = report.agreement.swaps
    assert (swap.first, swap.second, swap.first_ahead, swap.second_ahead) == (
        "A",
        "B",
        ("study",),
        ("terse",),
    )
    assert any("one template only, not compared: Base" in note for note in report.notes)
    assert any("2 tasks" in note and "1 task left out" in note for note in report.notes)


def test_nothing_to_report_without_a_second_template(track: Scores) -> None:
    assert sensitivity(track, [r for r in rows() if r.template == "study"]) is None


def test_one_provider_has_no_rank_agreement_but_a_spread(track: Scores) -> None:
    report = sensitivity(track, [r for r in rows() if r.provider == "A"])
    assert report is not None and report.agreement is None and len(report.spreads) == 1
    assert any("needs two providers measured under every template" in note for note in report.notes)


def test_csv_and_every_format(track: Scores) -> None:
    report = sensitivity(track, rows())
    assert report is not None
    lines = list(csv.reader(io.StringIO(csv_text([report]))))
    assert tuple(lines[0]) == CSV_COLUMNS
    assert lines[1] == ["scores", "A", "study", "2", "0.700000", "0.600000", "0.800000"]
    assert len(lines) == 1 + 4
    assert report.comparisons == ()  # the track has no paired comparison: no table of them
    per_template, across = tables(report)
    for table in (per_template, across):
        assert table.to_markdown().startswith("## Prompt sensitivity, scores")
        assert "\\begin{tabular}" in table.to_latex() and "<table>" in table.to_html()
    text = "\n".join(terminal_lines(report))
    assert "Kendall's W = 0.000 over 2 providers and 2 templates" in text
    assert "A / B (A ahead under study, B under terse)" in text


def test_each_template_against_the_studys_is_a_paired_comparison_of_the_headline(tmp_path: Path) -> None:
    track = PairedScores(TrackContext(tmp_path))
    report = sensitivity(track, rows())
    assert report is not None
    a, b = report.comparisons
    assert (a.group, a.level, a.reference, b.group) == ("A", "terse", "study", "B")
    # A: study 0.8 and 0.6 on each task, terse 0.3 and 0.35: the headline falls by 0.375 on both tasks
    assert a.comparison.delta == pytest.approx(0.325 - 0.7) == a.comparison.test.statistic
    assert a.comparison.units == ("t1", "t2") and not a.comparison.mean_runs
    # two tasks: the exact test's smallest p is 2/4 = 0.5, above 0.05 / 2: nothing can be detected
    assert a.comparison.p_value == pytest.approx(0.5) and not a.comparison.detectable.reachable
    assert b.comparison.delta == 0
    per_template, across, paired = tables(report)
    assert paired.key == "sensitivity-scores-pairs" and "none" in paired.to_markdown()
    assert "with these 2 tasks no difference of any size can be claimed" in sentence(report)


def _results(given: list[Row]) -> Results:
    return Results(ResultsHeader(), (TrackSection("scores", {}, (), tuple(given)),))


def test_the_session_writes_the_files_and_the_section_only_when_there_is_something(
    track: Scores, tmp_path: Path
) -> None:
    said: list[str] = []
    paths = write_session_reports(
        _results(rows()), tmp_path / "on", {"scores": track}, on_report=lambda n, r: said.extend(r.lines)
    )
    names = [p.name for p in paths]
    assert names == [
        "results.json",
        "prompt_sensitivity.csv",
        "prompt_sensitivity_pairs.csv",
        "prompt_sensitivity.json",
        "prompt_sensitivity.md",
        "prompt_sensitivity.tex",
        "index.html",
    ]
    page = (tmp_path / "on" / "index.html").read_text(encoding="utf-8")
    assert "<p>own</p>" in page and "Prompt sensitivity" in page and "Kendall" in page
    assert said[0] == "own line" and any("Prompt sensitivity, scores" in line for line in said)
    markdown = squeezed((tmp_path / "on" / "prompt_sensitivity.md").read_text(encoding="utf-8"))
    assert markdown.startswith("# Prompt sensitivity") and "| A | terse | 2 | 0.325 |" in markdown

    paths = write_session_reports(
        _results([r for r in rows() if r.template == "study"]), tmp_path / "off", {"scores": track}
    )
    assert [p.name for p in paths] == ["results.json", "index.html"]
    assert "Prompt sensitivity" not in (tmp_path / "off" / "index.html").read_text(encoding="utf-8")
