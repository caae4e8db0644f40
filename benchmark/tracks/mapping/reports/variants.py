"""The variants table (``docs/VARIANTS.md``): per provider and task variant, micro overall P/R/F1 and the
paired difference to ``original``, in every format the track writes -- the terminal (pytest, ``atlbench
validate``), ``summary.md``, ``tables.tex``, ``index.html`` and ``rq1_variants.csv``.

Only a session with rows of a variant other than ``original`` has the table (a session of the original
task alone writes exactly the files it always wrote). The statistics are
:mod:`benchmark.tracks.mapping.stats.variants`'.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from benchmark.core.track import HtmlPart
from benchmark.reports import detectable
from benchmark.reports.table import Table
from benchmark.stats.bootstrap import DEFAULT_DRAWS, DEFAULT_SEED
from benchmark.tracks.mapping.payload import RunRow
from benchmark.tracks.mapping.reports import format as fmt
from benchmark.tracks.mapping.stats.variants import (
    VariantScores,
    VariantStatistics,
    compute_variant_statistics,
)

VARIANTS_CSV = "rq1_variants.csv"
CSV_COLUMNS = (
    "provider",
    "variant",
    "runs",
    "micro_overall_precision",
    "micro_overall_recall",
    "micro_overall_f1",
    "delta_f1",
    "delta_f1_low",
    "delta_f1_high",
    "p_value",
    "p_holm",
    "mde",
)
READING = (
    "How to read it: a drop under synonym (every name changed, the structure intact) larger than the "
    "baselines' drop points at memorisation of the original names; opaque removes the legitimate name "
    "signal too and bounds what is left without names (read it next to synonym, never alone); shuffled "
    "separates order sensitivity from name sensitivity; name-only shows no metamodel at all, so an F1 "
    "above zero there is recall of the transformation."
)


def _method(stats: VariantStatistics) -> str:
    return (
        "P, R, F1: micro overall (classes and bindings pooled over the variant's runs), partial weight "
        f"w = {fmt.count(stats.partial_weight)}. ΔF1: the variant's micro F1 minus the original's, on the "
        "transformations the provider has ok runs on in both; interval: paired bootstrap (shared "
        f"transformation draws, runs resampled per side), {stats.draws} draws, seed {stats.seed}. p: "
        "two-sided paired permutation test of the same ΔF1 over the transformations (the variant's and the "
        "original's counts swapped at random on each); p (Holm): adjusted over every comparison of this "
        "table."
    )


def variants_table(stats: VariantStatistics) -> Table:
    headers = (
        "Provider",
        "Variant",
        "Runs",
        "P",
        "R",
        "F1",
        f"ΔF1 vs original [{round(stats.confidence * 100):g}% CI]",
        "p",
        "p (Holm)",
        detectable.header(),
    )
    rows = tuple(
        (
            e.provider,
            e.variant,
            str(e.runs) + (f" ({e.excluded} excluded)" if e.excluded else ""),
            fmt.number(e.micro.precision) if e.runs else fmt.DASH,
            fmt.number(e.micro.recall) if e.runs else fmt.DASH,
            fmt.number(e.micro.f1) if e.runs else fmt.DASH,
            fmt.with_interval(e.delta_f1, e.interval, signed=True) if e.delta_f1 is not None else fmt.DASH,
            fmt.p_value(e.permutation.p_value if e.permutation else None),
            fmt.p_value(e.p_holm),
            detectable.cell(e.detectable),
        )
        for e in stats.entries
    )
    notes = [READING, _method(stats), *stats.notes]
    if any(e.comparison for e in stats.entries):
        notes.append(detectable.note([e.detectable for e in stats.entries], "ΔF1", "transformation"))
    notes += [f"{e.provider}, {e.variant}: {e.note}." for e in stats.entries if e.note]
    return Table(
        "variants",
        "Task variants: the same transformations renamed, reordered or named only",
        headers,
        rows,
        align="llrrrrrrrr",
        notes=tuple(notes),
        grouped=True,
    )


def _csv_value(value: float | None) -> Any:
    return "" if value is None else value


def csv_records(stats: VariantStatistics) -> list[dict[str, Any]]:
    """One record per provider and variant, keys in :data:`CSV_COLUMNS` order; empty cells for what the
    original has no value of (its difference to itself) or a variant without ok runs."""

    def record(e: VariantScores) -> dict[str, Any]:
        measured = e.runs > 0
        return {
            "provider": e.provider,
            "variant": e.variant,
            "runs": e.runs,
            "micro_overall_precision": e.micro.precision if measured else "",
            "micro_overall_recall": e.micro.recall if measured else "",
            "micro_overall_f1": e.micro.f1 if measured else "",
            "delta_f1": _csv_value(e.delta_f1),
            "delta_f1_low": _csv_value(e.interval.low if e.interval else None),
            "delta_f1_high": _csv_value(e.interval.high if e.interval else None),
            "p_value": _csv_value(e.permutation.p_value if e.permutation else None),
            "p_holm": _csv_value(e.p_holm),
            "mde": _csv_value(e.detectable.effect if e.detectable else None),
        }

    return [record(e) for e in stats.entries]


def sentence(stats: VariantStatistics) -> str | None:
    """What the variants table can detect, in one sentence ("Read this first")."""
    return detectable.sentence(
        "Task variants", [e.detectable for e in stats.entries if e.comparison], "ΔF1", "transformation"
    )


def html_section(stats: VariantStatistics) -> tuple[str, str, str]:
    """The ``index.html`` section (key, title, HTML) of the table."""
    return ("variants", "Task variants", variants_table(stats).to_html(heading=False))


def with_variants(html: HtmlPart, stats: VariantStatistics) -> HtmlPart:
    """The track's page part with the variants section after the paired comparisons (else last)."""
    from dataclasses import replace

    sections = list(html.sections)
    keys = [key for key, _title, _body in sections]
    at = keys.index("pairs") + 1 if "pairs" in keys else len(sections)
    sections.insert(at, html_section(stats))
    found = sentence(stats)
    return replace(html, sections=tuple(sections), notes=(*html.notes, *([found] if found else [])))


def latex(stats: VariantStatistics) -> str:
    table = variants_table(stats)
    caption = " ".join([f"{table.title}.", *table.notes[:2]])
    return table.to_latex(label="tab:atlbench-variants", caption=caption)


def variants_lines(rows: Sequence[RunRow], partial_weight: float) -> list[str]:
    """The table in the terminal (the pytest summary, ``atlbench validate``), with the default bootstrap;
    nothing when no row answers a variant."""
    from benchmark.tracks.mapping.stats.variants import has_variants

    if not has_variants(rows):
        return []
    stats = compute_variant_statistics(
        rows, partial_weight=partial_weight, draws=DEFAULT_DRAWS, seed=DEFAULT_SEED
    )
    table = variants_table(stats)
    notes = (table.notes[0], *table.notes[2:])  # how to read it, what it can detect, these rows' notes
    return ["", table.title, *table.to_terminal(), *(f"  {note}" for note in notes)]


__all__ = [
    "CSV_COLUMNS",
    "READING",
    "VARIANTS_CSV",
    "csv_records",
    "html_section",
    "latex",
    "sentence",
    "variants_lines",
    "variants_table",
    "with_variants",
]
