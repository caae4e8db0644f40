"""The OCL track's reports: terminal tables, two CSV files, a LaTeX table, a figure, its part of index.html.

* ``ocl_per_constraint.csv``: one line per judged answer (provider, LLM model, run, dataset model, mode,
  constraint, outcome, the states where the verdicts differ, the detail: the error or the answer as read);
* ``ocl_robustness.csv``: one line per (provider, mode) with the scores of :mod:`.scores` and their
  bootstrap intervals, and the count of every outcome;
* ``ocl_robustness.tex``: the same scores as a LaTeX ``tabular`` (accuracies and robustness, percent);
* ``ocl_mode_pairs.csv`` / ``ocl_mode_pairs.tex``: every pair of modes of every provider compared on the
  answers both have (:mod:`.pairs`: accuracy difference with its bootstrap interval, McNemar, Holm);
* ``ocl_accuracy.png`` / ``.svg``: accuracy on the original against accuracy on the transformed models,
  one panel per mode, one point per provider (on the diagonal: nothing lost).

The module imports no other track (the layout contract); its figure follows the same reproducibility rules
as the mapping track's (Agg canvas, fixed SVG hash salt, no dates in the metadata).
"""

from __future__ import annotations

import csv
import html
import io
import math
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from benchmark.core.fileio import write_bytes_atomic, write_text_atomic
from benchmark.core.track import HtmlPart, TrackReport
from benchmark.tracks.ocl.judge import OUTCOMES
from benchmark.tracks.ocl.pairs import ModePair
from benchmark.tracks.ocl.scores import METRICS, ORIGINAL, ModeScore, headline, judged

PER_CONSTRAINT = "ocl_per_constraint.csv"
ROBUSTNESS = "ocl_robustness.csv"
LATEX = "ocl_robustness.tex"
PAIRS = "ocl_mode_pairs.csv"
PAIRS_LATEX = "ocl_mode_pairs.tex"
ALPHA = 0.05  # what the terminal calls a difference (Holm-adjusted McNemar p below it)
FIGURE = "ocl_accuracy"

_RC: dict[str, Any] = {
    "svg.hashsalt": "atlbench",
    "svg.fonttype": "path",
    "font.family": "DejaVu Sans",
    "font.size": 8,
    "figure.dpi": 100,
    "savefig.dpi": 150,
}
_METADATA: dict[str, dict[str, Any]] = {"png": {"Software": None}, "svg": {"Date": None, "Creator": None}}


def _pct(value: float) -> str:
    return "—" if math.isnan(value) else f"{100 * value:.1f}"


def _ci(score: ModeScore, metric: str) -> str:
    interval = score.intervals.get(metric)
    if interval is None:
        return ""
    return f"[{100 * interval.low:.1f}, {100 * interval.high:.1f}]"


# ---------------------------------------------------------------------------------------------- terminal


def _delta_ci(pair: ModePair) -> str:
    interval = pair.interval
    if interval is None:
        return ""
    return f"[{100 * interval.low:+.1f}, {100 * interval.high:+.1f}]"


_PAIR_HEADERS = (
    "provider",
    "mode A",
    "mode B",
    "answers",
    "acc. A %",
    "acc. B %",
    "A - B % [95% CI]",
    "A only",
    "B only",
    "McNemar p",
    "p (Holm)",
)


def _pair_cells(p: ModePair) -> list[str]:
    return [
        p.provider,
        p.first,
        p.second,
        str(p.answers),
        _pct(p.accuracy_first),
        _pct(p.accuracy_second),
        f"{100 * p.delta:+.1f} {_delta_ci(p)}",
        str(p.test.b),
        str(p.test.c),
        f"{p.test.p_value:.3g}",
        f"{p.p_holm:.3g}",
    ]


def pair_lines(pairs: Sequence[ModePair], verbose: bool) -> list[str]:
    """The mode comparisons for the terminal: every pair with ``-v``, otherwise those that differ."""
    from tabulate import tabulate

    differ = [p for p in pairs if p.p_holm < ALPHA]
    shown = list(pairs) if verbose else differ
    lines = [
        f"mode pairs: {len(differ)} of {len(pairs)} differ (McNemar, Holm-adjusted per provider, "
        f"p < {ALPHA:g})" + ("" if verbose else f"; -v lists every pair, {PAIRS} has them")
    ]
    if shown:
        lines += tabulate(
            [_pair_cells(p) for p in shown], headers=list(_PAIR_HEADERS), tablefmt="simple"
        ).splitlines()
    return lines


def summary_lines(
    scores: Sequence[ModeScore], rows: Sequence[Any], verbose: bool, pairs: Sequence[ModePair] = ()
) -> list[str]:
    from tabulate import tabulate

    answers = judged(rows)
    errors = [row for row in rows if not row.ok]
    lines = [
        f"{len({(a.model, a.constraint) for a in answers})} constraints, {len(rows)} judged runs "
        f"({len(errors)} unusable, counted as failures), {len(answers)} answers"
    ]
    table = []
    for s in scores:
        transformed = s.mode != ORIGINAL
        table.append(
            [
                s.provider,
                s.mode,
                s.items,
                _pct(s.values["accuracy_original"]),
                _pct(s.values["accuracy_transformed"]) if transformed else "",
                f"{_pct(s.values['robustness'])} {_ci(s, 'robustness')}" if transformed else "",
                _pct(s.values["retention"]) if transformed else "",
            ]
        )
    headers = [
        "provider",
        "mode",
        "answers",
        "acc. original %",
        "acc. transformed %",
        "robustness % [95% CI]",
        "retention %",
    ]
    lines += tabulate(table, headers=headers, tablefmt="simple").splitlines()
    outcome_rows = [[s.provider, s.mode, *(s.outcomes.get(o, 0) for o in OUTCOMES)] for s in scores]
    lines.append("")
    lines += tabulate(outcome_rows, headers=["provider", "mode", *OUTCOMES], tablefmt="simple").splitlines()
    if pairs:
        lines.append("")
        lines += pair_lines(pairs, verbose)
    for row in errors if verbose else errors[:5]:
        lines.append(f"unusable run {row.provider} {row.task} {row.run}: {row.error}")
    if not verbose and len(errors) > 5:
        lines.append(f"... {len(errors) - 5} more unusable runs (-v lists them)")
    return lines


# ------------------------------------------------------------------------------------------------- files


def per_constraint_csv(rows: Sequence[Any]) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(
        ["provider", "llm_model", "run", "model", "mode", "constraint", "outcome", "states", "detail"]
    )
    for a in judged(rows):
        writer.writerow(
            [a.provider, a.llm, a.run, a.model, a.mode, a.constraint, a.outcome, ";".join(a.states), a.detail]
        )
    return out.getvalue()


def robustness_csv(scores: Sequence[ModeScore]) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    header = ["provider", "mode", "answers", "paired"]
    for metric in METRICS:
        header += [metric, f"{metric}_low", f"{metric}_high"]
    header += [o.replace(" ", "_") for o in OUTCOMES]
    writer.writerow(header)
    for s in scores:
        line: list[Any] = [s.provider, s.mode, s.items, s.paired]
        for metric in METRICS:
            value, interval = s.values[metric], s.intervals.get(metric)
            line += [
                "" if math.isnan(value) else f"{value:.6f}",
                "" if interval is None else f"{interval.low:.6f}",
                "" if interval is None else f"{interval.high:.6f}",
            ]
        line += [s.outcomes.get(o, 0) for o in OUTCOMES]
        writer.writerow(line)
    return out.getvalue()


def mode_pairs_csv(pairs: Sequence[ModePair]) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(
        [
            "provider",
            "mode_a",
            "mode_b",
            "answers",
            "constraints",
            "accuracy_a",
            "accuracy_b",
            "delta",
            "delta_low",
            "delta_high",
            "a_only",
            "b_only",
            "mcnemar_method",
            "p_value",
            "p_holm",
        ]
    )
    for p in pairs:
        interval = p.interval
        writer.writerow(
            [
                p.provider,
                p.first,
                p.second,
                p.answers,
                p.constraints,
                f"{p.accuracy_first:.6f}",
                f"{p.accuracy_second:.6f}",
                f"{p.delta:.6f}",
                "" if interval is None else f"{interval.low:.6f}",
                "" if interval is None else f"{interval.high:.6f}",
                p.test.b,
                p.test.c,
                p.test.method,
                f"{p.test.p_value:.6g}",
                f"{p.p_holm:.6g}",
            ]
        )
    return out.getvalue()


def _tex(text: str) -> str:
    return "".join({"_": r"\_", "&": r"\&", "%": r"\%", "#": r"\#", "$": r"\$"}.get(c, c) for c in text)


def latex_table(scores: Sequence[ModeScore]) -> str:
    lines = [
        r"\begin{tabular}{llrrrr}",
        r"\hline",
        r"Provider & Mode & Acc.\ original (\%) & Acc.\ transformed (\%) & Robustness (\%) "
        r"& Retention (\%) \\",
        r"\hline",
    ]
    for s in scores:
        if s.mode == ORIGINAL:
            continue
        cells = [
            _pct(s.values[m])
            for m in ("accuracy_original", "accuracy_transformed", "robustness", "retention")
        ]
        lines.append(f"{_tex(s.provider)} & {_tex(s.mode)} & " + " & ".join(cells) + r" \\")
    lines += [r"\hline", r"\end{tabular}", ""]
    return "\n".join(lines)


def latex_pairs(pairs: Sequence[ModePair]) -> str:
    lines = [
        r"\begin{tabular}{lllrrrrrr}",
        r"\hline",
        r"Provider & Mode A & Mode B & Answers & Acc.\ A (\%) & Acc.\ B (\%) & A $-$ B (\%) & 95\% CI "
        r"& $p$ (Holm) \\",
        r"\hline",
    ]
    for p in pairs:
        cells = [
            _tex(p.provider),
            _tex(p.first),
            _tex(p.second),
            str(p.answers),
            _pct(p.accuracy_first),
            _pct(p.accuracy_second),
            f"{100 * p.delta:+.1f}",
            _delta_ci(p),
            f"{p.p_holm:.3g}",
        ]
        lines.append(" & ".join(cells) + r" \\")
    lines += [r"\hline", r"\end{tabular}", ""]
    return "\n".join(lines)


def figure(scores: Sequence[ModeScore]) -> dict[str, bytes]:
    """Accuracy original (x) versus transformed (y), a panel per mode, a point per provider."""
    import matplotlib
    import numpy as np
    from matplotlib import colormaps
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure
    from matplotlib.image import imsave
    from matplotlib.lines import Line2D

    shown = [s for s in scores if s.mode != ORIGINAL]
    modes = sorted({s.mode for s in shown})
    providers = sorted({s.provider for s in shown})
    palette = colormaps["tab10"].colors  # type: ignore[attr-defined]
    colours = {p: palette[i % len(palette)] for i, p in enumerate(providers)}
    columns = min(4, max(1, len(modes)))
    rows = max(1, math.ceil(len(modes) / columns))
    with matplotlib.rc_context(_RC):  # type: ignore[arg-type]
        fig = Figure(figsize=(2.6 * columns + 1.6, 2.5 * rows), layout="constrained")
        canvas = FigureCanvasAgg(fig)
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
        canvas.draw()
        png = io.BytesIO()
        imsave(png, np.asarray(canvas.buffer_rgba()), format="png", metadata=_METADATA["png"])
        fig.set_layout_engine("none")
        svg = io.BytesIO()
        fig.savefig(svg, format="svg", metadata=_METADATA["svg"])
    return {"png": png.getvalue(), "svg": svg.getvalue()}


def _html_table(scores: Sequence[ModeScore]) -> str:
    head = "".join(
        f"<th>{h}</th>"
        for h in (
            "provider",
            "mode",
            "answers",
            "accuracy original %",
            "accuracy transformed %",
            "robustness % [95% CI]",
            "retention %",
        )
    )
    body = []
    for s in scores:
        transformed = s.mode != ORIGINAL
        cells = [
            html.escape(s.provider),
            html.escape(s.mode),
            str(s.items),
            _pct(s.values["accuracy_original"]),
            _pct(s.values["accuracy_transformed"]) if transformed else "",
            f"{_pct(s.values['robustness'])} {_ci(s, 'robustness')}" if transformed else "",
            _pct(s.values["retention"]) if transformed else "",
        ]
        body.append("<tr>" + "".join(f"<td>{c}</td>" for c in cells) + "</tr>")
    return f"<table><thead><tr>{head}</tr></thead><tbody>{''.join(body)}</tbody></table>"


def _outcome_table(scores: Sequence[ModeScore]) -> str:
    head = "".join(f"<th>{html.escape(h)}</th>" for h in ("provider", "mode", *OUTCOMES))
    body = "".join(
        "<tr>"
        + "".join(
            f"<td>{html.escape(str(c))}</td>"
            for c in (s.provider, s.mode, *(s.outcomes.get(o, 0) for o in OUTCOMES))
        )
        + "</tr>"
        for s in scores
    )
    return f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"


def _pairs_table(pairs: Sequence[ModePair]) -> str:
    head = "".join(f"<th>{html.escape(h)}</th>" for h in _PAIR_HEADERS)
    body = "".join(
        "<tr>" + "".join(f"<td>{html.escape(c)}</td>" for c in _pair_cells(p)) + "</tr>" for p in pairs
    )
    return f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"


def track_report(
    section: Any, scores: Sequence[ModeScore], out_dir: Path, pairs: Sequence[ModePair] = ()
) -> TrackReport:
    rows = section.rows
    paths = [
        write_text_atomic(out_dir / PER_CONSTRAINT, per_constraint_csv(rows)),
        write_text_atomic(out_dir / ROBUSTNESS, robustness_csv(scores)),
        write_text_atomic(out_dir / LATEX, latex_table(scores)),
        write_text_atomic(out_dir / PAIRS, mode_pairs_csv(pairs)),
        write_text_atomic(out_dir / PAIRS_LATEX, latex_pairs(pairs)),
    ]
    drawn = figure(scores)
    for fmt in ("png", "svg"):
        paths.append(write_bytes_atomic(out_dir / f"{FIGURE}.{fmt}", drawn[fmt]))
    image = (
        f'<figure><img src="{FIGURE}.svg" alt="accuracy original versus transformed"><figcaption>'
        "Accuracy on the original models (x) against the transformed ones (y), per mode and provider; "
        "bars: 95% bootstrap interval over constraints. On the diagonal nothing is lost."
        "</figcaption></figure>"
    )
    notes = (
        "A constraint is correct when it classifies every object state exactly as the reference does "
        "(USE's check verdict). Robustness: share of constraints correct on the original and still correct "
        "on the transformed model; retention: the same among those correct on the original.",
        "Oracle answers with the transformed reference (robustness 100 % by construction); Rename-blind "
        "with the original reference unchanged. Providers named Synthetic-* are generated noise, not LLMs.",
    )
    sections = (
        ("ocl-scores", "OCL robustness per provider and mode", _html_table(scores) + image),
        ("ocl-outcomes", "OCL outcomes per provider and mode", _outcome_table(scores)),
        (
            "ocl-mode-pairs",
            "OCL modes compared pairwise per provider (paired answers, McNemar with Holm per provider)",
            _pairs_table(pairs),
        ),
    )
    lines = tuple(
        f"{p}: mean robustness over modes {100 * v:.1f} %" for p, v in sorted(headline(scores).items())
    )
    lines += tuple(f"wrote {p}" for p in paths)
    return TrackReport(tuple(paths), HtmlPart(notes=notes, sections=sections), lines)


__all__ = [
    "latex_pairs",
    "latex_table",
    "mode_pairs_csv",
    "pair_lines",
    "per_constraint_csv",
    "robustness_csv",
    "summary_lines",
    "track_report",
]
