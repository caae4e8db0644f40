"""The OCL report's values (scores, mode pairs, figure) computed together, side by side where they can be.

The mode pairs are most of the statistics' time (a bootstrap for each of a provider's 28 pairs of modes,
McNemar's tests with scipy to import), and the figure, drawn from the scores alone, is most of the rest
(matplotlib to import, a layout, a raster and an SVG pass). Neither reads the other, so they run side by
side in forked processes (:mod:`benchmark.core.forked`; one after the other where forking is unsafe, in a
forked track writer for one): the pairs in one, the scores and then the figure in the other. Every part is
a pure function of the rows and the draws (one random generator per quantity), so the values are the same
to the bit whichever way they are computed.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from benchmark.core.forked import run_forked
from benchmark.core.phases import phase
from benchmark.reports.figures import Figure
from benchmark.tracks.ocl.pairs import ModePair, compare_modes
from benchmark.tracks.ocl.scores import ModeScore, judged, score


def scores_and_pairs(rows: Sequence[Any], draws: int) -> tuple[list[ModeScore], list[ModePair]]:
    """The scores per provider and mode and the mode pairs, with ``draws`` bootstrap draws (no figure)."""
    answers = judged(rows)
    return score(answers, draws=draws), compare_modes(answers, draws=draws)


def scores_pairs_and_figure(
    rows: Sequence[Any], draws: int
) -> tuple[list[ModeScore], list[ModePair], Figure]:
    """The scores, the mode pairs and the figure of the scores: the pairs beside the scores and figure."""
    from benchmark.tracks.ocl.reports.figures import figure

    answers = judged(rows)

    def pairs() -> list[ModePair]:
        with phase("ocl statistics: mode pairs"):
            return compare_modes(answers, draws=draws)

    def scores_and_figure() -> tuple[list[ModeScore], Figure]:
        with phase("ocl statistics: scores"):
            scores = score(answers, draws=draws)
        with phase("ocl figure"):
            return scores, figure(scores)

    done_pairs, (scores, drawn) = run_forked([pairs, scores_and_figure])
    return scores, done_pairs, drawn


__all__ = ["scores_and_pairs", "scores_pairs_and_figure"]
