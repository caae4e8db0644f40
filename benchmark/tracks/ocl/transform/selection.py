"""Which attributes or associations a reification changes, for a given seed.

The rule (documented in ``docs/OCL.md``): of the eligible elements, ``ceil(SHARE * n)`` are reified
(at least one when any is eligible). They are drawn first from the elements the reference invariants
use -- a reification no constraint touches tests nothing -- and then from the others, each group in
model order and sampled with :class:`random.Random` seeded by the seed, the kind and the model name, so
the same seed picks the same elements in every mode that includes the reification.
"""

from __future__ import annotations

import math
import random
from collections.abc import Hashable, Sequence
from typing import TypeVar

SHARE = 1 / 3

T = TypeVar("T", bound=Hashable)


def choose(eligible: Sequence[T], used: set[T], *, seed: int, kind: str, model: str) -> list[T]:
    """The elements to reify, in the order of ``eligible`` (see the module docstring)."""
    if not eligible:
        return []
    count = max(1, math.ceil(SHARE * len(eligible)))
    rng = random.Random(f"{kind}/{seed}/{model}")
    first = [e for e in eligible if e in used]
    rest = [e for e in eligible if e not in used]
    picked = rng.sample(first, min(count, len(first)))
    picked += rng.sample(rest, count - len(picked))
    chosen = set(picked)
    return [e for e in eligible if e in chosen]
