"""Paired comparisons between modes: is a provider more often correct on one model variant than another?

:mod:`.scores` compares every transformation mode with the original only (``drop``). This module compares
**every pair of modes** of a provider, ``original`` included, over the answers both modes have: the same
(LLM model, run, dataset model, constraint) answered on both variants, so each constraint is its own
control and the comparison is paired. For a pair (A, B), with constraints as the units (one misunderstood
requirement drags every run with it) and a constraint's paired answers as its runs
(:func:`benchmark.stats.paired.compare`, one quantity for all of these):

``delta``       accuracy on A - accuracy on B over the paired answers (each constraint's answers pooled:
                both modes have the same number on every constraint), with a two-level percentile
                bootstrap interval (constraints, then the paired answers within each drawn one);
``p``           the paired permutation test of that same delta over the constraints (A's and B's answers
                to a constraint swapped at random), exact up to 16 constraints;
``p_holm``      that p-value after Holm's step-down correction over all pairs of the same provider (one
                family per provider: its 28 pairs when it answered all eight variants), with each pair's
                minimum detectable effect at that corrected level;
``first_only``, ``second_only``: the discordant answers (correct on A and wrong on B, the reverse), what
                the difference is made of.

One generator per (provider, A, B) so adding a provider or a mode changes no other interval.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, replace
from itertools import combinations
from typing import Any

import numpy as np

from benchmark.stats.bootstrap import DEFAULT_DRAWS, DEFAULT_SEED, Interval, rng_for
from benchmark.stats.paired import Paired, compare, holm_family
from benchmark.stats.power import DEFAULT_ALPHA, Detectable
from benchmark.tracks.ocl.scores import Judged

_Key = tuple[str, str, str, str]  # (LLM model, run, dataset model, constraint): one answer of a mode


@dataclass(frozen=True)
class ModePair:
    """Provider ``provider`` on mode ``first`` against mode ``second``, over their paired answers."""

    provider: str
    first: str
    second: str
    answers: int  # paired answers: (LLM model, run, dataset model, constraint) answered on both modes
    first_only: int  # correct on ``first``, wrong on ``second``
    second_only: int
    comparison: Paired

    @property
    def constraints(self) -> int:
        """Distinct (dataset model, constraint) among the paired answers: the units."""
        return len(self.comparison.units)

    @property
    def accuracy_first(self) -> float:
        return self.comparison.first_value

    @property
    def accuracy_second(self) -> float:
        return self.comparison.second_value

    @property
    def delta(self) -> float:
        return self.comparison.delta

    @property
    def interval(self) -> Interval | None:
        return self.comparison.interval

    @property
    def p_value(self) -> float:
        return self.comparison.p_value

    @property
    def p_holm(self) -> float:
        return math.nan if self.comparison.p_holm is None else self.comparison.p_holm

    @property
    def detectable(self) -> Detectable | None:
        return self.comparison.detectable

    def to_json(self) -> dict[str, Any]:
        return {
            "provider": self.provider,
            "modeA": self.first,
            "modeB": self.second,
            "answers": self.answers,
            "aOnly": self.first_only,
            "bOnly": self.second_only,
            **self.comparison.to_json(),
        }


def _mode_order() -> dict[str, int]:
    from benchmark.tracks.ocl.variants import modes

    return {mode: index for index, mode in enumerate(modes())}


def accuracy(sums: np.ndarray) -> np.ndarray:
    """Correct answers over answers, per row of summed (correct, answers) vectors."""
    sums = np.atleast_2d(np.asarray(sums, dtype=float))
    answered = sums[:, 1] > 0
    return np.where(answered, sums[:, 0] / np.where(answered, sums[:, 1], 1.0), 0.0)


def compare_modes(
    answers: Sequence[Judged],
    *,
    draws: int = DEFAULT_DRAWS,
    seed: int = DEFAULT_SEED,
    alpha: float = DEFAULT_ALPHA,
) -> list[ModePair]:
    """Every pair of modes of every provider (study order: ``original``, then the seven modes)."""
    order = _mode_order()
    correct: dict[str, dict[str, dict[_Key, bool]]] = defaultdict(lambda: defaultdict(dict))
    for j in answers:
        correct[j.provider][j.mode][(j.llm, j.run, j.model, j.constraint)] = j.correct
    out: list[ModePair] = []
    for provider in sorted(correct):
        by_mode = correct[provider]
        modes = sorted(by_mode, key=lambda m: (order.get(m, len(order)), m))
        drafts = []
        for first, second in combinations(modes, 2):
            keys = sorted(by_mode[first].keys() & by_mode[second].keys())
            if not keys:
                continue
            drafts.append(_pair(provider, first, second, keys, by_mode, draws, seed))
        corrected = holm_family([d.comparison for d in drafts], alpha=alpha)
        out += [replace(d, comparison=c) for d, c in zip(drafts, corrected, strict=True) if c is not None]
    return out


def _pair(
    provider: str,
    first: str,
    second: str,
    keys: list[_Key],
    by_mode: dict[str, dict[str, dict[_Key, bool]]],
    draws: int,
    seed: int,
) -> ModePair:
    groups: dict[str, tuple[list[list[float]], list[list[float]]]] = defaultdict(lambda: ([], []))
    b = c = 0
    for key in keys:
        a_ok, b_ok = by_mode[first][key], by_mode[second][key]
        b += a_ok and not b_ok
        c += b_ok and not a_ok
        side_a, side_b = groups[f"{key[2]}/{key[3]}"]
        side_a.append([float(a_ok), 1.0])
        side_b.append([float(b_ok), 1.0])
    units = sorted(groups)
    comparison = compare(
        units,
        [np.array(groups[u][0]) for u in units],
        [np.array(groups[u][1]) for u in units],
        accuracy,
        interval_rng=rng_for(seed, "ocl-pair", provider, first, second),
        test_rng=rng_for(seed, "ocl-pair-swap", provider, first, second),
        draws=draws,
        unit="constraint",
    )
    return ModePair(provider, first, second, len(keys), int(b), int(c), comparison)


__all__ = ["ModePair", "accuracy", "compare_modes"]
