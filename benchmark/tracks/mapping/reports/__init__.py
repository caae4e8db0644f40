"""Every report artefact of a session, from its ``results.json`` alone.

:func:`write_reports` is the one entry point: ``atlbench report`` and the pytest plugin (at session end)
both call it, so a saved session always regenerates the same files. Artefacts, all in ``out_dir``:

* ``rq1_per_run.csv`` (one line per run, error rows included) and ``rq1_aggregate.csv`` (micro and macro
  per provider x transformation and per provider), from :mod:`benchmark.tracks.mapping.aggregate`;
* ``summary.md``: the headline tables;
* ``statistics.json``: every statistic (intervals, tests, profiles) in machine-readable form;
* ``pr_scatter``, ``f1_heatmap``, ``confidence``, ``categories`` as PNG and SVG;
* ``index.html``: one self-contained page with tables, figures, paired comparisons and drill-down;
* ``tables.tex``: booktabs results, paired-comparison and validation-set tables.

Output is deterministic: the same results file and options give byte-identical files.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from benchmark.core.fileio import dumps_json, write_text_atomic
from benchmark.core.results import Results
from benchmark.stats.bootstrap import DEFAULT_DRAWS, DEFAULT_SEED
from benchmark.tracks.mapping.aggregate import CSV_COLUMNS, csv_records, run_records
from benchmark.tracks.mapping.stats.baseline import BASELINE_PROVIDER
from benchmark.tracks.mapping.stats.summary import Statistics, check_single_track, compute_statistics

PER_RUN_CSV = "rq1_per_run.csv"
AGGREGATE_CSV = "rq1_aggregate.csv"
SUMMARY_MD = "summary.md"
STATISTICS_JSON = "statistics.json"
INDEX_HTML = "index.html"
TABLES_TEX = "tables.tex"


def _csv(records: Sequence[dict[str, Any]], columns: Sequence[str]) -> str:
    buffer = io.StringIO()
    writer = csv.DictWriter(buffer, fieldnames=list(columns), lineterminator="\n")
    writer.writeheader()
    writer.writerows(records)
    return buffer.getvalue()


def per_run_csv(results: Results, partial_weight: float | None = None) -> str:
    records = run_records(results.rows, partial_weight=partial_weight)
    columns = (
        list(records[0]) if records else ["track", "provider", "model", "transformation", "run", "status"]
    )
    return _csv(records, columns)


def aggregate_csv(stats: Statistics) -> str:
    return _csv(csv_records(stats.aggregation), CSV_COLUMNS)


def write_reports(
    results: Results,
    out_dir: str | Path,
    *,
    level: str = "overall",
    draws: int = DEFAULT_DRAWS,
    seed: int = DEFAULT_SEED,
    partial_weight: float | None = None,
    baseline: str = BASELINE_PROVIDER,
    statistics: Statistics | None = None,
) -> list[Path]:
    """Write every artefact into ``out_dir`` (created if needed); returns the paths written, in a fixed
    order. ``statistics`` may be passed when already computed with the same options. Rows of several
    tracks are refused (:func:`~benchmark.tracks.mapping.stats.summary.check_single_track`)."""
    from benchmark.tracks.mapping.reports.html import render_html
    from benchmark.tracks.mapping.reports.latex import render_latex
    from benchmark.tracks.mapping.reports.plots import all_figures, write_figures
    from benchmark.tracks.mapping.reports.tables import summary_markdown

    check_single_track(results.rows)
    out = Path(out_dir)
    stats = statistics or compute_statistics(
        results.rows, level=level, draws=draws, seed=seed, partial_weight=partial_weight, baseline=baseline
    )
    figures = all_figures(stats)
    paths = [
        write_text_atomic(out / PER_RUN_CSV, per_run_csv(results, stats.partial_weight)),
        write_text_atomic(out / AGGREGATE_CSV, aggregate_csv(stats)),
        write_text_atomic(out / SUMMARY_MD, summary_markdown(results, stats)),
        write_text_atomic(out / STATISTICS_JSON, dumps_json(stats.to_json())),
        *write_figures(figures, out),
        write_text_atomic(out / INDEX_HTML, render_html(results, stats, figures)),
        write_text_atomic(out / TABLES_TEX, render_latex(results, stats)),
    ]
    return paths


__all__ = [
    "AGGREGATE_CSV",
    "INDEX_HTML",
    "PER_RUN_CSV",
    "STATISTICS_JSON",
    "SUMMARY_MD",
    "TABLES_TEX",
    "write_reports",
]
