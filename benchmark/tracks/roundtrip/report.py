"""The round-trip track's report files and its part of ``index.html`` (``docs/ROUNDTRIP.md`` §13).

Files written into the reports folder:

* ``roundtrip_per_stage.csv``: the sheet, one row per stage evaluation;
* ``roundtrip_by_stage.csv``, ``roundtrip_by_operator.csv``, ``roundtrip_by_k.csv``: means per provider and
  stage, operator or k, with 95 % bootstrap intervals over pairs;
* ``roundtrip_table.tex``: the study's table (provider x stage, the nine columns);
* ``roundtrip_heatmap.{png,svg}`` and ``roundtrip_correct_vs_k.{png,svg}``.
"""

from __future__ import annotations

import base64
from collections.abc import Sequence
from html import escape
from pathlib import Path
from typing import Any

from benchmark.core.fileio import write_text_atomic
from benchmark.core.track import HtmlPart, TrackReport
from benchmark.stats.bootstrap import DEFAULT_DRAWS, DEFAULT_SEED
from benchmark.tracks.roundtrip.figures import Figure, correct_vs_k, heatmap, write_figures
from benchmark.tracks.roundtrip.sheet import (
    INTERVAL_COLUMNS,
    MEAN_COLUMNS,
    Group,
    SheetRow,
    aggregate,
    groups_csv,
    latex_table,
    sheet_csv,
    sheet_rows,
    terminal_lines,
)

PER_STAGE_CSV = "roundtrip_per_stage.csv"
GROUPINGS = (
    ("by_stage", ("provider", "stage"), "By provider and stage"),
    ("by_operator", ("provider", "operator"), "By provider and operator"),
    ("by_k", ("provider", "k"), "By provider and k"),
)
LATEX = "roundtrip_table.tex"


def _html_table(groups: Sequence[Group], by: Sequence[str]) -> str:
    head = "".join(f"<th>{escape(b)}</th>" for b in by) + "<th>n</th><th>pairs</th>"
    head += "".join(f"<th>{escape(h)}</th>" for _, h, _ in MEAN_COLUMNS) + "<th>unusable</th><th>not run</th>"
    rows = []
    for group in groups:
        cells = "".join(f"<td>{escape(k)}</td>" for k in group.keys)
        cells += f'<td class="r">{group.n}</td><td class="r">{group.pairs}</td>'
        for key, _, percent in MEAN_COLUMNS:
            value = group.means[key]
            text = f"{100 * value:.1f}" if percent else f"{value:.1f}"
            interval = group.intervals.get(key)
            if interval is not None and key in INTERVAL_COLUMNS:
                text += f" [{100 * interval.low:.1f}, {100 * interval.high:.1f}]"
            cells += f'<td class="r">{escape(text)}</td>'
        cells += f'<td class="r">{group.unusable}</td><td class="r">{group.not_run}</td>'
        rows.append(f"<tr>{cells}</tr>")
    return f"<table><tr>{head}</tr>{''.join(rows)}</table>"


def _figure_html(figure: Figure) -> str:
    data = base64.b64encode(figure.data["svg"]).decode("ascii")
    return (
        f'<figure id="fig-{escape(figure.name)}"><img src="data:image/svg+xml;base64,{data}" '
        f'alt="{escape(figure.title)}"><figcaption>{escape(figure.caption)}</figcaption></figure>'
    )


def summaries(rows: Sequence[SheetRow], draws: int, seed: int) -> dict[str, list[Group]]:
    return {name: aggregate(rows, by, draws=draws, seed=seed) for name, by, _ in GROUPINGS}


def track_report(section_rows: Sequence[Any], out_dir: str | Path, options: dict[str, Any]) -> TrackReport:
    """Write the files (module docstring) and return them with the HTML part and the report's lines."""
    out = Path(out_dir)
    draws = options.get("roundtrip_draws") or DEFAULT_DRAWS
    seed = DEFAULT_SEED if options.get("roundtrip_seed") is None else options["roundtrip_seed"]
    rows = sheet_rows(section_rows)
    groups = summaries(rows, draws, seed)
    figures = [heatmap(groups["by_operator"]), correct_vs_k(groups["by_k"])]
    paths = [write_text_atomic(out / PER_STAGE_CSV, sheet_csv(rows))]
    for name, by, _ in GROUPINGS:
        paths.append(write_text_atomic(out / f"roundtrip_{name}.csv", groups_csv(groups[name], by)))
    paths.append(write_text_atomic(out / LATEX, latex_table(groups["by_stage"])))
    paths += write_figures(figures, out)
    excluded = [r for r in section_rows if not r.ok]
    shown_with = {"by_operator": figures[0], "by_k": figures[1]}
    sections = tuple(
        (
            name.replace("_", "-"),
            title,
            _html_table(groups[name], by) + (_figure_html(shown_with[name]) if name in shown_with else ""),
        )
        for name, by, title in GROUPINGS
    )
    notes = (
        "Every stage evaluation counts: unloadable answers with what their lenient reading earned, unusable "
        "answers and forward stages not run because of them as empty answers (failures, never dropped).",
        "Echo (the unchanged base model) shows what doing nothing earns; Oracle (the expected model) must "
        "score 100 everywhere. Compare ΔRecall and ΔPrecision, not only %Correct.",
        "Intervals: 95 % percentile bootstrap over pairs (then stage evaluations within pairs), "
        f"{draws} draws, seed {seed}.",
    )
    provenance = f"{len(rows)} stage evaluations on {len({r.pair for r in rows})} pairs"
    if excluded:
        provenance += f"; {len(excluded)} excluded (not scored)"
    html = HtmlPart(provenance=(provenance,), notes=notes, sections=sections)
    lines = terminal_lines(groups["by_stage"], ("provider", "stage"))
    lines += [f"excluded: {r.provider} {r.task} {r.run}: {r.error}" for r in excluded]
    return TrackReport(tuple(paths), html, tuple(lines))
