"""Prompt sensitivity: each provider's headline under each prompt template, read like repeated runs.

A score measured with one prompt wording is one sample of the model's behaviour: rankings of models change
with the template (Mizrahi et al., TACL 2024), and formatting alone can move accuracy by tens of points
(Sclar et al., 2023). Every track's runs carry the template they were asked with (the row's ``template``),
so this one module, for every track, reads from a session's rows:

* per provider and template: the track's headline (:meth:`~benchmark.core.track.Track.headline`, the
  number ``--min-score`` gates), the number of repetitions, and the lowest and highest headline of a single
  repetition (:meth:`~benchmark.core.track.Track.repetition`): the **run-to-run** range;
* per provider: the mean, minimum and maximum of its per-template headlines, the **template spread**
  (maximum - minimum), the **run spread** (the widest run-to-run range of any of its templates), and
  whether the template spread exceeds it: a template effect larger than the run noise is the finding;
* whether the providers keep their order across templates: Kendall's W over the templates' rankings and
  the pairs of providers that swap (:mod:`benchmark.stats.rank_agreement`);
* per provider, each template against the study's (or, without it, the first by name) as a **paired
  comparison** of the headline on the units both were measured on (:mod:`benchmark.reports.levels`): Δ,
  its interval, its permutation test, Holm over the track's comparisons and the minimum detectable effect,
  so that a template effect is claimed, or ruled out to a stated size, by a test and not by the spreads.

Only providers measured under two templates or more are compared (a baseline has no prompt; a provider
run with one template says nothing about templates), and all of them on the same tasks: those that every
(provider, template) compared has runs for (:meth:`~benchmark.core.track.Track.condition`: the task, or
for the round-trip track the case, k and stage), so that a template is never judged on other tasks than
another. The report is written only when some provider of some track was measured under two templates:
``prompt_sensitivity.csv`` (columns ``track, provider, template, runs, headline, headline_low,
headline_high``), ``prompt_sensitivity_pairs.csv`` (the paired comparisons), ``prompt_sensitivity.json``
(both), ``prompt_sensitivity.md`` and ``prompt_sensitivity.tex`` for every track at once, a section in each
track's part of ``index.html`` with one sentence in its "Read this first", and the same tables in the
terminal.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from benchmark.core.rows import STUDY_TEMPLATE, Row, series_name
from benchmark.core.track import HtmlPart, Track
from benchmark.core.wording import plural
from benchmark.reports import csvtext, levels
from benchmark.reports import table as table_kit
from benchmark.reports.levels import LevelComparison
from benchmark.reports.table import Column, Table
from benchmark.stats.rank_agreement import RankAgreement, rank_agreement

CSV_NAME = "prompt_sensitivity.csv"
PAIRS_CSV_NAME = "prompt_sensitivity_pairs.csv"
JSON_NAME = "prompt_sensitivity.json"
MARKDOWN_NAME = "prompt_sensitivity.md"
LATEX_NAME = "prompt_sensitivity.tex"
FILE_NAMES = (CSV_NAME, PAIRS_CSV_NAME, JSON_NAME, MARKDOWN_NAME, LATEX_NAME)
CSV_COLUMNS = ("track", "provider", "template", "runs", "headline", "headline_low", "headline_high")
PAIRS_CSV_COLUMNS = (
    "track",
    "provider",
    "template",
    "against",
    "units",
    "delta",
    "delta_low",
    "delta_high",
    "p_value",
    "p_holm",
    "mde",
)
SECTION_KEY = "prompt-sensitivity"


@dataclass(frozen=True)
class TemplateHeadline:
    """One provider under one template: its headline over every repetition, how many repetitions, and the
    lowest and highest headline of a single repetition."""

    provider: str
    template: str
    runs: int
    headline: float
    low: float
    high: float

    @property
    def run_range(self) -> float:
        return self.high - self.low


@dataclass(frozen=True)
class ProviderSpread:
    """One provider across its templates."""

    provider: str
    headlines: tuple[TemplateHeadline, ...]

    @property
    def values(self) -> list[float]:
        return [h.headline for h in self.headlines]

    @property
    def mean(self) -> float:
        return sum(self.values) / len(self.values)

    @property
    def minimum(self) -> float:
        return min(self.values)

    @property
    def maximum(self) -> float:
        return max(self.values)

    @property
    def spread(self) -> float:
        """The template spread: the best template's headline minus the worst's."""
        return self.maximum - self.minimum

    @property
    def run_spread(self) -> float:
        """The widest run-to-run range of any of its templates."""
        return max(h.run_range for h in self.headlines)

    @property
    def template_effect(self) -> bool:
        """Whether changing the template moved the headline more than repeating a run did."""
        return self.spread > self.run_spread

    def best(self) -> str:
        return max(self.headlines, key=lambda h: h.headline).template

    def worst(self) -> str:
        return min(self.headlines, key=lambda h: h.headline).template


@dataclass(frozen=True)
class Sensitivity:
    """A track's prompt-sensitivity report (module docstring)."""

    track: str
    title: str
    headline_name: str
    templates: tuple[str, ...]
    tasks: int  # the tasks every (provider, template) compared was measured on
    left_out: int  # tasks some of them lacked
    headlines: tuple[TemplateHeadline, ...]
    agreement: RankAgreement | None
    notes: tuple[str, ...] = field(default=())
    comparisons: tuple[LevelComparison, ...] = field(default=())
    unit: str = "task"

    @property
    def spreads(self) -> tuple[ProviderSpread, ...]:
        providers = list(dict.fromkeys(h.provider for h in self.headlines))
        return tuple(
            ProviderSpread(p, tuple(h for h in self.headlines if h.provider == p))
            for p in providers
            if sum(1 for h in self.headlines if h.provider == p) >= 2
        )


def template_order(templates: Sequence[str]) -> list[str]:
    """The study's template first, then the others by name."""
    return sorted(set(templates), key=lambda t: (t != STUDY_TEMPLATE, t))


def _subject(row: Row) -> str:
    """What is compared across templates: the provider, in one answer format (runs asked in another
    format are another subject, ``PROVIDER [FORMAT]``: formats are never pooled)."""
    return series_name(row.provider, STUDY_TEMPLATE, row.answer_format)


def _per_provider(
    headline: Callable[[Sequence[Row]], dict[str, float]], rows: Sequence[Row], template: str
) -> dict[str, float]:
    """The track's headline per provider (:func:`_subject`) of rows all asked with ``template`` (the track
    keys it by the series name, :func:`~benchmark.core.rows.series_name`)."""
    found = headline(rows)
    return {_subject(row): found[row.series] for row in rows if row.series in found}


def sensitivity(track: Track, rows: Sequence[Row]) -> Sensitivity | None:
    """The report of one track's rows; ``None`` when no provider was measured under two templates."""
    by_provider: dict[str, set[str]] = {}
    for row in rows:
        by_provider.setdefault(_subject(row), set()).add(row.template)
    compared = sorted((p for p, t in by_provider.items() if len(t) >= 2), key=str.casefold)
    if not compared:
        return None
    rows = [row for row in rows if _subject(row) in compared]
    series: dict[tuple[str, str], set[str]] = {}
    for row in rows:
        series.setdefault((_subject(row), row.template), set()).add(track.condition(row))
    every_task = set().union(*series.values())
    common = set.intersection(*series.values())
    templates = template_order([t for _, t in series])
    notes: list[str] = []
    single = sorted((p for p, t in by_provider.items() if len(t) < 2), key=str.casefold)
    if single:
        notes.append(
            f"measured under one template only, not compared: {', '.join(single)}",
        )
    if len(common) < len(every_task):
        notes.append(
            f"compared on the {plural(len(common), 'task')} every provider and template compared has runs "
            f"for; {plural(len(every_task) - len(common), 'task')} left out"
        )
    rows = [row for row in rows if track.condition(row) in common]
    headlines: list[TemplateHeadline] = []
    for template in templates:
        own = [row for row in rows if row.template == template]
        overall = _per_provider(track.headline, own, template)
        by_repetition: dict[str, list[Row]] = {}
        for row in own:
            by_repetition.setdefault(track.repetition(row), []).append(row)
        per_run: dict[str, list[float]] = {}
        for repetition_rows in by_repetition.values():
            for provider, value in _per_provider(track.headline, repetition_rows, template).items():
                per_run.setdefault(provider, []).append(value)
        for provider in compared:
            if provider not in overall:
                continue
            values = per_run.get(provider) or [overall[provider]]
            headlines.append(
                TemplateHeadline(provider, template, len(values), overall[provider], min(values), max(values))
            )
    headlines.sort(key=lambda h: (h.provider.casefold(), templates.index(h.template)))
    agreement, note = _agreement(headlines, templates)
    notes += [note] if note else []
    comparisons = levels.compare_levels(
        track, rows, lambda row: row.template, template_order, group_of=_subject, axis="template"
    )
    return Sensitivity(
        track.name,
        track.title,
        track.headline_name,
        tuple(templates),
        len(common),
        len(every_task) - len(common),
        tuple(headlines),
        agreement,
        tuple(notes),
        comparisons,
        track.unit_name,
    )


def _agreement(
    headlines: Sequence[TemplateHeadline], templates: Sequence[str]
) -> tuple[RankAgreement | None, str | None]:
    """Kendall's W over the providers measured under every template, or why it cannot be computed."""
    scores = {t: {h.provider: h.headline for h in headlines if h.template == t} for t in templates}
    everywhere = [
        p for p in dict.fromkeys(h.provider for h in headlines) if all(p in scores[t] for t in templates)
    ]
    if len(templates) < 2 or len(everywhere) < 2:
        return None, (
            "rank agreement: needs two providers measured under every template "
            f"({plural(len(everywhere), 'provider')} here)"
        )
    return rank_agreement({t: scores[t] for t in templates}, everywhere), None


# ------------------------------------------------------------------------------------------- tables


def _number(value: float) -> str:
    return f"{value:.3f}"


HEADLINE_COLUMNS: tuple[Column[TemplateHeadline], ...] = (
    Column("provider", lambda h: h.provider, "l"),
    Column("template", lambda h: h.template, "l"),
    Column("runs", lambda h: str(h.runs)),
    Column("headline", lambda h: _number(h.headline)),
    Column("run low", lambda h: _number(h.low)),
    Column("run high", lambda h: _number(h.high)),
)
SPREAD_COLUMNS: tuple[Column[ProviderSpread], ...] = (
    Column("provider", lambda s: s.provider, "l"),
    Column("templates", lambda s: str(len(s.headlines))),
    Column("mean", lambda s: _number(s.mean)),
    Column("min", lambda s: _number(s.minimum)),
    Column("max", lambda s: _number(s.maximum)),
    Column("best", lambda s: s.best(), "l"),
    Column("worst", lambda s: s.worst(), "l"),
    Column("template spread", lambda s: _number(s.spread)),
    Column("run spread", lambda s: _number(s.run_spread)),
    Column("template > runs", lambda s: "yes" if s.template_effect else "no", "l"),
)


def _listed(names: Sequence[str]) -> str:
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"


def agreement_lines(report: Sensitivity) -> list[str]:
    """Kendall's W and the swapped pairs, in words."""
    agreement = report.agreement
    if agreement is None:
        return []
    if agreement.w is None:
        head = "rank agreement across templates: Kendall's W undefined (every template ties every provider)"
    else:
        head = (
            f"rank agreement across templates: Kendall's W = {agreement.w:.3f} over "
            f"{plural(len(agreement.items), 'provider')} and {plural(len(agreement.rankings), 'template')}"
            " (1: every template ranks the providers alike)"
        )
    if not agreement.swaps:
        return [f"{head}; no pair of providers swaps"]
    swaps = "; ".join(
        f"{s.first} / {s.second} ({s.first} ahead under {_listed(s.first_ahead)}, {s.second} under "
        f"{_listed(s.second_ahead)})"
        for s in agreement.swaps
    )
    return [f"{head}; pairs that swap: {swaps}"]


def tables(report: Sensitivity) -> tuple[Table, ...]:
    """The per-template table, the across-templates table and (when the track compares runs) the paired
    comparisons of each template with the study's, of one track."""
    what = f"{report.headline_name}, {plural(report.tasks, 'task')}"
    per_template = Table.of(
        f"sensitivity-{report.track}-templates",
        f"Prompt sensitivity, {report.track}: {what} per provider and template",
        HEADLINE_COLUMNS,
        report.headlines,
        notes=(
            "run low / run high: the lowest and highest headline of a single repetition (run-to-run range)",
            *report.notes,
        ),
    )
    across = Table.of(
        f"sensitivity-{report.track}-spread",
        f"Prompt sensitivity, {report.track}: {what} across templates",
        SPREAD_COLUMNS,
        report.spreads,
        notes=(
            "template spread: max - min over the templates; run spread: the widest run-to-run range of "
            "one template; template > runs: the template moved the headline more than repeating a run",
            *agreement_lines(report),
        ),
    )
    if not report.comparisons:
        return per_template, across
    paired = levels.table(
        report.comparisons,
        f"sensitivity-{report.track}-pairs",
        pairs_title(report),
        report.headline_name,
        report.unit,
        "template",
    )
    return per_template, across, paired


def pairs_title(report: Sensitivity) -> str:
    return f"Prompt sensitivity, {report.track}: each template against the study's, paired"


def sentence(report: Sensitivity) -> str | None:
    """What the paired template comparisons of one track can detect ("Read this first")."""
    return levels.sentence(report.comparisons, pairs_title(report), report.unit)


def terminal_lines(report: Sensitivity) -> list[str]:
    return table_kit.titled_terminal_lines(tables(report))


def markdown(reports: Sequence[Sensitivity]) -> str:
    return table_kit.markdown_document(
        "Prompt sensitivity", (found for report in reports for found in tables(report))
    )


def latex(reports: Sequence[Sensitivity]) -> str:
    comments = (
        "Prompt sensitivity (atlbench): per track, the headline per provider and template, its spread",
        "across templates, and each template against the study's, paired. Needs booktabs.",
    )
    return table_kit.latex_document(comments, (found for report in reports for found in tables(report)))


def csv_text(reports: Sequence[Sensitivity]) -> str:
    return csvtext.csv_text(
        CSV_COLUMNS,
        (
            [report.track, h.provider, h.template, h.runs, *(f"{v:.6f}" for v in (h.headline, h.low, h.high))]
            for report in reports
            for h in report.headlines
        ),
    )


def html_section(report: Sensitivity) -> tuple[str, str, str]:
    """The section of the track's part of ``index.html``."""
    body = "\n".join(table.to_html() for table in tables(report))
    return (SECTION_KEY, "Prompt sensitivity", body)


def with_section(part: HtmlPart | None, report: Sensitivity) -> HtmlPart:
    """The track's part of the page with the section, and what its paired comparisons can detect among
    the part's "Read this first" notes."""
    from dataclasses import replace

    part = part or HtmlPart()
    found = sentence(report)
    return replace(
        part,
        sections=(*part.sections, html_section(report)),
        notes=(*part.notes, *([found] if found else [])),
    )


def pairs_csv_text(reports: Sequence[Sensitivity]) -> str:
    def record(report: Sensitivity, c: LevelComparison) -> list[object]:
        group, level, cells = levels.csv_cells(c)
        return [report.track, group, level, *cells]

    return csvtext.csv_text(
        PAIRS_CSV_COLUMNS, (record(report, c) for report in reports for c in report.comparisons)
    )


def json_text(reports: Sequence[Sensitivity]) -> str:
    import json

    def comparison(c: LevelComparison) -> dict[str, object]:
        return {
            "provider": c.group,
            "template": c.level,
            "against": c.reference,
            "comparison": c.comparison.to_json() if c.comparison else None,
            "note": c.note,
        }

    data = [
        {
            "track": report.track,
            "headline": report.headline_name,
            "unit": report.unit,
            "templates": list(report.templates),
            "tasks": report.tasks,
            "headlines": [
                {"provider": h.provider, "template": h.template, "runs": h.runs, "headline": h.headline}
                for h in report.headlines
            ],
            "comparisons": [comparison(c) for c in report.comparisons],
            "notes": list(report.notes),
        }
        for report in reports
    ]
    return json.dumps(data, indent=2, ensure_ascii=False) + "\n"


def write_files(reports: Sequence[Sensitivity], out_dir: Path) -> list[Path]:
    """``prompt_sensitivity.csv``, ``prompt_sensitivity_pairs.csv``, ``.json``, ``.md`` and ``.tex`` for every
    track that has a report."""
    from benchmark.core.fileio import write_text_atomic

    if not reports:
        return []
    return [
        write_text_atomic(out_dir / CSV_NAME, csv_text(reports)),
        write_text_atomic(out_dir / PAIRS_CSV_NAME, pairs_csv_text(reports)),
        write_text_atomic(out_dir / JSON_NAME, json_text(reports)),
        write_text_atomic(out_dir / MARKDOWN_NAME, markdown(reports)),
        write_text_atomic(out_dir / LATEX_NAME, latex(reports)),
    ]


__all__ = [
    "CSV_COLUMNS",
    "CSV_NAME",
    "JSON_NAME",
    "PAIRS_CSV_COLUMNS",
    "PAIRS_CSV_NAME",
    "LATEX_NAME",
    "MARKDOWN_NAME",
    "ProviderSpread",
    "Sensitivity",
    "TemplateHeadline",
    "csv_text",
    "json_text",
    "pairs_csv_text",
    "sensitivity",
    "sentence",
    "tables",
    "terminal_lines",
    "write_files",
]
