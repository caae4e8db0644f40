"""The mapping track's report files, from its section of ``results.json`` alone.

:func:`track_report` is what the harness calls (through the track's ``write_reports`` hook) for the pytest
session, ``atlbench validate`` and ``atlbench report``, so a saved session always regenerates the same
files. Artefacts, all in ``out_dir``:

* ``rq1_per_run.csv`` (one line per run, error rows included) and ``rq1_aggregate.csv`` (micro and macro
  per provider x transformation and per provider), from :mod:`benchmark.tracks.mapping.aggregate`;
* ``summary.md``: the headline tables;
* ``statistics.json``: every statistic (intervals, tests, profiles) in machine-readable form;
* ``pr_scatter``, ``f1_heatmap``, ``confidence``, ``categories`` as PNG and SVG;
* its part of ``index.html``: tables, figures, paired comparisons and drill-down;
* ``tables.tex``: booktabs results, paired-comparison and validation-set tables;
* ``rq1_drilldown.html``, only for a session of more than 20 transformations: the per-binding drill-down,
  a page of its own linked from ``index.html`` (:mod:`~benchmark.tracks.mapping.reports.scale`).

Output is deterministic: the same results file and options give byte-identical files.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from benchmark.core.diskcache import DiskCache
from benchmark.core.fileio import dumps_json, write_text_atomic
from benchmark.core.phases import phase
from benchmark.core.results import Results, TrackSection
from benchmark.core.track import TrackReport
from benchmark.stats.bootstrap import DEFAULT_DRAWS, DEFAULT_SEED
from benchmark.tracks.mapping.aggregate import CSV_COLUMNS, csv_records, run_records
from benchmark.tracks.mapping.reports.results import MappingResults
from benchmark.tracks.mapping.reports.scale import DRILLDOWN_HTML, at_scale
from benchmark.tracks.mapping.stats.baseline import BASELINE_PROVIDER
from benchmark.tracks.mapping.stats.summary import Statistics, check_single_track, compute_statistics

PER_RUN_CSV = "rq1_per_run.csv"
AGGREGATE_CSV = "rq1_aggregate.csv"
SUMMARY_MD = "summary.md"
STATISTICS_JSON = "statistics.json"
TABLES_TEX = "tables.tex"


def _csv(records: Sequence[dict[str, Any]], columns: Sequence[str]) -> str:
    buffer = io.StringIO()
    writer = csv.DictWriter(buffer, fieldnames=list(columns), lineterminator="\n")
    writer.writeheader()
    writer.writerows(records)
    return buffer.getvalue()


def per_run_csv(results: MappingResults, partial_weight: float) -> str:
    records = run_records(results.rows, partial_weight=partial_weight)
    columns = (
        list(records[0]) if records else ["track", "provider", "model", "transformation", "run", "status"]
    )
    return _csv(records, columns)


def aggregate_csv(stats: Statistics) -> str:
    return _csv(csv_records(stats.aggregation), CSV_COLUMNS)


def track_report(
    results: MappingResults,
    out_dir: str | Path,
    *,
    level: str = "overall",
    draws: int = DEFAULT_DRAWS,
    seed: int = DEFAULT_SEED,
    partial_weight: float | None = None,
    baseline: str = BASELINE_PROVIDER,
    statistics: Statistics | None = None,
    cache: DiskCache | None = None,
) -> TrackReport:
    """Write the track's files into ``out_dir`` (created if needed) and return them, in a fixed order,
    with the track's part of ``index.html``. ``statistics`` may be passed when already computed with the
    same options; they are computed once and shared by every writer. With a ``cache``, the statistics
    and figures of rows seen before are read from it (:mod:`~benchmark.tracks.mapping.reports.cached`)."""
    with phase("report modules imported"):
        from benchmark.tracks.mapping.reports.cached import (
            cached_figures,
            cached_statistics,
            statistics_key,
            usable,
        )
        from benchmark.tracks.mapping.reports.figures import FIGURES, all_figures, write_figures
        from benchmark.tracks.mapping.reports.html import drilldown_page, html_part
        from benchmark.tracks.mapping.reports.latex import render_latex
        from benchmark.tracks.mapping.reports.tables import summary_markdown

    check_single_track(results.rows)
    out = Path(out_dir)
    options = {
        "level": level,
        "draws": draws,
        "seed": seed,
        "partial_weight": results.partial_weight if partial_weight is None else partial_weight,
        "baseline": baseline,
    }
    # the key serialises every row: computed once, for the statistics and the figures
    key = statistics_key(results.rows, options) if usable(cache) and statistics is None else None
    with phase("statistics"):
        stats = statistics or cached_statistics(
            cache, key, lambda: compute_statistics(results.rows, **options)
        )
    figures = cached_figures(FIGURES, cache, key, lambda names: all_figures(stats, names))

    def written(name: str, render: Any) -> Path:
        with phase(f"report {name}"):
            return write_text_atomic(out / name, render())

    paths = (
        written(PER_RUN_CSV, lambda: per_run_csv(results, stats.partial_weight)),
        written(AGGREGATE_CSV, lambda: aggregate_csv(stats)),
        written(SUMMARY_MD, lambda: summary_markdown(results, stats)),
        written(STATISTICS_JSON, lambda: dumps_json(stats.to_json())),
        *write_figures(figures, out),
        written(TABLES_TEX, lambda: render_latex(results, stats)),
    )
    if at_scale(len(stats.transformations)):  # the drill-down: a page of its own (:mod:`.scale`)
        from benchmark.core.registry import track_class

        track = track_class("atl")
        paths = (
            *paths,
            written(DRILLDOWN_HTML, lambda: drilldown_page(results, stats, track.label, track.title)),
        )
    with phase("report index.html part (atl)"):
        html = html_part(results, stats, figures)
    return TrackReport(paths, html, tuple(report_lines(stats)))


def section_report(
    results: Results, section: TrackSection, out_dir: Path, options: Mapping[str, Any], cache: DiskCache
) -> TrackReport:
    """The track's files from its section of a session, with the :attr:`~.options.REPORT_OPTIONS`."""
    from benchmark.tracks.mapping.reports.results import from_section

    return track_report(
        from_section(results, section),
        out_dir,
        level=options.get("level") or "overall",
        draws=options.get("atl_draws") or DEFAULT_DRAWS,
        seed=DEFAULT_SEED if options.get("atl_seed") is None else options["atl_seed"],
        partial_weight=options.get("partial_weight"),
        baseline=options.get("baseline") or BASELINE_PROVIDER,
        cache=cache,
    )


def report_lines(stats: Statistics) -> list[str]:
    """What ``atlbench report`` prints: runs (unusable among them), F1 with its interval, macro F1,
    stability; notes; excluded runs, one line per transformation and cause."""
    from benchmark.reports.table import terminal_lines
    from benchmark.tracks.mapping.reports import format as fmt
    from benchmark.tracks.mapping.reports.terminal import excluded_lines

    rows = [
        [
            p.provider,
            str(p.runs),
            str(p.unusable_runs),
            fmt.with_interval(p.micro.f1, p.intervals.get("f1")),
            fmt.spread(p.macro["f1"]),
            fmt.number(p.stability.mean),
        ]
        for p in stats.providers
    ]
    lines = []
    if rows:
        headers = ["provider", "runs", "unusable", "F1 [95% CI]", "macro F1 ± SD", "stability"]
        lines += terminal_lines(headers, rows)
    lines += [f"note: {note}" for note in stats.notes]
    lines += [f"excluded: {line}" for line in excluded_lines(stats.aggregation.excluded)]
    return lines


def write_reports(results: MappingResults, out_dir: str | Path, **options: Any) -> list[Path]:
    """The track's files plus ``index.html`` for a session of this track alone (tests, benchmarks);
    sessions go through :func:`benchmark.reports.write_session_reports`."""
    from benchmark.core.registry import track_class
    from benchmark.reports import INDEX_HTML
    from benchmark.reports.page import PagePart, render_page

    report = track_report(results, out_dir, **options)
    assert report.html is not None
    track = track_class("atl")
    page = render_page(results.header, [PagePart("atl", track.label, track.title, report.html)])
    return [*report.paths, write_text_atomic(Path(out_dir) / INDEX_HTML, page)]


__all__ = [
    "AGGREGATE_CSV",
    "PER_RUN_CSV",
    "STATISTICS_JSON",
    "SUMMARY_MD",
    "TABLES_TEX",
    "track_report",
    "write_reports",
]
