"""The answer-format table: each provider's runs per answer format (free, schema, grounded), side by side.

Constraining an answer with a JSON Schema may help or hurt, task by task (``docs/LLM_RUNS.md``, "Answer
formats"); every track's runs carry the format they were asked in (the row's ``answer_format``), so this one
module, for every track, reads from a session's rows, per provider (and prompt template) and format:

* the track's headline (:meth:`~benchmark.core.track.Track.headline`, the number ``--min-score`` gates);
* the answers and how many of them the track could read (:meth:`~benchmark.core.track.Track.answer_quality`:
  an unusable answer is a measured failure), and, where the track looks for them, the names of elements
  the task's models lack that the answers used (*invented names*: the mapping track's hallucinated classes
  and features);
* how many answers broke the schema they were asked with (the run files' ledgers: a server that falls back
  to unconstrained decoding without a word, as llama-cpp-python does, shows here);
* tokens in and out and the median seconds per request (the ledgers, as in the cost tables);
* and, in a second table, each format against free, paired on the units both were measured on: Δ headline
  with its interval, the permutation test's p, Holm's p over the table and the minimum detectable effect
  (:mod:`benchmark.reports.levels`, the one kit of every paired comparison along an axis).

A provider appears when some of its runs were asked in a format other than free; its free runs are listed
beside them, as the baseline of the comparison. The table is written only when some row of some track has
such a format: ``answer_formats.csv`` (one line per track, provider and format), ``answer_formats_pairs.csv``
(one line per comparison), ``answer_formats.md`` and ``answer_formats.tex``, a section in each track's part of
``index.html``, and the same tables in the terminal.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from benchmark.core.rows import FREE_FORMAT, Row, series_name
from benchmark.core.track import AnswerQuality, HtmlPart, Track
from benchmark.llm.ledger import row_ledger
from benchmark.reports import csvtext, levels
from benchmark.reports import table as table_kit
from benchmark.reports.cost import Spend, seconds_cell, spend
from benchmark.reports.table import Cell, Column, Table

CSV_NAME = "answer_formats.csv"
PAIRS_CSV_NAME = "answer_formats_pairs.csv"
MARKDOWN_NAME = "answer_formats.md"
LATEX_NAME = "answer_formats.tex"
FILE_NAMES = (CSV_NAME, PAIRS_CSV_NAME, MARKDOWN_NAME, LATEX_NAME)
AXIS = "format"
CSV_COLUMNS = (
    "track",
    "provider",
    "answer_format",
    "runs",
    "headline",
    "answers",
    "usable",
    "invented_names",
    "schema_checked",
    "schema_violations",
    "input_tokens",
    "output_tokens",
    "median_seconds",
)
PAIRS_CSV_COLUMNS = ("track", "provider", "answer_format", *levels.CSV_COLUMNS[1:])
SECTION_KEY = "answer-formats"


@dataclass(frozen=True)
class FormatLine:
    """One provider (with its template, when not the study's) in one answer format."""

    provider: str
    answer_format: str
    runs: int
    headline: float | None
    quality: AnswerQuality | None
    spend: Spend
    schema_checked: int
    schema_violations: int


@dataclass(frozen=True)
class FormatReport:
    track: str
    headline_name: str
    lines: tuple[FormatLine, ...]
    formats: tuple[str, ...]
    comparisons: tuple[levels.LevelComparison, ...] = ()  # each format against free, paired
    unit: str = "task"


def format_order(formats: Sequence[str]) -> list[str]:
    """Free first, then schema and grounded (the order of ``--answer-format all``), then any other by name."""
    from benchmark.llm.answer_formats import FORMATS

    return sorted(set(formats), key=lambda f: (FORMATS.index(f) if f in FORMATS else len(FORMATS), f))


def _subject(row: Row) -> str:
    """The provider as the table names it: with its prompt template when that is not the study's."""
    return series_name(row.provider, row.template)


def answer_formats(track: Track, rows: Sequence[Row]) -> FormatReport | None:
    """The table of one track's rows; ``None`` when no row was asked in a format other than free."""
    constrained = {_subject(row) for row in rows if row.answer_format != FREE_FORMAT}
    if not constrained:
        return None
    groups: dict[tuple[str, str], list[Row]] = {}
    for row in rows:
        if _subject(row) in constrained:
            groups.setdefault((_subject(row), row.answer_format), []).append(row)
    formats = format_order([f for _, f in groups])
    headlines = track.headline([row for members in groups.values() for row in members])
    lines = []
    for (subject, answer_format), members in sorted(
        groups.items(), key=lambda item: (item[0][0].casefold(), formats.index(item[0][1]))
    ):
        ledgered = [row for row in members if row_ledger(row.provenance) is not None]
        ledgers = [
            ledger for ledger in (row_ledger(row.provenance) for row in ledgered) if ledger is not None
        ]
        lines.append(
            FormatLine(
                subject,
                answer_format,
                len(members),
                headlines.get(members[0].series),
                track.answer_quality(members),
                # what the requests cost: the runs that sent one (a round-trip stage not run sent none)
                spend(ledgered or members),
                sum(ledger.schema_checked for ledger in ledgers),
                sum(ledger.schema_violations for ledger in ledgers),
            )
        )
    chosen = [row for members in groups.values() for row in members]
    comparisons = levels.compare_levels(
        track, chosen, lambda row: row.answer_format, format_order, group_of=_subject, axis="answer-format"
    )
    return FormatReport(
        track.name, track.headline_name, tuple(lines), tuple(formats), comparisons, track.unit_name
    )


# ------------------------------------------------------------------------------------------- tables


def _count(value: int | None) -> Cell:
    return None if value is None else str(value)


def _usable(line: FormatLine) -> Cell:
    quality = line.quality
    if quality is None or not quality.answers:
        return None
    return f"{quality.usable}/{quality.answers} ({100 * quality.usable / quality.answers:.0f}%)"


def _violations(line: FormatLine) -> Cell:
    if line.answer_format == FREE_FORMAT:
        return None  # nothing was asked for: nothing to break
    if not line.schema_checked:
        return None
    return f"{line.schema_violations}/{line.schema_checked}"


def columns(report: FormatReport) -> tuple[Column[FormatLine], ...]:
    invented = any(line.quality is not None and line.quality.invented is not None for line in report.lines)
    found: list[Column[FormatLine]] = [
        Column("provider", lambda line: line.provider, "l"),
        Column("format", lambda line: line.answer_format, "l"),
        Column("runs", lambda line: str(line.runs)),
        Column(report.headline_name, lambda line: None if line.headline is None else f"{line.headline:.3f}"),
        Column("usable answers", _usable),
    ]
    if invented:
        found.append(Column("invented names", lambda line: _count(line.quality and line.quality.invented)))
    found += [
        Column("schema violations", _violations),
        Column("tokens in", lambda line: _count(line.spend.input_tokens)),
        Column("tokens out", lambda line: _count(line.spend.output_tokens)),
        Column("median s / request", lambda line: seconds_cell(line.spend)),
    ]
    return tuple(found)


def pairs_title(report: FormatReport) -> str:
    return f"Answer formats, {report.track}: each format against free, paired"


def tables(report: FormatReport) -> tuple[Table, ...]:
    """The per-format table and (when the track compares runs) the paired comparisons with free."""
    if not report.comparisons:
        return (table(report),)
    paired = levels.table(
        report.comparisons,
        f"answer-formats-{report.track}-pairs",
        pairs_title(report),
        report.headline_name,
        report.unit,
        AXIS,
    )
    return table(report), paired


def sentence(report: FormatReport) -> str | None:
    """What the paired format comparisons of one track can detect ("Read this first")."""
    return levels.sentence(report.comparisons, pairs_title(report), report.unit)


def table(report: FormatReport) -> Table:
    notes = [
        "format: free = the prompt alone; schema = the answer's JSON Schema sent with the request; "
        "grounded = its names limited to the task's models (docs/LLM_RUNS.md, Answer formats)",
        "usable answers: answers the track could read as an answer to its task (the rest count as failures)",
        "schema violations: answers that are not an instance of the schema they were asked with (checked "
        "whatever the server promised)",
        "tokens and seconds: the ledgers of the runs that sent a request; –: not known",
    ]
    if any(column.heading == "invented names" for column in columns(report)):
        notes.insert(2, "invented names: classes and features named that neither metamodel has")
    return Table.of(
        f"answer-formats-{report.track}",
        f"Answer formats, {report.track}: {report.headline_name} and answers per provider and format",
        columns(report),
        report.lines,
        notes=notes,
        grouped=True,
    )


def terminal_lines(report: FormatReport) -> list[str]:
    return table_kit.titled_terminal_lines(tables(report))


def markdown(reports: Sequence[FormatReport]) -> str:
    return table_kit.markdown_document(
        "Answer formats", (found for report in reports for found in tables(report))
    )


def latex(reports: Sequence[FormatReport]) -> str:
    comments = (
        "Answer formats (atlbench): per track, provider and answer format, then each format against free,",
        "paired. Needs booktabs.",
    )
    return table_kit.latex_document(comments, (found for report in reports for found in tables(report)))


def csv_text(reports: Sequence[FormatReport]) -> str:
    def row(track: str, line: FormatLine) -> list[object]:
        quality = line.quality
        median = line.spend.median_seconds
        return [
            track,
            line.provider,
            line.answer_format,
            line.runs,
            "" if line.headline is None else f"{line.headline:.6f}",
            "" if quality is None else quality.answers,
            "" if quality is None else quality.usable,
            "" if quality is None or quality.invented is None else quality.invented,
            line.schema_checked,
            line.schema_violations,
            "" if line.spend.input_tokens is None else line.spend.input_tokens,
            "" if line.spend.output_tokens is None else line.spend.output_tokens,
            "" if median is None else f"{median:.3f}",
        ]

    return csvtext.csv_text(
        CSV_COLUMNS, (row(report.track, line) for report in reports for line in report.lines)
    )


def pairs_csv_text(reports: Sequence[FormatReport]) -> str:
    def record(report: FormatReport, c: levels.LevelComparison) -> list[object]:
        group, level, cells = levels.csv_cells(c)
        return [report.track, group, level, *cells]

    return csvtext.csv_text(
        PAIRS_CSV_COLUMNS, (record(report, c) for report in reports for c in report.comparisons)
    )


def html_section(report: FormatReport) -> tuple[str, str, str]:
    return (SECTION_KEY, "Answer formats", "\n".join(found.to_html() for found in tables(report)))


def with_section(part: HtmlPart | None, report: FormatReport) -> HtmlPart:
    """The track's part of the page with the answer-format section, and what its paired comparisons can
    detect among the "Read this first" notes."""
    from dataclasses import replace

    part = part or HtmlPart()
    found = sentence(report)
    return replace(
        part,
        sections=(*part.sections, html_section(report)),
        notes=(*part.notes, *([found] if found else [])),
    )


def write_files(reports: Sequence[FormatReport], out_dir: Path) -> list[Path]:
    """``answer_formats.csv``, ``.md`` and ``.tex`` for every track that has a report."""
    from benchmark.core.fileio import write_text_atomic

    if not reports:
        return []
    return [
        write_text_atomic(out_dir / CSV_NAME, csv_text(reports)),
        write_text_atomic(out_dir / PAIRS_CSV_NAME, pairs_csv_text(reports)),
        write_text_atomic(out_dir / MARKDOWN_NAME, markdown(reports)),
        write_text_atomic(out_dir / LATEX_NAME, latex(reports)),
    ]


__all__ = [
    "CSV_COLUMNS",
    "CSV_NAME",
    "FILE_NAMES",
    "PAIRS_CSV_COLUMNS",
    "PAIRS_CSV_NAME",
    "FormatLine",
    "FormatReport",
    "answer_formats",
    "csv_text",
    "pairs_csv_text",
    "table",
    "tables",
    "terminal_lines",
    "write_files",
]
