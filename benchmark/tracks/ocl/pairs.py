"""Paired comparisons between modes: is a provider more often correct on one model variant than another?

:mod:`.scores` compares every transformation mode with the original only (``drop``). This module compares
**every pair of modes** of a provider, ``original`` included, over the answers both modes have: the same
(LLM model, run, dataset model, constraint) answered on both variants, so each constraint is its own
control and the comparison is paired. For a pair (A, B):

``delta``       accuracy on A - accuracy on B over the paired answers, with a percentile bootstrap interval
                that resamples constraints and, within each drawn constraint, its paired runs (one
                misunderstood requirement drags every run with it; :func:`benchmark.stats.bootstrap.
                resample_sums`), one generator per (provider, A, B) so adding a provider or a mode changes
                no other interval;
``McNemar``     on the discordant answers: ``first_only`` correct on A and wrong on B, ``second_only`` the
                reverse (:func:`benchmark.stats.significance.mcnemar`: exact binomial below 25 discordant
                answers, chi-square with continuity correction above); it treats answers as independent,
                the bootstrap interval is the one that accounts for runs of one constraint being alike;
``p_holm``      the McNemar p-value after Holm's step-down correction over all pairs of the same provider
                (one family per provider: its 28 pairs when it answered all eight variants).
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import combinations

import numpy as np

from benchmark.stats.bootstrap import (
    DEFAULT_DRAWS,
    DEFAULT_SEED,
    Interval,
    degeneracy_note,
    percentile_interval,
    resample_sums,
    rng_for,
)
from benchmark.stats.significance import McNemarResult, holm, mcnemar
from benchmark.tracks.ocl.scores import Judged

_Key = tuple[str, str, str, str]  # (LLM model, run, dataset model, constraint): one answer of a mode


@dataclass(frozen=True)
class ModePair:
    """Provider ``provider`` on mode ``first`` against mode ``second``, over their paired answers."""

    provider: str
    first: str
    second: str
    answers: int  # paired answers: (LLM model, run, dataset model, constraint) answered on both modes
    constraints: int  # distinct (dataset model, constraint) among them
    accuracy_first: float
    accuracy_second: float
    interval: Interval | None  # of delta; None when there is nothing to resample
    test: McNemarResult
    p_holm: float

    @property
    def delta(self) -> float:
        return self.accuracy_first - self.accuracy_second


def _mode_order() -> dict[str, int]:
    from benchmark.tracks.ocl.variants import modes

    return {mode: index for index, mode in enumerate(modes())}


def compare_modes(
    answers: Sequence[Judged], *, draws: int = DEFAULT_DRAWS, seed: int = DEFAULT_SEED
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
        adjusted = holm([d.test.p_value for d in drafts])
        out += [
            ModePair(
                d.provider,
                d.first,
                d.second,
                d.answers,
                d.constraints,
                d.accuracy_first,
                d.accuracy_second,
                d.interval,
                d.test,
                p,
            )
            for d, p in zip(drafts, adjusted, strict=True)
        ]
    return out


def _pair(
    provider: str,
    first: str,
    second: str,
    keys: list[_Key],
    by_mode: dict[str, dict[_Key, bool]],
    draws: int,
    seed: int,
) -> ModePair:
    groups: dict[tuple[str, str], list[list[float]]] = defaultdict(list)
    b = c = 0
    for key in keys:
        a_ok, b_ok = by_mode[first][key], by_mode[second][key]
        b += a_ok and not b_ok
        c += b_ok and not a_ok
        groups[(key[2], key[3])].append([float(a_ok), float(b_ok), 1.0])
    arrays = [np.array(groups[k], dtype=float) for k in sorted(groups)]
    total = np.sum([a.sum(axis=0) for a in arrays], axis=0)
    interval = None
    if draws > 0:
        (sums,) = resample_sums([arrays], draws, rng_for(seed, "ocl-pair", provider, first, second))
        delta = (sums[:, 0] - sums[:, 1]) / sums[:, 2]
        interval = percentile_interval(delta, note=degeneracy_note([len(a) for a in arrays], "constraint"))
    n = float(total[2])
    return ModePair(
        provider,
        first,
        second,
        len(keys),
        len(arrays),
        float(total[0]) / n,
        float(total[1]) / n,
        interval,
        mcnemar(int(b), int(c)),
        math.nan,
    )


__all__ = ["ModePair", "compare_modes"]
