"""The round-trip track's figures: a provider x operator heatmap of %WSuccess, and %Correct against k.

Drawn with the report kit (:mod:`benchmark.reports.figures`): its settings, one drawing for both formats,
and each provider's colour.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from benchmark.reports.figures import Figure, empty, provider_colours, render
from benchmark.tracks.roundtrip.reports.sheet import Group


def heatmap(groups: Sequence[Group]) -> Figure:
    """Mean %WSuccess per provider (rows) and operator (columns), both stages together."""
    providers = list(dict.fromkeys(g.keys[0] for g in groups))
    operators = sorted({g.keys[1] for g in groups})
    values = np.full((len(providers), len(operators)), np.nan)
    for group in groups:
        values[providers.index(group.keys[0]), operators.index(group.keys[1])] = group.means["pctWSuccess"]

    def draw(figure: Any) -> None:
        if not providers:
            empty(figure, "no scored stage evaluations")
            return
        axes = figure.add_subplot()
        image = axes.imshow(100 * values, cmap="RdYlGn", vmin=-100, vmax=100, aspect="auto")
        axes.set_xticks(range(len(operators)), operators, rotation=40, ha="right")
        axes.set_yticks(range(len(providers)), providers)
        for (row, column), value in np.ndenumerate(values):
            if not np.isnan(value):
                axes.text(column, row, f"{100 * value:.0f}", ha="center", va="center", fontsize=7)
        figure.colorbar(image, ax=axes, label="mean %WSuccess")

    return Figure(
        "roundtrip_heatmap",
        "%WSuccess by provider and operator",
        "Mean %WSuccess (both stages) of each provider on each delta operator; Echo shows what an unchanged "
        "answer earns, Oracle must be 100.",
        render(draw, (7.5, 0.6 + 0.45 * max(1, len(providers)))),
    )


def correct_vs_k(groups: Sequence[Group]) -> Figure:
    """Mean %Correct with its interval against k, one line per provider (baselines as flat lines)."""
    by_provider: dict[str, list[Group]] = {}
    for group in groups:
        by_provider.setdefault(group.keys[0], []).append(group)
    ks = sorted({int(g.keys[1]) for g in groups if g.keys[1].isdigit()})

    def draw(figure: Any) -> None:
        if not ks:
            empty(figure, "no run with a known k")
            return
        axes = figure.add_subplot()
        colours = provider_colours(list(by_provider))
        for provider, members in by_provider.items():
            colour = colours[provider]
            points = sorted((int(g.keys[1]), g) for g in members if g.keys[1].isdigit())
            if not points:  # a baseline: the same for every k
                (group,) = members
                level = 100 * group.means["pctCorrect"]
                axes.hlines(level, ks[0], ks[-1], colors=[colour], linestyles="dashed", label=provider)
                continue
            x = [k for k, _ in points]
            y = np.array([100 * g.means["pctCorrect"] for _, g in points])
            bounds = [g.intervals.get("pctCorrect") for _, g in points]
            low = np.array([100 * b.low if b else v for b, v in zip(bounds, y, strict=True)])
            high = np.array([100 * b.high if b else v for b, v in zip(bounds, y, strict=True)])
            axes.errorbar(x, y, yerr=[y - low, high - y], marker="o", capsize=3, color=colour, label=provider)
        axes.set_xticks(ks)
        axes.set_xlabel("k (example pairs in the prompt)")
        axes.set_ylabel("mean %Correct")
        axes.legend(fontsize=7)

    return Figure(
        "roundtrip_correct_vs_k",
        "%Correct against the number of example pairs",
        "Mean %Correct (both stages) per provider and k, with 95% bootstrap intervals over pairs; the "
        "baselines do not depend on k.",
        render(draw, (6.0, 3.6)),
    )
