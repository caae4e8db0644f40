"""What the USE judge adds to the OCL track's reports: its cost, and every disagreement with ours.

Rows judged with ``--ocl-judge use|both`` carry ``useJudge`` (the batch that judged their variant: USE's
version, USE processes started, restarts, states opened and checked, invariant verdicts read, judge
errors, seconds in all and per kind of command; shared by every row of the variant, so the session
counts each batch once; ``cached`` when the session read it from the disk cache) and, with ``both``,
``judgeDisagreements`` (each answer the two judges judge differently, with both judgements). This module
turns them into

* terminal lines: what USE cost this session, and every disagreement (model, mode, provider, run,
  constraint, the states in question, both outcomes, USE's message);
* ``ocl_judge_disagreements.csv`` (one line per disagreement, header only when there is none) and a
  section of ``index.html``, written only for sessions judged with USE.
"""

from __future__ import annotations

import html
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

from benchmark.core.fileio import write_text_atomic
from benchmark.core.track import HtmlPart, TrackReport
from benchmark.core.wording import plural
from benchmark.reports.csvtext import csv_text
from benchmark.reports.table import Table

DISAGREEMENTS = "ocl_judge_disagreements.csv"
_COLUMNS = (
    "model",
    "mode",
    "provider",
    "run",
    "constraint",
    "states",
    "builtin",
    "use",
    "use_message",
    "builtin_detail",
)


def judged_with_use(rows: Sequence[Any]) -> bool:
    return any("useJudge" in row.payload for row in rows)


#: the kinds of work a batch's seconds are split into, as the terminal names them
_KINDS = (
    ("start", "USE starts"),
    ("model", "model loads"),
    ("load", "constraint loads"),
    ("open", "state opens"),
    ("check", "checks"),
    ("reset", "resets"),
    ("unload", "unloads"),
    ("parse", "reading USE's output"),
)


def use_cost(rows: Sequence[Any]) -> dict[str, Any]:
    """The session's USE batches, each counted once: JVMs, states, verdicts, seconds, versions, and those
    read from the disk cache (``cached``: what they cost when computed is not this session's)."""
    batches = {
        row.payload["useJudge"]["run"]: row.payload["useJudge"] for row in rows if "useJudge" in row.payload
    }
    computed = [b for b in batches.values() if not b.get("cached")]
    total: dict[str, Any] = {"batches": len(batches), "cached": len(batches) - len(computed)}
    for key in ("jvms", "states", "checks", "seconds", "restarts", "judgeErrors"):
        total[key] = sum(b.get(key, 0) for b in computed)
    breakdown: dict[str, float] = {}
    for batch in computed:
        for kind, seconds in batch.get("breakdown", {}).items():
            breakdown[kind] = breakdown.get(kind, 0.0) + seconds
    total["breakdown"] = breakdown
    total["versions"] = sorted({b["version"] for b in batches.values() if b["version"]})
    return total


def _states(builtin: dict[str, Any], use: dict[str, Any]) -> list[str]:
    """The states in question: where exactly one judge finds the answer differs (or fails), or, when one
    judge rejects the answer, the states the other names."""
    a, b = set(builtin["states"]), set(use["states"])
    return sorted(a ^ b) or sorted(a | b)


def disagreement_records(rows: Sequence[Any]) -> list[dict[str, str]]:
    """Every disagreement of the rows, flattened for the terminal and the CSV file."""
    records = []
    for row in rows:
        for d in row.payload.get("judgeDisagreements", ()):
            builtin, use = d["builtin"], d["use"]
            records.append(
                {
                    "model": str(row.payload.get("datasetModel", "")),
                    "mode": str(row.payload.get("mode", "")),
                    "provider": row.series,
                    "run": row.run,
                    "constraint": d["id"],
                    "states": ";".join(_states(builtin, use)),
                    "builtin": builtin["outcome"],
                    "use": use["outcome"],
                    "use_message": use["detail"],
                    "builtin_detail": builtin["detail"],
                }
            )
    return sorted(records, key=lambda r: tuple(r[c] for c in _COLUMNS[:5]))


def disagreements_table(rows: Sequence[Any]) -> Table:
    """Every disagreement of the rows as a report-kit table (the terminal leaves out the built-in judge's
    detail; the CSV file and the page have it)."""
    records = disagreement_records(rows)
    return Table(
        "ocl-judge-disagreements",
        "Disagreements between the built-in judge and USE",
        _COLUMNS,
        tuple(tuple(r[c] for c in _COLUMNS) for r in records),
        "l" * len(_COLUMNS),
    )


def _cost_lines(rows: Sequence[Any]) -> list[str]:
    cost = use_cost(rows)
    version = ", ".join(cost["versions"]) or "unknown version"
    computed = cost["batches"] - cost["cached"]
    line = f"USE {version} judged {plural(cost['batches'], 'model variant')}"
    if cost["cached"]:
        line += f" ({cost['cached']} read from the disk cache)"
    if not computed:
        return [line + ": USE was not started"]
    line += (
        f": {plural(cost['jvms'], 'JVM start')}, {plural(cost['states'], 'state')} opened and checked, "
        f"{plural(cost['checks'], 'invariant verdict')}, {cost['seconds']:.1f} s in USE"
    )
    if cost["restarts"] or cost["judgeErrors"]:
        line += (
            f"; USE replaced {plural(cost['restarts'], 'time')} (died, hung or out of step), "
            f"{plural(cost['judgeErrors'], 'judge error')}"
        )
    lines = [line]
    spent = [(label, cost["breakdown"][kind]) for kind, label in _KINDS if kind in cost["breakdown"]]
    if spent:
        lines.append("  where: " + ", ".join(f"{label} {seconds:.1f} s" for label, seconds in spent))
    return lines


def judge_lines(rows: Sequence[Any]) -> list[str]:
    """The terminal's lines about the USE judge (none for a session judged by the built-in judge)."""
    if not judged_with_use(rows):
        return []
    lines = ["", *_cost_lines(rows)]
    if not any("judgeDisagreements" in row.payload for row in rows):
        return lines
    table = disagreements_table(rows)
    if not table.rows:
        lines.append("the built-in judge and USE agree on every answer")
        return lines
    lines.append(f"the built-in judge and USE disagree on {plural(len(table.rows), 'answer')}:")
    terminal = Table(table.key, table.title, _COLUMNS[:9], tuple(r[:9] for r in table.rows), "l" * 9)
    return lines + terminal.to_terminal()


def agreement_check(rows: Sequence[Any], *, accepted: bool) -> tuple[list[str], list[str]]:
    """(messages, failures) of a session judged by both: a disagreement fails it unless ``accepted``."""
    found = disagreement_records(rows)
    answers = sum(len(row.payload.get("judgements", [])) for row in rows if row.ok)
    if not found:
        return [f"ocl: the built-in judge and USE agree on all {plural(answers, 'answer')}"], []
    head = (
        f"ocl: the built-in judge and USE disagree on {len(found)} of {plural(answers, 'answer')} "
        "(listed in the OCL summary and ocl_judge_disagreements.csv)"
    )
    if accepted:
        return [f"{head}; accepted by --ocl-accept-disagreements"], []
    return [], [f"{head}; accept them with --ocl-accept-disagreements"]


def disagreements_csv(rows: Sequence[Any]) -> str:
    return csv_text(_COLUMNS, ([record[c] for c in _COLUMNS] for record in disagreement_records(rows)))


def _html(rows: Sequence[Any]) -> str:
    summary = "".join(f"<p>{html.escape(line.strip())}.</p>" for line in _cost_lines(rows))
    if not any("judgeDisagreements" in row.payload for row in rows):
        return summary
    table = disagreements_table(rows)
    verdict = f"<p>{plural(len(table.rows), 'disagreement')} between the built-in judge and USE.</p>"
    return summary + verdict + table.to_html(heading=False)


def with_judge_report(report: TrackReport, rows: Sequence[Any], out_dir: Path) -> TrackReport:
    """``report`` plus the USE judge's file and section, for a session judged with USE."""
    if not judged_with_use(rows):
        return report
    path = write_text_atomic(out_dir / DISAGREEMENTS, disagreements_csv(rows))
    part = report.html or HtmlPart()
    section = ("ocl-use-judge", "OCL answers judged by USE", _html(rows))
    return replace(
        report,
        paths=(*report.paths, path),
        html=replace(part, sections=(*part.sections, section)),
        lines=(*report.lines, f"wrote {path}"),
    )


__all__ = [
    "DISAGREEMENTS",
    "agreement_check",
    "disagreement_records",
    "judge_lines",
    "use_cost",
    "with_judge_report",
]
