"""The mapping track's report files, from its section of ``results.json`` alone.

:func:`track_report` is what the harness calls (through the track's ``write_reports`` hook) for the pytest
session, ``atlbench validate`` and ``atlbench report``, so a saved session always regenerates the same
files. Artefacts, all in ``out_dir``:

* ``rq1_per_run.csv`` (one line per run, error rows included) and ``rq1_aggregate.csv`` (micro and macro
  per provider x transformation and per provider), from :mod:`benchmark.tracks.mapping.aggregate`;
* ``rq1_pairs.csv``: the paired comparisons of providers (ΔF1, interval, p, Holm, MDE, McNemar counts);
* ``summary.md``: the headline tables;
* ``statistics.json``: every statistic (intervals, tests, profiles) in machine-readable form;
* ``pr_scatter``, ``f1_heatmap``, ``confidence``, ``categories`` as PNG and SVG;
* its part of ``index.html``: tables, figures, paired comparisons and drill-down;
* ``tables.tex``: booktabs results, paired-comparison and validation-set tables;
* ``rq1_drilldown.html``, only for a session of more than 20 transformations: the per-binding drill-down,
  a page of its own linked from ``index.html`` (:mod:`~benchmark.tracks.mapping.reports.scale`).
* ``rq1_variants.csv`` and the variants table in ``summary.md``, ``tables.tex`` and ``index.html``, when
  the session scored task variants (:mod:`~benchmark.tracks.mapping.reports.variants`): every other table
  reads the runs of the original task only.

Output is deterministic: the same results file and options give byte-identical files.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from benchmark.core.diskcache import DiskCache
from benchmark.core.fileio import dumps_json, write_text_atomic
from benchmark.core.phases import phase
from benchmark.core.results import Results, TrackSection
from benchmark.core.track import TrackReport
from benchmark.reports.csvtext import records_csv
from benchmark.stats.bootstrap import DEFAULT_DRAWS, DEFAULT_SEED
from benchmark.tracks.mapping.aggregate import CSV_COLUMNS, csv_records, run_records
from benchmark.tracks.mapping.payload import RunRow
from benchmark.tracks.mapping.reports.results import MappingResults
from benchmark.tracks.mapping.reports.scale import DRILLDOWN_HTML, at_scale
from benchmark.tracks.mapping.stats.baseline import BASELINE_PROVIDER
from benchmark.tracks.mapping.stats.summary import Statistics, check_single_track
from benchmark.tracks.mapping.variants.names import ORIGINAL

PER_RUN_CSV = "rq1_per_run.csv"
AGGREGATE_CSV = "rq1_aggregate.csv"
SUMMARY_MD = "summary.md"
STATISTICS_JSON = "statistics.json"
TABLES_TEX = "tables.tex"
PAIRS_CSV = "rq1_pairs.csv"
PAIRS_CSV_COLUMNS = (
    "provider_a",
    "provider_b",
    "transformations",
    "delta_f1",
    "delta_f1_low",
    "delta_f1_high",
    "p_value",
    "p_holm",
    "mde",
    "mcnemar_a_better",
    "mcnemar_b_better",
    "mcnemar_tested",
)


def _csv(records: Sequence[dict[str, Any]], columns: Sequence[str]) -> str:
    return records_csv(records, columns)


def per_run_csv(results: MappingResults, partial_weight: float) -> str:
    variants = any(row.variant != ORIGINAL for row in results.rows)
    records = run_records(results.rows, partial_weight=partial_weight, variants=variants)
    columns = (
        list(records[0]) if records else ["track", "provider", "model", "transformation", "run", "status"]
    )
    return _csv(records, columns)


def aggregate_csv(stats: Statistics) -> str:
    return _csv(csv_records(stats.aggregation), CSV_COLUMNS)


def pairs_csv(stats: Statistics) -> str:
    """The paired comparisons of providers, one line per pair: ΔF1 with its interval, p, Holm's p, the
    minimum detectable effect (blank: none can be reached, or no variance) and the McNemar counts."""

    def blank(value: Any) -> Any:
        return "" if value is None else value

    records = []
    for pair in stats.pairs:
        better, worse = pair.significant_mcnemar(stats.alpha)
        records.append(
            {
                "provider_a": pair.first,
                "provider_b": pair.second,
                "transformations": len(pair.transformations),
                "delta_f1": blank(pair.delta_f1),
                "delta_f1_low": blank(pair.interval.low if pair.interval else None),
                "delta_f1_high": blank(pair.interval.high if pair.interval else None),
                "p_value": blank(pair.permutation.p_value if pair.permutation else None),
                "p_holm": blank(pair.p_holm),
                "mde": blank(pair.detectable.effect if pair.detectable else None),
                "mcnemar_a_better": better,
                "mcnemar_b_better": worse,
                "mcnemar_tested": sum(1 for t in pair.mcnemar if t.result is not None),
            }
        )
    return _csv(records, PAIRS_CSV_COLUMNS)


def track_report(results: MappingResults, out_dir: str | Path, **options: Any) -> TrackReport:
    """Write the track's files into ``out_dir`` (created if needed) and return them, in a fixed order,
    with the track's part of ``index.html`` (:func:`report_and_statistics`, whose keyword arguments it
    takes)."""
    return report_and_statistics(results, out_dir, **options)[0]


def report_and_statistics(
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
) -> tuple[TrackReport, Statistics]:
    """Write the track's files and return them with the statistics they were written from (the track
    keeps their aggregation for the terminal tables of the same session). ``statistics`` may be passed
    when already computed with the same options; they are computed once and shared by every writer.
    With a ``cache``, the statistics, the figures and the drill-down of rows seen before are read from it
    (:mod:`~benchmark.tracks.mapping.reports.cached`); the rows' per-item verdicts, which only those
    read, are then never decoded (:meth:`~.results.MappingResults.with_items`)."""
    with phase("report modules imported"):
        from benchmark.tracks.mapping.reports.cached import (
            cached_figures,
            cached_statistics,
            cached_text,
            statistics_key,
            usable,
        )
        from benchmark.tracks.mapping.reports.figures import FIGURES, all_figures, write_figures
        from benchmark.tracks.mapping.reports.html import drilldown_html, drilldown_page, html_part
        from benchmark.tracks.mapping.reports.latex import render_latex
        from benchmark.tracks.mapping.reports.survival import (
            SURVIVAL_KEY,
            SURVIVAL_TITLE,
            survival_parts,
            with_survival,
        )
        from benchmark.tracks.mapping.reports.tables import summary_markdown
        from benchmark.tracks.mapping.reports.together import statistics_figures_and_drilldown
        from benchmark.tracks.mapping.reports.variants import CSV_COLUMNS as VARIANT_CSV_COLUMNS
        from benchmark.tracks.mapping.reports.variants import VARIANTS_CSV, variants_table, with_variants
        from benchmark.tracks.mapping.reports.variants import csv_records as variant_csv_records
        from benchmark.tracks.mapping.reports.variants import latex as variants_latex
        from benchmark.tracks.mapping.stats.variants import compute_variant_statistics, has_variants

    check_single_track(results.rows)
    every_row = results.rows
    per_run = results
    results = results.only(lambda row: row.variant == ORIGINAL)
    out = Path(out_dir)
    options = {
        "level": level,
        "draws": draws,
        "seed": seed,
        "partial_weight": results.partial_weight if partial_weight is None else partial_weight,
        "baseline": baseline,
    }
    # the key hashes every row (as stored, when the results were decoded from a session): computed once,
    # for the statistics, the figures and the drill-down
    keyed = results.rows if results.stored is None else results.stored
    key = statistics_key(keyed, options) if usable(cache) and statistics is None else None
    # computed statistics come with every figure and the drill-down, computed side by side (.together)
    computed: dict[str, Any] = {}
    decoded: list[MappingResults] = []

    def with_items(original_only: bool) -> MappingResults:
        """The rows with their per-item verdicts, decoded once for the statistics, the drill-down and
        the correspondences under the variants (all of a variant session's rows: most of them are the
        variants')."""
        if not decoded:
            decoded.append(per_run.with_items())
        return decoded[0].only(lambda row: row.variant == ORIGINAL) if original_only else decoded[0]

    def compute() -> Statistics:
        computed["stats"], computed["figures"], computed["drilldown"] = statistics_figures_and_drilldown(
            with_items(True), options, cache
        )
        return computed["stats"]

    def draw(names: list[str]) -> list[Any]:
        if "figures" in computed:
            return [figure for figure in computed["figures"] if figure.name in names]
        return all_figures(stats, names)

    def drilldown() -> str:
        return computed["drilldown"] if "drilldown" in computed else drilldown_html(with_items(True), stats)

    with phase("statistics"):  # read from the cache, or computed with the figures and the drill-down
        stats = statistics or cached_statistics(cache, key, compute)
    figures = cached_figures(FIGURES, cache, key, draw)
    with phase("report drill-down read"):
        drill = cached_text(cache, key, "drilldown", drilldown)

    def written(name: str, render: Any) -> Path:
        with phase(f"report {name}"):
            return write_text_atomic(out / name, render())

    variants = None
    if has_variants(every_row):
        with phase("statistics of the task variants"):
            variant_options = {k: v for k, v in options.items() if k in ("draws", "seed")}
            variants = compute_variant_statistics(
                every_row, partial_weight=stats.partial_weight, **variant_options
            )

    # which correspondences survive each variant: a function of every row (all variants) alone
    survival: tuple[str, str] | None = None
    if variants is not None:
        every_stored = per_run.rows if per_run.stored is None else per_run.stored
        survival_key = statistics_key(every_stored, {}) if usable(cache) else None
        parts: list[tuple[str, str]] = []

        def survival_part(index: int) -> str:
            if not parts:
                parts.append(survival_parts(with_items(False).rows, stats.transformations))
            return parts[0][index]

        with phase("report correspondences under the variants"):
            survival = (
                cached_text(cache, survival_key, "survival-summary", lambda: survival_part(0)),
                cached_text(cache, survival_key, "survival-tables", lambda: survival_part(1)),
            )

    def summary() -> str:
        text = summary_markdown(results, stats)
        return text if variants is None else text + "\n" + variants_table(variants).to_markdown()

    def statistics_json() -> str:
        data = stats.to_json()
        return dumps_json(data if variants is None else {**data, "variants": variants.to_json()})

    def tables_tex() -> str:
        text = render_latex(results, stats)
        return text if variants is None else text + "\n" + variants_latex(variants)

    paths = (
        written(PER_RUN_CSV, lambda: per_run_csv(per_run, stats.partial_weight)),
        written(AGGREGATE_CSV, lambda: aggregate_csv(stats)),
        written(PAIRS_CSV, lambda: pairs_csv(stats)),
        written(SUMMARY_MD, summary),
        written(STATISTICS_JSON, statistics_json),
        *write_figures(figures, out),
        written(TABLES_TEX, tables_tex),
        *(
            [written(VARIANTS_CSV, lambda: _csv(variant_csv_records(variants), VARIANT_CSV_COLUMNS))]
            if variants is not None
            else []
        ),
    )
    scaled = at_scale(len(stats.transformations))
    if scaled:  # the drill-down: a page of its own (:mod:`.scale`)
        from benchmark.core.registry import track_class

        track = track_class("atl")
        extra = ((SURVIVAL_KEY, SURVIVAL_TITLE, survival[1]),) if survival is not None else ()
        paths = (
            *paths,
            written(
                DRILLDOWN_HTML,
                lambda: drilldown_page(results, stats, drill, track.label, track.title, extra),
            ),
        )
    with phase("report index.html part (atl)"):
        html = html_part(results, stats, figures, drill)
        if variants is not None:
            html = with_variants(html, variants)
        if survival is not None:
            link = (
                f'<p>The correspondences of every transformation are in <a href="{DRILLDOWN_HTML}#'
                f'{SURVIVAL_KEY}">{DRILLDOWN_HTML}</a>.</p>'
            )
            html = with_survival(html, survival[0] + "\n" + (link if scaled else survival[1]))
    lines = report_lines(stats)
    if variants is not None:
        table = variants_table(variants)
        lines += ["", table.title, *table.to_terminal()]
    return TrackReport(paths, html, tuple(lines)), stats


def section_report(
    results: Results,
    section: TrackSection,
    out_dir: Path,
    options: Mapping[str, Any],
    cache: DiskCache,
    decoded: Sequence[RunRow] | None = None,
) -> tuple[TrackReport, Statistics]:
    """The track's files from its section of a session, with the :attr:`~.options.REPORT_OPTIONS`, and
    the statistics they were written from; ``decoded``: the section's rows already decoded with their
    counts only (:func:`~.results.from_section`)."""
    from benchmark.tracks.mapping.reports.results import from_section

    return report_and_statistics(
        from_section(results, section, decoded),
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
    "PAIRS_CSV",
    "PER_RUN_CSV",
    "STATISTICS_JSON",
    "SUMMARY_MD",
    "TABLES_TEX",
    "report_and_statistics",
    "section_report",
    "track_report",
    "write_reports",
]
