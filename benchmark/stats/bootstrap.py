"""Two-level (cluster) bootstrap: resample whole transformations, then runs within each.

The mappings of one ATL file are correlated (one misunderstood class drags its bindings with it), so
resampling single correspondences would understate the uncertainty; transformations are the independent
units. Repeated runs are a second variance component (sampling, backend non-determinism), so within each
drawn transformation its runs are resampled too. F1 is not a mean of per-item values, so the statistic is
recomputed from the resampled pooled counts in every draw (micro P, R, F1 and accuracy via
:func:`benchmark.tracks.mapping.counts.scores_array`).

Randomness comes from one :class:`numpy.random.Generator` per quantity, seeded from the base seed and
the quantity's name (:func:`rng_for`): a provider's interval does not change when another provider is
added to the results, and the same inputs give the same digits on every machine with the same NumPy.
Draws are consumed as uniform doubles (``Generator.random``), so processing them in chunks (to bound
memory for sessions with very many runs) does not change a single value.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from benchmark.core.metrics import scores_array

DEFAULT_DRAWS = 2000
DEFAULT_SEED = 20240517
DEFAULT_CONFIDENCE = 0.95
METRICS = ("precision", "recall", "f1", "accuracy")

_CELLS_PER_CHUNK = 1 << 19  # draws x transformations x runs held in memory at once


def rng_for(seed: int, *labels: str) -> np.random.Generator:
    """A generator for one named quantity (``rng_for(seed, "provider", "GPT")``)."""
    if seed < 0:
        raise ValueError(f"seed must be a non-negative integer, got {seed}")
    digest = hashlib.sha256("\x1f".join(labels).encode("utf-8")).digest()
    words = np.frombuffer(digest, dtype="<u4").tolist()
    return np.random.default_rng(np.random.SeedSequence([seed, *words]))


@dataclass(frozen=True)
class Interval:
    """A percentile bootstrap interval. ``se`` is the standard deviation of the draws; ``note`` says
    when the resampling cannot show some source of variation (one transformation, one run)."""

    low: float
    high: float
    se: float
    draws: int
    confidence: float = DEFAULT_CONFIDENCE
    note: str | None = None

    @property
    def degenerate(self) -> bool:
        return self.low == self.high

    def to_json(self) -> dict[str, Any]:
        return {
            "low": self.low,
            "high": self.high,
            "se": self.se,
            "draws": self.draws,
            "confidence": self.confidence,
            "note": self.note,
        }


def degeneracy_note(run_counts: Sequence[int], unit: str = "transformation") -> str | None:
    """What a two-level bootstrap over these groups (runs per ``unit``) cannot see. ``unit`` names what a
    group is in the track's study: transformations in the mapping track, constraints in the OCL track."""
    units = unit + "s"
    if not run_counts:
        return f"no {units}: no interval"
    if len(run_counts) == 1 and run_counts[0] == 1:
        return f"one {unit} with one run: nothing to resample, the interval is the point estimate"
    if len(run_counts) == 1:
        return f"one {unit}: the interval shows run-to-run variation only, not variation over {units}"
    if all(n == 1 for n in run_counts):
        return f"one run per {unit}: the interval shows variation over {units} only"
    return None


def resample_sums(
    systems: Sequence[Sequence[np.ndarray]],
    draws: int,
    rng: np.random.Generator,
    *,
    mean_runs: bool = False,
) -> list[np.ndarray]:
    """Bootstrap sums of per-run count vectors, for one or several systems sharing the transformations.

    ``systems[s][t]`` is an array ``(runs, k)`` of system ``s`` on transformation ``t``; every system
    lists the same transformations in the same order (each has at least one run). Each draw picks
    ``T`` transformation indices with replacement, shared by all systems (the pairing), then, for each
    system separately, as many runs as that system has on the drawn transformation, with replacement,
    and sums their count vectors. Returns one ``(draws, k)`` array per system. With ``mean_runs`` each
    drawn transformation contributes the mean of its drawn runs instead of their sum (every
    transformation weighs alike, whatever its number of runs); the random stream is the same.
    """
    if draws < 1:
        raise ValueError(f"draws must be at least 1, got {draws}")
    transformations = len(systems[0])
    if transformations == 0 or any(len(groups) != transformations for groups in systems):
        raise ValueError("every system needs the same, non-empty list of transformations")
    # the uniform draws are non-negative: truncating them to integers is taking their floor
    picks = rng.random((draws, transformations))
    picks *= transformations  # in place: the same products as ``rng.random(...) * transformations``
    picks = picks.astype(np.intp)
    results = []
    for groups in systems:
        sizes = np.array([len(g) for g in groups], dtype=np.intp)
        if (sizes < 1).any():
            raise ValueError("every transformation needs at least one run")
        width = groups[0].shape[1]
        longest = int(sizes.max())
        stride = longest + 1  # each transformation's runs, then one row of zeros for unused slots
        flat = np.zeros((transformations * stride, width), dtype=float)
        for index, group in enumerate(groups):
            flat[index * stride : index * stride + len(group)] = group
        add_up = _adder(flat, transformations * longest)
        # Slot j of transformation t: a run drawn among its sizes[t] (``span``), read from its first row
        # (``base``); a slot past its runs spans nothing and reads its row of zeros. Looked up per drawn
        # transformation, these give each slot's row with no mask and no broadcast temporaries.
        used = np.arange(longest)[None, :] < sizes[:, None]  # (T, R)
        span = np.where(used, sizes[:, None], 0)
        base = np.arange(transformations)[:, None] * stride + np.where(used, 0, longest)
        sums = np.zeros((draws, width), dtype=float)
        chunk = max(1, _CELLS_PER_CHUNK // (transformations * longest))
        for start in range(0, draws, chunk):
            chosen = picks[start : start + chunk]  # (c, T)
            if longest == 1:  # one run per transformation: it is always the one drawn
                _skip(rng, len(chosen) * transformations)  # its uniforms are the stream all the same
                rows = chosen * stride
            else:
                uniform = rng.random((len(chosen), transformations, longest))
                np.multiply(uniform, np.take(span, chosen, axis=0), out=uniform)  # uniform * runs, in place
                runs = uniform.astype(np.intp)  # the drawn run of each slot (0 past the runs)
                runs += np.take(base, chosen, axis=0)
                rows = runs.reshape(len(chosen), -1)
            if mean_runs:  # each drawn transformation weighs alike: the mean of its drawn runs
                n = sizes[chosen][..., None]  # runs of each drawn one
                values = flat[rows].reshape(len(chosen), transformations, longest, width)
                sums[start : start + chunk] = (values.sum(axis=2) / n).sum(axis=1)
            else:
                sums[start : start + chunk] = add_up(rows)
        results.append(sums)
    return results


def _skip(rng: np.random.Generator, count: int) -> None:
    """Move ``rng`` on by ``count`` uniform doubles, as drawing them would, without drawing them: PCG64
    (every generator of :func:`rng_for`) makes each double of ``Generator.random`` from one 64-bit step
    and can advance by any number of steps at once; another generator draws them."""
    if type(rng.bit_generator) is np.random.PCG64:
        rng.bit_generator.advance(count)
    else:
        rng.random(count)


def _adder(flat: np.ndarray, cells: int) -> Callable[[np.ndarray], np.ndarray]:
    """How to sum the rows of ``flat`` that each line of an index array names (``cells`` of them).

    Rows of fractions are gathered and summed in the order of the rows (the order of adding changes the
    last bit). Rows of whole numbers sum exactly in any order, so they are summed as integers: when every
    column's largest possible sum fits in its own bit field, the columns are packed into one ``int64`` per
    row and the sums unpacked (one gather for all columns), else column by column."""
    if not _integral(flat):
        return lambda rows: flat[rows].sum(axis=1)  # (c, T * R, k) summed over runs
    whole = flat.astype(np.int64)
    if whole.min(initial=0) >= 0:
        bits = [max(1, (cells * int(largest)).bit_length()) for largest in whole.max(axis=0)]  # per column
        if sum(bits) <= 62:
            shifts = np.cumsum([0, *bits[:-1]]).astype(np.int64)
            masks = (np.int64(1) << np.array(bits, dtype=np.int64)) - 1
            packed = (whole << shifts).sum(axis=1)  # each row's columns, side by side in one integer

            def unpack(rows: np.ndarray) -> np.ndarray:
                total = np.take(packed, rows).sum(axis=1)[:, None]
                return ((total >> shifts) & masks).astype(float)

            return unpack
    columns = np.ascontiguousarray(whole.T)
    return lambda rows: np.stack([np.take(c, rows).sum(axis=1) for c in columns], axis=1).astype(float)


def _integral(values: np.ndarray) -> bool:
    """Whether every value is a whole number, small enough that the sums of the draws are exact in any
    order of adding (then they are summed as integers; fractions keep the order of the rows)."""
    finite = bool(np.all(np.isfinite(values)))
    return (
        finite
        and bool(np.all(values == np.round(values)))
        and float(np.max(np.abs(values), initial=0)) < 2**40
    )


def metric_draws(sums: np.ndarray) -> dict[str, np.ndarray]:
    """Micro metrics of each draw from summed (tp, fp, fn) columns."""
    return scores_array(sums[:, 0], sums[:, 1], sums[:, 2])


def percentile_interval(
    values: np.ndarray, *, confidence: float = DEFAULT_CONFIDENCE, note: str | None = None
) -> Interval:
    tail = round((1.0 - confidence) / 2.0, 12)  # 0.05 for 90%, not 0.04999999999999999
    low, high = np.quantile(values, [tail, 1.0 - tail])
    se = float(np.std(values, ddof=1)) if len(values) > 1 else 0.0
    return Interval(float(low), float(high), se, len(values), confidence, note)


def cluster_bootstrap(
    groups: Sequence[np.ndarray],
    *,
    draws: int = DEFAULT_DRAWS,
    rng: np.random.Generator,
    confidence: float = DEFAULT_CONFIDENCE,
) -> dict[str, Interval]:
    """Intervals for micro P, R, F1 and accuracy of one system: ``groups[t]`` holds the (tp, fp, fn) of
    each of its runs on transformation ``t``."""
    note = degeneracy_note([len(g) for g in groups])
    if not groups:
        return {}
    (sums,) = resample_sums([groups], draws, rng)
    values = metric_draws(sums)
    return {m: percentile_interval(values[m], confidence=confidence, note=note) for m in METRICS}


def paired_bootstrap_delta(
    first: Sequence[np.ndarray],
    second: Sequence[np.ndarray],
    *,
    metric: str = "f1",
    draws: int = DEFAULT_DRAWS,
    rng: np.random.Generator,
    confidence: float = DEFAULT_CONFIDENCE,
    mean_runs: bool = False,
) -> Interval | None:
    """Interval of metric(first) - metric(second) with shared transformation draws (the pairing: both
    systems are scored on the same resampled transformations); runs are resampled per system, since run
    k of one provider has nothing to do with run k of another. ``mean_runs``: each transformation's
    counts are its runs' mean (:func:`resample_sums`). None without common transformations."""
    if not first:
        return None
    notes = {degeneracy_note([len(g) for g in first]), degeneracy_note([len(g) for g in second])}
    note = "; ".join(sorted(n for n in notes if n)) or None
    sums_first, sums_second = resample_sums([first, second], draws, rng, mean_runs=mean_runs)
    delta = metric_draws(sums_first)[metric] - metric_draws(sums_second)[metric]
    return percentile_interval(delta, confidence=confidence, note=note)


__all__ = [
    "DEFAULT_CONFIDENCE",
    "DEFAULT_DRAWS",
    "DEFAULT_SEED",
    "Interval",
    "cluster_bootstrap",
    "degeneracy_note",
    "metric_draws",
    "paired_bootstrap_delta",
    "percentile_interval",
    "resample_sums",
    "rng_for",
]
