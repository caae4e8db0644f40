"""The variants table's statistics (``docs/VARIANTS.md``): per provider and task variant, micro overall
P/R/F1, and each variant's paired difference to ``original``.

The pairing is the study's usual one (``docs/STATISTICS.md``): a provider's runs on a variant against its
runs on the original task, on the transformations it has ok runs on in both. ΔF1 = micro overall F1 on
the variant minus micro overall F1 on the original (negative: the score drops), its paired cluster
bootstrap over transformations, its permutation test over transformations and its minimum detectable
effect, all of that one ΔF1 (:func:`benchmark.stats.paired.compare`), Holm-adjusted over every comparison
of the table. The level is always ``overall`` (classes and bindings pooled), whatever ``--level`` the
other tables use.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from typing import Any

import numpy as np

from benchmark.core.wording import plural
from benchmark.stats.bootstrap import (
    DEFAULT_CONFIDENCE,
    DEFAULT_DRAWS,
    DEFAULT_SEED,
    Interval,
    rng_for,
)
from benchmark.stats.paired import Paired, compare, holm_family
from benchmark.stats.power import DEFAULT_ALPHA, Detectable
from benchmark.stats.significance import (
    DEFAULT_PERMUTATIONS,
    EXACT_SIGN_FLIP_MAX,
    PermutationResult,
)
from benchmark.tracks.mapping.aggregate import micro, name_key
from benchmark.tracks.mapping.counts import DEFAULT_PARTIAL_WEIGHT, Scores
from benchmark.tracks.mapping.payload import RunRow
from benchmark.tracks.mapping.stats.profiles import level_counts
from benchmark.tracks.mapping.stats.summary import micro_f1
from benchmark.tracks.mapping.variants.names import ORIGINAL, SYNONYM, VARIANTS

LEVEL = "overall"


@dataclass(frozen=True)
class VariantScores:
    """One provider on one variant: its ok runs pooled, and (for a variant other than ``original``) the
    paired comparison with its original runs on ``common`` transformations."""

    provider: str
    variant: str
    runs: int
    excluded: int
    transformations: tuple[str, ...]
    micro: Scores
    common: tuple[str, ...] = ()
    comparison: Paired | None = None
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

    def to_json(self) -> dict[str, Any]:
        paired = self.comparison
        return {
            "provider": self.provider,
            "variant": self.variant,
            "runs": self.runs,
            "excluded": self.excluded,
            "transformations": list(self.transformations),
            "micro": self.micro.to_json(),
            "common": list(self.common),
            "deltaF1": self.delta_f1,
            "interval": self.interval.to_json() if self.interval else None,
            "permutation": self.permutation.to_json() if self.permutation else None,
            "pHolm": self.p_holm,
            "runsCombined": ("mean" if paired.mean_runs else "sum") if paired else None,
            "variance": paired.components.to_json() if paired else None,
            "detectable": self.detectable.to_json() if self.detectable else None,
            "note": self.note,
        }


@dataclass(frozen=True)
class VariantStatistics:
    partial_weight: float
    draws: int
    seed: int
    confidence: float
    entries: tuple[VariantScores, ...]
    notes: tuple[str, ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {
            "level": LEVEL,
            "partialWeight": self.partial_weight,
            "draws": self.draws,
            "seed": self.seed,
            "confidence": self.confidence,
            "entries": [e.to_json() for e in self.entries],
            "notes": list(self.notes),
        }


def has_variants(rows: Iterable[RunRow]) -> bool:
    """Whether any row answers a task variant other than ``original`` (else there is no table)."""
    return any(row.variant != ORIGINAL for row in rows)


def _counts(rows: Sequence[RunRow], w: float) -> np.ndarray:
    return np.array([level_counts(r.classes, r.bindings, w, LEVEL) for r in rows], dtype=float).reshape(-1, 3)


def _by_transformation(rows: Iterable[RunRow]) -> dict[str, list[RunRow]]:
    grouped: dict[str, list[RunRow]] = {}
    for row in sorted(rows, key=lambda r: (name_key(r.transformation), r.key)):
        grouped.setdefault(row.transformation, []).append(row)
    return grouped


def _variant_order(variant: str) -> tuple[int, str]:
    return (VARIANTS.index(variant) if variant in VARIANTS else len(VARIANTS), variant)


def _compare(
    provider: str,
    variant: str,
    rows: dict[str, list[RunRow]],
    original: dict[str, list[RunRow]],
    w: float,
    draws: int,
    seed: int,
    confidence: float,
    permutations: int,
    exact_max: int,
) -> dict[str, Any]:
    """The paired fields of :class:`VariantScores` for one provider's variant against its original."""
    common = tuple(t for t in rows if t in original)
    if not common:
        return {"note": "no transformation with ok runs on both this variant and the original"}
    comparison = compare(
        common,
        [_counts(rows[t], w) for t in common],
        [_counts(original[t], w) for t in common],
        micro_f1,
        interval_rng=rng_for(seed, "variant", provider, variant),
        test_rng=rng_for(seed, "variant-swap", provider, variant),
        draws=draws,
        confidence=confidence,
        permutations=permutations,
        exact_max=exact_max,
        unit="transformation",
    )
    note = None
    if len(common) < max(len(rows), len(original)):
        note = f"compared on the {plural(len(common), 'transformation')} with ok runs on both"
    return {"common": common, "comparison": comparison, "note": note}


def _renaming_notes(rows: Sequence[RunRow]) -> list[str]:
    """How many names each renaming variant changed, and how many of them by the synonym variant's
    fallback rule (no synonym known), over the transformations' recorded renamings; and a warning when
    one variant's runs were drawn with different seeds."""
    notes = []
    for variant in VARIANTS:
        recorded: dict[str, dict[str, Any]] = {}
        seeds: set[int] = set()
        for row in rows:
            if row.variant == variant and row.payload.variant_detail:
                recorded.setdefault(row.transformation, row.payload.variant_detail)
                seeds.add(int(row.payload.variant_detail.get("seed", 0)))
        if len(seeds) > 1:
            listed = ", ".join(str(s) for s in sorted(seeds))
            notes.append(f"{variant}: runs drawn with different seeds ({listed}) are pooled")
        if variant != SYNONYM or not recorded:
            continue
        renamed = fallbacks = 0
        for detail in recorded.values():
            for role in ("source", "target"):
                side = detail.get(role) or {}
                renamed += sum(
                    len(side.get(k) or {}) for k in ("packages", "classifiers", "features", "literals")
                )
                fallbacks += len(side.get("fallbacks") or [])
        notes.append(
            f"synonym: {plural(renamed, 'name')} renamed over {plural(len(recorded), 'transformation')}, "
            f"{fallbacks} by the fallback rule (no synonym known: the name keeps its words and gains a "
            "qualifier)"
        )
    return notes


def compute_variant_statistics(
    rows: Iterable[RunRow],
    *,
    partial_weight: float = DEFAULT_PARTIAL_WEIGHT,
    draws: int = DEFAULT_DRAWS,
    seed: int = DEFAULT_SEED,
    confidence: float = DEFAULT_CONFIDENCE,
    permutations: int = DEFAULT_PERMUTATIONS,
    exact_max: int = EXACT_SIGN_FLIP_MAX,
    alpha: float = DEFAULT_ALPHA,
) -> VariantStatistics:
    """Every provider that answered a variant other than ``original``: a line per variant it answered
    (``original`` first), error rows counted as excluded."""
    all_rows = list(rows)
    w = partial_weight
    providers = sorted({r.provider for r in all_rows if r.variant != ORIGINAL}, key=name_key)
    drafts: list[VariantScores] = []
    for provider in providers:
        mine = [r for r in all_rows if r.provider == provider]
        variants = sorted({r.variant for r in mine} | {ORIGINAL}, key=_variant_order)
        original = _by_transformation(r for r in mine if r.ok and r.variant == ORIGINAL)
        for variant in variants:
            ok = [r for r in mine if r.ok and r.variant == variant]
            grouped = _by_transformation(ok)
            paired: dict[str, Any] = {}
            if variant != ORIGINAL and ok:
                paired = _compare(
                    provider, variant, grouped, original, w, draws, seed, confidence, permutations, exact_max
                )
            elif variant != ORIGINAL:
                paired = {"note": "no ok run on this variant"}
            drafts.append(
                VariantScores(
                    provider=provider,
                    variant=variant,
                    runs=len(ok),
                    excluded=sum(1 for r in mine if not r.ok and r.variant == variant),
                    transformations=tuple(grouped),
                    micro=micro(ok, w).overall,
                    **paired,
                )
            )
    corrected = iter(holm_family([d.comparison for d in drafts if d.comparison is not None], alpha=alpha))
    entries = tuple(replace(d, comparison=next(corrected)) if d.comparison is not None else d for d in drafts)
    return VariantStatistics(w, draws, seed, confidence, entries, tuple(_renaming_notes(all_rows)))


__all__ = ["LEVEL", "VariantScores", "VariantStatistics", "compute_variant_statistics", "has_variants"]
