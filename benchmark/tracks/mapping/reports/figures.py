"""The mapping track's figures: precision against recall, F1 per transformation, confidence, categories.

Drawn with the report kit (:mod:`benchmark.reports.figures`: its settings, renderer and provider colours),
side by side in forked processes.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path

import numpy as np

from benchmark.core.forked import run_forked
from benchmark.core.phases import phase
from benchmark.reports import figures as kit
from benchmark.reports.figures import Figure, empty, provider_colours, render
from benchmark.tracks.mapping.reports.scale import HEATMAP_ROWS_PER_PANEL
from benchmark.tracks.mapping.stats.profiles import PROFILE_CATEGORIES
from benchmark.tracks.mapping.stats.summary import Statistics, level_of

CATEGORY_COLOURS = {
    "exact": "#2e7d32",
    "partial": "#9ccc65",
    "divergent": "#ffa726",
    "onlyGenerated": "#e53935",
    "onlyAtl": "#9e9e9e",
}
CATEGORY_LABELS = {
    "exact": "exact",
    "partial": "partial",
    "divergent": "divergent",
    "onlyGenerated": "only generated",
    "onlyAtl": "only ATL",
}
SLICE_MARKERS = {"high": "o", "high+medium": "s", "all": "^"}


# ------------------------------------------------------------------------------------------- figures


def pr_scatter(stats: Statistics, colours: dict[str, str]) -> Figure:
    def draw(figure: object) -> None:
        if not stats.providers:
            empty(figure, "no scored runs")
            return
        axes = figure.add_subplot()  # type: ignore[attr-defined]
        grid = np.linspace(0.01, 1.0, 400)
        for f1 in np.arange(0.1, 1.0, 0.1):
            recall = grid[grid > f1 / 2 + 1e-9]
            precision = f1 * recall / (2 * recall - f1)
            keep = precision <= 1.0
            axes.plot(recall[keep], precision[keep], color="#cccccc", linewidth=0.7, zorder=0)
            axes.annotate(
                f"F1={f1:.1f}",
                (1.0, f1 / (2 - f1)),
                fontsize=7,
                color="#999999",
                xytext=(2, 0),
                textcoords="offset points",
                va="center",
                annotation_clip=False,
            )
        for p in stats.providers:
            r, pr = p.micro.recall, p.micro.precision
            ci_r, ci_p = p.intervals.get("recall"), p.intervals.get("precision")
            xerr = [[max(0.0, r - ci_r.low)], [max(0.0, ci_r.high - r)]] if ci_r else None
            yerr = [[max(0.0, pr - ci_p.low)], [max(0.0, ci_p.high - pr)]] if ci_p else None
            marker = "D" if p.provider == stats.baseline else "o"
            axes.errorbar(
                [r],
                [pr],
                xerr=xerr,
                yerr=yerr,
                fmt=marker,
                color=colours[p.provider],
                capsize=3,
                markersize=6,
                label=f"{p.provider} (F1 {p.micro.f1:.3f})",
            )
        axes.set_xlim(0, 1.0)
        axes.set_ylim(0, 1.02)
        axes.set_xlabel("recall (micro)")
        axes.set_ylabel("precision (micro)")
        axes.set_aspect("equal")
        axes.grid(True, linewidth=0.3, alpha=0.5)
        axes.legend(loc="lower left", fontsize=7, frameon=True)
        axes.set_title(f"Precision and recall per provider ({stats.level})")

    return Figure(
        "pr_scatter",
        "Precision and recall",
        f"Micro precision against recall per provider, with {round(stats.confidence * 100):g}% cluster "
        "bootstrap intervals (transformations, then runs, resampled) as bars; grey curves are F1 iso-lines.",
        render(draw, (6.2, 5.6)),
    )


def _f1_values(stats: Statistics, transformations: Sequence[str], providers: Sequence[str]) -> np.ndarray:
    values = np.full((len(transformations), len(providers)), np.nan)
    for i, t in enumerate(transformations):
        for j, provider in enumerate(providers):
            group = stats.group(provider, t)
            if group is not None:
                values[i, j] = level_of(group.micro, stats.level).f1
    return values


def f1_heatmap(stats: Statistics) -> Figure:
    if len(stats.transformations) > HEATMAP_ROWS_PER_PANEL:
        return f1_heatmap_panels(stats)
    providers = [p.provider for p in stats.providers]
    transformations = list(stats.transformations)

    def draw(figure: object) -> None:
        if not providers or not transformations:
            empty(figure, "no scored runs")
            return
        values = _f1_values(stats, transformations, providers)
        axes = figure.add_subplot()  # type: ignore[attr-defined]
        from matplotlib import colormaps

        cmap = colormaps["viridis"].with_extremes(bad="#e0e0e0")
        image = axes.imshow(np.ma.masked_invalid(values), cmap=cmap, vmin=0.0, vmax=1.0, aspect="auto")
        axes.set_xticks(
            range(len(providers)),
            providers,
            rotation=30 if len(providers) > 4 else 0,
            ha="right" if len(providers) > 4 else "center",
        )
        axes.set_yticks(range(len(transformations)), transformations)
        if len(providers) * len(transformations) <= 400:
            for i in range(len(transformations)):
                for j in range(len(providers)):
                    v = values[i, j]
                    text = "–" if np.isnan(v) else f"{v:.2f}"
                    colour = "black" if np.isnan(v) or v > 0.6 else "white"
                    axes.text(
                        j,
                        i,
                        text,
                        ha="center",
                        va="center",
                        fontsize=7,
                        color=colour,
                        in_layout=False,  # inside its cell: no layout pass measures the values (up to 400)
                    )
        figure.colorbar(image, ax=axes, label=f"micro F1 ({stats.level})", shrink=0.8)  # type: ignore[attr-defined]
        axes.set_title("F1 per transformation and provider")

    height = max(2.5, 0.35 * len(transformations) + 1.6)
    width = max(5.0, 0.8 * len(providers) + 3.5)
    return Figure(
        "f1_heatmap",
        "F1 per transformation",
        "Micro F1 of each provider on each transformation (pooled over its runs); grey: no scored run.",
        render(draw, (width, height)),
    )


def f1_heatmap_panels(stats: Statistics) -> Figure:
    """The F1 heatmap of a large session (:mod:`~benchmark.tracks.mapping.reports.scale`): the
    transformations in name order, split into side-by-side panels of at most
    :data:`~benchmark.tracks.mapping.reports.scale.HEATMAP_ROWS_PER_PANEL` rows (each with its own labels
    and the providers on top), one colour bar; no numbers in the cells (the tables have them)."""
    providers = [p.provider for p in stats.providers]
    transformations = list(stats.transformations)
    panels = -(-len(transformations) // HEATMAP_ROWS_PER_PANEL)
    per_panel = -(-len(transformations) // panels)
    chunks = [transformations[i : i + per_panel] for i in range(0, len(transformations), per_panel)]
    longest = max(len(t) for t in transformations)

    def draw(figure: object) -> None:
        from matplotlib import colormaps

        cmap = colormaps["viridis"].with_extremes(bad="#e0e0e0")
        axes = figure.subplots(1, len(chunks), squeeze=False)[0]  # type: ignore[attr-defined]
        image = None
        for panel, chunk in zip(axes, chunks, strict=True):
            values = _f1_values(stats, chunk, providers)
            image = panel.imshow(np.ma.masked_invalid(values), cmap=cmap, vmin=0.0, vmax=1.0, aspect="auto")
            panel.set_yticks(range(len(chunk)), chunk, fontsize=7)
            panel.set_xticks(range(len(providers)), providers, rotation=90, fontsize=7)
            panel.xaxis.tick_top()
            panel.set_ylim(per_panel - 0.5, -0.5)  # equal rows in every panel, the last one's blank below
        figure.colorbar(image, ax=list(axes), label=f"micro F1 ({stats.level})", shrink=0.5)  # type: ignore[attr-defined]
        figure.suptitle(  # type: ignore[attr-defined]
            f"F1 per transformation and provider ({len(transformations)} transformations, "
            "in name order, read down each panel)"
        )

    label_width = 0.06 * min(longest, 45) + 0.3  # inches for the transformation names at 7 pt
    width = len(chunks) * (label_width + 0.32 * len(providers)) + 1.2
    height = 0.19 * per_panel + 0.09 * max(len(p) for p in providers) + 1.0
    return Figure(
        "f1_heatmap",
        "F1 per transformation",
        "Micro F1 of each provider on each transformation (pooled over its runs); grey: no scored run. "
        f"{len(transformations)} transformations in name order, in {len(chunks)} panels read top to bottom, "
        "left to right; the values are in the per-transformation tables.",
        render(draw, (width, height)),
    )


def confidence_curves(stats: Statistics, colours: dict[str, str]) -> Figure:
    profiles = [c for c in stats.confidence_profiles if c.available]

    def draw(figure: object) -> None:
        if not profiles:
            empty(figure, "no confidence labels in the rows")
            return
        left, right = figure.subplots(1, 2)  # type: ignore[attr-defined]
        for profile in profiles:
            points = [s for s in profile.cumulative() if s.named > 0]
            if not points:
                continue
            colour = colours[profile.provider]
            left.plot(
                [s.scores.recall for s in points],
                [s.scores.precision for s in points],
                color=colour,
                linewidth=1.2,
                label=profile.provider,
            )
            for s in points:
                left.plot(
                    [s.scores.recall],
                    [s.scores.precision],
                    marker=SLICE_MARKERS[s.slice],
                    color=colour,
                    linestyle="none",
                    markersize=5,
                )
        for name, marker in SLICE_MARKERS.items():
            left.plot([], [], marker=marker, color="black", linestyle="none", label=f"cumulative: {name}")
        left.set_xlim(0, 1)
        left.set_ylim(0, 1.02)
        left.set_xlabel("recall")
        left.set_ylabel("precision")
        left.set_title("Cumulative: high → high+medium → all")
        left.grid(True, linewidth=0.3, alpha=0.5)
        left.legend(fontsize=7, loc="lower left")
        labels = ("high", "medium", "low", "unknown")
        width = 0.8 / max(1, len(profiles))
        for k, profile in enumerate(profiles):
            heights = []
            for label in labels:
                labelled = profile.get(label)
                heights.append(
                    labelled.scores.precision if labelled is not None and labelled.named > 0 else np.nan
                )
            positions = np.arange(len(labels)) - 0.4 + width * (k + 0.5)
            right.bar(
                positions,
                np.nan_to_num(heights, nan=0.0),
                width=width,
                color=colours[profile.provider],
                label=profile.provider,
            )
        right.set_xticks(range(len(labels)), labels)
        right.set_ylim(0, 1.02)
        right.set_ylabel("precision")
        right.set_title("Precision per confidence label")
        right.grid(True, axis="y", linewidth=0.3, alpha=0.5)

    return Figure(
        "confidence",
        "Confidence",
        "Left: precision and recall of the cumulative slices high, high+medium and all (each slice scored "
        "against the full ground truth). Right: precision of the mappings carrying each label (no bar: no "
        "mapping with that label).",
        render(draw, (10.0, 4.4)),
    )


def category_bars(stats: Statistics) -> Figure:
    order = [p.provider for p in stats.providers]
    totals = {c.provider: c for c in stats.categories if c.transformation == "ALL"}

    def draw(figure: object) -> None:
        if not order:
            empty(figure, "no scored runs")
            return
        axes = figure.add_subplot()  # type: ignore[attr-defined]
        bottom = np.zeros(len(order))
        for category in PROFILE_CATEGORIES:
            heights = np.array([totals[p].shares[category] if p in totals else 0.0 for p in order])
            axes.bar(
                range(len(order)),
                heights,
                bottom=bottom,
                color=CATEGORY_COLOURS[category],
                label=CATEGORY_LABELS[category],
                width=0.7,
            )
            bottom += heights
        axes.set_xticks(
            range(len(order)),
            order,
            rotation=30 if len(order) > 4 else 0,
            ha="right" if len(order) > 4 else "center",
        )
        axes.set_ylim(0, 1)
        axes.set_ylabel("share of binding keys")
        axes.set_title("Binding categories per provider (all transformations)")
        axes.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), fontsize=8)

    return Figure(
        "categories",
        "Binding categories",
        "Share of each provider's binding keys per category, pooled over transformations and runs "
        "(target-only keys are neutral and not shown); the per-transformation split is in the tables.",
        render(draw, (max(5.5, 0.9 * len(order) + 3.0), 4.0)),
    )


FIGURES = ("pr_scatter", "f1_heatmap", "confidence", "categories")  # the order of the report


def figure_calls(stats: Statistics, names: Sequence[str] = FIGURES) -> list[Callable[[], Figure]]:
    """One call per figure of ``names`` (default: all, in report order), each timed as a phase."""
    colours = provider_colours([p.provider for p in stats.providers])
    drawers: dict[str, Callable[[], Figure]] = {
        "pr_scatter": lambda: pr_scatter(stats, colours),
        "f1_heatmap": lambda: f1_heatmap(stats),
        "confidence": lambda: confidence_curves(stats, colours),
        "categories": lambda: category_bars(stats),
    }

    def timed(name: str) -> Callable[[], Figure]:
        def run() -> Figure:
            with phase(f"figure {name} drawn"):
                return drawers[name]()

        return run

    return [timed(name) for name in names]


def all_figures(stats: Statistics, names: Sequence[str] = FIGURES) -> list[Figure]:
    """The figures ``names`` (default: all, in report order), drawn side by side in forked processes
    (:mod:`benchmark.core.forked`) once matplotlib is imported here, so the children need not import it."""
    from benchmark.reports.figures import import_drawing

    import_drawing()
    return run_forked(figure_calls(stats, names))


def write_figures(figures: list[Figure], out_dir: Path) -> list[Path]:
    with phase("report figure files"):
        return kit.write_figures(figures, out_dir)


__all__ = ["FIGURES", "Figure", "all_figures", "figure_calls", "write_figures"]
