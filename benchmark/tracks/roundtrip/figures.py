"""The round-trip track's figures: a provider x operator heatmap of %WSuccess, and %Correct against k.

Drawn on :class:`matplotlib.figure.Figure` with the Agg canvas (no pyplot state, safe in pytest), under a
fixed ``rc_context`` (stable SVG ids, no dates in the metadata), so the same sheet gives the same bytes on
the same matplotlib; saved as PNG and SVG.
"""

from __future__ import annotations

import io
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from benchmark.core.fileio import write_bytes_atomic
from benchmark.tracks.roundtrip.sheet import Group

FORMATS = ("png", "svg")
RC: dict[str, Any] = {
    "svg.hashsalt": "atlbench-roundtrip",
    "svg.fonttype": "path",
    "font.family": "DejaVu Sans",
    "font.size": 9,
    "figure.dpi": 100,
    "savefig.dpi": 150,
}
METADATA: dict[str, dict[str, Any]] = {"png": {"Software": None}, "svg": {"Date": None, "Creator": None}}


@dataclass(frozen=True)
class Figure:
    name: str
    title: str
    caption: str
    data: dict[str, bytes]


def _render(draw: Callable[[Any], None], size: tuple[float, float]) -> dict[str, bytes]:
    import matplotlib
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure as MplFigure

    out = {}
    with matplotlib.rc_context(RC):  # type: ignore[arg-type]
        for fmt in FORMATS:
            figure = MplFigure(figsize=size, layout="constrained")
            FigureCanvasAgg(figure)
            draw(figure)
            buffer = io.BytesIO()
            figure.savefig(buffer, format=fmt, metadata=METADATA[fmt])
            out[fmt] = buffer.getvalue()
    return out


def heatmap(groups: Sequence[Group]) -> Figure:
    """Mean %WSuccess per provider (rows) and operator (columns), both stages together."""
    providers = list(dict.fromkeys(g.keys[0] for g in groups))
    operators = sorted({g.keys[1] for g in groups})
    values = np.full((len(providers), len(operators)), np.nan)
    for group in groups:
        values[providers.index(group.keys[0]), operators.index(group.keys[1])] = group.means["pctWSuccess"]

    def draw(figure: Any) -> None:
        axes = figure.add_subplot()
        if not providers:
            axes.text(0.5, 0.5, "no scored stage evaluations", ha="center", va="center")
            axes.set_axis_off()
            return
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
        _render(draw, (7.5, 0.6 + 0.45 * max(1, len(providers)))),
    )


def correct_vs_k(groups: Sequence[Group]) -> Figure:
    """Mean %Correct with its interval against k, one line per provider (baselines as flat lines)."""
    by_provider: dict[str, list[Group]] = {}
    for group in groups:
        by_provider.setdefault(group.keys[0], []).append(group)
    ks = sorted({int(g.keys[1]) for g in groups if g.keys[1].isdigit()})

    def draw(figure: Any) -> None:
        axes = figure.add_subplot()
        if not ks:
            axes.text(0.5, 0.5, "no run with a known k", ha="center", va="center")
            axes.set_axis_off()
            return
        from matplotlib import colormaps

        palette = colormaps["tab10"].colors  # type: ignore[attr-defined]
        for index, (provider, members) in enumerate(by_provider.items()):
            colour = palette[index % len(palette)]
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
        _render(draw, (6.0, 3.6)),
    )


def write_figures(figures: Sequence[Figure], out_dir: Path) -> list[Path]:
    return [
        write_bytes_atomic(out_dir / f"{figure.name}.{fmt}", figure.data[fmt])
        for figure in figures
        for fmt in FORMATS
    ]
