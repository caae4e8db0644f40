"""One table value for every track and every format: the terminal, Markdown, LaTeX and HTML.

A track builds a :class:`Table` of already formatted cells (so the formats cannot disagree on a digit) and
renders it with :meth:`Table.to_terminal`, :meth:`Table.to_markdown`, :meth:`Table.to_latex` or
:meth:`Table.to_html`; renderers only escape and lay out. A table built from :class:`Column` declarations
(:meth:`Table.of`) gains a column in every format, and in every track that declares it, with one more
``Column`` (``docs/TRACKS.md``, "Adding a column").

The terminal layout is the one ``tabulate``'s "simple" format gave the mapping track's tables: a column
whose cells are all numbers is right-aligned on the decimal point, any other is left-aligned, a heading
is at least two characters wider than its text, columns are two spaces apart and lines carry no trailing
blanks. ``None`` is a cell with nothing to show (printed ``-`` in the terminal, ``–`` elsewhere).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from html import escape
from typing import Generic, TypeVar

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
    in LaTeX)."""

    key: str
    title: str
    headers: tuple[str, ...]
    rows: tuple[tuple[Cell, ...], ...]
    align: str = ""
    notes: tuple[str, ...] = field(default=())
    grouped: bool = False

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
        return terminal_lines(self.headers, rows, missing)

    def to_markdown(self, *, heading: bool = True) -> str:
        """A GitHub table under ``## title``, then the notes as a list; ``(none)`` for no rows."""
        lines = [f"## {self.title}", ""] if heading else []
        if self.rows:
            lines.append("| " + " | ".join(_md_cell(h) for h in self.headers) + " |")
            lines.append("|" + "|".join("---:" if a == "r" else "---" for a in self.alignment()) + "|")
            lines += ["| " + " | ".join(_md_cell(_text(c)) for c in row) + " |" for row in self.rows]
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
            rf"\begin{{tabular}}{{{self.alignment()}}}",
            r"\toprule",
            _latex_row(self.headers),
            r"\midrule",
        ]
        lines += self._latex_body()
        lines += [r"\bottomrule", r"\end{tabular}", r"\end{table}", ""]
        return "\n".join(lines)

    def _latex_body(self) -> list[str]:
        """The body rows of a tabular or longtable: a rule before ``Total`` and, in a grouped table,
        between groups; ``(none)`` for a table without rows."""
        lines: list[str] = []
        previous = None
        for row in self.rows:
            first = _text(row[0]) if row else None
            if row and (first == "Total" or (self.grouped and previous is not None and first != previous)):
                lines.append(r"\midrule")
            lines.append(_latex_row(row))
            previous = first
        if not self.rows:
            lines.append(rf"\multicolumn{{{len(self.headers)}}}{{c}}{{(none)}} \\")
        return lines

    def _longtable(self, label: str | None, caption: str) -> str:
        heading = [r"\toprule", _latex_row(self.headers), r"\midrule"]
        continued = rf"\multicolumn{{{len(self.headers)}}}{{r}}{{\small continued on the next page}} \\"
        lines = [
            f"% {self.title}: a complete long table, over as many pages as it needs "
            "(needs booktabs and longtable).",
            r"\begingroup\small",
            rf"\begin{{longtable}}{{{self.alignment()}}}",
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
        ]
        lines += self._latex_body()
        lines += [r"\end{longtable}", r"\endgroup", ""]
        return "\n".join(lines)

    def _bare_tabular(self) -> str:
        lines = [rf"\begin{{tabular}}{{{self.alignment()}}}", r"\hline", _latex_row(self.headers), r"\hline"]
        lines += [_latex_row(row) for row in self.rows]
        lines += [r"\hline", r"\end{tabular}", ""]
        return "\n".join(lines)

    def to_html(self, *, heading: bool = True, collapse: bool = True) -> str:
        """``<h3>`` title, the table, its notes; a table of more than :data:`COLLAPSE_AFTER` rows shows
        that many and a switch for the rest (no script: a checkbox and CSS, ``benchmark.reports.page``),
        unless ``collapse`` is false (a table already inside a closed ``<details>``)."""
        parts = [f"<h3>{escape(self.title)}</h3>"] if heading else []
        if self.rows:
            align = self.alignment()
            parts.append(
                "<table><thead><tr>"
                + "".join(f"<th>{escape(h)}</th>" for h in self.headers)
                + "</tr></thead><tbody>"
            )
            for row in self.rows:
                parts.append(
                    "<tr>" + "".join(_html_cell(c, align[i] == "r") for i, c in enumerate(row)) + "</tr>"
                )
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
    if not isinstance(cell, Mark):
        return f'<td class="r">{escape(_text(cell))}</td>' if right else f"<td>{escape(_text(cell))}</td>"
    css = " ".join(c for c in (cell.css, "r" if right else "") if c)
    attributes = (f' class="{escape(css)}"' if css else "") + (
        f' title="{escape(cell.title)}"' if cell.title else ""
    )
    note = f"<br><small>{escape(cell.note)}</small>" if cell.note else ""
    return f"<td{attributes}>{escape(cell.text)}{note}</td>"


def _collapsible(parts: list[str], rows: int, key: str, collapse: bool = True) -> list[str]:
    """The table's lines (after an optional heading) in a wrapper that scrolls sideways on its own (the
    page never does); past :data:`COLLAPSE_AFTER` rows, a checkbox before it and a label after it show
    the other rows (CSS in :mod:`benchmark.reports.page` hides them while the box is unchecked)."""
    start = 1 if parts[0].startswith("<h3>") else 0
    head, table = parts[:start], parts[start:]
    wrapped = ['<div class="wide">' + table[0], *table[1:-1], table[-1] + "</div>"]
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


def _latex_row(cells: Sequence[Cell]) -> str:
    text = " & ".join(latex_escape(_text(c)) for c in cells)
    # a row that starts with "[" would be read as the optional argument of the previous row's \\
    return ("{}" + text if text.startswith("[") else text) + r" \\"


# ------------------------------------------------------------------------------------------ terminal

_NUMBER = re.compile(r"^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$")
_INTEGER = re.compile(r"^[+-]?\d+$")
MIN_PADDING = 2  # a heading is at least this much wider than its text


def _is_number(text: str) -> bool:
    return bool(_NUMBER.match(text)) or text.lower() in ("inf", "-inf", "+inf", "nan")


def _after_point(text: str) -> int:
    """Digits after the decimal point of a number written with one, else -1."""
    if not _is_number(text) or _INTEGER.match(text):
        return -1
    point = text.rfind(".")
    point = text.lower().rfind("e") if point < 0 else point
    return len(text) - point - 1 if point >= 0 else -1


def terminal_lines(headers: Sequence[str], rows: Sequence[Sequence[Cell]], missing: str = "-") -> list[str]:
    """Fixed-width lines (module docstring): a column of numbers is right-aligned on the decimal point,
    any other column left-aligned; empty and ``None`` cells do not decide what a column holds."""
    columns = list(zip(*rows, strict=True)) if rows else [() for _ in headers]
    lines_of: list[list[str]] = []
    widths: list[int] = []
    numeric: list[bool] = []
    for header, column in zip(headers, columns, strict=True):
        present = [c.strip() for c in column if c is not None and c.strip()]
        is_numeric = bool(present) and all(_is_number(c) for c in present)
        texts = [missing if c is None else c.strip() for c in column]
        if is_numeric:
            points = [_after_point(t) for t in texts]
            widest = max(points)
            texts = [t + " " * (widest - p) for t, p in zip(texts, points, strict=True)]
        width = max([len(header) + MIN_PADDING, *(len(t) for t in texts)])
        lines_of.append([t.rjust(width) if is_numeric else t.ljust(width) for t in texts])
        widths.append(width)
        numeric.append(is_numeric)
    heading = "  ".join(
        h.rjust(w) if n else h.ljust(w) for h, w, n in zip(headers, widths, numeric, strict=True)
    )
    out = [heading.rstrip(), "  ".join("-" * w for w in widths).rstrip()]
    for index in range(len(rows)):
        out.append("  ".join(column[index] for column in lines_of).rstrip())
    return out


__all__ = ["COLLAPSE_AFTER", "DASH", "Column", "Table", "terminal_lines"]
