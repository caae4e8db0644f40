"""The result tables as text: one renderer for the terminal (pytest summary, ``atlbench validate``) and
Markdown (``summary.md``), so every place prints the same numbers in the same layout."""

from __future__ import annotations

from typing import Any

from benchmark.core.wording import plural
from benchmark.tracks.mapping.aggregate import (
    Aggregation,
    ExcludedRun,
    hallucination_rows,
    split_rows,
    table_rows,
)

DIGITS = 3


def format_tables(aggregation: Aggregation, *, tablefmt: str = "simple", heading: str = "") -> str:
    """Per-provider ALL table, provider x transformation table, class/binding/attribute/reference split,
    and the list of excluded runs. ``tablefmt`` is tabulate's (``simple``, ``github``...)."""
    from tabulate import tabulate

    markdown = tablefmt in ("github", "pipe")
    # Every metric with the same three decimals (tabulate would print 0.37 beside 0.029 and 1 beside 0.96).
    style: dict[str, Any] = {"tablefmt": tablefmt, "floatfmt": f".{DIGITS}f"}
    title = (lambda text: f"\n### {text}\n") if markdown else (lambda text: f"\n{text}")
    parts: list[str] = [f"## {heading}\n" if markdown and heading else heading] if heading else []
    if aggregation.groups:
        parts.append(
            title(
                "Per provider (micro P/R/F1/Acc over pooled counts; macro F1 = mean ± SD over runs; "
                "unusable: runs whose answer held no usable mapping, scored as runs with no suggestions)"
            )
        )
        parts.append(
            tabulate(table_rows(aggregation, totals_only=True, digits=DIGITS), headers="keys", **style)
        )
        parts.append(title("Per provider and transformation"))
        parts.append(tabulate(table_rows(aggregation, digits=DIGITS), headers="keys", **style))
        parts.append(title("Split by level and feature kind (micro F1)"))
        parts.append(
            tabulate(split_rows(aggregation, digits=DIGITS), headers="keys", missingval="-", **style)
        )
        parts.append(title("Made-up names (hallucinations), summed over the runs checked"))
        parts.append(tabulate(hallucination_rows(aggregation), headers="keys", missingval="-", **style))
    else:
        parts.append("no run could be scored")
    if aggregation.excluded:
        parts.append(title(f"{plural(len(aggregation.excluded), 'run')} excluded"))
        bullet = "- " if markdown else "  "
        parts.extend(f"{bullet}{_excluded(e)}" for e in aggregation.excluded)
    return "\n".join(parts) + "\n"


def _excluded(run: ExcludedRun) -> str:
    """``FILE: reason``; a reason that already starts with its file (a parser's ``FILE:LINE:COL: ...``) is
    not prefixed a second time."""
    return run.error if run.error.startswith(f"{run.file}:") else f"{run.file}: {run.error}"
