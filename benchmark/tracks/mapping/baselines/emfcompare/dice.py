"""EMF Compare's string similarity: ``DiffUtil.diceCoefficient`` (bigram Dice), bit for bit.

Names weigh 400 x (1 - dice) in the distance, so every special case matters: identical strings give 1.0,
an empty string 0.0, strings of length 1 (or both of length 2) are compared character by character, and
a result of 1.0 for different strings is capped just below 1 so that they still count as a change.
Java compares UTF-16 code units; Python strings are compared by code point, which only differs outside
the Basic Multilingual Plane (never in metamodel names), so the strings are converted to UTF-16 units.
"""

from __future__ import annotations

from collections import Counter
from functools import lru_cache

# Double.longBitsToDouble(0x3fefffffffffffffL): the largest double below 1.0.
SIMILAR = 0.9999999999999999


def _utf16_units(text: str) -> tuple[int, ...]:
    if text.isascii():
        return tuple(map(ord, text))
    data = text.encode("utf-16-le", "surrogatepass")
    return tuple(int.from_bytes(data[i : i + 2], "little") for i in range(0, len(data), 2))


@lru_cache(maxsize=65536)
def _bigrams(text: str) -> Counter[tuple[int, int]]:
    units = _utf16_units(text)
    return Counter(zip(units, units[1:], strict=False))


@lru_cache(maxsize=262144)
def dice_coefficient(first: str, second: str) -> float:
    """``DiffUtil.diceCoefficient(first, second)``: 1.0 only for equal strings, else in [0, SIMILAR]."""
    if first == second:
        return 1.0
    length1, length2 = len(first), len(second)
    if not first.isascii() or not second.isascii():
        units1, units2 = _utf16_units(first), _utf16_units(second)
        length1, length2 = len(units1), len(units2)
    else:
        units1, units2 = first, second  # type: ignore[assignment]
    if length1 == 0 or length2 == 0:
        coefficient = 0.0
    elif length1 == 1 or length2 == 1 or (length1 == 2 and length2 == 2):
        equal = sum(1 for x, y in zip(units1, units2, strict=False) if x == y)
        union = length1 + length2
        coefficient = equal / union if length1 != length2 else (equal * 2) / union
    else:
        bigrams1, bigrams2 = _bigrams(first), _bigrams(second)
        matching = sum((bigrams1 & bigrams2).values())
        coefficient = (2.0 * matching) / ((length1 - 1) + (length2 - 1))
    return min(coefficient, SIMILAR)
