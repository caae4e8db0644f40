"""One table value for every track and every format: the terminal, Markdown, LaTeX and HTML.

A track builds a :class:`Table` of already formatted cells (so the formats cannot disagree on a digit) and
renders it with :meth:`Table.to_terminal`, :meth:`Table.to_markdown`, :meth:`Table.to_latex` or
:meth:`Table.to_html`; renderers only escape and lay out. A table built from :class:`Column` declarations
(:meth:`Table.of`) gains a column in every format, and in every track that declares it, with one more
``Column`` (``docs/TRACKS.md``, "Adding a column").

The three text formats are laid out by ``tabulate`` (the terminal in its ``simple`` format, Markdown in
``pipe``, LaTeX in ``latex_raw`` or a booktabs format of the same rows); the HTML is the kit's own (its
cells carry marks that no text format has). ``tabulate`` never parses a cell (``disable_numparse``): the
cells are already written as the track wants them, and ``0.050`` must not become ``0.05``. The kit tells
it instead how to align each column: a column whose cells are all numbers (a cell with nothing to show
does not count) on the decimal point in the terminal and to the right elsewhere, any other column as the
table declares it (:attr:`Table.align`). ``None`` is a cell with nothing to show (printed ``-`` in the
terminal, ``–`` elsewhere).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from html import escape
from typing import Generic, TypeVar

from tabulate import Line, TableFormat, tabulate

from benchmark.reports.latex import latex_escape

T = TypeVar("T")


@dataclass(frozen=True)
class Mark:
    """A cell with a look: in HTML its ``text``, a CSS class, a tooltip (``title``) and a second, smaller
    line (``note``); in every other format the text, then the note after a space."""

    text: str
    css: str = ""
    title: str = ""
    note: str = ""


Cell = str | Mark | None

DASH = "–"  # a cell with nothing to show, in Markdown, LaTeX and HTML
COLLAPSE_AFTER = 20  # an HTML table with more rows shows these and a switch for the rest
MANY_COLUMNS = 10  # an HTML table with more columns is set smaller (``table.many``, benchmark.reports.page)
# The width an HTML table may take: the page's column in a 1400 px window with its scrollbar (1385 px -
# 15rem of navigation - 2 x 28 px of margin = 1089 px), and what a character and a cell's padding take
# in it: measured in Chromium with DejaVu Sans (Debian's default sans-serif, one of the widest) at 13
# and 12 px, semibold.
PAGE_PX = 1085
CHAR_PX = {False: 8.4, True: 7.7}  # per character, normal and ``many`` tables
CELL_PX = {False: 17, True: 11}  # padding and border of a cell


@dataclass(frozen=True)
class Column(Generic[T]):
    """A column of a table built from items: its heading, how an item gives its cell, its alignment."""

    heading: str
    cell: Callable[[T], Cell]
    align: str = "r"  # "l" or "r"


@dataclass(frozen=True)
class Table:
    """``align`` per column: ``l`` or ``r`` (default: the first left, the others right). ``notes`` are
    printed under the table; ``grouped``: rows come in groups by their first cell (a rule between groups
    in LaTeX). ``keys``: the leading columns that name a row (0: none): an HTML table too wide for the
    page is shown as several tables of these columns and as many of the others as fit
    (:func:`column_groups`); a table without keys is never split."""

    key: str
    title: str
    headers: tuple[str, ...]
    rows: tuple[tuple[Cell, ...], ...]
    align: str = ""
    notes: tuple[str, ...] = field(default=())
    grouped: bool = False
    keys: int = 0

    @classmethod
    def of(
        cls,
        key: str,
        title: str,
        columns: Sequence[Column[T]],
        items: Iterable[T],
        *,
        notes: Sequence[str] = (),
        grouped: bool = False,
    ) -> Table:
        """The table of ``items``, one row each, one cell per column."""
        rows = tuple(tuple(column.cell(item) for column in columns) for item in items)
        align = "".join(column.align for column in columns)
        return cls(key, title, tuple(c.heading for c in columns), rows, align, tuple(notes), grouped)

    @classmethod
    def from_records(
        cls, key: str, title: str, records: Sequence[Mapping[str, object]], *, digits: int = 3
    ) -> Table:
        """The table of ``records`` (one dict per row, the keys as headings, in the first record's
        order): a float is written with ``digits`` decimals, ``None`` is a cell with nothing to show, a
        column of numbers is right-aligned."""
        headers = tuple(records[0]) if records else ()

        def text(value: object) -> Cell:
            if value is None:
                return None
            if isinstance(value, float):
                return f"{value:.{digits}f}"
            return str(value)

        rows = tuple(tuple(text(record.get(h)) for h in headers) for record in records)
        numbers = [
            all(isinstance(r.get(h), int | float) for r in records if r.get(h) is not None) for h in headers
        ]
        return cls(key, title, headers, rows, "".join("r" if n else "l" for n in numbers))

    def alignment(self) -> str:
        return self.align or "l" + "r" * (len(self.headers) - 1)

    def with_column(
        self, heading: str, cells: Sequence[Cell], align: str = "r", at: int | None = None
    ) -> Table:
        """A copy with one more column (at the end, or before position ``at``)."""
        if len(cells) != len(self.rows):
            raise ValueError(f"{len(cells)} cells for the {len(self.rows)} rows of table {self.key!r}")
        where = len(self.headers) if at is None else at
        alignment = self.alignment()
        return replace(
            self,
            headers=(*self.headers[:where], heading, *self.headers[where:]),
            rows=tuple(
                (*row[:where], cell, *row[where:]) for row, cell in zip(self.rows, cells, strict=True)
            ),
            align=alignment[:where] + align + alignment[where:],
        )

    # -------------------------------------------------------------------------------- renderers

    def to_terminal(self, missing: str = "-") -> list[str]:
        """The table as fixed-width lines (the pytest summary, ``atlbench validate``, ``atlbench report``)."""
        rows = [[None if c is None else _text(c) for c in row] for row in self.rows]
        return terminal_lines(self.headers, rows, missing, align=self.alignment())

    def to_markdown(self, *, heading: bool = True) -> str:
        """A GitHub table under ``## title``, then the notes as a list; ``(none)`` for no rows."""
        lines = [f"## {self.title}", ""] if heading else []
        if self.rows:
            rows = [[_md_cell(_text(c)) for c in row] for row in self.rows]
            headers = [_md_cell(h) for h in self.headers]
            lines.append(_tabulate(rows, headers, "pipe", self._aligns("right")))
        else:
            lines.append("(none)")
        if self.notes:
            lines.append("")
            lines += [f"* {note}" for note in self.notes]
        return "\n".join(lines) + "\n"

    def to_latex(self, *, label: str | None = None, caption: str | None = None, long: bool = False) -> str:
        """With a ``caption``: a complete booktabs ``table`` environment, to paste into a paper as it is
        (``\\usepackage{booktabs}``); with ``long``, a ``longtable`` instead, which breaks across pages and
        repeats its heading (``\\usepackage{longtable}`` too): for a table of a hundred lines. Without a
        caption: a bare ``tabular`` with ``\\hline`` rules, no package needed. Every cell is escaped
        (:func:`~benchmark.reports.latex.latex_escape`)."""
        if caption is None:
            return self._bare_tabular()
        if long:
            return self._longtable(label, caption)
        lines = [
            f"% {self.title}: a complete table environment, to paste as it is (needs booktabs).",
            r"\begin{table}[htbp]",
            r"\centering",
            r"\small",
            rf"\caption{{{latex_escape(caption)}}}",
            *([rf"\label{{{label}}}"] if label else []),
            self._booktabs(),
            r"\end{table}",
            "",
        ]
        return "\n".join(lines)

    def _ruled(self) -> list[bool]:
        """Per row: a rule above it (``\\midrule``): before ``Total`` and, in a grouped table, between
        groups."""
        ruled = []
        previous = None
        for row in self.rows:
            first = _text(row[0]) if row else None
            ruled.append(
                bool(row)
                and (first == "Total" or (self.grouped and previous is not None and first != previous))
            )
            previous = first
        return ruled

    def _booktabs(self) -> str:
        """The ``tabular`` with booktabs rules; ``(none)`` across the columns of a table without rows."""
        rows = [_latex_cells(row) for row in self.rows]
        text = _tabulate(rows, _latex_cells(self.headers), _BOOKTABS, self._aligns("right"))
        lines = text.splitlines()  # \begin{tabular}, \toprule, heading, \midrule, rows..., \bottomrule, \end
        if not self.rows:
            none = rf"\multicolumn{{{len(self.headers)}}}{{c}}{{(none)}} \\"
            return "\n".join([*self._declared_columns(lines)[:-2], none, *lines[-2:]])
        # the rules inside the body are the kit's (tabulate's own SEPARATING_LINE draws an empty row instead
        # of a rule in custom formats before tabulate 0.10)
        body = [
            part
            for line, ruled in zip(lines[4:-2], self._ruled(), strict=True)
            for part in ((r"\midrule", line) if ruled else (line,))
        ]
        return "\n".join([*lines[:4], *body, *lines[-2:]])

    def _declared_columns(self, lines: list[str]) -> list[str]:
        """A LaTeX table without rows, whose ``\\begin{tabular}`` ``tabulate`` writes without columns."""
        return [rf"\begin{{tabular}}{{{self.alignment()}}}", *lines[1:]]

    def _aligns(self, numbers: str) -> list[str]:
        return _aligns(self.rows, self.alignment(), numbers)

    def _longtable(self, label: str | None, caption: str) -> str:
        """The booktabs rows (:meth:`_booktabs`) in a ``longtable`` that repeats its heading on every page."""
        # \begin{tabular}, \toprule, heading, \midrule, rows..., \bottomrule, \end{tabular}
        tabular = self._booktabs().splitlines()
        begin, heading, body = tabular[0].replace("tabular", "longtable"), tabular[1:4], tabular[4:-2]
        continued = rf"\multicolumn{{{len(self.headers)}}}{{r}}{{\small continued on the next page}} \\"
        lines = [
            f"% {self.title}: a complete long table, over as many pages as it needs "
            "(needs booktabs and longtable).",
            r"\begingroup\small",
            begin,
            rf"\caption{{{latex_escape(caption)}}}" + (rf"\label{{{label}}}" if label else "") + r" \\",
            *heading,
            r"\endfirsthead",
            *heading,
            r"\endhead",
            r"\midrule",
            continued,
            r"\endfoot",
            r"\bottomrule",
            r"\endlastfoot",
            *body,
            r"\end{longtable}",
            r"\endgroup",
            "",
        ]
        return "\n".join(lines)

    def _bare_tabular(self) -> str:
        rows = [_latex_cells(row) for row in self.rows]
        lines = _tabulate(rows, _latex_cells(self.headers), "latex_raw", self._aligns("right")).splitlines()
        return "\n".join(lines if self.rows else self._declared_columns(lines)) + "\n"

    def to_html(self, *, heading: bool = True, collapse: bool = True) -> str:
        """``<h3>`` title, the table, its notes; a table of more than :data:`COLLAPSE_AFTER` rows shows
        that many and a switch for the rest (no script: a checkbox and CSS, ``benchmark.reports.page``),
        unless ``collapse`` is false (a table already inside a closed ``<details>``); a table with
        :attr:`keys` too wide for the page, as several tables (:func:`column_groups`)."""
        parts = [f"<h3>{escape(self.title)}</h3>"] if heading else []
        if self.rows:
            right = [a == "right" for a in self._aligns("right")]
            groups = column_groups(self, right)
            for columns in groups:
                many = ' class="many"' if len(columns) > MANY_COLUMNS else ""
                caption = ""
                if len(groups) > 1:
                    shown = f"{columns[self.keys] + 1}–{columns[-1] + 1} of {len(self.headers)}"
                    caption = f"<caption>columns {shown}</caption>"
                parts.append(
                    f"<table{many}>{caption}<thead><tr>"
                    + "".join(f"<th>{_breakable(self.headers[i])}</th>" for i in columns)
                    + "</tr></thead><tbody>"
                )
                for row in self.rows:
                    parts.append("<tr>" + "".join(_html_cell(row[i], right[i]) for i in columns) + "</tr>")
                parts.append("</tbody></table>")
            parts = _collapsible(parts, len(self.rows), self.key, collapse)
        else:
            parts.append("<p>(none)</p>")
        if self.notes:
            parts.append(
                '<ul class="notes">' + "".join(f"<li>{escape(n)}</li>" for n in self.notes) + "</ul>"
            )
        return "\n".join(parts)


def _text(cell: Cell) -> str:
    if isinstance(cell, Mark):
        return f"{cell.text} {cell.note}" if cell.note else cell.text
    return DASH if cell is None else cell


def _html_cell(cell: Cell, right: bool) -> str:
    show = _number if right else _breakable
    if not isinstance(cell, Mark):
        return f'<td class="r">{show(_text(cell))}</td>' if right else f"<td>{show(_text(cell))}</td>"
    css = " ".join(c for c in (cell.css, "r" if right else "") if c)
    attributes = (f' class="{escape(css)}"' if css else "") + (
        f' title="{escape(cell.title)}"' if cell.title else ""
    )
    note = f"<br><small>{show(cell.note)}</small>" if cell.note else ""
    return f"<td{attributes}>{show(cell.text)}{note}</td>"


# Where a long name may break in HTML (<wbr>, which copies as nothing): after "_", ".", "/" or ":" before
# a letter ("1/2" stays whole), and where a word starts inside it ("StateMachine", "Model2Model",
# "EMFCompare"; not "135M"), so that "T042_StateMachine2PetriNet" wraps at its words and a table of
# Zoo-long names fits the page.
_NAME_BREAK = re.compile(r"(?<=[_./:])(?=[A-Za-z])|(?<=[a-z])(?=[A-Z])|(?<=[A-Z0-9])(?=[A-Z][a-z])")
# A number's cell wraps only before its interval, its spread or its note ("0.960 [0.908, 0.989]",
# "0.940 ± 0.044", "0.958 (n=265)"): every other space is a no-break space, so "± 0.044", "(of 8)" and
# "0 / 0" stay whole. An interval is a box of its own (``span.ci``, inline-block): the line breaks before
# it first, and inside it, after its comma, only in a column narrower than the interval.
_NUMBER_SPACE = re.compile(r"(?<!,) (?![\[(±])")  # an interval's comma is followed by a space that breaks
_INTERVAL = re.compile(r"\[[^\]]*\]")
_NUMBER_BREAK = re.compile(r"(?<=,) | (?=[\[(±])")  # the spaces a number's cell may break at


def column_groups(table: Table, right: Sequence[bool]) -> list[list[int]]:
    """The columns of each HTML table that shows ``table``: all of them, unless the table has
    :attr:`~Table.keys` and its narrowest layout (every cell wrapped where the page lets it: its longest
    unbreakable piece, :func:`_pieces`) is estimated wider than :data:`PAGE_PX`; then the key columns and
    the others in consecutive groups of near-equal size, as few groups as fit."""
    every = list(range(len(table.headers)))
    keys, others = every[: table.keys], every[table.keys :]
    widest = [
        max(_pieces(t, right[i]) for t in (table.headers[i], *(_text(row[i]) for row in table.rows)))
        for i in every
    ]

    def fits(columns: list[int]) -> bool:
        small = len(columns) > MANY_COLUMNS
        return sum(widest[i] * CHAR_PX[small] + CELL_PX[small] for i in columns) <= PAGE_PX

    if not keys or not others or fits(every):
        return [every]
    greedy: list[list[int]] = [[]]
    for column in others:
        if greedy[-1] and not fits([*keys, *greedy[-1], column]):
            greedy.append([])
        greedy[-1].append(column)
    size = -(-len(others) // len(greedy))  # the same groups, of near-equal size, where they fit
    even = [others[start : start + size] for start in range(0, len(others), size)]
    chosen = even if len(even) == len(greedy) and all(fits([*keys, *g]) for g in even) else greedy
    return [[*keys, *group] for group in chosen]


def _pieces(text: str, number: bool) -> int:
    """The characters of the longest piece of ``text`` that its HTML cell cannot break."""
    if number:
        parts = _NUMBER_BREAK.split(text)
    else:
        parts = [p for word in re.split(r"\s+|(?<=-)", text) for p in _NAME_BREAK.split(word)]
    return max((len(p) for p in parts), default=0)


def _breakable(text: str) -> str:
    return "<wbr>".join(escape(part) for part in _NAME_BREAK.split(text))


def _number(text: str) -> str:
    text = _NUMBER_SPACE.sub("\u00a0", text)
    parts, last = [], 0
    for interval in _INTERVAL.finditer(text):
        parts += [
            escape(text[last : interval.start()]),
            f'<span class="ci">{escape(interval.group())}</span>',
        ]
        last = interval.end()
    return "".join([*parts, escape(text[last:])])


def _collapsible(parts: list[str], rows: int, key: str, collapse: bool = True) -> list[str]:
    """The table's lines (after an optional heading) in a box as wide as the page's column, which the
    table fits (its cells wrap: :mod:`benchmark.reports.page`); past :data:`COLLAPSE_AFTER` rows, a
    checkbox before it and a label after it show the other rows (CSS in :mod:`benchmark.reports.page`
    hides them while the box is unchecked)."""
    start = 1 if parts[0].startswith("<h3>") else 0
    head, table = parts[:start], parts[start:]
    wrapped = ['<div class="fits">' + table[0], *table[1:-1], table[-1] + "</div>"]
    if rows <= COLLAPSE_AFTER or not collapse:
        return [*head, *wrapped]
    ident = "more-" + re.sub(r"[^A-Za-z0-9_-]", "-", key)
    hidden = rows - COLLAPSE_AFTER
    switch = (
        f'<label for="{ident}"><span class="show">show the other {hidden} rows (of {rows})</span>'
        f'<span class="hide">show the first {COLLAPSE_AFTER} rows only</span></label></div>'
    )
    opener = f'<div class="long"><input type="checkbox" class="more" id="{ident}">'
    return [*head, opener + wrapped[0], *wrapped[1:-1], wrapped[-1] + switch]


def _md_cell(text: str) -> str:
    return text.replace("\\", "\\\\").replace("|", "\\|").replace("\n", " ")


def _latex_cells(cells: Sequence[Cell]) -> list[str]:
    texts = [latex_escape(_text(c)) for c in cells]
    # a row that starts with "[" would be read as the optional argument of the previous row's \\
    if texts and texts[0].startswith("["):
        texts[0] = "{}" + texts[0]
    return texts


def _latex_row(cells: list[str], widths: list[int], aligns: list[str]) -> str:
    return "&".join(cells) + r"\\"


def _begin_tabular(widths: list[int], aligns: list[str]) -> str:
    spec = "".join("l" if a == "left" else "r" for a in aligns)
    return f"\\begin{{tabular}}{{{spec}}}\n\\toprule"


# ``tabulate``'s ``latex_booktabs`` with the kit's own escaping (its rows are ``latex_raw``'s): the kit
# escapes more than ``tabulate`` does (``±``, ``Δ``, a minus sign), and escaping twice would double it.
_BOOKTABS = TableFormat(
    lineabove=_begin_tabular,
    linebelowheader=Line("\\midrule", "", "", ""),
    linebetweenrows=None,
    linebelow=Line("\\bottomrule\n\\end{tabular}", "", "", ""),
    headerrow=_latex_row,
    datarow=_latex_row,
    padding=1,
    with_header_hide=None,
)


def _tabulate(rows: Sequence[Sequence[str]], headers: Sequence[str], form: object, aligns: list[str]) -> str:
    return tabulate(
        [list(r) for r in rows],
        list(headers),
        tablefmt=form,  # type: ignore[arg-type]
        disable_numparse=True,
        colalign=aligns,
    )


# ------------------------------------------------------------------------------------------ alignment

_NUMBER = re.compile(r"^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$")
NOTHING = ("", "-", DASH, "—")  # cells with nothing to show: they do not decide what a column holds


def _is_number(text: str) -> bool:
    return bool(_NUMBER.match(text)) or text.lower() in ("inf", "-inf", "+inf", "nan")


def _aligns(rows: Sequence[Sequence[Cell]], declared: str, numbers: str) -> list[str]:
    """``tabulate``'s ``colalign``: ``numbers`` (``decimal`` or ``right``) for a column whose cells are
    all numbers, else the declared ``l`` or ``r``; a cell with nothing to show does not decide."""
    aligns = []
    for index, mark in enumerate(declared):
        present = [t for row in rows if (t := _text(row[index]).strip()) not in NOTHING]
        if present and all(_is_number(t) for t in present):
            aligns.append(numbers)
        else:
            aligns.append("right" if mark == "r" else "left")
    return aligns


def terminal_lines(
    headers: Sequence[str], rows: Sequence[Sequence[Cell]], missing: str = "-", *, align: str = ""
) -> list[str]:
    """Fixed-width lines in ``tabulate``'s ``simple`` format: a column of numbers is right-aligned on the
    decimal point, any other as ``align`` says (``l`` or ``r`` per column; left when not given); a
    heading is at least two characters wider than its text, columns are two spaces apart and lines carry
    no trailing blanks."""
    texts = [[None if c is None else _text(c).strip() for c in row] for row in rows]
    aligns = _aligns(texts, align or "l" * len(headers), "decimal")
    text = tabulate(
        texts, list(headers), tablefmt="simple", disable_numparse=True, colalign=aligns, missingval=missing
    )
    return [line.rstrip() for line in text.splitlines()]


def titled_terminal_lines(tables: Iterable[Table]) -> list[str]:
    """Tables for the terminal, each after a blank line and its ``title:``, its notes indented below it:
    the layout every cross-track report section (templates, answer formats) prints."""
    lines: list[str] = []
    for table in tables:
        lines += ["", f"{table.title}:", *table.to_terminal(), *(f"  {note}" for note in table.notes)]
    return lines


def markdown_document(heading: str, tables: Iterable[Table]) -> str:
    """One Markdown file of tables under a ``# heading``."""
    return "\n".join(["# " + heading, "", *(table.to_markdown() for table in tables)])


def latex_document(comments: Sequence[str], tables: Iterable[Table]) -> str:
    """One LaTeX file of tables, each labelled ``tab:KEY`` and captioned with its title, after ``%``
    comment lines that say what it holds."""
    parts = [f"% {comment}" for comment in comments] + [""]
    parts += [table.to_latex(label=f"tab:{table.key}", caption=table.title) for table in tables]
    return "\n".join(parts)


__all__ = [
    "COLLAPSE_AFTER",
    "DASH",
    "MANY_COLUMNS",
    "PAGE_PX",
    "Column",
    "Table",
    "column_groups",
    "latex_document",
    "markdown_document",
    "terminal_lines",
    "titled_terminal_lines",
]
