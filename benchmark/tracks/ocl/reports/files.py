"""The OCL track's reports: terminal tables, two CSV files, a LaTeX table, a figure, its part of index.html.

* ``ocl_per_constraint.csv``: one line per judged answer (provider, LLM model, run, dataset model, mode,
  constraint, outcome, the states where the verdicts differ, the detail: the error or the answer as read);
* ``ocl_robustness.csv``: one line per (provider, mode) with the scores of :mod:`.scores` and their
  bootstrap intervals, and the count of every outcome;
* ``ocl_robustness.tex``: the same scores as a LaTeX ``tabular`` (accuracies and robustness, percent);
* ``ocl_mode_pairs.csv`` / ``ocl_mode_pairs.tex``: every pair of modes of every provider compared on the
  answers both have (:mod:`.pairs`: accuracy difference with its bootstrap interval, its permutation test,
  Holm and its minimum detectable effect; ``ocl_statistics.json`` holds them with the scores);
* ``ocl_cost.tex``: per provider and mode, what the runs cost (tokens, dollars, median seconds per
  request, accuracy per $: :mod:`benchmark.reports.cost`); ``ocl_robustness.csv`` has the same columns;
* ``ocl_accuracy.png`` / ``.svg``: accuracy on the original against accuracy on the transformed models,
  one panel per mode, one point per provider (on the diagonal: nothing lost).

Tables are :class:`~benchmark.reports.table.Table` values rendered by the report kit (terminal, LaTeX,
HTML), the figure is drawn by :mod:`benchmark.reports.figures`.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from benchmark.core.fileio import write_text_atomic
from benchmark.core.track import HtmlPart, TrackReport
from benchmark.reports import cost
from benchmark.reports.csvtext import csv_text
from benchmark.reports.excluded import excluded, excluded_table
from benchmark.reports.figures import figure_html, write_figures
from benchmark.tracks.ocl.pairs import ModePair
from benchmark.tracks.ocl.payload import missing_reason, outcomes_of
from benchmark.tracks.ocl.reports.tables import (
    PAIRS,
    costs_table,
    latex_costs,
    latex_pairs,
    latex_table,
    ocl_excluded_lines,
    outcomes_table,
    pairs_sentence,
    pairs_table,
    scores_pairs_and_figure,
    scores_table,
    spends,
)
from benchmark.tracks.ocl.scores import METRICS, ModeScore, headline, judged

if TYPE_CHECKING:
    from benchmark.core.diskcache import DiskCache

PER_CONSTRAINT = "ocl_per_constraint.csv"
ROBUSTNESS = "ocl_robustness.csv"
LATEX = "ocl_robustness.tex"
PAIRS_LATEX = "ocl_mode_pairs.tex"
COST_LATEX = "ocl_cost.tex"
STATISTICS_JSON = "ocl_statistics.json"


# ------------------------------------------------------------------------------------------------- files


def per_constraint_csv(rows: Sequence[Any]) -> str:
    return csv_text(
        ["provider", "llm_model", "run", "model", "mode", "constraint", "outcome", "states", "detail"],
        (
            [a.provider, a.llm, a.run, a.model, a.mode, a.constraint, a.outcome, ";".join(a.states), a.detail]
            for a in judged(rows)
        ),
    )


def robustness_csv(scores: Sequence[ModeScore], rows: Sequence[Any] = ()) -> str:
    """Per provider and mode: the scores with their intervals, the outcomes, and what the runs cost."""
    by = spends(rows)
    header = ["provider", "mode", "answers", "paired"]
    for metric in METRICS:
        header += [metric, f"{metric}_low", f"{metric}_high"]
    outcomes = outcomes_of([s.outcomes for s in scores])
    header += [o.replace(" ", "_") for o in outcomes]
    header += list(cost.CSV_COLUMNS)
    lines = []
    for s in scores:
        line: list[Any] = [s.provider, s.mode, s.items, s.paired]
        for metric in METRICS:
            value, interval = s.values[metric], s.intervals.get(metric)
            line += [
                "" if math.isnan(value) else f"{value:.6f}",
                "" if interval is None else f"{interval.low:.6f}",
                "" if interval is None else f"{interval.high:.6f}",
            ]
        line += [s.outcomes.get(o, 0) for o in outcomes]
        line += list(cost.csv_values(by.get((s.provider, s.mode), cost.spend(()))).values())
        lines.append(line)
    return csv_text(header, lines)


def mode_pairs_csv(pairs: Sequence[ModePair]) -> str:
    header = [
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
        "p_value",
        "p_holm",
        "mde",
    ]
    lines = []
    for p in pairs:
        interval = p.interval
        lines.append(
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
                p.first_only,
                p.second_only,
                f"{p.p_value:.6g}",
                f"{p.p_holm:.6g}",
                "" if p.detectable is None or p.detectable.effect is None else f"{p.detectable.effect:.6f}",
            ]
        )
    return csv_text(header, lines)


def statistics_json(scores: Sequence[ModeScore], pairs: Sequence[ModePair]) -> str:
    """Every score with its intervals and every mode pair with its test, Holm and minimum detectable effect,
    as JSON (NaN, an undefined ratio, as null)."""
    import json
    import math

    def number(value: float) -> float | None:
        return None if math.isnan(value) else value

    data = {
        "scores": [
            {
                "provider": s.provider,
                "mode": s.mode,
                "answers": s.items,
                "paired": s.paired,
                "values": {k: number(v) for k, v in s.values.items()},
                "intervals": {k: v.to_json() for k, v in s.intervals.items()},
                "outcomes": s.outcomes,
            }
            for s in scores
        ],
        "modePairs": [p.to_json() for p in pairs],
    }
    return json.dumps(data, indent=2, ensure_ascii=False, allow_nan=False) + "\n"


def track_report(
    section: Any, out_dir: Path, draws: int | None = None, cache: DiskCache | None = None
) -> TrackReport:
    """Write the track's files (module docstring) and return them with the HTML part and the lines
    ``atlbench report`` prints; with a ``cache``, the statistics and the figure of rows seen by an
    earlier session are read from it (:mod:`benchmark.reports.cached`). The cyclic garbage collector
    is paused meanwhile (:mod:`benchmark.core.gcpause`): its passes over the session's heap (the
    variants, their states and judges) would find nothing of the report's to free."""
    from benchmark.core.gcpause import collector_paused

    with collector_paused():
        return _track_report(section, out_dir, draws, cache)


def _track_report(section: Any, out_dir: Path, draws: int | None, cache: DiskCache | None) -> TrackReport:
    rows = section.rows
    scores, pairs, drawn = scores_pairs_and_figure(rows, draws, cache)
    paths = [
        write_text_atomic(out_dir / PER_CONSTRAINT, per_constraint_csv(rows)),
        write_text_atomic(out_dir / ROBUSTNESS, robustness_csv(scores, rows)),
        write_text_atomic(out_dir / LATEX, latex_table(scores)),
        write_text_atomic(out_dir / PAIRS, mode_pairs_csv(pairs)),
        write_text_atomic(out_dir / PAIRS_LATEX, latex_pairs(pairs)),
        write_text_atomic(out_dir / COST_LATEX, latex_costs(scores, rows)),
        write_text_atomic(out_dir / STATISTICS_JSON, statistics_json(scores, pairs)),
    ]
    paths += write_figures([drawn], out_dir)
    notes = (
        "A constraint is correct when it classifies every object state exactly as the reference does "
        "(USE's check verdict). Robustness: share of constraints correct on the original and still correct "
        "on the transformed model; retention: the same among those correct on the original.",
        "Oracle answers with the transformed reference (robustness 100 % by construction); Rename-blind "
        "with the original reference unchanged. Providers named Synthetic-* are generated noise, not LLMs.",
        "Modes compared pairwise: each provider's modes two by two on the answers both have (same LLM "
        "model, run and constraint), a paired permutation test over the constraints with Holm's "
        "correction per provider.",
        *filter(None, [pairs_sentence(pairs)]),
    )
    sections = (
        (
            "ocl-scores",
            "Robustness per provider and mode",
            scores_table(scores).to_html(heading=False) + figure_html(drawn),
        ),
        ("ocl-outcomes", "Outcomes per provider and mode", outcomes_table(scores).to_html(heading=False)),
        (
            "ocl-costs",
            "Cost and time per provider and mode",
            costs_table(scores, rows).to_html(heading=False),
        ),
        (
            "ocl-mode-pairs",
            "Modes compared pairwise",
            pairs_table(pairs).to_html(heading=False),
        ),
    )
    left_out = excluded(rows, missing_reason)
    if left_out:  # never silent: each run not judged (missing or an error), with its reason
        table = excluded_table("ocl-excluded", left_out)
        sections += (("ocl-excluded", "Excluded runs", table.to_html()),)
    lines = tuple(
        f"{p}: mean robustness over modes {100 * v:.1f} %" for p, v in sorted(headline(scores).items())
    )
    lines += tuple(ocl_excluded_lines(left_out, verbose=True))
    lines += tuple(f"wrote {p}" for p in paths)
    return TrackReport(tuple(paths), HtmlPart(notes=notes, sections=sections), lines)


__all__ = [
    "COST_LATEX",
    "PAIRS_LATEX",
    "STATISTICS_JSON",
    "mode_pairs_csv",
    "per_constraint_csv",
    "robustness_csv",
    "statistics_json",
    "track_report",
]
