"""Number formatting shared by every report format, so Markdown, HTML and LaTeX print the same digits.

Undefined values (a standard deviation over one run, a stability without repeated runs, a precision of
a slice with no suggestions) print as an en dash, never as NaN or 0.
"""

from __future__ import annotations

import math

from benchmark.stats.bootstrap import Interval
from benchmark.tracks.mapping.aggregate import Spread

DASH = "–"
DIGITS = 3


def number(value: float | None, digits: int = DIGITS) -> str:
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return DASH
    return f"{value:.{digits}f}"


def count(value: float) -> str:
    """Counts may be fractional (partial bindings weigh w): print 12, 12.5, 12.25 without noise."""
    return f"{value:g}" if float(value).is_integer() else f"{value:.4g}"


def spread(value: Spread, digits: int = DIGITS) -> str:
    return f"{number(value.mean, digits)} ± {number(value.sd, digits)}"


def interval(value: Interval | None, digits: int = DIGITS) -> str:
    if value is None:
        return f"[{DASH}]"
    return f"[{number(value.low, digits)}, {number(value.high, digits)}]"


def with_interval(
    point: float | None, value: Interval | None, digits: int = DIGITS, signed: bool = False
) -> str:
    if point is None:
        return DASH
    text = f"{point:+.{digits}f}" if signed else number(point, digits)
    return f"{text} {interval(value, digits)}"


def p_value(value: float | None) -> str:
    if value is None:
        return DASH
    if value < 0.001:
        return "<0.001"
    return f"{value:.3f}"


def share(value: float) -> str:
    return f"{100 * value:.1f}%"
