"""A report's statistics, figures and drill-down computed together, side by side where they can be.

The paired comparisons of the providers are most of the statistics' time (bootstrap, permutation and
McNemar tests, with scipy to import), and no figure and not the drill-down reads them. So, when the
statistics are computed, the rest of them is computed here first
(:func:`~benchmark.tracks.mapping.stats.summary.statistics_without_pairs`); then the four figures are
drawn side by side in forked processes (:mod:`benchmark.core.forked`) while the paired comparisons and
the drill-down are computed, instead of the comparisons, then the figures, then the drill-down: by the
drawer a cold session forked during its scoring, with matplotlib imported there
(:mod:`~benchmark.tracks.mapping.reports.drawer`), while this process computes the comparisons; without
one, the comparisons start in a forked process (:class:`Aside`) while this one imports matplotlib, then
draws (each runs here, one after the other, where forking is unsafe). It all runs with the cyclic
collector paused: the forked processes exit without ever collecting over the heap they inherit. Every
part is a pure function of the rows and the options, so the report is the same to the byte whichever way
it is computed.
"""

from __future__ import annotations

import multiprocessing
from collections.abc import Callable
from typing import Any

from benchmark.core.forked import (
    can_fork,
    child_started,
    receive_answer,
    send_answer,
    usable_cpus,
)
from benchmark.core.gcpause import collector_paused
from benchmark.core.phases import phase
from benchmark.tracks.mapping.reports.figures import Figure, all_figures
from benchmark.tracks.mapping.reports.html import drilldown_html
from benchmark.tracks.mapping.reports.results import MappingResults
from benchmark.tracks.mapping.stats.summary import (
    Statistics,
    pair_comparisons,
    statistics_without_pairs,
    with_pairs,
)


def statistics_figures_and_drilldown(
    results: MappingResults, options: dict[str, Any], session: object = None
) -> tuple[Statistics, list[Figure], str]:
    """The statistics of ``results`` (with their per-item verdicts) computed with ``options`` (the keyword
    arguments of :func:`~benchmark.tracks.mapping.stats.summary.compute_statistics` a report passes), every
    figure (in report order) and the drill-down; ``session``: the track's disk cache object, whose drawer
    (:mod:`~benchmark.tracks.mapping.reports.drawer`) draws the figures if it prepared one."""
    with collector_paused():  # in this process, and in the forked ones (they exit without collecting)
        return _computed(results, options, session)


def _computed(
    results: MappingResults, options: dict[str, Any], session: object
) -> tuple[Statistics, list[Figure], str]:
    rows = results.rows
    with phase("statistics without the paired comparisons"):
        first = statistics_without_pairs(rows, **options)

    def pairs_and_drilldown() -> tuple[Any, str]:
        with phase("statistics: paired comparisons"):
            pairs = pair_comparisons(first, rows)
        with phase("report drill-down"):
            return pairs, drilldown_html(results, first)

    from benchmark.tracks.mapping.reports.drawer import take

    drawer = take(session) if session is not None else None  # forked during the scoring (.drawer)
    if drawer is not None and drawer.draw(first):
        pairs_done, drill = pairs_and_drilldown()  # here, while it draws
        figures = drawer.figures()
        if figures is None:  # pragma: no cover - the drawer was killed
            figures = all_figures(first)
        return with_pairs(first, pairs_done), figures, drill
    aside = Aside(pairs_and_drilldown)  # forked before matplotlib is imported here, which it needs not
    figures = all_figures(first)
    pairs_done, drill = aside.result()
    return with_pairs(first, pairs_done), figures, drill


class Aside:
    """One call started now in a forked process, its result taken later (:meth:`result`), so that this
    process does something else meanwhile; the call runs in :meth:`result` instead where forking is
    unsafe or pointless (:func:`~benchmark.core.forked.can_fork`, one usable CPU), or if the child died
    without an answer. As with :func:`~benchmark.core.forked.run_forked`, the result (and an exception the
    call raised) comes back pickled, with the phases the child recorded."""

    def __init__(self, call: Callable[[], Any]) -> None:
        self._call = call
        self._process: Any = None
        if usable_cpus() < 2 or not can_fork():
            return
        context = multiprocessing.get_context("fork")
        self._receive, send = context.Pipe(duplex=False)
        self._process = context.Process(target=_answer, args=(call, send), daemon=True)
        self._process.start()
        send.close()  # the child's end: the child's exit then ends the pipe

    def result(self) -> Any:
        process, self._process = self._process, None
        if process is None:
            return self._call()
        try:
            return receive_answer(self._receive)
        except EOFError:  # pragma: no cover - the child was killed
            return self._call()
        finally:
            self._receive.close()
            process.join()


def _answer(call: Callable[[], Any], send: Any) -> None:
    """In the child: the call's result (or the exception it raised), and the phases it recorded."""
    child_started()
    send_answer(send, call)
    send.close()


__all__ = ["statistics_figures_and_drilldown"]
