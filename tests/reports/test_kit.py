"""The report kit: one table value and its four renderers, the LaTeX escaper, the figure renderer."""

from __future__ import annotations

from dataclasses import replace

import pytest

from benchmark.reports.figures import Figure, figure_html, provider_colours, render
from benchmark.reports.latex import latex_escape
from benchmark.reports.table import (
    COLLAPSE_AFTER,
    MANY_COLUMNS,
    Column,
    Mark,
    Table,
    column_groups,
    terminal_lines,
)


def test_latex_escape():
    assert latex_escape(r"a_b & c% $d #e {f} ~g ^h \i <j> k|l") == (
        r"a\_b \& c\% \$d \#e \{f\} \textasciitilde{}g \textasciicircum{}h \textbackslash{}i "
        r"\textless{}j\textgreater{} k\textbar{}l"
    )
    assert latex_escape("0.5 ± 0.1 – Δ α → −") == r"0.5 $\pm$ 0.1 -- $\Delta$ $\alpha$ $\rightarrow$ $-$"
    assert latex_escape("-0.004 [-0.1, 0.2] T-1 x-2") == "$-$0.004 [$-$0.1, 0.2] T-1 x-2"


def test_the_terminal_aligns_numbers_on_the_point_and_text_left():
    lines = terminal_lines(
        ["provider", "runs", "F1", "macro F1"],
        [["Alpha", "8", "0.370", "0.086 ± 0.117"], ["Beta-long-name", "24", None, "0.704"]],
    )
    assert lines == [
        "provider          runs     F1  macro F1",
        "--------------  ------  -----  -------------",
        "Alpha                8  0.370  0.086 ± 0.117",
        "Beta-long-name      24  -      0.704",
    ]


def test_records_become_a_table_with_fixed_decimals():
    table = Table.from_records("t", "T", [{"name": "a", "n": 3, "x": 0.12345, "s": None}], digits=2)
    assert table.headers == ("name", "n", "x", "s") and table.rows == (("a", "3", "0.12", None),)
    assert table.align == "lrrr"


def _table() -> Table:
    columns = (
        Column("Provider", lambda r: r[0], "l"),
        Column("F1", lambda r: f"{r[1]:.3f}"),
    )
    return Table.of("scores", "Scores", columns, [("A|1", 0.5), ("[B]", 0.25)], notes=("a note",))


def test_markdown():
    assert _table().to_markdown().splitlines() == [
        "## Scores",
        "",
        "| Provider   |    F1 |",
        "|:-----------|------:|",
        "| A\\|1       | 0.500 |",
        "| [B]        | 0.250 |",
        "",
        "* a note",
    ]


def test_latex_complete_and_bare():
    complete = _table().to_latex(label="tab:x", caption="Scores & more.")
    assert r"\caption{Scores \& more.}" in complete and r"\label{tab:x}" in complete
    assert complete.splitlines()[6:14] == [
        r"\begin{tabular}{lr}",
        r"\toprule",
        r" Provider     &    F1 \\",
        r"\midrule",
        r" A\textbar{}1 & 0.500 \\",
        r" {}[B]        & 0.250 \\",  # "[" cannot open a row: it would be the previous \\'s argument
        r"\bottomrule",
        r"\end{tabular}",
    ]
    bare = _table().to_latex()
    assert bare.splitlines() == [
        r"\begin{tabular}{lr}",
        r"\hline",
        r" Provider     &    F1 \\",
        r"\hline",
        r" A\textbar{}1 & 0.500 \\",
        r" {}[B]        & 0.250 \\",
        r"\hline",
        r"\end{tabular}",
    ]


def test_formatted_numbers_are_kept_as_written_and_aligned_right():
    """``tabulate`` parses no cell: ``0.050`` stays ``0.050`` and ``1e3`` stays ``1e3`` in every format; a
    column of numbers is right-aligned (on the point in the terminal) even where the table declares it
    left, a cell with nothing to show does not make it text, and a text column keeps its declared side."""
    table = Table(
        "n", "N", ("k", "x", "note", "name"),
        (("1", "0.050", "a", "left"), ("10", "1e3", "bb", "x"), ("2", "—", "-", "y"), ("3", None, "c", "z")),
        align="lrrl",
    )  # fmt: skip
    assert table.to_terminal() == [
        "  k      x    note  name",
        "---  -----  ------  ------",
        "  1  0.050       a  left",
        " 10  1e3        bb  x",
        "  2  —           -  y",
        "  3  -           c  z",
    ]
    markdown = table.to_markdown(heading=False).splitlines()
    assert markdown[1] == "|----:|------:|-------:|:-------|" and "| 0.050 |" in markdown[2]
    assert markdown[3].startswith("|  10 |   1e3 |")
    latex = table.to_latex(caption="N")
    assert r"\begin{tabular}{rrrl}" in latex and "& 0.050 &" in latex and "&   1e3 &" in latex
    assert r'<td class="r">0.050</td>' in table.to_html() and "<td>left</td>" in table.to_html()


def test_latex_rules_between_groups_before_the_total_and_in_a_long_table():
    rows = (("A", "1"), ("A", "2"), ("B", "3"), ("Total", "6"))
    grouped = Table("g", "G", ("group", "n"), rows, grouped=True)
    lines = grouped.to_latex(caption="G").splitlines()
    body = lines[lines.index(r"\midrule") + 1 : lines.index(r"\bottomrule")]
    rule = r"\midrule"
    assert body == [
        r" A       &   1 \\",
        r" A       &   2 \\",
        rule,
        r" B       &   3 \\",
        rule,
        r" Total   &   6 \\",
    ]
    long = grouped.to_latex(caption="G", label="tab:g", long=True).splitlines()
    assert long[2:4] == [r"\begin{longtable}{lr}", r"\caption{G}\label{tab:g} \\"]
    assert long.count(" group   &   n \\\\") == 2 and long.index(r"\endfirsthead") < long.index(r"\endhead")
    assert long[long.index(r"\endlastfoot") + 1 :] == [*body, r"\end{longtable}", r"\endgroup"]
    empty = Table("e", "E", ("a", "b"), ()).to_latex(caption="E").splitlines()
    assert r"\begin{tabular}{lr}" in empty and r"\multicolumn{2}{c}{(none)} \\" in empty


def test_html_escapes_aligns_and_collapses_long_tables():
    html = _table().to_html()
    assert html.startswith("<h3>Scores</h3>") and '<td class="r">0.500</td>' in html
    assert "<td>A|1</td>" in html and '<div class="fits">' in html and 'class="more"' not in html
    long = Table("many", "Many", ("n",), tuple((str(i),) for i in range(COLLAPSE_AFTER + 7)))
    html = long.to_html(heading=False)
    assert html.startswith('<div class="long"><input type="checkbox" class="more" id="more-many">')
    assert "show the other 7 rows (of 27)" in html and html.count("<tr>") == COLLAPSE_AFTER + 8


def test_a_column_is_one_more_declaration_or_one_call():
    table = _table()
    wider = Table.of(
        "scores",
        "Scores",
        (
            Column("Provider", lambda r: r[0], "l"),
            Column("F1", lambda r: f"{r[1]:.3f}"),
            Column("Cost", lambda r: "$1"),
        ),
        [("A|1", 0.5), ("[B]", 0.25)],
    )
    assert table.with_column("Cost", ["$1", "$1"]).rows == wider.rows
    assert table.with_column("Cost", ["$1", "$1"], at=1).headers == ("Provider", "Cost", "F1")
    with pytest.raises(ValueError):
        table.with_column("Cost", ["$1"])


def test_a_figure_is_drawn_once_for_both_formats_and_is_reproducible():
    calls = []

    def draw(figure):
        calls.append(figure)
        axes = figure.add_subplot()
        axes.plot([0, 1], [0, 1], label="cost $5-$6")  # a dollar is text, not mathematics
        axes.legend()

    first, second = render(draw, (3, 2)), render(draw, (3, 2))
    assert len(calls) == 2 and first == second
    assert first["png"].startswith(b"\x89PNG") and b"<svg" in first["svg"]
    html = figure_html(Figure("f", "A <title>", "caption", first))
    assert 'src="data:image/svg+xml;base64,' in html and "A &lt;title&gt;" in html


def test_provider_colours_follow_name_order():
    colours = provider_colours(["b", "a", "c", "a"])
    assert list(colours) == ["a", "b", "c"] and len(set(colours.values())) == 3
    assert provider_colours(["a"])["a"] == colours["a"]


def test_the_kit_imports_matplotlib_only_when_a_figure_is_drawn():
    import subprocess
    import sys

    code = (
        "import sys\n"
        "import benchmark.reports.figures, benchmark.reports.table, benchmark.reports.page\n"
        "print('matplotlib' in sys.modules)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "False"


def test_html_breaks_long_names_at_their_words_and_numbers_before_their_interval():
    """Where a cell may wrap (the page never scrolls sideways: ``benchmark.reports.page``): a name at its
    words (``<wbr>``), a number before its interval (a box of its own), its spread or its note, never
    inside ``± 0.044``, ``(of 8)`` or ``0 / 0``; a table of more than MANY_COLUMNS columns is set smaller."""
    table = Table(
        "w", "W", ("Transformation", "F1", "McNemar"),
        (("T042_StateMachine2PetriNet", "0.960 [0.908, 0.989]", "0 / 0 (of 8)"),
         ("EMFCompare.x", "0.940 ± 0.044", None)),
    )  # fmt: skip
    html = table.to_html()
    assert "<td>T042_<wbr>State<wbr>Machine2<wbr>Petri<wbr>Net</td>" in html
    assert "<td>EMF<wbr>Compare.<wbr>x</td>" in html
    assert '<td class="r">0.960 <span class="ci">[0.908, 0.989]</span></td>' in html
    assert '<td class="r">0\u00a0/\u00a00 (of\u00a08)</td>' in html and "0.940 ±\u00a00.044" in html
    assert "<table>" in html and '<table class="many">' not in html
    many = Table(
        "m", "M", tuple(f"c{i}" for i in range(MANY_COLUMNS + 1)), (tuple("1" * (MANY_COLUMNS + 1)),)
    )
    assert '<table class="many">' in many.to_html()


def test_a_table_with_keys_too_wide_for_the_page_is_split_and_one_without_never():
    """Split into as few near-equal groups as fit PAGE_PX, each after the key columns, every other column
    once and in order; the collapse switch covers every part; without keys, or narrow enough, one table."""
    headers = ("Source class", "Target feature", *(f"Synthetic-Provider{i} (stepwise)" for i in range(20)))
    rows = tuple(
        (f"S{r}", f"t{r}", *(f"{r}/{i} right" for i in range(20))) for r in range(COLLAPSE_AFTER + 3)
    )
    table = Table("drill", "Drill", headers, rows, align="l" * 22, keys=2)
    right = [False] * 22
    groups = column_groups(table, right)
    assert len(groups) > 1 and all(g[:2] == [0, 1] for g in groups)
    assert [c for g in groups for c in g[2:]] == list(range(2, 22))
    assert max(len(g) for g in groups) - min(len(g) for g in groups) <= 1
    html = table.to_html()
    assert html.count("<table") == len(groups) and html.count('<input type="checkbox"') == 1
    first = groups[0]
    assert f"<caption>columns 3–{first[-1] + 1} of 22</caption>" in html
    assert html.count("<th>Source class</th>") == len(groups)
    assert column_groups(replace(table, keys=0), right) == [list(range(22))]
    narrow = Table("n", "N", headers[:5], tuple(r[:5] for r in rows), keys=2)
    assert column_groups(narrow, [False] * 5) == [list(range(5))] and "<caption>" not in narrow.to_html()


def test_a_marked_cell_has_a_look_in_html_and_its_text_elsewhere():
    cell = Mark("1/2 right", css="mix", title="suggested: a<b", note="exact 1 · fp 1")
    table = Table("t", "T", ("key", "run"), (("k", cell), ("j", None)), align="ll")
    assert '<td class="mix" title="suggested: a&lt;b">1/2 right<br><small>exact 1 · fp 1</small></td>' in (
        table.to_html()
    )
    assert table.to_terminal()[2] == "k      1/2 right exact 1 · fp 1"
    assert "| k     | 1/2 right exact 1 · fp 1 |" in table.to_markdown()
    long = Table("t", "T", ("n",), tuple((str(i),) for i in range(COLLAPSE_AFTER + 5)))
    assert 'class="more"' in long.to_html() and 'class="more"' not in long.to_html(collapse=False)
