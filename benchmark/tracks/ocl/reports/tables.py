"""The OCL track's tables: scores per provider and mode, outcomes, mode pairs, as report-kit
:class:`~benchmark.reports.table.Table` values (terminal, HTML, LaTeX), and the session's terminal summary.

A column is one :class:`~benchmark.reports.table.Column`: a table gains one in every format with one more
declaration.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from benchmark.core.rows import run_name
from benchmark.core.wording import plural
from benchmark.reports import detectable
from benchmark.reports.cost import CostLine, Spend, cost_table, spend, spend_by
from benchmark.reports.excluded import Excluded, excluded, excluded_lines
from benchmark.reports.table import Column, Table
from benchmark.stats.bootstrap import DEFAULT_DRAWS
from benchmark.tracks.ocl.pairs import ModePair
from benchmark.tracks.ocl.payload import OclPayload, dataset_model, missing_reason, outcomes_of
from benchmark.tracks.ocl.scores import ORIGINAL, ModeScore, judged

if TYPE_CHECKING:
    from benchmark.core.diskcache import DiskCache
    from benchmark.reports.figures import Figure

ALPHA = 0.05  # what the terminal calls a difference (Holm-adjusted permutation p below it)
PAIRS = "ocl_mode_pairs.csv"  # where every pair is (the terminal lists those that differ)


def scores_and_pairs(
    rows: Sequence[Any], draws: int | None = None, cache: DiskCache | None = None
) -> tuple[list[ModeScore], list[ModePair]]:
    """The scores per provider and mode and the mode pairs of a session's rows, with ``draws`` bootstrap
    draws (default 2000): the session's terminal tables. A session writes its report files first
    (:func:`scores_pairs_and_figure`), which leaves its values here for the same rows object and draws, so
    the bootstrap runs once; with a ``cache``, rows an earlier session saw are not bootstrapped again
    (``reports/cached.py``)."""
    from benchmark.reports.cached import cached, report_key
    from benchmark.tracks.ocl.reports import together

    draws = draws or DEFAULT_DRAWS
    last = _last.get("scores_and_pairs")
    if last is not None and last[0] is rows and last[1] == draws:
        return last[2]
    found = cached(
        cache,
        "ocl-report",
        lambda: report_key("scores and pairs", _judged(rows), draws, REPORT_CODE),
        lambda: together.scores_and_pairs(rows, draws),
    )
    _remember(rows, draws, found)
    return found


def scores_pairs_and_figure(
    rows: Sequence[Any], draws: int | None = None, cache: DiskCache | None = None
) -> tuple[list[ModeScore], list[ModePair], Figure]:
    """The scores, the mode pairs and the figure of the report files, computed side by side
    (:mod:`.together`) or, with a ``cache``, read from it for rows an earlier session saw; the scores and
    pairs are left for the terminal tables (:func:`scores_and_pairs`)."""
    from benchmark.reports.cached import cached, report_key
    from benchmark.tracks.ocl.reports import together

    draws = draws or DEFAULT_DRAWS
    found = cached(
        cache,
        "ocl-report",
        lambda: report_key("scores, pairs and figure", _judged(rows), draws, REPORT_CODE),
        lambda: together.scores_pairs_and_figure(rows, draws),
    )
    _remember(rows, draws, found[:2])
    return found


class _WithoutUseCost:
    """A row as the report's values depend on it: without what USE cost (``useJudge``)."""

    def __init__(self, row: Any) -> None:
        self.row = row

    def to_json(self) -> dict[str, Any]:
        data = self.row.to_json()
        data["payload"] = {k: v for k, v in data.get("payload", {}).items() if k != "useJudge"}
        return data


def _judged(rows: Sequence[Any]) -> Sequence[Any]:
    """The rows the report's cache key is made of: those of a session judged with USE without USE's cost,
    which changes from session to session (seconds, a batch computed or read from the disk cache) while
    the judgements, all the scores are made of, stay; any other session's rows as they are."""
    if not any("useJudge" in row.payload for row in rows):
        return rows
    return [_WithoutUseCost(row) for row in rows]


def _remember(rows: Sequence[Any], draws: int, found: tuple[list[ModeScore], list[ModePair]]) -> None:
    _last["scores_and_pairs"] = (rows, draws, found)  # holds ``rows``: its id cannot be reused meanwhile


_last: dict[str, tuple[Sequence[Any], int, tuple[list[ModeScore], list[ModePair]]]] = {}
#: the code the report's values are computed by (their cache key's fingerprint)
REPORT_CODE = ("tracks/ocl", "stats", "reports")


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


def outcome_columns(scores: Sequence[ModeScore]) -> tuple[Column[ModeScore], ...]:
    """Provider, mode and a column per outcome (``judge error`` only when an answer has it)."""
    return (
        Column("provider", lambda s: s.provider, "l"),
        Column("mode", lambda s: s.mode, "l"),
        *(
            Column(o, lambda s, o=o: str(s.outcomes.get(o, 0)))
            for o in outcomes_of([s.outcomes for s in scores])
        ),
    )


PAIR_COLUMNS: tuple[Column[ModePair], ...] = (
    Column("provider", lambda p: p.provider, "l"),
    Column("mode A", lambda p: p.first, "l"),
    Column("mode B", lambda p: p.second, "l"),
    Column("answers", lambda p: str(p.answers)),
    Column("acc. A %", lambda p: _pct(p.accuracy_first)),
    Column("acc. B %", lambda p: _pct(p.accuracy_second)),
    Column("A - B % [95% CI]", lambda p: f"{100 * p.delta:+.1f} {_delta_ci(p)}"),
    Column("A only", lambda p: str(p.first_only)),
    Column("B only", lambda p: str(p.second_only)),
    Column("p", lambda p: f"{p.p_value:.3g}"),
    Column("p (Holm)", lambda p: f"{p.p_holm:.3g}"),
    Column(f"{detectable.header()} %", lambda p: detectable.cell(p.detectable, digits=1, scale=100)),
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
    Column("MDE (%)", lambda p: detectable.cell(p.detectable, digits=1, scale=100)),
)


def scores_table(scores: Sequence[ModeScore]) -> Table:
    return Table.of("ocl-scores", "OCL robustness per provider and mode", SCORE_COLUMNS, scores)


def outcomes_table(scores: Sequence[ModeScore]) -> Table:
    return Table.of("ocl-outcomes", "OCL outcomes per provider and mode", outcome_columns(scores), scores)


PAIRS_TITLE = "OCL modes compared pairwise per provider"


def pairs_method() -> str:
    return (
        "A - B: accuracy on mode A minus on mode B over the answers both modes have (same LLM model, run "
        "and constraint); interval: paired bootstrap over constraints (answers redrawn within each); p: "
        "two-sided paired permutation test of the same difference over the constraints; p (Holm): within "
        "each provider's pairs; A only / B only: answers right on one mode and wrong on the other"
    )


def pairs_table(pairs: Sequence[ModePair]) -> Table:
    notes = [pairs_method()]
    if pairs:
        notes.append(detectable.note([p.detectable for p in pairs], "A - B", "constraint"))
    return Table.of("ocl-mode-pairs", PAIRS_TITLE, PAIR_COLUMNS, pairs, notes=tuple(notes))


def pairs_sentence(pairs: Sequence[ModePair]) -> str | None:
    """What the mode pairs can detect, in one sentence ("Read this first"), in percentage points."""
    return detectable.sentence(
        PAIRS_TITLE, [p.detectable for p in pairs], "A - B", "constraint", scale=100, digits=1
    )


def spends(rows: Sequence[Any]) -> dict[tuple[str, str], Spend]:
    """What the runs of each provider on each mode cost (their ledgers), by (series, mode): a provider's
    runs under another prompt template are a series of their own, as in every other table."""
    return spend_by(rows, lambda row: (row.series, OclPayload.of_row(row).mode))


def cost_lines(scores: Sequence[ModeScore], rows: Sequence[Any]) -> list[CostLine]:
    """Per provider and mode, in the scores' order: the spend and the accuracy on that mode (percent)."""
    by = spends(rows)
    return [
        CostLine(
            (s.provider, s.mode),
            by.get((s.provider, s.mode), spend(())),
            None if math.isnan(s.values["accuracy_transformed"]) else 100 * s.values["accuracy_transformed"],
        )
        for s in scores
    ]


def costs_table(scores: Sequence[ModeScore], rows: Sequence[Any]) -> Table:
    """Tokens, cost, median seconds per request and accuracy per $, per provider and mode (the accuracy
    of the mode's answers: on the original for ``original``, on the transformed model otherwise)."""
    return cost_table(
        "ocl-costs",
        "OCL cost and time per provider and mode",
        ("Provider", "Mode"),
        cost_lines(scores, rows),
        "Accuracy %",
        digits=1,
    )


# ---------------------------------------------------------------------------------------------- terminal


def pair_lines(pairs: Sequence[ModePair], verbose: bool) -> list[str]:
    """The mode comparisons for the terminal: every pair with ``-v``, otherwise those that differ."""
    differ = [p for p in pairs if p.p_holm < ALPHA]
    shown = list(pairs) if verbose else differ
    lines = [
        f"mode pairs: {len(differ)} of {len(pairs)} differ (paired permutation test over constraints, "
        "Holm-adjusted per provider, "
        f"p < {ALPHA:g})" + ("" if verbose else f"; -v lists every pair, {PAIRS} has them")
    ]
    if shown:
        lines += pairs_table(shown).to_terminal()
    return lines


def summary_lines(rows: Sequence[Any], verbose: bool) -> list[str]:
    """The session's terminal tables: scores, outcomes, the mode pairs that differ, the excluded runs
    (missing ones among them), each with its reason."""
    scores, pairs = scores_and_pairs(rows)
    answers = judged(rows)
    left_out = excluded(rows, missing_reason)
    missing = sum(1 for item in left_out if item.missing is not None)
    lines = [
        f"{plural(len({(a.model, a.constraint) for a in answers}), 'constraint')}, "
        f"{plural(len(rows) - len(left_out), 'run')} judged, {len(left_out)} excluded ({missing} missing), "
        f"{plural(len(answers), 'answer')}"
    ]
    lines += scores_table(scores).to_terminal()
    lines.append("")
    lines += outcomes_table(scores).to_terminal()
    costs = costs_table(scores, rows)
    lines += ["", "cost and time (the run files' ledgers):", *costs.to_terminal()]
    lines += [f"  {note}" for note in costs.notes[1:]]
    if pairs:
        lines.append("")
        lines += pair_lines(pairs, verbose)
    return lines + ocl_excluded_lines(left_out, verbose)


def ocl_excluded_lines(left_out: Sequence[Excluded], verbose: bool) -> list[str]:
    """The excluded runs, grouped by dataset model and cause: a model that cannot be read excludes the
    runs of every mode with one message."""
    return excluded_lines(
        left_out,
        verbose=verbose,
        group=lambda u: dataset_model(u.row),
        name=lambda u: f"{u.row.task.removeprefix(dataset_model(u.row) + '-')} {_run(u)}",
    )


def _run(item: Excluded) -> str:
    """A run as a list names it; a live baseline by its name alone."""
    row = item.row
    return row.provider if row.run == "baseline" else run_name(row.provider, row.run)


def latex_table(scores: Sequence[ModeScore]) -> str:
    shown = [s for s in scores if s.mode != ORIGINAL]
    return Table.of("ocl-robustness", "OCL robustness", LATEX_SCORE_COLUMNS, shown).to_latex()


def latex_pairs(pairs: Sequence[ModePair]) -> str:
    return Table.of("ocl-mode-pairs", "OCL mode pairs", LATEX_PAIR_COLUMNS, pairs).to_latex()


def latex_costs(scores: Sequence[ModeScore], rows: Sequence[Any]) -> str:
    return costs_table(scores, rows).to_latex()
