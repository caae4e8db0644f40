"""The mapping track's report tables, built once as text cells and rendered by the report kit.

Each builder returns a :class:`~benchmark.reports.table.Table` of already formatted strings
(``benchmark.tracks.mapping.reports.format``), rendered to Markdown (``summary.md``), HTML (``index.html``)
and LaTeX (``tables.tex``), so the formats cannot disagree on a digit.
"""

from __future__ import annotations

from collections import Counter

from benchmark.core.wording import plural
from benchmark.reports import detectable
from benchmark.reports.cost import cost_table
from benchmark.reports.table import Table
from benchmark.tracks.mapping.aggregate import ALL, GroupResult, cost_lines, f1_pivot, name_key, split_rows
from benchmark.tracks.mapping.reports import format as fmt
from benchmark.tracks.mapping.reports.results import MappingResults
from benchmark.tracks.mapping.reports.scale import at_scale
from benchmark.tracks.mapping.stats.profiles import PROFILE_CATEGORIES
from benchmark.tracks.mapping.stats.summary import Statistics, level_of

LEVEL_NAMES = {"class": "class", "binding": "binding", "overall": "overall (classes + bindings)"}
CATEGORY_NAMES = {
    "exact": "exact",
    "partial": "partial",
    "divergent": "divergent",
    "onlyGenerated": "only generated",
    "onlyAtl": "only ATL",
}
SLICE_NAMES = {"high+medium": "high+medium", "all": "all"}
HALLUCINATIONS_SHOWN = 5
UNUSABLE_NOTE = (
    "Unusable: runs where the model answered but the answer held no usable mapping, counted in Runs and "
    "scored as runs with no suggestions."
)


def _ci_header(stats: Statistics, name: str) -> str:
    return f"{name} [{round(stats.confidence * 100):g}% CI]"


def results_table(stats: Statistics, *, compact: bool = False) -> Table:
    """Per provider: runs (and how many were unusable), micro P, R, F1 (with intervals), accuracy, macro F1
    ± SD, stability, baseline-relative recall. ``compact`` keeps the columns a paper table has room for."""
    has_baseline = stats.baseline is not None
    headers = ["Provider", "Runs", "Unusable", "Transf."]
    if compact:
        headers += ["P", "R", _ci_header(stats, "F1"), "Acc", "Macro F1 ± SD", "Stability"]
    else:
        headers += [
            _ci_header(stats, "P"),
            _ci_header(stats, "R"),
            _ci_header(stats, "F1"),
            "Acc",
            "Macro F1 ± SD",
            "Stability",
            "Suggestions",
        ]
    if has_baseline:
        headers.append(f"R on {stats.baseline} misses")
    rows = []
    for p in stats.providers:
        ci = p.intervals
        if compact:
            cells = [
                fmt.number(p.micro.precision),
                fmt.number(p.micro.recall),
                fmt.with_interval(p.micro.f1, ci.get("f1")),
                fmt.number(p.micro.accuracy),
                fmt.spread(p.macro["f1"]),
                fmt.number(p.stability.mean),
            ]
        else:
            cells = [
                fmt.with_interval(p.micro.precision, ci.get("precision")),
                fmt.with_interval(p.micro.recall, ci.get("recall")),
                fmt.with_interval(p.micro.f1, ci.get("f1")),
                fmt.number(p.micro.accuracy),
                fmt.spread(p.macro["f1"]),
                fmt.number(p.stability.mean),
                str(p.suggestions),
            ]
        if has_baseline:
            relative = p.baseline_recall.levels[stats.level] if p.baseline_recall else None
            cells.append(
                fmt.DASH if relative is None else f"{fmt.number(relative.recall)} (n={relative.items})"
            )
        rows.append((p.provider, str(p.runs), str(p.unusable_runs), str(len(p.transformations)), *cells))
    notes = [
        f"Level: {LEVEL_NAMES[stats.level]}; partial weight w = {fmt.count(stats.partial_weight)}. "
        "P, R, F1, Acc: micro (counts pooled over all runs). "
        f"Intervals: percentile bootstrap, transformations then runs resampled, {stats.draws} draws, "
        f"seed {stats.seed}. Macro F1: mean ± sample SD over runs (– for one run). "
        "Stability: mean pairwise Jaccard of the runs' mapping sets per transformation. "
        f"{UNUSABLE_NOTE}"
    ]
    if has_baseline:
        notes.append(
            f"R on {stats.baseline} misses: recall on the ground-truth items the {stats.baseline} baseline "
            "misses (n = number of such items)."
        )
    per_provider: dict[str, list[str]] = {}  # note -> providers, in order of first appearance
    for p in stats.providers:
        interval = p.intervals.get("f1")
        for note in (*p.notes, *([interval.note] if interval is not None and interval.note else [])):
            per_provider.setdefault(note, []).append(p.provider)
    # one line per note, naming every provider it applies to, rather than the same note per provider
    notes += [f"{', '.join(dict.fromkeys(names))}: {note}." for note, names in per_provider.items()]
    return Table(
        "results", "Results per provider", tuple(headers), tuple(rows), notes=tuple(dict.fromkeys(notes))
    )


def pairs_table(stats: Statistics) -> Table:
    """ΔF1 [CI], p: the paired permutation test of the same ΔF1 over transformations, Holm-adjusted over
    pairs, the minimum detectable effect after that correction, plus how many transformations McNemar
    finds significant (Holm over all pair x transformation tests)."""
    headers = (
        "A",
        "B",
        "Transf.",
        f"ΔF1 (A − B) [{round(stats.confidence * 100):g}% CI]",
        "p",
        "p (Holm)",
        detectable.header(),
        f"McNemar: A / B better (of T, α = {stats.alpha:g})",
    )
    rows = []
    for pair in stats.pairs:
        better, worse = pair.significant_mcnemar(stats.alpha)
        tested = sum(1 for t in pair.mcnemar if t.result is not None)
        rows.append(
            (
                pair.first,
                pair.second,
                str(len(pair.transformations)),
                fmt.with_interval(pair.delta_f1, pair.interval, signed=True),
                fmt.p_value(pair.permutation.p_value if pair.permutation else None),
                fmt.p_value(pair.p_holm),
                detectable.cell(pair.detectable),
                f"{better} / {worse} (of {tested})" if tested else fmt.DASH,
            )
        )
    notes = [
        "ΔF1: micro F1 of A minus micro F1 of B on the transformations both have runs on (each "
        "transformation's counts summed over the runs when both providers have as many runs on it, else "
        "averaged over them); interval: paired bootstrap (shared transformation draws, runs resampled per "
        "provider). p: two-sided paired permutation test of the same ΔF1 (the two providers' counts swapped "
        "at random on each transformation; exact enumeration up to 16 transformations); p (Holm): adjusted "
        "over all pairs. McNemar: per transformation on binding outcomes (majority over runs; false "
        "positives count as wrong), exact binomial when fewer than 25 discordant items, Holm-adjusted over "
        "all pair x transformation tests."
    ]
    if stats.pairs:
        notes.append(detectable.note([p.detectable for p in stats.pairs], "ΔF1", "transformation"))
    notes += [f"{p.first} vs {p.second}: {p.note}." for p in stats.pairs if p.note]
    if not stats.pairs:
        notes.append("Fewer than two providers: there is nothing to compare.")
    return Table("pairs", "Paired comparisons", headers, tuple(rows), align="llrrrrrr", notes=tuple(notes))


def pairs_sentence(stats: Statistics) -> str | None:
    """What the paired comparisons can detect, in one sentence ("Read this first")."""
    return detectable.sentence(
        "Paired comparisons of providers", [p.detectable for p in stats.pairs], "ΔF1", "transformation"
    )


def mcnemar_table(stats: Statistics) -> Table:
    headers = ("A", "B", "Transformation", "Items", "b (A right)", "c (B right)", "Test", "p", "p (Holm)")
    rows = []
    for pair in stats.pairs:
        for test in pair.mcnemar:
            result = test.result
            rows.append(
                (
                    pair.first,
                    pair.second,
                    test.transformation,
                    str(test.items),
                    str(result.b) if result else fmt.DASH,
                    str(result.c) if result else fmt.DASH,
                    result.method if result else (test.note or fmt.DASH),
                    fmt.p_value(result.p_value if result else None),
                    fmt.p_value(test.p_holm),
                )
            )
    return Table("mcnemar", "McNemar per transformation", headers, tuple(rows), align="lllrrrlrr")


def provider_transformation_table(stats: Statistics) -> Table:
    """Per provider and transformation: runs, micro P, R, F1, accuracy and macro F1 ± SD at the statistics'
    level, as the terminal prints them; each provider's ``ALL`` row says over how many transformations it
    pools, since ALL rows over different transformations are not comparable."""
    headers = ("Provider", "Transformation", "Runs", "Unusable", "P", "R", "F1", "Acc", "Macro F1 ± SD")
    groups: dict[str, list[GroupResult]] = {}
    for group in stats.aggregation.groups:
        groups.setdefault(group.provider, []).append(group)
    rows = []
    for provider in [p.provider for p in stats.providers if p.provider in groups]:
        covered = sum(1 for g in groups[provider] if not g.is_total)
        for group in groups[provider]:
            scores = level_of(group.micro, stats.level)
            name = (
                f"{ALL} ({covered} of {len(stats.transformations)})"
                if group.is_total
                else group.transformation
            )
            rows.append(
                (
                    provider,
                    name,
                    str(group.runs),
                    str(group.unusable_runs),
                    fmt.number(scores.precision),
                    fmt.number(scores.recall),
                    fmt.number(scores.f1),
                    fmt.number(scores.accuracy),
                    fmt.spread(group.macro[stats.level]["f1"]),
                )
            )
    notes = (
        f"Level: {LEVEL_NAMES[stats.level]}. P, R, F1, Acc: micro (counts pooled over the runs); macro F1: "
        "mean ± sample SD over runs (– for one run). ALL (n of N): the provider's runs pooled over the n "
        "transformations it has scored runs on, of the N in the session; compare ALL rows with the same n. "
        f"{UNUSABLE_NOTE}",
    )
    return Table(
        "per_transformation",
        "Per provider and transformation",
        headers,
        tuple(rows),
        align="llrrrrrrr",
        notes=notes,
        grouped=True,
    )


def f1_transformation_table(stats: Statistics) -> Table:
    """F1 per transformation with a column per provider (in the results table's order), the ``ALL`` line
    first: the compact per-transformation table of a large session (:mod:`.scale`)."""
    pivot = f1_pivot(stats.aggregation, stats.level, [p.provider for p in stats.providers])
    rows = [(ALL, *(fmt.number(pivot.totals[p]) for p in pivot.providers))]
    for transformation, values in pivot.by_transformation.items():
        rows.append((transformation, *(fmt.number(values.get(p)) for p in pivot.providers)))
    notes = (
        f"Micro F1 at level {LEVEL_NAMES[stats.level]}, each provider's runs pooled per transformation; "
        "ALL: pooled over every transformation the provider has runs on; –: no scored run. Precision, "
        "recall, accuracy and macro F1 per provider and transformation are in rq1_aggregate.csv and "
        "index.html.",
    )
    return Table(
        "f1_per_transformation",
        "F1 per transformation",
        ("Transformation", *pivot.providers),
        tuple(rows),
        notes=notes,
        keys=1,
    )


def hallucination_table(results: MappingResults, stats: Statistics, *, compact: bool = False) -> Table:
    """Per provider: class and feature names its runs made up (names the metamodels do not define, see
    ``docs/METRICS.md``), summed over the runs that were checked, per run, and the most frequent names
    (``compact``: without the names, for a paper table)."""
    headers = ["Provider", "Runs checked", "Made-up classes", "Made-up features", "Per run", "Distinct"]
    if not compact:
        headers.append("Most frequent")
    totals = {g.provider: g for g in stats.aggregation.totals()}
    names: dict[str, Counter[str]] = {}
    for row in results.rows:
        if row.ok:
            names.setdefault(row.provider, Counter()).update(
                (*row.hallucinated_classes, *row.hallucinated_features)
            )
    rows = []
    for provider in [p.provider for p in stats.providers if p.provider in totals]:
        total = totals[provider]
        checked = total.hallucination_runs
        if checked == 0:
            cells = [f"0 of {total.runs}", *(fmt.DASH for _ in headers[2:])]
            rows.append((provider, *cells))
            continue
        found = names.get(provider, Counter())
        made_up = total.hallucinated_classes + total.hallucinated_features
        cells = [
            str(checked) if checked == total.runs else f"{checked} of {total.runs}",
            str(total.hallucinated_classes),
            str(total.hallucinated_features),
            fmt.number(made_up / checked, 1),
            str(len(found)),
        ]
        if not compact:
            common = sorted(found.items(), key=lambda item: (-item[1], item[0]))[:HALLUCINATIONS_SHOWN]
            more = len(found) - len(common)
            shown = ", ".join(f"{name} ×{n}" if n > 1 else name for name, n in common)
            cells.append((shown + (f", +{more} more" if more else "")) or fmt.DASH)
        rows.append((provider, *cells))
    notes = (
        "Made up: a class, or a feature of a class, that neither metamodel defines (inherited features "
        "count as defined), counted once per run that names it and summed over the runs scored with both "
        "metamodels (– when none was). Per run: made-up names per checked run. Distinct: different names "
        "over all runs." + ("" if compact else f" Most frequent: up to {HALLUCINATIONS_SHOWN}, ×n runs."),
    )
    align = "lrrrrr" + ("" if compact else "l")
    return Table(
        "hallucinations", "Made-up names (hallucinations)", tuple(headers), tuple(rows), align, notes
    )


def costs_table(stats: Statistics) -> Table:
    """Per provider, in the results table's order: tokens, cost, median seconds per request, F1 per $."""
    totals = {g.provider: g for g in stats.aggregation.totals()}
    ordered = [totals[p.provider] for p in stats.providers if p.provider in totals]
    return cost_table(
        "costs", "Cost and time per provider", ("Provider",), cost_lines(ordered, stats.level), "F1"
    )


def split_table(stats: Statistics) -> Table:
    headers = ("Provider", "Class F1", "Binding F1", "Attribute F1", "Reference F1", "Overall F1")
    rows = [
        (
            r["provider"],
            *(
                fmt.number(r[k])
                for k in ("class F1", "binding F1", "attribute F1", "reference F1", "overall F1")
            ),
        )
        for r in split_rows(stats.aggregation, digits=12)
    ]
    order = {p.provider: i for i, p in enumerate(stats.providers)}
    rows.sort(key=lambda r: order.get(r[0], len(order)))
    notes = (
        "Micro F1 per level; the attribute/reference split needs the target metamodel, and a kind the "
        "ground truth has no binding of has no F1 (– in both cases).",
    )
    return Table("split", "Classes and bindings", headers, tuple(rows), notes=notes)


def confidence_table(stats: Statistics) -> Table:
    headers = ("Provider", "Slice", "Named", "P", "R", "F1")
    rows = []
    for profile in stats.confidence_profiles:
        if not profile.available:
            rows.append(
                (
                    profile.provider,
                    "(no confidence slices in the rows)",
                    fmt.DASH,
                    fmt.DASH,
                    fmt.DASH,
                    fmt.DASH,
                )
            )
            continue
        for s in profile.slices:
            empty = s.named == 0
            rows.append(
                (
                    profile.provider,
                    s.slice,
                    str(s.named),
                    fmt.DASH if empty else fmt.number(s.scores.precision),
                    fmt.number(s.scores.recall),
                    fmt.DASH if empty else fmt.number(s.scores.f1),
                )
            )
    notes = (
        "Each slice is scored as if the run had made only the mappings with those labels, against the full "
        "ground truth; high, high+medium and all are cumulative. Named: class pairs and binding keys named "
        "(– for P when a slice is empty).",
    )
    return Table("confidence", "Confidence", headers, tuple(rows), align="llrrrr", notes=notes)


def category_table(stats: Statistics) -> Table:
    headers = (
        "Provider",
        "Transformation",
        *(CATEGORY_NAMES[c] for c in PROFILE_CATEGORIES),
        "Keys",
        "Target-only",
    )
    order = {p.provider: i for i, p in enumerate(stats.providers)}
    profiles = sorted(
        stats.categories, key=lambda c: (order.get(c.provider, len(order)), c.transformation == ALL)
    )
    rows = [
        (
            c.provider,
            c.transformation,
            *(fmt.share(c.shares[k]) for k in PROFILE_CATEGORIES),
            str(c.total),
            str(c.target_only),
        )
        for c in profiles
    ]
    notes = (
        "Share of binding keys per category, pooled over runs; target-only keys are neutral and counted "
        "apart.",
    )
    return Table("categories", "Category profile", headers, tuple(rows), align="ll" + "r" * 7, notes=notes)


def characteristics_table(results: MappingResults) -> Table:
    headers = ("Transformation", "Rules", "Helpers", "Class pairs", "Bindings", "Partial", "Target-only")
    facts = sorted(results.transformations, key=lambda t: name_key(t.name))
    rows: list[tuple[str, ...]] = []
    for t in facts:
        rules = t.matched_rules + t.lazy_rules + t.called_rules
        name = t.name if t.error is None else f"{t.name} (unreadable: {t.error})"
        rows.append(
            (
                name,
                str(rules),
                str(t.helpers),
                str(t.class_pairs),
                str(t.bindings),
                str(t.partial_bindings),
                str(t.target_only_bindings),
            )
        )
    if facts:
        rows.append(
            (
                "Total",
                str(sum(t.matched_rules + t.lazy_rules + t.called_rules for t in facts)),
                *(
                    str(sum(getattr(t, attr) for t in facts))
                    for attr in (
                        "helpers",
                        "class_pairs",
                        "bindings",
                        "partial_bindings",
                        "target_only_bindings",
                    )
                ),
            )
        )
    notes = (
        "Rules: matched + lazy + called rules. Partial: bindings whose ground truth reads more than one "
        "source feature. Target-only: bindings that read nothing from the source element.",
    )
    return Table("characteristics", "Validation set", headers, tuple(rows), notes=notes)


def excluded_table(stats: Statistics) -> Table:
    headers = ("Provider", "Model", "Transformation", "Run", "File", "Error")
    rows = tuple(
        (e.provider, e.model, e.transformation, e.run, e.file, e.error) for e in stats.aggregation.excluded
    )
    return Table("excluded", "Excluded runs", headers, rows, align="llllll")


def summary_markdown(results: MappingResults, stats: Statistics) -> str:
    """``summary.md``: the headline tables, readable in a terminal or a pull request."""
    parts = [
        "# atl-binding-bench summary",
        "",
        f"{plural(stats.aggregation.rows_used, 'scored run')}, {len(stats.aggregation.excluded)} excluded; "
        f"{plural(len(stats.providers), 'provider')}; "
        f"{plural(len(stats.transformations), 'transformation')}. "
        f"Results file created {results.header.created or 'unknown'}; {results.header.source_words()}.",
        "",
    ]
    if stats.notes:
        parts += [f"* {note}" for note in stats.notes] + [""]
    tables = [
        results_table(stats),
        pairs_table(stats),
        split_table(stats),
        hallucination_table(results, stats),
        costs_table(stats),
    ]
    markdown = [t.to_markdown() for t in tables]
    if at_scale(len(stats.transformations)):  # one line per transformation, folded away (:mod:`.scale`)
        pivot = f1_transformation_table(stats)
        markdown.append(
            f"## {pivot.title}\n\n<details><summary>{len(stats.transformations)} transformations, a column "
            "per provider</summary>\n\n" + pivot.to_markdown(heading=False) + "\n</details>\n"
        )
    else:
        markdown.append(provider_transformation_table(stats).to_markdown())
    if stats.aggregation.excluded:
        markdown.append(excluded_table(stats).to_markdown())
    return "\n".join(parts) + "\n" + "\n".join(markdown)


__all__ = [
    "Table",
    "category_table",
    "characteristics_table",
    "confidence_table",
    "costs_table",
    "excluded_table",
    "f1_transformation_table",
    "hallucination_table",
    "mcnemar_table",
    "pairs_table",
    "results_table",
    "split_table",
    "provider_transformation_table",
    "summary_markdown",
]
