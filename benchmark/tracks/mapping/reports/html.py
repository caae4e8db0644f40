"""``index.html``: one self-contained page (inline CSS, figures as data URIs, no script, no network).

A Content-Security-Policy meta tag forbids every fetch except ``data:`` images, so the page provably
needs nothing but itself; it can be mailed, attached to a CI run or opened from a file system.
"""

from __future__ import annotations

import base64
from collections import Counter
from collections.abc import Sequence
from html import escape

from benchmark.core.results import Results
from benchmark.tracks.mapping.counts import RunRow
from benchmark.tracks.mapping.reports import format as fmt
from benchmark.tracks.mapping.reports import tables
from benchmark.tracks.mapping.reports.plots import Figure
from benchmark.tracks.mapping.reports.tables import Table
from benchmark.tracks.mapping.stats.items import binding_categories, class_verdicts, is_right, truth_keys
from benchmark.tracks.mapping.stats.summary import Statistics

CSS = """
:root { --fg:#1d2430; --muted:#5b6575; --line:#d9dee6; --head:#f2f4f8;
  --ok:#d8f0d8; --bad:#f8d7d5; --mix:#fff1c9; }
* { box-sizing: border-box; }
body { font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: var(--fg);
  margin: 0; }
header { background: #23324a; color: #fff; padding: 18px 28px; }
header h1 { margin: 0 0 6px; font-size: 22px; }
header p { margin: 2px 0; color: #d6dceb; font-size: 13px; }
nav { padding: 10px 28px; border-bottom: 1px solid var(--line); background: #fafbfd;
  position: sticky; top: 0; }
nav a { margin-right: 14px; color: #23508f; text-decoration: none; font-size: 13px; }
main { padding: 8px 28px 40px; max-width: 1400px; }
section { margin-top: 26px; }
h2 { font-size: 18px; border-bottom: 2px solid var(--line); padding-bottom: 4px; }
h3 { font-size: 15px; margin: 18px 0 6px; }
table { border-collapse: collapse; margin: 8px 0; font-size: 13px; }
th, td { border: 1px solid var(--line); padding: 3px 8px; vertical-align: top; }
th { background: var(--head); text-align: left; font-weight: 600; }
td.r { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
.notes { color: var(--muted); font-size: 12.5px; margin: 4px 0 0; padding-left: 18px; }
.callout { background: #fff8e1; border-left: 4px solid #f0b400; padding: 8px 12px; margin: 10px 0; }
figure { margin: 12px 0 22px; }
figure img { max-width: 100%; height: auto; border: 1px solid var(--line); background: #fff; }
figcaption { color: var(--muted); font-size: 12.5px; max-width: 900px; }
details { margin: 6px 0; }
summary { cursor: pointer; font-weight: 600; }
td.ok { background: var(--ok); } td.bad { background: var(--bad); } td.mix { background: var(--mix); }
td.absent { color: #aab; text-align: center; }
code { font-size: 12px; }
.legend span { display: inline-block; padding: 1px 8px; margin-right: 6px; border: 1px solid var(--line); }
"""

CSP = "default-src 'none'; img-src data:; style-src 'unsafe-inline'"


def _table(table: Table, *, heading: bool = True) -> str:
    parts = [f"<h3>{escape(table.title)}</h3>"] if heading else []
    if table.rows:
        align = table.alignment()
        parts.append(
            "<table><thead><tr>"
            + "".join(f"<th>{escape(h)}</th>" for h in table.headers)
            + "</tr></thead><tbody>"
        )
        for row in table.rows:
            cells = "".join(
                f'<td class="r">{escape(c)}</td>' if align[i] == "r" else f"<td>{escape(c)}</td>"
                for i, c in enumerate(row)
            )
            parts.append(f"<tr>{cells}</tr>")
        parts.append("</tbody></table>")
    else:
        parts.append("<p>(none)</p>")
    if table.notes:
        parts.append('<ul class="notes">' + "".join(f"<li>{escape(n)}</li>" for n in table.notes) + "</ul>")
    return "\n".join(parts)


def _figure(figure: Figure) -> str:
    data = base64.b64encode(figure.data["svg"]).decode("ascii")
    return (
        f'<figure id="fig-{escape(figure.name)}"><img src="data:image/svg+xml;base64,{data}" '
        f'alt="{escape(figure.title)}">'
        f"<figcaption><b>{escape(figure.title)}.</b> {escape(figure.caption)} "
        f"Files: <code>{escape(figure.name)}.png</code>, <code>{escape(figure.name)}.svg</code>."
        "</figcaption></figure>"
    )


def _cell(categories: Sequence[str], suggested: Sequence[str]) -> str:
    """One provider's outcomes on one item over its runs: 'k/n right' and the category mix."""
    n = len(categories)
    if all(c == "absent" for c in categories):
        return '<td class="absent">·</td>'
    right = sum(is_right(c) for c in categories)
    css = "ok" if right == n else "bad" if right == 0 else "mix"
    mix = " · ".join(f"{escape(c)} {k}" for c, k in sorted(Counter(categories).items()) if c != "absent")
    title = f' title="suggested: {escape(", ".join(sorted(set(suggested))))}"' if suggested else ""
    return f'<td class="{css}"{title}>{right}/{n} right<br><small>{mix}</small></td>'


def _drilldown(transformation: str, providers: Sequence[str], runs: dict[str, list[RunRow]]) -> str:
    """Per binding key (and class pair) of one transformation: what each provider got right or wrong."""
    present = [p for p in providers if p in runs]
    every_run = [row for p in present for row in runs[p]]
    truth_bindings = truth_keys(every_run)
    truth_pairs = {
        (i.source_class, i.target_class) for r in every_run for i in r.class_items if i.verdict != "fp"
    }
    per_provider = {p: binding_categories(runs[p], truth_keys=truth_bindings) for p in present}
    truth: dict[tuple[str, str, str], tuple[str, ...] | None] = {}
    suggested: dict[tuple[str, tuple[str, str, str]], list[str]] = {}
    for provider in present:
        for row in runs[provider]:
            for item in row.binding_items:
                if item.category != "onlyGenerated":
                    truth[item.key] = item.ground_truth
                else:
                    truth.setdefault(item.key, None)
                suggested.setdefault((provider, item.key), []).extend(item.suggested)
    keys = sorted(set(truth))
    head = "".join(
        f"<th>{escape(p)} ({len(runs[p])} run{'s' if len(runs[p]) != 1 else ''})</th>" for p in present
    )
    lines = [
        f"<table><thead><tr><th>Source class</th><th>Target class</th><th>Target feature</th>"
        f"<th>Ground truth reads</th>{head}</tr></thead><tbody>"
    ]
    for key in keys:
        gt = truth[key]
        gt_text = "(not in ground truth)" if gt is None else ", ".join(gt) if gt else "(target-only)"
        cells = "".join(
            _cell(per_provider[p].get(key, ["absent"] * len(runs[p])), suggested.get((p, key), []))
            for p in present
        )
        lines.append(
            f"<tr><td>{escape(key[0])}</td><td>{escape(key[1])}</td><td>{escape(key[2])}</td>"
            f"<td>{escape(gt_text)}</td>{cells}</tr>"
        )
    lines.append("</tbody></table>")
    per_class = {p: class_verdicts(runs[p], truth_pairs=truth_pairs) for p in present}
    pairs = sorted({pair for verdicts in per_class.values() for pair in verdicts})
    lines.append(
        f"<table><thead><tr><th>Source class</th><th>Target class</th><th>In ground truth</th>{head}"
        "</tr></thead><tbody>"
    )
    for pair in pairs:
        cells = "".join(_cell(per_class[p].get(pair, ["absent"] * len(runs[p])), []) for p in present)
        lines.append(
            f"<tr><td>{escape(pair[0])}</td><td>{escape(pair[1])}</td>"
            f"<td>{'yes' if pair in truth_pairs else 'no'}</td>{cells}</tr>"
        )
    lines.append("</tbody></table>")
    return (
        f'<details id="drill-{escape(transformation)}"><summary>{escape(transformation)} — '
        f"{_plural(len(keys), 'binding key')}, {_plural(len(pairs), 'class pair')}</summary>\n"
        + "\n".join(lines)
        + "\n</details>"
    )


def _plural(count: int, noun: str) -> str:
    return f"{count} {noun}" if count == 1 else f"{count} {noun}s"


def render_html(results: Results, stats: Statistics, figures: Sequence[Figure]) -> str:
    header = results.header
    provenance = [
        f"Results created {header.created or 'unknown'}"
        + (f" · commit {header.git_commit}" if header.git_commit else "")
        + (f" · validation root {header.validation_root}" if header.validation_root else ""),
        f"{stats.aggregation.rows_used} scored runs · {len(stats.aggregation.excluded)} excluded · "
        f"{len(stats.providers)} providers · {len(stats.transformations)} transformations · "
        f"level {stats.level} · partial weight {fmt.count(stats.partial_weight)} · "
        f"bootstrap {stats.draws} draws, seed {stats.seed}",
    ]
    versions = ", ".join(f"{k} {v}" for k, v in sorted(header.versions.items()))
    if versions:
        provenance.append(f"Versions: {versions}")
    sections = [
        (
            "results",
            "Results",
            _table(tables.results_table(stats), heading=False) + _table(tables.split_table(stats)),
        ),
        ("figures", "Figures", "\n".join(_figure(f) for f in figures)),
        (
            "pairs",
            "Paired comparisons",
            _table(tables.pairs_table(stats), heading=False)
            + "<details><summary>McNemar per transformation</summary>"
            + _table(tables.mcnemar_table(stats), heading=False)
            + "</details>",
        ),
        (
            "transformations",
            "Per transformation",
            _table(tables.transformation_f1_table(stats), heading=False),
        ),
        ("confidence", "Confidence", _table(tables.confidence_table(stats), heading=False)),
        ("categories", "Category profile", _table(tables.category_table(stats), heading=False)),
        ("validation", "Validation set", _table(tables.characteristics_table(results), heading=False)),
        ("excluded", "Excluded runs", _table(tables.excluded_table(stats), heading=False)),
    ]
    ok_rows: dict[str, dict[str, list[RunRow]]] = {}
    for row in sorted((r for r in results.rows if r.ok), key=lambda r: r.key):
        ok_rows.setdefault(row.transformation, {}).setdefault(row.provider, []).append(row)
    providers = [p.provider for p in stats.providers]
    drill = [
        '<p class="legend">Each cell: in how many of the provider\'s runs it was right on the item, and the '
        'categories it got. <span style="background:#d8f0d8">right in every run</span>'
        '<span style="background:#fff1c9">mixed</span><span style="background:#f8d7d5">never right</span> '
        "· = neither suggested nor in the ground truth. Hover a cell for the source features suggested.</p>"
    ]
    drill += [_drilldown(t, providers, ok_rows.get(t, {})) for t in stats.transformations]
    sections.append(("drilldown", "Drill-down: bindings per transformation", "\n".join(drill)))
    notes = "".join(f"<li>{escape(n)}</li>" for n in stats.notes)
    body = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        f'<meta http-equiv="Content-Security-Policy" content="{CSP}">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        "<title>atl-binding-bench report</title>",
        f"<style>{CSS}</style></head><body>",
        "<header><h1>atl-binding-bench report</h1>"
        + "".join(f"<p>{escape(p)}</p>" for p in provenance)
        + "</header>",
        "<nav>" + "".join(f'<a href="#{key}">{escape(title)}</a>' for key, title, _ in sections) + "</nav>",
        "<main>",
    ]
    if notes:
        body.append(f'<div class="callout"><b>Read this first</b><ul>{notes}</ul></div>')
    for key, title, content in sections:
        body.append(f'<section id="{key}"><h2>{escape(title)}</h2>\n{content}\n</section>')
    body.append(
        '<section id="reading"><h2>How to read this page</h2><p>Definitions of every number, the '
        "resampling scheme, the tests and their corrections: <code>docs/STATISTICS.md</code> and "
        "<code>docs/METRICS.md</code> in the atl-binding-bench repository. The page is regenerated from "
        "<code>results.json</code> alone with <code>atlbench report results.json -o reports/</code>.</p>"
        "</section>"
    )
    body.append("</main></body></html>")
    return "\n".join(body) + "\n"


__all__ = ["CSP", "render_html"]
