"""The OCL track's figure: accuracy on the original models against accuracy on the transformed ones, a
panel per mode, a point per provider (drawn with the report kit, :mod:`benchmark.reports.figures`)."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from benchmark.reports.figures import Figure, provider_colours, render
from benchmark.tracks.ocl.scores import ORIGINAL, ModeScore

FIGURE = "ocl_accuracy"


def figure(scores: Sequence[ModeScore]) -> Figure:
    """Accuracy original (x) versus transformed (y), a panel per mode, a point per provider."""
    shown = [s for s in scores if s.mode != ORIGINAL]
    modes = sorted({s.mode for s in shown})
    providers = sorted({s.provider for s in shown})
    columns = min(4, max(1, len(modes)))
    rows = max(1, math.ceil(len(modes) / columns))

    def draw(fig: Any) -> None:
        from matplotlib.lines import Line2D

        colours = provider_colours(providers)
        if not modes:
            axes = fig.add_subplot()
            axes.text(0.5, 0.5, "no transformed answers", ha="center", va="center")
            axes.set_axis_off()
        for index, mode in enumerate(modes):
            axes = fig.add_subplot(rows, columns, index + 1)
            axes.plot([0, 100], [0, 100], color="#bbbbbb", linewidth=0.7, zorder=0)
            for s in shown:
                if s.mode != mode or math.isnan(s.values["accuracy_original"]):
                    continue
                x, y = 100 * s.values["accuracy_original"], 100 * s.values["accuracy_transformed"]
                axes.scatter([x], [y], color=colours[s.provider], s=22, label=s.provider, zorder=2)
                interval = s.intervals.get("accuracy_transformed")
                if interval is not None:
                    axes.vlines(
                        x, 100 * interval.low, 100 * interval.high, color=colours[s.provider], linewidth=0.8
                    )
            axes.set_title(mode)
            axes.set_xlim(-3, 103)
            axes.set_ylim(-3, 103)
            axes.set_xlabel("accuracy original (%)")
            axes.set_ylabel("accuracy transformed (%)")
        if providers:
            handles = [Line2D([], [], marker="o", linestyle="", color=colours[p], label=p) for p in providers]
            fig.legend(handles=handles, loc="outside right upper")

    return Figure(
        FIGURE,
        "Accuracy original versus transformed",
        "Accuracy on the original models (x) against the transformed ones (y), per mode and provider; "
        "bars: 95% bootstrap interval over constraints. On the diagonal nothing is lost.",
        render(draw, (2.6 * columns + 1.6, 2.5 * rows)),
    )
