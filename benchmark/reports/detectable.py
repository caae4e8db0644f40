"""How every comparison table says what it could detect: the MDE column, its note and its one sentence.

The figures come from :mod:`benchmark.stats.power` through each comparison (:class:`benchmark.stats.paired.
Paired`); this module words them the same way for every track and format, so that a reader of any table
finds "MDE" in the same place with the same meaning, and the page's "Read this first" carries one sentence
per comparison table: with these N units the table can detect |Δ| ≥ X; smaller differences cannot be claimed
either way.
"""

from __future__ import annotations

from collections.abc import Sequence
from statistics import median

from benchmark.core.wording import plural
from benchmark.stats.power import Detectable, p_floor

DASH = "–"
NONE = "none"


def header(power: float = 0.80) -> str:
    """The column's title: ``MDE (80% power, Holm)``."""
    return f"MDE ({round(power * 100):g}% power, Holm)"


def cell(found: Detectable | None, digits: int = 3, scale: float = 1.0) -> str:
    """The MDE of one comparison (``scale`` = 100 for a table in percent): ``none`` when no difference of
    any size can reach the corrected level, a dash when the row has no comparison or its units show no
    variation to plan from."""
    if found is None:
        return DASH
    if not found.reachable:
        return NONE
    if found.effect is None:
        return DASH
    return f"{found.effect * scale:.{digits}f}"


def note(found: Sequence[Detectable | None], metric: str, unit: str, power: float = 0.80) -> str:
    """The column's footnote: what the MDE is, at which level, from which variance."""
    present = [d for d in found if d is not None]
    families = sorted({d.family for d in present}) or [0]
    alpha = present[0].table_alpha if present else 0.05
    over = (
        f"over {plural(families[0], 'comparison')} (level α/{families[0]})"
        if len(families) == 1
        else f"within each family of m = {families[0]} to {families[-1]} comparisons (level α/m)"
    )
    return (
        f"MDE: the smallest |{metric}| each comparison detects with {round(power * 100):g}% power at "
        f"α = {alpha:g} after Holm {over}, from the study's "
        f"own variance between {unit}s and between runs (docs/STATISTICS.md, 'What a comparison can "
        f"detect'); {NONE}: over so few {unit}s the exact test cannot reach that level, whatever the "
        "difference"
    )


def _number(value: float, scale: float, digits: int) -> str:
    return f"{value * scale:.{digits}f}"


def sentence(
    table: str,
    found: Sequence[Detectable | None],
    metric: str,
    unit: str,
    *,
    scale: float = 1.0,
    digits: int = 3,
) -> str | None:
    """One sentence for "Read this first" about a comparison table (``table``: its title), or ``None``
    when it has no comparison."""
    present = [d for d in found if d is not None]
    if not present:
        return None
    sizes = sorted({d.units for d in present})
    these = (
        f"with these {plural(sizes[0], unit)}"
        if len(sizes) == 1
        else f"with {sizes[0]} to {plural(sizes[-1], unit)} per comparison"
    )
    families = sorted({d.family for d in present})
    level = max(d.alpha for d in present)
    corrected = f"at α = {present[0].table_alpha:g}"
    if len(families) > 1:
        corrected = f"after Holm within each family of {families[0]} to {families[-1]} comparisons"
    elif families[0] > 1:
        corrected = f"after Holm over {plural(families[0], 'comparison')}"
    effects = sorted(d.effect for d in present if d.effect is not None)
    blind = sum(1 for d in present if not d.reachable)
    flat = len(present) - len(effects) - blind
    if not effects:
        if blind:
            most = max(d.units for d in present)
            return (
                f"{table}: {these} no difference of any size can be claimed {corrected} (the exact test's "
                f"smallest p over {plural(most, unit)} is {p_floor(most):.2g}, above the level {level:.2g}); "
                f"add {unit}s, or compare fewer things at once."
            )
        return f"{table}: no comparison shows variation between {unit}s to say what it could detect."
    middle = _number(median(effects), scale, digits)
    text = f"{table}: {these} this table can detect |{metric}| ≥ {middle}"
    if len(effects) > 1 and effects[0] != effects[-1]:
        text += (
            f" (the median comparison; from {_number(effects[0], scale, digits)} to "
            f"{_number(effects[-1], scale, digits)})"
        )
    text += f" {corrected} with {round(present[0].power * 100):g}% power; smaller differences cannot be "
    text += "claimed either way"
    if blind:
        text += f"; {plural(blind, 'comparison')} can detect nothing (too few {unit}s in common)"
    if flat:
        text += f"; {plural(flat, 'comparison')} without variation between {unit}s (no MDE)"
    return text + "."


__all__ = ["DASH", "NONE", "cell", "header", "note", "sentence"]
