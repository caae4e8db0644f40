"""The mapping track's sections of ``index.html``: tables, figures, paired comparisons, drill-down.

The page itself (inline CSS, Content-Security-Policy, header and navigation) is laid out by
:mod:`benchmark.reports.page` for every track alike.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from html import escape

from benchmark.core.track import HtmlPart
from benchmark.core.wording import plural
from benchmark.reports.figures import Figure, figure_html
from benchmark.reports.table import Mark, Table
from benchmark.tracks.mapping.payload import RunRow
from benchmark.tracks.mapping.reports import format as fmt
from benchmark.tracks.mapping.reports import tables
from benchmark.tracks.mapping.reports.results import MappingResults
from benchmark.tracks.mapping.reports.scale import DRILLDOWN_HTML, at_scale
from benchmark.tracks.mapping.stats.items import binding_categories, class_verdicts, is_right, truth_keys
from benchmark.tracks.mapping.stats.summary import Statistics


def _cell(categories: Sequence[str], suggested: Sequence[str]) -> Mark:
    """One provider's outcomes on one item over its runs: 'k/n right' and the category mix."""
    n = len(categories)
    if all(c == "absent" for c in categories):
        return Mark("·", css="absent")
    right = sum(is_right(c) for c in categories)
    css = "ok" if right == n else "bad" if right == 0 else "mix"
    mix = " · ".join(f"{c} {k}" for c, k in sorted(Counter(categories).items()) if c != "absent")
    title = f"suggested: {', '.join(sorted(set(suggested)))}" if suggested else ""
    return Mark(f"{right}/{n} right", css=css, title=title, note=mix)


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
    head = tuple(f"{p} ({plural(len(runs[p]), 'run')})" for p in present)

    def reads(key: tuple[str, str, str]) -> str:
        gt = truth[key]
        return "(not in ground truth)" if gt is None else ", ".join(gt) if gt else "(target-only)"

    bindings = Table(
        f"drill-{transformation}-bindings",
        f"{transformation}: binding keys",
        ("Source class", "Target class", "Target feature", "Ground truth reads", *head),
        tuple(
            (
                *key,
                reads(key),
                *(
                    _cell(per_provider[p].get(key, ["absent"] * len(runs[p])), suggested.get((p, key), []))
                    for p in present
                ),
            )
            for key in keys
        ),
        align="l" * (4 + len(present)),
        keys=4,
    )
    per_class = {p: class_verdicts(runs[p], truth_pairs=truth_pairs) for p in present}
    pairs = sorted({pair for verdicts in per_class.values() for pair in verdicts})
    classes = Table(
        f"drill-{transformation}-classes",
        f"{transformation}: class pairs",
        ("Source class", "Target class", "In ground truth", *head),
        tuple(
            (
                *pair,
                "yes" if pair in truth_pairs else "no",
                *(_cell(per_class[p].get(pair, ["absent"] * len(runs[p])), []) for p in present),
            )
            for pair in pairs
        ),
        align="l" * (3 + len(present)),
        keys=3,
    )
    # already inside a closed <details>: the tables are not collapsed a second time
    tables_html = [t.to_html(heading=False, collapse=False) for t in (bindings, classes)]
    return (
        f'<details id="drill-{escape(transformation)}"><summary>{escape(transformation)} — '
        f"{plural(len(keys), 'binding key')}, {plural(len(pairs), 'class pair')}</summary>\n"
        + "\n".join(tables_html)
        + "\n</details>"
    )


DRILLDOWN_KEY = "drilldown"
DRILLDOWN_TITLE = "Drill-down: bindings per transformation"


def drilldown_html(results: MappingResults, stats: Statistics) -> str:
    """The legend and one closed ``<details>`` per transformation (:func:`_drilldown`)."""
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
    return "\n".join(drill)


def drilldown_page(
    results: MappingResults,
    stats: Statistics,
    drill: str,
    label: str,
    title: str,
    extra: Sequence[tuple[str, str, str]] = (),
) -> str:
    """``rq1_drilldown.html`` of a large session: the drill-down (``drill``: :func:`drilldown_html`)
    and the ``extra`` sections (key, title, HTML: the correspondences under each task variant), laid out
    like ``index.html`` (same page kit, self-contained)."""
    from benchmark.reports.page import PagePart, render_page

    part = HtmlPart(
        provenance=(f"Drill-down of the session whose tables are in index.html ({_provenance(stats)})",),
        sections=((DRILLDOWN_KEY, DRILLDOWN_TITLE, drill), *extra),
    )
    return render_page(results.header, [PagePart("atl", label, title, part)])


def _provenance(stats: Statistics) -> str:
    return (
        f"{plural(stats.aggregation.rows_used, 'scored run')} · {len(stats.aggregation.excluded)} excluded"
        f" · {plural(len(stats.providers), 'provider')}"
        f" · {plural(len(stats.transformations), 'transformation')} · "
        f"level {stats.level} · partial weight {fmt.count(stats.partial_weight)} · "
        f"bootstrap {stats.draws} draws, seed {stats.seed}"
    )


def html_part(
    results: MappingResults, stats: Statistics, figures: Sequence[Figure], drill: str | None = None
) -> HtmlPart:
    """The mapping track's part of ``index.html``; ``drill``: the drill-down (:func:`drilldown_html`),
    computed here when not given."""
    provenance = [_provenance(stats)]
    sections = [
        (
            "results",
            "Results",
            tables.results_table(stats).to_html(heading=False)
            + tables.split_table(stats).to_html()
            + tables.hallucination_table(results, stats).to_html()
            + tables.costs_table(stats).to_html(),
        ),
        ("figures", "Figures", "\n".join(figure_html(f) for f in figures)),
        (
            "pairs",
            "Paired comparisons",
            tables.pairs_table(stats).to_html(heading=False)
            + "<details><summary>McNemar per transformation</summary>"
            + tables.mcnemar_table(stats).to_html(heading=False)
            + "</details>",
        ),
        (
            "transformations",
            "Per transformation",
            tables.provider_transformation_table(stats).to_html(heading=False),
        ),
        ("confidence", "Confidence", tables.confidence_table(stats).to_html(heading=False)),
        ("categories", "Category profile", tables.category_table(stats).to_html(heading=False)),
        ("validation", "Validation set", tables.characteristics_table(results).to_html(heading=False)),
        ("excluded", "Excluded runs", tables.excluded_table(stats).to_html(heading=False)),
    ]
    if at_scale(len(stats.transformations)):  # most of the page's size: a page of its own (:mod:`.scale`)
        link = (
            f"<p>The drill-down of the {plural(len(stats.transformations), 'transformation')} (what each "
            "provider got right or wrong on every binding key and class pair) is a page of its own, written "
            f'beside this one: <a href="{DRILLDOWN_HTML}">{DRILLDOWN_HTML}</a>.</p>'
        )
        sections.append((DRILLDOWN_KEY, DRILLDOWN_TITLE, link))
    else:
        sections.append((DRILLDOWN_KEY, DRILLDOWN_TITLE, drill or drilldown_html(results, stats)))
    return HtmlPart(
        provenance=tuple(provenance),
        notes=(*stats.notes, *filter(None, [tables.pairs_sentence(stats)])),
        sections=tuple(sections),
        footer=(
            "reading",
            "How to read this page",
            "<p>Definitions of every number, the "
            "resampling scheme, the tests and their corrections: <code>docs/STATISTICS.md</code> and "
            "<code>docs/METRICS.md</code> in the atl-binding-bench repository. The page is regenerated from "
            "<code>results.json</code> alone with <code>atlbench report results.json -o reports/</code>.</p>",
        ),
    )


__all__ = ["drilldown_html", "drilldown_page", "html_part"]
