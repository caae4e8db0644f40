"""Which correspondences survive each task variant: the evidence behind a memorisation claim.

The variants table (:mod:`.variants`) says how much a provider's F1 moves when the names change; this
section says on which correspondences. A correspondence is an item of the ground truth: a class pair, or
a binding key (source class, target class, target feature). For each transformation, each provider and
each variant it answered, the section gives in how many of its runs it was right on each correspondence
(``k/n right``, as the drill-down of the original task counts it), the variants side by side, original
first: a correspondence right under ``original`` and lost under ``synonym`` is one the provider found
through the names it was shown, not through the structure, which both variants keep.

A variant's runs answer in the variant's names; their items are read back into the original names
through the renaming each run file records (its inverse), so a row of the table is one correspondence
under every variant. ``shuffled`` and ``name-only`` rename nothing.

Above the tables, a summary per provider and variant, over the transformations the provider answered
under both ``original`` and the variant: the correspondences right in a majority of its original runs,
how many of those are still right in a majority of its runs of the variant (kept) or not (lost), and
how many it gets right only under the variant (gained). The section is in ``index.html`` for a session
with a variant; at scale (:mod:`.scale`) its per-transformation tables are in ``rq1_drilldown.html``.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from html import escape

from benchmark.core.errors import InputFormatError
from benchmark.core.track import HtmlPart
from benchmark.core.wording import plural
from benchmark.reports.table import Mark, Table
from benchmark.tracks.mapping.payload import BindingItem, ClassItem, RunRow
from benchmark.tracks.mapping.stats.items import (
    binding_categories,
    class_verdicts,
    in_ground_truth,
    is_right,
)
from benchmark.tracks.mapping.variants.apply import rename_class_name
from benchmark.tracks.mapping.variants.names import ORIGINAL, VARIANTS
from benchmark.tracks.mapping.variants.renaming import MetamodelRenaming, Renaming

SURVIVAL_KEY = "survival"
SURVIVAL_TITLE = "Which correspondences survive each variant"
#: a correspondence: (source class, target class, target feature), the feature empty for a class pair
Correspondence = tuple[str, str, str]

READING = (
    "Each row is a correspondence of the ground truth, in the original names: a class pair (no target "
    "feature) or a binding key. Each cell: in how many of the provider's runs of that variant it was right "
    "(a variant's answers read back into the original names through the renaming its runs record). "
    "Right under original and wrong under synonym: found through the names, not the structure, which "
    "synonym keeps."
)


# ------------------------------------------------------------------------- back to the original names


def _back(row: RunRow) -> RunRow:
    """``row`` with its items in the original names (a renaming variant's run), else ``row``."""
    if row.variant == ORIGINAL or not row.payload.variant_detail:
        return row
    try:
        renaming = Renaming.from_json({"name": row.variant, **row.payload.variant_detail}).inverse()
    except InputFormatError:  # a row scored from a readable block always reads back; none is lost
        return row
    source, target = renaming.source, renaming.target
    if source is None or target is None or source.renamed + target.renamed == 0:
        return row
    return replace(
        row,
        payload=replace(
            row.payload,
            class_items=tuple(_class_item(i, source, target) for i in row.class_items),
            binding_items=tuple(_binding_item(i, source, target) for i in row.binding_items),
        ),
    )


def _class_item(item: ClassItem, source: MetamodelRenaming, target: MetamodelRenaming) -> ClassItem:
    return replace(
        item,
        source_class=rename_class_name(item.source_class, source),
        target_class=rename_class_name(item.target_class, target),
    )


def _binding_item(item: BindingItem, source: MetamodelRenaming, target: MetamodelRenaming) -> BindingItem:
    return replace(
        item,
        source_class=rename_class_name(item.source_class, source),
        target_class=rename_class_name(item.target_class, target),
        target_feature=target.features.get(item.target_feature, item.target_feature),
        suggested=tuple(source.feature_path(s) for s in item.suggested),
        ground_truth=tuple(source.feature_path(s) for s in item.ground_truth),
    )


# ------------------------------------------------------------------------------------- the outcomes


@dataclass(frozen=True)
class Outcomes:
    """One transformation: its correspondences, and per (provider, variant) the runs' outcome on each."""

    transformation: str
    correspondences: tuple[Correspondence, ...]
    #: (provider, variant) -> correspondence -> whether each run was right on it
    right: dict[tuple[str, str], dict[Correspondence, list[bool]]]

    def columns(self) -> list[tuple[str, str]]:
        """(provider, variant) pairs that have runs, providers in order of appearance, variants in
        :data:`VARIANTS` order."""
        providers = list(dict.fromkeys(p for p, _ in self.right))
        return [(p, v) for p in providers for v in VARIANTS if (p, v) in self.right]


def outcomes(transformation: str, rows: Iterable[RunRow]) -> Outcomes:
    """The outcomes of one transformation's ok rows (of every provider and variant, items decoded)."""
    by_column: dict[tuple[str, str], list[RunRow]] = {}
    for row in rows:
        by_column.setdefault((row.provider, row.variant), []).append(_back(row))
    every = [row for column in by_column.values() for row in column]
    pairs = {
        (i.source_class, i.target_class) for r in every for i in r.class_items if in_ground_truth(i.verdict)
    }
    keys = {i.key for r in every for i in r.binding_items if in_ground_truth(i.category)}
    correspondences = tuple(sorted({(s, t, "") for s, t in pairs} | keys))
    right: dict[tuple[str, str], dict[Correspondence, list[bool]]] = {}
    for column, column_rows in by_column.items():
        verdicts = class_verdicts(column_rows, truth_pairs=pairs)
        categories = binding_categories(column_rows, truth_keys=keys)
        right[column] = {
            (s, t, f): [is_right(c) for c in (verdicts[(s, t)] if f == "" else categories[(s, t, f)])]
            for s, t, f in correspondences
        }
    return Outcomes(transformation, correspondences, right)


def _cell(outcome: list[bool]) -> Mark:
    right, runs = sum(outcome), len(outcome)
    css = "ok" if right == runs else "bad" if right == 0 else "mix"
    return Mark(f"{right}/{runs}", css=css)


def transformation_html(found: Outcomes) -> str:
    """One closed ``<details>``: the transformation's correspondences, a column per provider and variant."""
    columns = found.columns()
    head = tuple(f"{provider} · {variant}" for provider, variant in columns)
    table = Table(
        f"survival-{found.transformation}",
        f"{found.transformation}: correspondences under each variant",
        ("Source class", "Target class", "Target feature", *head),
        tuple(
            (*key[:2], key[2] or "(class pair)", *(_cell(found.right[c][key]) for c in columns))
            for key in found.correspondences
        ),
        align="lll" + "r" * len(columns),
    )
    lines = [
        f"{provider} under {variant}: {sum(map(_majority, found.right[(provider, variant)].values()))} of "
        f"{len(found.correspondences)} right"
        for provider, variant in columns
    ]
    return (
        f'<details id="survival-{escape(found.transformation)}"><summary>{escape(found.transformation)} — '
        f"{plural(len(found.correspondences), 'correspondence')}</summary>\n"
        f'<p class="legend">{escape("; ".join(lines))} (in a majority of runs).</p>\n'
        + table.to_html(heading=False, collapse=False)
        + "\n</details>"
    )


def _majority(outcome: list[bool]) -> bool:
    """Right in more than half of the runs (a tie is not right), as the track's stability reads it."""
    return 2 * sum(outcome) > len(outcome)


# ---------------------------------------------------------------------------------------- the summary


@dataclass(frozen=True)
class Survival:
    """One provider under one variant, over the transformations it answered under it and under original."""

    provider: str
    variant: str
    transformations: int
    correspondences: int
    right_original: int  # right in a majority of the original runs
    kept: int  # of those, right in a majority of the variant's runs
    gained: int  # right under the variant only

    @property
    def lost(self) -> int:
        return self.right_original - self.kept


def summary(found: Sequence[Outcomes]) -> list[Survival]:
    """Per provider and variant other than original (:class:`Survival`)."""
    totals: dict[tuple[str, str], list[int]] = {}
    for outcome in found:
        for provider, variant in outcome.columns():
            if variant == ORIGINAL or (provider, ORIGINAL) not in outcome.right:
                continue
            original, under = outcome.right[(provider, ORIGINAL)], outcome.right[(provider, variant)]
            counts = totals.setdefault((provider, variant), [0, 0, 0, 0, 0])
            counts[0] += 1
            for key in outcome.correspondences:
                before, after = _majority(original[key]), _majority(under[key])
                counts[1] += 1
                counts[2] += before
                counts[3] += before and after
                counts[4] += after and not before
    order = {v: i for i, v in enumerate(VARIANTS)}
    return [
        Survival(provider, variant, *counts)
        for (provider, variant), counts in sorted(totals.items(), key=lambda kv: (kv[0][0], order[kv[0][1]]))
    ]


def summary_table(survivals: Sequence[Survival]) -> Table:
    return Table(
        "survival",
        "Correspondences right under original, and under each variant",
        (
            "Provider",
            "Variant",
            "Transformations",
            "Correspondences",
            "Right under original",
            "Kept",
            "Lost",
            "Gained",
        ),  # fmt: skip
        tuple(
            (
                s.provider,
                s.variant,
                str(s.transformations),
                str(s.correspondences),
                str(s.right_original),
                f"{s.kept} ({s.kept / s.right_original:.0%})" if s.right_original else "0",
                f"{s.lost} ({s.lost / s.right_original:.0%})" if s.right_original else "0",
                str(s.gained),
            )
            for s in survivals
        ),
        align="llrrrrrr",
        notes=(
            "Over the transformations the provider answered under both original and the variant. Right: in "
            "a majority of the provider's runs. Kept: right under original and under the variant; lost: "
            "right under original only; gained: right under the variant only.",
        ),
        grouped=True,
    )


def survival_parts(rows: Sequence[RunRow], transformations: Sequence[str]) -> tuple[str, str]:
    """(how to read it and the summary, one closed ``<details>`` per transformation): the section's two
    parts (``index.html`` holds both, or at scale the first, the drill-down page the second). ``rows``:
    every row of the session, of every variant, with its items; the ok rows of the providers that
    answered a variant are read."""
    # the providers that answered a variant (a provider of the original task alone has nothing to compare)
    answered = {row.provider for row in rows if row.variant != ORIGINAL}
    by_transformation: dict[str, list[RunRow]] = {}
    for row in rows:
        if row.ok and row.provider in answered:
            by_transformation.setdefault(row.transformation, []).append(row)
    found = [outcomes(t, by_transformation.get(t, [])) for t in transformations]
    head = f'<p class="legend">{escape(READING)}</p>\n' + summary_table(summary(found)).to_html(heading=False)
    return head, "\n".join(transformation_html(f) for f in found if f.right)


def with_survival(html: HtmlPart, body: str) -> HtmlPart:
    """The track's page part with this section after the variants table (else last)."""
    sections = list(html.sections)
    keys = [key for key, _title, _body in sections]
    at = keys.index("variants") + 1 if "variants" in keys else len(sections)
    sections.insert(at, (SURVIVAL_KEY, SURVIVAL_TITLE, body))
    return replace(html, sections=tuple(sections))


__all__ = [
    "READING",
    "SURVIVAL_KEY",
    "SURVIVAL_TITLE",
    "Outcomes",
    "Survival",
    "outcomes",
    "summary",
    "summary_table",
    "survival_parts",
    "transformation_html",
    "with_survival",
]
