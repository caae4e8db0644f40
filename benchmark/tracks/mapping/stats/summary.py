"""Every statistic of a session, computed once from the count table (``docs/STATISTICS.md``).

:func:`compute_statistics` is what the report writers, the ``atlbench report`` command and the pytest plugin
call; it returns plain frozen data that they only format. Micro and macro figures come from
:mod:`benchmark.tracks.mapping.aggregate` (not recomputed here); this module adds the intervals, stability,
paired tests, baseline-relative recall and the confidence and category profiles.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from itertools import combinations
from typing import Any

import numpy as np

from benchmark.core.errors import ConfigurationError, InputFormatError
from benchmark.core.metrics import scores_array
from benchmark.core.wording import plural
from benchmark.stats.bootstrap import (
    DEFAULT_CONFIDENCE,
    DEFAULT_DRAWS,
    DEFAULT_SEED,
    Interval,
    cluster_bootstrap,
    rng_for,
)
from benchmark.stats.paired import Paired, compare, holm_family
from benchmark.stats.power import Detectable
from benchmark.stats.significance import (
    DEFAULT_PERMUTATIONS,
    EXACT_SIGN_FLIP_MAX,
    McNemarResult,
    PermutationResult,
    holm,
    mcnemar,
)
from benchmark.tracks.mapping.aggregate import (
    ALL,
    Aggregation,
    GroupResult,
    Spread,
    aggregate,
    name_key,
)
from benchmark.tracks.mapping.counts import DEFAULT_PARTIAL_WEIGHT, Scores
from benchmark.tracks.mapping.payload import RunRow
from benchmark.tracks.mapping.scoring.compare import ABSENT
from benchmark.tracks.mapping.stats.baseline import (
    BASELINE_PROVIDER,
    BaselineRelativeRecall,
    baseline_relative_recall,
)
from benchmark.tracks.mapping.stats.items import (
    BindingKey,
    binding_categories,
    has_verdicts,
    majority_right,
    truth_keys,
)
from benchmark.tracks.mapping.stats.profiles import (
    CategoryProfile,
    ConfidenceProfile,
    category_profile,
    confidence_profile,
    level_counts,
)
from benchmark.tracks.mapping.stats.stability import Stability, stability

LEVELS = ("class", "binding", "overall")
DEFAULT_ALPHA = 0.05


def level_of(scores: Any, level: str) -> Scores:
    return {"class": scores.classes, "binding": scores.bindings, "overall": scores.overall}[level]


@dataclass(frozen=True)
class ProviderStats:
    """One provider over all its ok runs, at the statistics' level."""

    provider: str
    models: tuple[str, ...]
    runs: int
    transformations: tuple[str, ...]
    micro: Scores
    macro: dict[str, Spread]
    intervals: dict[str, Interval]
    stability: Stability
    baseline_recall: BaselineRelativeRecall | None
    suggestions: int
    notes: tuple[str, ...] = ()
    unusable_runs: int = 0  # runs whose answer held no usable mapping, scored as runs with no suggestions

    def to_json(self) -> dict[str, Any]:
        return {
            "provider": self.provider,
            "models": list(self.models),
            "runs": self.runs,
            "unusableRuns": self.unusable_runs,
            "transformations": list(self.transformations),
            "micro": self.micro.to_json(),
            "macro": {k: v.to_json() for k, v in self.macro.items()},
            "intervals": {k: v.to_json() for k, v in self.intervals.items()},
            "stability": self.stability.to_json(),
            "baselineRelativeRecall": self.baseline_recall.to_json() if self.baseline_recall else None,
            "suggestions": self.suggestions,
            "notes": list(self.notes),
        }


@dataclass(frozen=True)
class TransformationTest:
    """McNemar on one transformation's binding outcomes (None with ``note`` when it cannot be run)."""

    transformation: str
    items: int
    result: McNemarResult | None
    p_holm: float | None = None
    note: str | None = None

    def to_json(self) -> dict[str, Any]:
        return {
            "transformation": self.transformation,
            "items": self.items,
            "result": self.result.to_json() if self.result else None,
            "pHolm": self.p_holm,
            "note": self.note,
        }


@dataclass(frozen=True)
class PairComparison:
    """``first`` against ``second`` on the transformations both have ok runs on; ΔF1 = first - second.

    ``comparison`` holds ΔF1, its interval, its permutation test, Holm's p and the minimum detectable
    effect, all of one quantity (:mod:`benchmark.stats.paired`); ``None`` without a common transformation."""

    first: str
    second: str
    transformations: tuple[str, ...]
    comparison: Paired | None
    differences: dict[str, float]
    mcnemar: tuple[TransformationTest, ...]
    note: str | None = None

    @property
    def delta_f1(self) -> float | None:
        return self.comparison.delta if self.comparison else None

    @property
    def interval(self) -> Interval | None:
        return self.comparison.interval if self.comparison else None

    @property
    def permutation(self) -> PermutationResult | None:
        return self.comparison.test if self.comparison else None

    @property
    def p_holm(self) -> float | None:
        return self.comparison.p_holm if self.comparison else None

    @property
    def detectable(self) -> Detectable | None:
        return self.comparison.detectable if self.comparison else None

    def significant_mcnemar(self, alpha: float) -> tuple[int, int]:
        """(transformations where first is significantly better, where second is), Holm-adjusted."""
        better = worse = 0
        for test in self.mcnemar:
            if test.result is not None and test.p_holm is not None and test.p_holm < alpha:
                if test.result.b > test.result.c:
                    better += 1
                elif test.result.c > test.result.b:
                    worse += 1
        return better, worse

    def to_json(self) -> dict[str, Any]:
        paired = self.comparison
        return {
            "first": self.first,
            "second": self.second,
            "transformations": list(self.transformations),
            "deltaF1": self.delta_f1,
            "interval": self.interval.to_json() if self.interval else None,
            "differences": self.differences,
            "permutation": self.permutation.to_json() if self.permutation else None,
            "pHolm": self.p_holm,
            "runsCombined": ("mean" if paired.mean_runs else "sum") if paired else None,
            "variance": paired.components.to_json() if paired else None,
            "detectable": paired.detectable.to_json() if paired and paired.detectable else None,
            "mcnemar": [t.to_json() for t in self.mcnemar],
            "note": self.note,
        }


@dataclass(frozen=True)
class Statistics:
    level: str
    partial_weight: float
    seed: int
    draws: int
    confidence: float
    alpha: float
    aggregation: Aggregation
    providers: tuple[ProviderStats, ...]  # best micro F1 first
    pairs: tuple[PairComparison, ...]
    confidence_profiles: tuple[ConfidenceProfile, ...]
    categories: tuple[CategoryProfile, ...]  # per provider x transformation, ALL last per provider
    transformations: tuple[str, ...]
    baseline: str | None
    notes: tuple[str, ...] = ()

    def provider(self, name: str) -> ProviderStats:
        for stats in self.providers:
            if stats.provider == name:
                return stats
        raise KeyError(name)

    def group(self, provider: str, transformation: str) -> GroupResult | None:
        for group in self.aggregation.groups:
            if group.provider == provider and group.transformation == transformation:
                return group
        return None

    def to_json(self) -> dict[str, Any]:
        return {
            "level": self.level,
            "partialWeight": self.partial_weight,
            "seed": self.seed,
            "draws": self.draws,
            "confidence": self.confidence,
            "alpha": self.alpha,
            "baseline": self.baseline,
            "transformations": list(self.transformations),
            "providers": [p.to_json() for p in self.providers],
            "pairs": [p.to_json() for p in self.pairs],
            "confidenceProfiles": [c.to_json() for c in self.confidence_profiles],
            "categories": [c.to_json() for c in self.categories],
            "excluded": [e.to_json() for e in self.aggregation.excluded],
            "notes": list(self.notes),
        }


# ------------------------------------------------------------------------------------------ helpers


def _by_provider_and_transformation(rows: Iterable[RunRow]) -> dict[str, dict[str, list[RunRow]]]:
    grouped: dict[str, dict[str, list[RunRow]]] = {}
    for row in rows:
        grouped.setdefault(row.provider, {}).setdefault(row.transformation, []).append(row)
    return {
        p: {t: sorted(runs, key=lambda r: r.key) for t, runs in sorted(by_t.items())}
        for p, by_t in sorted(grouped.items())
    }


def _counts(rows: Sequence[RunRow], w: float, level: str) -> np.ndarray:
    return np.array([level_counts(r.classes, r.bindings, w, level) for r in rows], dtype=float).reshape(-1, 3)


def micro_f1(sums: np.ndarray) -> np.ndarray:
    """Micro F1 of each row of summed (tp, fp, fn) counts: the statistic every paired comparison of the
    track compares."""
    return scores_array(*np.atleast_2d(sums).T)["f1"]


def _mcnemar_counts(
    first: Sequence[RunRow], second: Sequence[RunRow], memo: dict[Any, Any] | None = None
) -> tuple[int, int, int]:
    """(items, b, c) over the union of binding keys: b = first right and second wrong (by majority over
    each side's runs), c the reverse. ``memo`` (one per set of comparisons, holding its sides alive)
    keeps each side's ground-truth keys and majority verdicts: a provider is in a pair with every other
    one, and they were computed again for each pair."""
    memo = {} if memo is None else memo
    truth = frozenset(_side_truth(first, memo) | _side_truth(second, memo))
    rights_first, default_first = _side_rights(first, truth, memo)
    rights_second, default_second = _side_rights(second, truth, memo)
    keys = sorted(set(rights_first) | set(rights_second))
    b = c = 0
    for key in keys:
        right_first = rights_first.get(key, default_first)
        right_second = rights_second.get(key, default_second)
        b += right_first and not right_second
        c += right_second and not right_first
    return len(keys), b, c


def _side_truth(runs: Sequence[RunRow], memo: dict[Any, Any]) -> set[BindingKey]:
    key = ("truth", id(runs))
    if key not in memo:
        memo[key] = truth_keys(runs)
    return memo[key]  # type: ignore[no-any-return]


def _side_rights(
    runs: Sequence[RunRow], truth: frozenset[BindingKey], memo: dict[Any, Any]
) -> tuple[dict[BindingKey, bool], bool]:
    """Whether ``runs`` are right by majority on each key they or ``truth`` name, and on any other key
    (which none of them lists: absent in every run)."""
    key = ("rights", id(runs), truth)
    if key not in memo:
        categories = binding_categories(runs, truth_keys=truth)
        memo[key] = (
            {k: majority_right(v) for k, v in categories.items()},
            majority_right([ABSENT] * len(runs)),
        )
    return memo[key]  # type: ignore[no-any-return]


def check_single_track(rows: Iterable[RunRow], *, source: str | None = None) -> None:
    """Refuse rows of several tracks: every statistic groups rows by provider name alone, so an ATL run
    and, say, a round-trip run of the same provider would be pooled into one meaningless figure.

    Only the ATL track records rows today; a session mixing tracks needs a report per track, which is
    for whoever adds the second track to design, rather than for this module to guess.
    """
    tracks = sorted({row.track for row in rows})
    if len(tracks) > 1:
        raise InputFormatError(
            f"the rows belong to several tracks ({', '.join(tracks)}); statistics and reports pool rows by "
            "provider and cannot mix tracks: report the rows of one track at a time",
            file=source,
            field="$.rows[*].track",
        )


def _check_options(level: str, draws: int, confidence: float, alpha: float, seed: int) -> None:
    if level not in LEVELS:
        raise ConfigurationError(f"level must be one of {', '.join(LEVELS)}, got {level!r}", field="level")
    if draws < 1:
        raise ConfigurationError(f"draws must be at least 1, got {draws}", field="draws")
    if not 0 < confidence < 1:
        raise ConfigurationError(f"confidence must be in (0, 1), got {confidence}", field="confidence")
    if not 0 < alpha < 1:
        raise ConfigurationError(f"alpha must be in (0, 1), got {alpha}", field="alpha")
    if seed < 0:
        raise ConfigurationError(f"seed must be a non-negative integer, got {seed}", field="seed")


# ----------------------------------------------------------------------------------------- compute


def compute_statistics(
    rows: Iterable[RunRow],
    *,
    level: str = "overall",
    draws: int = DEFAULT_DRAWS,
    seed: int = DEFAULT_SEED,
    confidence: float = DEFAULT_CONFIDENCE,
    alpha: float = DEFAULT_ALPHA,
    partial_weight: float = DEFAULT_PARTIAL_WEIGHT,
    baseline: str = BASELINE_PROVIDER,
    permutations: int = DEFAULT_PERMUTATIONS,
    exact_max: int = EXACT_SIGN_FLIP_MAX,
) -> Statistics:
    """All statistics of the count table at one level (class, binding or overall).

    ``draws`` bootstrap draws (default 2000), seeded by ``seed``; error rows are excluded (and listed by
    the aggregation); ``baseline`` names the provider whose misses define baseline-relative recall.
    """
    all_rows = list(rows)
    first = statistics_without_pairs(
        all_rows,
        level=level,
        draws=draws,
        seed=seed,
        confidence=confidence,
        alpha=alpha,
        partial_weight=partial_weight,
        baseline=baseline,
    )
    return with_pairs(
        first, pair_comparisons(first, all_rows, permutations=permutations, exact_max=exact_max)
    )


def statistics_without_pairs(
    rows: Iterable[RunRow],
    *,
    level: str = "overall",
    draws: int = DEFAULT_DRAWS,
    seed: int = DEFAULT_SEED,
    confidence: float = DEFAULT_CONFIDENCE,
    alpha: float = DEFAULT_ALPHA,
    partial_weight: float = DEFAULT_PARTIAL_WEIGHT,
    baseline: str = BASELINE_PROVIDER,
) -> Statistics:
    """:func:`compute_statistics` but for the paired comparisons of the providers (none, and no note on
    them): most of the time of the statistics, and nothing a figure or the drill-down reads, so a report
    computes them (:func:`pair_comparisons`) while it draws (:func:`with_pairs` completes these)."""
    _check_options(level, draws, confidence, alpha, seed)
    all_rows = list(rows)
    check_single_track(all_rows)
    aggregation = aggregate(all_rows, partial_weight=partial_weight)
    w = aggregation.partial_weight
    ok = [row for row in all_rows if row.ok]
    grouped = _by_provider_and_transformation(ok)
    totals = {g.provider: g for g in aggregation.totals()}
    notes: list[str] = []
    if aggregation.excluded:
        notes.append(
            f"{plural(len(aggregation.excluded), 'run')} could not be scored and "
            f"{'is' if len(aggregation.excluded) == 1 else 'are'} excluded (listed below)"
        )
    if not ok:
        notes.append("no scored runs: there is nothing to summarise")

    has_baseline = baseline in grouped
    providers: list[ProviderStats] = []
    for provider, by_t in grouped.items():
        provider_rows = [r for runs in by_t.values() for r in runs]
        total = totals[provider]
        provider_notes = []
        if total.runs == 1:
            provider_notes.append("one run: standard deviation undefined")
        if total.suggestions == 0:
            provider_notes.append("made no suggestions")
        if any(not has_verdicts(r) for r in provider_rows):
            provider_notes.append("some rows carry no per-item verdicts: item-level statistics skipped")
        intervals = cluster_bootstrap(
            [_counts(runs, w, level) for runs in by_t.values()],
            draws=draws,
            rng=rng_for(seed, "provider", provider),
            confidence=confidence,
        )
        relative = None
        if has_baseline and provider != baseline:
            baseline_rows = [r for runs in grouped[baseline].values() for r in runs]
            relative = baseline_relative_recall(provider_rows, baseline_rows, w, baseline=baseline)
        providers.append(
            ProviderStats(
                provider=provider,
                models=total.models,
                runs=total.runs,
                transformations=tuple(by_t),
                micro=level_of(total.micro, level),
                macro=total.macro[level],
                intervals=intervals,
                stability=stability(provider_rows),
                baseline_recall=relative,
                suggestions=total.suggestions,
                notes=tuple(provider_notes),
                unusable_runs=total.unusable_runs,
            )
        )
    providers.sort(key=lambda p: (-p.micro.f1, p.provider))
    if len(providers) == 1:
        notes.append("one provider: no paired comparison")
    if ok and not has_baseline:
        notes.append(f"no {baseline} rows: baseline-relative recall not computed")
    transformations = tuple(sorted({r.transformation for r in ok}, key=name_key))
    if len(transformations) == 1:
        notes.append(
            "one transformation: bootstrap intervals show run-to-run variation only, and the permutation "
            "test cannot reach significance (its smallest p-value is 1)"
        )

    confidence_profiles = tuple(
        confidence_profile(p.provider, [r for runs in grouped[p.provider].values() for r in runs], w, level)
        for p in providers
    )
    categories = tuple(category_profile(g.provider, g.transformation, g.bindings) for g in aggregation.groups)
    return Statistics(
        level=level,
        partial_weight=w,
        seed=seed,
        draws=draws,
        confidence=confidence,
        alpha=alpha,
        aggregation=aggregation,
        providers=tuple(providers),
        pairs=(),
        confidence_profiles=confidence_profiles,
        categories=categories,
        transformations=transformations,
        baseline=baseline if has_baseline else None,
        notes=tuple(notes),
    )


def pair_comparisons(
    stats: Statistics,
    rows: Iterable[RunRow],
    *,
    permutations: int = DEFAULT_PERMUTATIONS,
    exact_max: int = EXACT_SIGN_FLIP_MAX,
) -> tuple[PairComparison, ...]:
    """The paired comparisons of every two providers of ``stats`` (:func:`statistics_without_pairs` of
    the same ``rows``), with their options."""
    grouped = _by_provider_and_transformation(row for row in rows if row.ok)
    return _pairs(
        stats.providers,
        grouped,
        stats.aggregation,
        stats.partial_weight,
        stats.level,
        stats.draws,
        stats.seed,
        stats.confidence,
        stats.alpha,
        permutations,
        exact_max,
    )


def with_pairs(stats: Statistics, pairs: tuple[PairComparison, ...]) -> Statistics:
    """``stats`` (without pairs) completed with their ``pairs``."""
    return replace(stats, pairs=pairs)


def _pairs(
    providers: Sequence[ProviderStats],
    grouped: dict[str, dict[str, list[RunRow]]],
    aggregation: Aggregation,
    w: float,
    level: str,
    draws: int,
    seed: int,
    confidence: float,
    alpha: float,
    permutations: int,
    exact_max: int,
) -> tuple[PairComparison, ...]:
    f1 = {
        (g.provider, g.transformation): level_of(g.micro, level).f1
        for g in aggregation.groups
        if g.transformation != ALL
    }
    drafts: list[PairComparison] = []
    memo: dict[Any, Any] = {}  # per provider and transformation, not per pair (_mcnemar_counts, counts)

    def counts(provider: str, transformation: str) -> np.ndarray:
        key = ("counts", provider, transformation)
        if key not in memo:
            memo[key] = _counts(grouped[provider][transformation], w, level)
        return memo[key]  # type: ignore[no-any-return]

    for first_stats, second_stats in combinations(providers, 2):
        first, second = first_stats.provider, second_stats.provider
        common = tuple(sorted(set(grouped[first]) & set(grouped[second])))
        if not common:
            drafts.append(PairComparison(first, second, common, None, {}, (), "no transformation in common"))
            continue
        # ΔF1, its interval, its test and its MDE measure one thing: the micro F1 difference on the common
        # transformations (docs/STATISTICS.md §3)
        comparison = compare(
            common,
            [counts(first, t) for t in common],
            [counts(second, t) for t in common],
            micro_f1,
            interval_rng=rng_for(seed, "pair", first, second),
            test_rng=rng_for(seed, "swap", first, second),
            draws=draws,
            confidence=confidence,
            permutations=permutations,
            exact_max=exact_max,
            unit="transformation",
        )
        differences = {t: f1[(first, t)] - f1[(second, t)] for t in common}
        tests = []
        for t in common:
            runs_first, runs_second = grouped[first][t], grouped[second][t]
            if not all(has_verdicts(r) for r in (*runs_first, *runs_second)):
                tests.append(TransformationTest(t, 0, None, note="rows without per-item verdicts"))
                continue
            items, b, c = _mcnemar_counts(runs_first, runs_second, memo)
            tests.append(TransformationTest(t, items, mcnemar(b, c)))
        note = None
        if len(common) < max(len(grouped[first]), len(grouped[second])):
            note = f"compared on the {plural(len(common), 'transformation')} both providers have runs on"
        drafts.append(PairComparison(first, second, common, comparison, differences, tuple(tests), note))

    # Holm within two families: the permutation tests of all pairs (with their MDE at alpha / m), and all
    # McNemar tests
    corrected = iter(holm_family([d.comparison for d in drafts if d.comparison is not None], alpha=alpha))
    test_p = iter(holm([t.result.p_value for d in drafts for t in d.mcnemar if t.result is not None]))
    return tuple(
        replace(
            draft,
            comparison=next(corrected) if draft.comparison is not None else None,
            mcnemar=tuple(
                replace(t, p_holm=next(test_p)) if t.result is not None else t for t in draft.mcnemar
            ),
        )
        for draft in drafts
    )


__all__ = [
    "DEFAULT_ALPHA",
    "LEVELS",
    "PairComparison",
    "ProviderStats",
    "Statistics",
    "TransformationTest",
    "check_single_track",
    "compute_statistics",
    "micro_f1",
    "pair_comparisons",
    "statistics_without_pairs",
    "with_pairs",
]
