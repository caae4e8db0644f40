"""A confidence interval for a median that assumes nothing about the distribution: two order statistics.

Timings on a shared machine are skewed and drift with its load, so the benchmark compares two checkouts by
the ratios of sessions run in turn (pairs) and quotes their median. Whether such a median differs from 1 is
read from the interval between the k-th smallest and the k-th largest of the n values: it holds the
population median unless at least n - k + 1 values fall on one side of it, which for independent values of
any continuous distribution has probability 2 P(B <= k - 1), B ~ Binomial(n, 1/2) (the interval that
inverts the sign test). The coverage is exact, in steps: with 5 values
the whole range holds the median with 93.75 % confidence, and no narrower interval reaches 90 %.
"""

from __future__ import annotations

import math
from collections.abc import Sequence


def median_interval(values: Sequence[float], confidence: float = 0.90) -> tuple[float, float, float] | None:
    """``(low, high, coverage)``: the narrowest interval of two order statistics of ``values`` that holds
    their distribution's median with probability ``coverage`` >= ``confidence``; ``None`` when even the
    whole range holds it with less (fewer than 5 values at 90 %)."""
    if not 0 < confidence < 1:
        raise ValueError(f"confidence must be in (0, 1), got {confidence}")
    n = len(values)
    ordered = sorted(values)
    found = None
    outside = 0  # 2^n P(B <= k - 1), summed in integers
    for k in range(1, (n + 1) // 2 + 1):
        outside += math.comb(n, k - 1)
        coverage = 1 - 2 * outside / 2**n
        if coverage < confidence:
            break
        found = (ordered[k - 1], ordered[n - k], coverage)
    return found


__all__ = ["median_interval"]
