"""A report's statistics, figures and drill-down computed together, side by side where they can be.

The paired comparisons of the providers are most of the statistics' time (bootstrap, permutation and
McNemar tests, with scipy to import), and no figure and not the drill-down reads them. So, when the
statistics are computed, the rest of them is computed here first
(:func:`~benchmark.tracks.mapping.stats.summary.statistics_without_pairs`), and then the paired
comparisons, the four figures and the drill-down run side by side in forked processes
(:mod:`benchmark.core.forked`, one after the other where forking is unsafe), instead of the comparisons,
then the figures, then the drill-down. Every part is a pure function of the rows and the options, so the
report is the same to the byte whichever way it is computed.
"""

from __future__ import annotations

from typing import Any

from benchmark.core.forked import run_forked
from benchmark.core.gcpause import collector_paused
from benchmark.core.phases import phase
from benchmark.tracks.mapping.reports.figures import FIGURES, Figure, figure_calls, import_matplotlib
from benchmark.tracks.mapping.reports.html import drilldown_html
from benchmark.tracks.mapping.reports.results import MappingResults
from benchmark.tracks.mapping.stats.summary import (
    Statistics,
    pair_comparisons,
    statistics_without_pairs,
    with_pairs,
)


def statistics_figures_and_drilldown(
    results: MappingResults, options: dict[str, Any]
) -> tuple[Statistics, list[Figure], str]:
    """The statistics of ``results`` (with their per-item verdicts) computed with ``options`` (the keyword
    arguments of :func:`~benchmark.tracks.mapping.stats.summary.compute_statistics` a report passes), every
    figure (in report order) and the drill-down."""
    with collector_paused():  # in this process, and in the forked ones (they exit without collecting)
        return _computed(results, options)


def _computed(results: MappingResults, options: dict[str, Any]) -> tuple[Statistics, list[Figure], str]:
    rows = results.rows
    with phase("statistics without the paired comparisons"):
        first = statistics_without_pairs(rows, **options)
    import_matplotlib()

    def pairs() -> Any:
        with phase("statistics: paired comparisons"):
            return pair_comparisons(first, rows)

    def drilldown() -> str:
        with phase("report drill-down"):
            return drilldown_html(results, first)

    pairs_done, *figures, drill = run_forked([pairs, *figure_calls(first, FIGURES), drilldown])
    return with_pairs(first, pairs_done), figures, drill


__all__ = ["statistics_figures_and_drilldown"]
