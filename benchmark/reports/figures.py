"""The figures of every track: one set of matplotlib settings, one renderer (PNG and SVG), one colour per
provider, and the ``<figure>`` element of ``index.html``.

Figures are drawn on :class:`matplotlib.figure.Figure` with the Agg canvas (no pyplot state, safe inside
pytest and in forked processes) under a fixed ``rc_context``: ``svg.hashsalt`` makes the SVG element ids
stable and the metadata carries no date, so the same values give byte-identical files on the same
matplotlib. Each figure is laid out and rasterised once: the PNG is taken from the canvas, then the layout
engine is removed (the positions it computed stay) and the SVG written in one more pass; a figure that
still has a layout engine, even ``"none"``'s placeholder, is drawn once more by ``savefig`` before it is
written. matplotlib is imported inside the functions that draw, so a session whose
figures come from the disk cache, or a track module read for its options, never imports it.
"""

from __future__ import annotations

import base64
import io
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from html import escape
from pathlib import Path
from typing import Any

from benchmark.core.fileio import write_bytes_atomic

FORMATS = ("png", "svg")
RC: dict[str, Any] = {
    "svg.hashsalt": "atlbench",
    "svg.fonttype": "path",
    "font.family": "DejaVu Sans",
    "font.size": 9,
    "axes.titlesize": 10,
    "figure.dpi": 100,
    "savefig.dpi": 150,
    "path.simplify": True,
    "text.parse_math": False,  # a "$" in a provider's name is a dollar sign, not mathematics
    "figure.autolayout": False,  # so that set_layout_engine(None) in render() means no engine at all
    "figure.constrained_layout.use": False,
}
METADATA: dict[str, dict[str, Any]] = {"png": {"Software": None}, "svg": {"Date": None, "Creator": None}}


@dataclass(frozen=True)
class Figure:
    """One figure: ``name`` is the file stem, ``title`` and ``caption`` go to the HTML page."""

    name: str
    title: str
    caption: str
    data: dict[str, bytes]  # format -> file content


def import_drawing() -> None:
    """Import what :func:`render` draws with (about 0.4 s): done before the report processes are forked,
    it is done once, not once in each of them."""
    import matplotlib.backends.backend_agg  # noqa: F401
    import matplotlib.figure  # noqa: F401
    import matplotlib.image  # noqa: F401


def render(draw: Callable[[Any], None], size: tuple[float, float]) -> dict[str, bytes]:
    """``draw(figure)`` once with constrained layout on the Agg canvas; the PNG from its pixel buffer,
    then, with the layout frozen, the SVG (one layout pass and one raster pass for both formats)."""
    import matplotlib
    import numpy as np
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure as MplFigure
    from matplotlib.image import imsave

    with matplotlib.rc_context(RC):  # type: ignore[arg-type]
        dpi = float(RC["savefig.dpi"])
        figure = MplFigure(figsize=size, dpi=dpi, layout="constrained")
        canvas = FigureCanvasAgg(figure)
        draw(figure)
        canvas.draw()
        png = io.BytesIO()
        imsave(png, np.asarray(canvas.buffer_rgba()), format="png", dpi=dpi, metadata=METADATA["png"])
        figure.set_layout_engine(None)  # not "none": its placeholder engine makes savefig draw twice
        svg = io.BytesIO()
        figure.savefig(svg, format="svg", metadata=METADATA["svg"])
    return {"png": png.getvalue(), "svg": svg.getvalue()}


def empty(figure: Any, message: str) -> None:
    """A figure with nothing to draw says so in its middle."""
    axes = figure.add_subplot()
    axes.text(0.5, 0.5, message, ha="center", va="center", transform=axes.transAxes)
    axes.set_axis_off()


def provider_colours(names: Sequence[str]) -> dict[str, str]:
    """One colour per provider, by its position in name order (not in a ranking), so that a provider
    keeps its colour across the figures of a report, and across sessions with the same providers."""
    from matplotlib import colormaps

    palette = colormaps["tab10"].colors + colormaps["Dark2"].colors  # type: ignore[attr-defined]
    ordered = sorted(set(names))
    return {name: _hex(palette[i % len(palette)]) for i, name in enumerate(ordered)}


def _hex(rgb: tuple[float, ...]) -> str:
    return "#" + "".join(f"{round(c * 255):02x}" for c in rgb[:3])


def write_figures(figures: Sequence[Figure], out_dir: Path) -> list[Path]:
    """Each figure as ``NAME.png`` and ``NAME.svg`` in ``out_dir``, in figure order."""
    return [
        write_bytes_atomic(Path(out_dir) / f"{figure.name}.{fmt}", figure.data[fmt])
        for figure in figures
        for fmt in FORMATS
    ]


def figure_html(figure: Figure) -> str:
    """The figure in ``index.html``: the SVG as a data URI (the page fetches nothing), its title, caption
    and file names."""
    data = base64.b64encode(figure.data["svg"]).decode("ascii")
    return (
        f'<figure id="fig-{escape(figure.name)}"><img src="data:image/svg+xml;base64,{data}" '
        f'alt="{escape(figure.title)}">'
        f"<figcaption><b>{escape(figure.title)}.</b> {escape(figure.caption)} "
        f"Files: <code>{escape(figure.name)}.png</code>, <code>{escape(figure.name)}.svg</code>."
        "</figcaption></figure>"
    )


__all__ = [
    "FORMATS",
    "METADATA",
    "RC",
    "Figure",
    "empty",
    "figure_html",
    "provider_colours",
    "render",
    "write_figures",
]
