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

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace
from html import escape

from benchmark.core.errors import InputFormatError
from benchmark.core.track import HtmlPart
from benchmark.core.wording import plural
from benchmark.reports.table import Mark, Table
from benchmark.tracks.mapping.payload import RunRow
from benchmark.tracks.mapping.stats.items import in_ground_truth, is_right
from benchmark.tracks.mapping.variants.apply import rename_class_name
from benchmark.tracks.mapping.variants.names import ORIGINAL, VARIANTS
from benchmark.tracks.mapping.variants.renaming import Renaming

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


Names = Callable[[str], str]


def _identity(name: str) -> str:
    return name


def _back(row: RunRow, inverses: dict[tuple[str, str, str], Renaming | None]) -> tuple[Names, Names, Names]:
    """How ``row`` names the original source classes, target classes and target features: through the
    inverse of the renaming its run recorded (a renaming variant), else as they are. ``inverses``: those
    read so far, by transformation, variant and seed (the runs of one variant of one transformation drawn
    with one seed share their renaming)."""
    detail = row.payload.variant_detail
    if row.variant == ORIGINAL or not detail:
        return _identity, _identity, _identity
    key = (row.transformation, row.variant, repr(detail.get("seed")))
    if key not in inverses:
        try:
            inverses[key] = Renaming.from_json({"name": row.variant, **detail}).inverse()
        except InputFormatError:  # a row scored from a readable block always reads back; none is lost
            inverses[key] = None
    renaming = inverses[key]
    if renaming is None or renaming.source is None or renaming.target is None:
        return _identity, _identity, _identity
    source, target = renaming.source, renaming.target
    return (
        lambda name: rename_class_name(name, source),
        lambda name: rename_class_name(name, target),
        lambda name: target.features.get(name, name),
    )


def _items(row: RunRow, inverses: dict[tuple[str, str, str], Renaming | None]) -> dict[Correspondence, str]:
    """The row's verdict (class pair) or category (binding key) on each item, keyed in the original
    names."""
    source, target, feature = _back(row, inverses)
    found = {(source(i.source_class), target(i.target_class), ""): i.verdict for i in row.class_items}
    for item in row.binding_items:
        found[(source(item.source_class), target(item.target_class), feature(item.target_feature))] = (
            item.category
        )
    return found


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
    """The outcomes of one transformation's ok rows (of every provider and variant, items decoded). A
    run that does not list a correspondence missed it (the comparator lists every ground-truth item, so
    that happens only for rows of different origins), which is not right."""
    by_column: dict[tuple[str, str], list[dict[Correspondence, str]]] = {}
    inverses: dict[tuple[str, str, str], Renaming | None] = {}
    for row in rows:
        by_column.setdefault((row.provider, row.variant), []).append(_items(row, inverses))
    right_outcome: dict[str, bool] = {}  # a verdict or category -> whether it is right (a handful)
    truth: set[Correspondence] = set()
    for items in (items for column in by_column.values() for items in column):
        truth.update(key for key, verdict in items.items() if in_ground_truth(verdict))
    correspondences = tuple(sorted(truth))

    def right(verdict: str | None) -> bool:
        if verdict is None:
            return False
        if verdict not in right_outcome:
            right_outcome[verdict] = is_right(verdict)
        return right_outcome[verdict]

    return Outcomes(
        transformation,
        correspondences,
        {
            column: {key: [right(items.get(key)) for items in runs] for key in correspondences}
            for column, runs in by_column.items()
        },
    )


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
