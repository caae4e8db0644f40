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

Tables are :class:`~benchmark.reports.table.Table` values rendered by the report kit (terminal, LaTeX,
HTML), the figure is drawn by :mod:`benchmark.reports.figures`.
"""

from __future__ import annotations

import csv
import io
import math
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from benchmark.core.fileio import write_text_atomic
from benchmark.core.track import HtmlPart, TrackReport
from benchmark.reports.figures import Figure, figure_html, provider_colours, render, write_figures
from benchmark.reports.table import Column, Table
from benchmark.tracks.ocl.pairs import ModePair
from benchmark.tracks.ocl.scores import METRICS, ORIGINAL, ModeScore, headline, judged
from benchmark.tracks.ocl.scoring.judge import OUTCOMES

PER_CONSTRAINT = "ocl_per_constraint.csv"
ROBUSTNESS = "ocl_robustness.csv"
LATEX = "ocl_robustness.tex"
PAIRS = "ocl_mode_pairs.csv"
PAIRS_LATEX = "ocl_mode_pairs.tex"
ALPHA = 0.05  # what the terminal calls a difference (Holm-adjusted McNemar p below it)
FIGURE = "ocl_accuracy"


def _pct(value: float) -> str:
    return "—" if math.isnan(value) else f"{100 * value:.1f}"


def _ci(score: ModeScore, metric: str) -> str:
    interval = score.intervals.get(metric)
    if interval is None:
        return ""
    return f"[{100 * interval.low:.1f}, {100 * interval.high:.1f}]"


def _delta_ci(pair: ModePair) -> str:
    interval = pair.interval
    if interval is None:
        return ""
    return f"[{100 * interval.low:+.1f}, {100 * interval.high:+.1f}]"


def _transformed(cell: Any) -> Any:
    """A cell that only a transformation mode has (empty on the original's line)."""
    return lambda s: cell(s) if s.mode != ORIGINAL else ""


# --------------------------------------------------------------------------------------------- tables

SCORE_COLUMNS: tuple[Column[ModeScore], ...] = (
    Column("provider", lambda s: s.provider, "l"),
    Column("mode", lambda s: s.mode, "l"),
    Column("answers", lambda s: str(s.items)),
    Column("acc. original %", lambda s: _pct(s.values["accuracy_original"])),
    Column("acc. transformed %", _transformed(lambda s: _pct(s.values["accuracy_transformed"]))),
    Column(
        "robustness % [95% CI]",
        _transformed(lambda s: f"{_pct(s.values['robustness'])} {_ci(s, 'robustness')}"),
    ),
    Column("retention %", _transformed(lambda s: _pct(s.values["retention"]))),
)
OUTCOME_COLUMNS: tuple[Column[ModeScore], ...] = (
    Column("provider", lambda s: s.provider, "l"),
    Column("mode", lambda s: s.mode, "l"),
    *(Column(o, lambda s, o=o: str(s.outcomes.get(o, 0))) for o in OUTCOMES),
)
PAIR_COLUMNS: tuple[Column[ModePair], ...] = (
    Column("provider", lambda p: p.provider, "l"),
    Column("mode A", lambda p: p.first, "l"),
    Column("mode B", lambda p: p.second, "l"),
    Column("answers", lambda p: str(p.answers)),
    Column("acc. A %", lambda p: _pct(p.accuracy_first)),
    Column("acc. B %", lambda p: _pct(p.accuracy_second)),
    Column("A - B % [95% CI]", lambda p: f"{100 * p.delta:+.1f} {_delta_ci(p)}"),
    Column("A only", lambda p: str(p.test.b)),
    Column("B only", lambda p: str(p.test.c)),
    Column("McNemar p", lambda p: f"{p.test.p_value:.3g}"),
    Column("p (Holm)", lambda p: f"{p.p_holm:.3g}"),
)
# The paper's tables (ocl_robustness.tex, ocl_mode_pairs.tex): transformation modes only, no counts.
LATEX_SCORE_COLUMNS: tuple[Column[ModeScore], ...] = (
    Column("Provider", lambda s: s.provider, "l"),
    Column("Mode", lambda s: s.mode, "l"),
    Column("Acc. original (%)", lambda s: _pct(s.values["accuracy_original"])),
    Column("Acc. transformed (%)", lambda s: _pct(s.values["accuracy_transformed"])),
    Column("Robustness (%)", lambda s: _pct(s.values["robustness"])),
    Column("Retention (%)", lambda s: _pct(s.values["retention"])),
)
LATEX_PAIR_COLUMNS: tuple[Column[ModePair], ...] = (
    Column("Provider", lambda p: p.provider, "l"),
    Column("Mode A", lambda p: p.first, "l"),
    Column("Mode B", lambda p: p.second, "l"),
    Column("Answers", lambda p: str(p.answers)),
    Column("Acc. A (%)", lambda p: _pct(p.accuracy_first)),
    Column("Acc. B (%)", lambda p: _pct(p.accuracy_second)),
    Column("A − B (%)", lambda p: f"{100 * p.delta:+.1f}"),
    Column("95% CI", _delta_ci),
    Column("p (Holm)", lambda p: f"{p.p_holm:.3g}"),
)


def scores_table(scores: Sequence[ModeScore]) -> Table:
    return Table.of("ocl-scores", "OCL robustness per provider and mode", SCORE_COLUMNS, scores)


def outcomes_table(scores: Sequence[ModeScore]) -> Table:
    return Table.of("ocl-outcomes", "OCL outcomes per provider and mode", OUTCOME_COLUMNS, scores)


def pairs_table(pairs: Sequence[ModePair]) -> Table:
    return Table.of("ocl-mode-pairs", "OCL modes compared pairwise per provider", PAIR_COLUMNS, pairs)


# ---------------------------------------------------------------------------------------------- terminal


def pair_lines(pairs: Sequence[ModePair], verbose: bool) -> list[str]:
    """The mode comparisons for the terminal: every pair with ``-v``, otherwise those that differ."""
    differ = [p for p in pairs if p.p_holm < ALPHA]
    shown = list(pairs) if verbose else differ
    lines = [
        f"mode pairs: {len(differ)} of {len(pairs)} differ (McNemar, Holm-adjusted per provider, "
        f"p < {ALPHA:g})" + ("" if verbose else f"; -v lists every pair, {PAIRS} has them")
    ]
    if shown:
        lines += pairs_table(shown).to_terminal()
    return lines


def summary_lines(
    scores: Sequence[ModeScore], rows: Sequence[Any], verbose: bool, pairs: Sequence[ModePair] = ()
) -> list[str]:
    answers = judged(rows)
    errors = [row for row in rows if not row.ok]
    lines = [
        f"{len({(a.model, a.constraint) for a in answers})} constraints, {len(rows)} judged runs "
        f"({len(errors)} unusable, counted as failures), {len(answers)} answers"
    ]
    lines += scores_table(scores).to_terminal()
    lines.append("")
    lines += outcomes_table(scores).to_terminal()
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


def latex_table(scores: Sequence[ModeScore]) -> str:
    shown = [s for s in scores if s.mode != ORIGINAL]
    return Table.of("ocl-robustness", "OCL robustness", LATEX_SCORE_COLUMNS, shown).to_latex()


def latex_pairs(pairs: Sequence[ModePair]) -> str:
    return Table.of("ocl-mode-pairs", "OCL mode pairs", LATEX_PAIR_COLUMNS, pairs).to_latex()


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
    paths += write_figures([drawn], out_dir)
    notes = (
        "A constraint is correct when it classifies every object state exactly as the reference does "
        "(USE's check verdict). Robustness: share of constraints correct on the original and still correct "
        "on the transformed model; retention: the same among those correct on the original.",
        "Oracle answers with the transformed reference (robustness 100 % by construction); Rename-blind "
        "with the original reference unchanged. Providers named Synthetic-* are generated noise, not LLMs.",
        "Modes compared pairwise: each provider's modes two by two on the answers both have (same LLM "
        "model, run and constraint), McNemar's test with Holm's correction per provider.",
    )
    sections = (
        (
            "ocl-scores",
            "Robustness per provider and mode",
            scores_table(scores).to_html(heading=False) + figure_html(drawn),
        ),
        ("ocl-outcomes", "Outcomes per provider and mode", outcomes_table(scores).to_html(heading=False)),
        (
            "ocl-mode-pairs",
            "Modes compared pairwise",
            pairs_table(pairs).to_html(heading=False),
        ),
    )
    lines = tuple(
        f"{p}: mean robustness over modes {100 * v:.1f} %" for p, v in sorted(headline(scores).items())
    )
    lines += tuple(f"wrote {p}" for p in paths)
    return TrackReport(tuple(paths), HtmlPart(notes=notes, sections=sections), lines)


__all__ = [
    "figure",
    "latex_pairs",
    "latex_table",
    "mode_pairs_csv",
    "outcomes_table",
    "pair_lines",
    "pairs_table",
    "per_constraint_csv",
    "robustness_csv",
    "scores_table",
    "summary_lines",
    "track_report",
]
