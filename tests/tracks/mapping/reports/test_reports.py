"""write_reports: every artefact, non-empty, well-formed, escaped, deterministic to the byte."""

from __future__ import annotations

import csv
import shutil
import subprocess
import xml.etree.ElementTree as ET
from dataclasses import replace

import pytest
from text_tables import squeezed

from benchmark.core.errors import InputFormatError
from benchmark.core.fileio import dumps_json
from benchmark.core.results import ResultsHeader
from benchmark.reports.latex import latex_escape
from benchmark.reports.page import PagePart, render_page
from benchmark.tracks.mapping.aggregate import CSV_COLUMNS
from benchmark.tracks.mapping.payload import TransformationFacts
from benchmark.tracks.mapping.reports.files import write_reports
from benchmark.tracks.mapping.reports.html import html_part
from benchmark.tracks.mapping.reports.latex import render_latex
from benchmark.tracks.mapping.reports.results import MappingResults
from benchmark.tracks.mapping.reports.tables import summary_markdown
from benchmark.tracks.mapping.stats import compute_statistics

FIGURES = ("pr_scatter", "f1_heatmap", "confidence", "categories")
EXPECTED = (
    "rq1_per_run.csv",
    "rq1_aggregate.csv",
    "rq1_pairs.csv",
    "summary.md",
    "statistics.json",
    *(f"{name}.{ext}" for name in FIGURES for ext in ("png", "svg")),
    "tables.tex",
    "index.html",
)


@pytest.fixture
def written(written_reports):
    return written_reports


def test_every_artefact_is_written_and_not_empty(written):
    paths, out = written
    assert [p.name for p in paths] == list(EXPECTED)
    for path in paths:
        assert path.parent == out and path.stat().st_size > 0, path


def test_figures_are_real_png_and_svg(written):
    _, out = written
    for name in FIGURES:
        png = (out / f"{name}.png").read_bytes()
        assert png.startswith(b"\x89PNG\r\n\x1a\n") and len(png) > 10_000
        root = ET.fromstring((out / f"{name}.svg").read_bytes())
        assert root.tag == "{http://www.w3.org/2000/svg}svg"
        assert len(list(root.iter())) > 100  # drawn content, not an empty canvas
        assert b"<dc:date>" not in (out / f"{name}.svg").read_bytes()  # no date: reproducible


def test_csv_files_have_one_line_per_row_and_group(written, small_results):
    _, out = written
    with open(out / "rq1_per_run.csv", newline="", encoding="utf-8") as handle:
        per_run = list(csv.DictReader(handle))
    assert len(per_run) == len(small_results.rows)
    assert sum(r["status"] == "error" for r in per_run) == 1
    with open(out / "rq1_aggregate.csv", newline="", encoding="utf-8") as handle:
        reader = csv.DictReader(handle)
        aggregate_rows = list(reader)
    assert tuple(reader.fieldnames or ()) == CSV_COLUMNS
    assert len(aggregate_rows) == 3 * (3 + 1)  # three providers x (three transformations + ALL)


def test_html_page_holds_tables_figures_pairs_and_drilldown(written, small_results):
    _, out = written
    page = (out / "index.html").read_text(encoding="utf-8")
    assert page.count('<img src="data:image/svg+xml;base64,') == 4
    assert "http://" not in page.replace("http://www.w3.org", "") and "https://" not in page
    assert "<script" not in page and "Content-Security-Policy" in page
    for anchor in (
        "results",
        "figures",
        "pairs",
        "confidence",
        "categories",
        "validation",
        "excluded",
        "drilldown",
    ):
        assert f'id="{anchor}"' in page
    assert "ΔF1 (A − B)" in page
    for transformation in {r.transformation for r in small_results.rows}:
        assert f'id="drill-{transformation}"' in page
    assert "right in every run" in page and "not valid JSON" in page  # legend and the excluded run


def test_latex_tables(written, small_results):
    _, out = written
    tex = (out / "tables.tex").read_text(encoding="utf-8")
    tables = 7  # results, split, per transformation, made-up names, costs, pairs, validation set
    assert tex.count(r"\begin{table}") == tex.count(r"\end{table}") == tables
    assert tex.count(r"\begin{tabular}") == tex.count(r"\toprule") == tex.count(r"\bottomrule") == tables
    assert r"$\Delta$F1" in tex and r"$\pm$" in tex
    for fact in small_results.transformations:
        assert latex_escape(fact.name) in tex
    assert "Total" in tex and "nan" not in tex.lower()
    for line in tex.splitlines():
        if line.endswith(r"\\") and "&" in line:
            assert line.count("&") + 1 in (6, 7, 8, 9, 10, 11)  # columns of the seven tables


def test_markdown_summary(written):
    _, out = written
    summary = (out / "summary.md").read_text(encoding="utf-8")
    assert summary.startswith("# atl-binding-bench summary")
    assert "## Results per provider" in summary and "## Paired comparisons" in summary
    assert "## Excluded runs" in summary


def _texts(results: MappingResults, draws: int = 50) -> dict[str, str]:
    """The text artefacts without the figures (faster; the figures are tested on their own), the LaTeX
    and Markdown tables read by their cells (:func:`text_tables.squeezed`)."""
    stats = compute_statistics(results.rows, draws=draws)
    return {
        "html": render_page(results.header, [PagePart("atl", "atl", "atl", html_part(results, stats, []))]),
        "tex": squeezed(render_latex(results, stats)),
        "md": squeezed(summary_markdown(results, stats)),
        "json": dumps_json(stats.to_json()),
    }


def test_hostile_names_are_escaped_everywhere(small_results):
    rows = tuple(
        r.replaced(provider="<script>alert(1)</script> & 50%_$|") if r.provider == "Alpha" else r
        for r in small_results.rows
    )
    texts = _texts(replace(small_results, rows=rows))
    assert "<script>alert" not in texts["html"]
    assert "&lt;script&gt;alert(1)&lt;/script&gt; &amp; 50%_$|" in texts["html"]
    assert (
        r"\textless{}script\textgreater{}alert(1)\textless{}/script\textgreater{} \& 50\%\_\$\textbar{}"
        in (texts["tex"])
    )
    assert r"50%_$\|" in texts["md"]  # a pipe would split the Markdown cell


def test_edge_cases_never_print_nan(make_row):
    rows = (
        make_row("Solo", "T1", "r1", classes=[("S", "X", "tp")], bindings=[("S", "X", "f", "onlyAtl")]),
        make_row("Mute", "T1", "r1", classes=[("S", "X", "fn")]),
    )
    facts = (TransformationFacts("T1", matched_rules=1, class_pairs=1, bindings=1),)
    texts = _texts(MappingResults(ResultsHeader(created="2024-01-01"), facts, rows))
    for name, text in texts.items():
        assert "nan" not in text.lower(), name
    assert "±\u00a0–" in texts["html"]  # SD over one run (a no-break space: the cell wraps elsewhere)
    assert "one transformation" in texts["html"]
    assert "Mute: made no suggestions." in texts["html"]


def test_an_empty_session_still_writes_every_artefact(tmp_path):
    results = MappingResults(ResultsHeader())
    paths = write_reports(results, tmp_path, draws=10)
    assert [p.name for p in paths] == list(EXPECTED)
    assert "no scored runs" in (tmp_path / "index.html").read_text(encoding="utf-8")


def test_rows_of_two_tracks_are_refused_not_pooled(small_results, tmp_path):
    """Statistics group rows by provider alone, so a provider's rows of another track would be pooled
    with its ATL rows into one figure: write_reports refuses the session and writes nothing."""
    other = small_results.rows[0].replaced(track="roundtrip")
    mixed = replace(small_results, rows=(*small_results.rows, other))
    with pytest.raises(InputFormatError) as raised:
        write_reports(mixed, tmp_path / "out", draws=10)
    assert raised.value.field == "$.rows[*].track"
    assert "several tracks (atl, roundtrip)" in raised.value.message
    with pytest.raises(InputFormatError):  # the same check guards the statistics on their own
        compute_statistics(mixed.rows, draws=10)
    assert not (tmp_path / "out").exists()
    # one track other than atl is fine: nothing is pooled across tracks
    alone = tuple(r.replaced(track="roundtrip") for r in small_results.rows)
    assert compute_statistics(alone, draws=10).providers


@pytest.mark.skipif(
    shutil.which("pdflatex") is None or shutil.which("kpsewhich") is None, reason="pdflatex not installed"
)
def test_tables_tex_compiles_with_pdflatex(written, tmp_path):
    """Optional (skipped without a TeX installation): the file compiles with pdfLaTeX and booktabs."""
    if not subprocess.run(["kpsewhich", "booktabs.sty"], capture_output=True, text=True).stdout.strip():
        pytest.skip("booktabs.sty not installed")
    _, out = written
    (tmp_path / "tables.tex").write_bytes((out / "tables.tex").read_bytes())
    (tmp_path / "doc.tex").write_text(
        "\\documentclass{article}\n\\usepackage{booktabs}\n\\usepackage[margin=1cm,landscape]{geometry}\n"
        "\\begin{document}\n\\input{tables}\n\\end{document}\n",
        encoding="utf-8",
    )
    completed = subprocess.run(
        ["pdflatex", "-interaction=nonstopmode", "-halt-on-error", "doc.tex"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert completed.returncode == 0, completed.stdout[-3000:]
    assert (tmp_path / "doc.pdf").stat().st_size > 10_000


def test_per_transformation_tables_show_p_r_f1_acc_and_how_many_transformations(make_row, written):
    rows = (
        make_row("Wide", "T1", "r1", classes=[("S", "X", "tp")], bindings=[("S", "X", "f", "exact")]),
        make_row("Wide", "T2", "r1", classes=[("S", "Y", "fp"), ("S", "X", "fn")]),
        make_row("Narrow", "T1", "r1", classes=[("S", "X", "tp")], bindings=[("S", "X", "f", "onlyAtl")]),
    )
    texts = _texts(MappingResults(ResultsHeader(created="2024-01-01"), (), rows))
    md = texts["md"].split("## Per provider and transformation")[1]
    assert "| Provider | Transformation | Runs | Unusable | P | R | F1 | Acc | Macro F1 ± SD |" in md
    assert "| Wide | T1 | 1 | 0 | 1.000 | 1.000 | 1.000 | 1.000 | 1.000 ± – |" in md
    assert "| Wide | ALL (2 of 2) | 2 | 0 | 0.667 | 0.667 | 0.667 | 0.500 |" in md
    assert "| Narrow | ALL (1 of 2) | 1 | 0 | 1.000 | 0.500 | 0.667 | 0.500 |" in md
    html = texts["html"].split('id="transformations"')[1]
    assert "<th>P</th><th>R</th><th>F1</th><th>Acc</th>" in html and "ALL (1 of 2)" in html
    _, out = written
    summary = (out / "summary.md").read_text(encoding="utf-8")
    assert "## Per provider and transformation" in summary and "ALL (3 of 3)" in summary


def test_made_up_names_are_shown_per_provider(make_row):
    checked = {"hallucinationsChecked": True}
    base = make_row("Dreamer", "T1", "r1", classes=[("S", "X", "tp")])
    rows = (
        base.replaced(hallucinated_classes=("Ghost",), hallucinated_features=("X.nope",), extra=checked),
        base.replaced(run="r2", hallucinated_classes=("Ghost",), hallucinated_features=(), extra=checked),
        make_row("Careful", "T1", "r1", classes=[("S", "X", "tp")]).replaced(extra=checked),
        make_row("Unchecked", "T1", "r1", classes=[("S", "X", "tp")]),  # scored without metamodels
    )
    results = MappingResults(ResultsHeader(created="2024-01-01"), (), rows)
    texts = _texts(results)
    md = texts["md"].split("## Made-up names (hallucinations)")[1]
    assert "| Provider | Runs checked | Made-up classes | Made-up features | Per run | Distinct |" in md
    assert "| Dreamer | 2 | 2 | 1 | 1.5 | 2 | Ghost ×2, X.nope |" in md
    assert "| Careful | 1 | 0 | 0 | 0.0 | 0 | – |" in md
    assert "| Unchecked | 0 of 1 | – | – | – | – | – |" in md
    assert "Ghost ×2, X.<wbr>nope" in texts["html"]  # a long name may wrap after its dot
    from benchmark.tracks.mapping.aggregate import aggregate
    from benchmark.tracks.mapping.reports.terminal import format_tables

    terminal = format_tables(aggregate(rows)).split("Made-up names (hallucinations)")[1]
    assert next(line for line in terminal.splitlines() if line.startswith("Dreamer")).split()[1:] == [
        "2",
        "2",
        "1",
    ]
    unchecked = next(line for line in terminal.splitlines() if line.startswith("Unchecked"))
    assert unchecked.split() == ["Unchecked", "0", "of", "1", "-", "-"]


def test_unusable_runs_are_counted_per_provider_in_every_table(make_row):
    """A run whose answer held no usable mapping is scored as a run with no suggestions; every table that
    shows a provider's runs says how many of them were unusable (terminal, summary.md, tables.tex, HTML)."""
    from benchmark.tracks.mapping.aggregate import aggregate
    from benchmark.tracks.mapping.reports.terminal import format_tables
    from benchmark.tracks.mapping.scoring.outcomes import ROW_UNUSABLE

    usable = make_row("Flaky", "T1", "r1", classes=[("S", "X", "tp")])
    unusable = make_row("Flaky", "T1", "r2", classes=[("S", "X", "fn")]).replaced(
        extra={ROW_UNUSABLE: "invalid JSON"}
    )
    rows = (usable, unusable, make_row("Steady", "T1", "r1", classes=[("S", "X", "tp")]))
    texts = _texts(MappingResults(ResultsHeader(created="2024-01-01"), (), rows))
    md = texts["md"]
    results_md = md.split("## Results per provider")[1].split("## ")[0]
    assert "| Provider | Runs | Unusable | Transf. |" in results_md
    assert "| Flaky | 2 | 1 | 1 |" in results_md and "| Steady | 1 | 0 | 1 |" in results_md
    assert "Unusable: runs where the model answered but the answer held no usable mapping" in results_md
    per_transformation = md.split("## Per provider and transformation")[1]
    assert "| Flaky | T1 | 2 | 1 |" in per_transformation and "| Flaky | ALL (1 of 1) | 2 | 1 |" in md
    tex = texts["tex"].split(r"\end{table}")
    assert "Provider & Runs & Unusable & Transf." in tex[0] and "Flaky & 2 & 1 & 1 &" in tex[0]
    assert "Flaky & T1 & 2 & 1 &" in tex[2]
    html = texts["html"]
    assert "<th>Runs</th><th>Unusable</th>" in html
    assert '<td>Flaky</td><td class="r">2</td><td class="r">1</td>' in html
    assert '"unusableRuns": 1' in texts["json"]
    terminal = format_tables(aggregate(rows)).split("Split by level")[0].splitlines()
    header = next(line for line in terminal if line.startswith("provider"))
    assert header.split()[:4] == ["provider", "transformation", "runs", "unusable"]
    flaky = [line.split()[:4] for line in terminal if line.startswith("Flaky")]
    assert flaky == [["Flaky", "ALL", "2", "1"], ["Flaky", "T1", "2", "1"], ["Flaky", "ALL", "2", "1"]]


def test_tables_tex_has_every_paper_table_each_complete_and_notes_said_once(make_row):
    checked = {"hallucinationsChecked": True}
    rows = (
        make_row(
            "Dreamer", "T1", "r1", classes=[("S", "X", "tp")], bindings=[("S", "X", "f", "exact")]
        ).replaced(
            hallucinated_classes=("Ghost",),
            extra=checked,
        ),
        make_row("Dreamer", "T2", "r1", classes=[("S", "Y", "fp")]).replaced(extra=checked),
        make_row("Solo", "T1", "r1", classes=[("S", "X", "tp")]),
        make_row("Mute", "T2", "r1", classes=[("S", "X", "fn")]),
    )
    tex = _texts(MappingResults(ResultsHeader(created="2024-01-01"), (), rows))["tex"]
    blocks = tex.split(r"\end{table}")[:-1]
    labels = [block.split(r"\label{")[1].split("}")[0] for block in blocks]
    assert labels == [
        "tab:atlbench-results",
        "tab:atlbench-split",
        "tab:atlbench-per-transformation",
        "tab:atlbench-hallucinations",
        "tab:atlbench-costs",
        "tab:atlbench-pairs",
        "tab:atlbench-validation-set",
    ]
    for block in blocks:  # each one pasteable: one comment line, then a whole table environment
        head, body = block.split("\n\\begin{table}", 1)
        body = "\\begin{table}" + body
        assert head.splitlines()[-1].endswith(
            "a complete table environment, to paste as it is (needs booktabs)."
        )
        assert body.startswith(r"\begin{table}") and body.count(r"\begin{tabular}") == 1
    per_transformation = blocks[2]
    header = "Provider & Transformation & Runs & Unusable & P & R & F1 & Acc & Macro F1 $\\pm$ SD"
    assert header in per_transformation
    assert (
        "Dreamer & ALL (2 of 2) & 2 & 0 &" in per_transformation
        and "Solo & ALL (1 of 2) & 1 & 0 &" in per_transformation
    )
    assert per_transformation.count(r"\midrule") == 1 + 2  # under the header, then between the 3 providers
    assert "Class F1 & Binding F1 & Attribute F1 & Reference F1 & Overall F1" in blocks[1]
    assert "Dreamer & 2 & 1 & 0 & 0.5 & 1 \\\\" in blocks[3]  # the paper table has no names column
    assert "Ghost" not in blocks[3]
    # a note that applies to several providers is said once, naming them
    caption = blocks[0].split(r"\caption{")[1]
    assert caption.count("standard deviation undefined") == 1
    assert "Solo, Mute: one run: standard deviation undefined." in caption
    assert "Solo, Mute: one transformation with one run: nothing to resample" in caption
    assert "Dreamer: one run per transformation" in caption and "Mute: made no suggestions." in caption


def test_one_of_a_kind_is_said_in_the_singular(make_row):
    rows = (make_row("Solo", "T1", "r1", classes=[("S", "X", "tp")]),)
    texts = _texts(MappingResults(ResultsHeader(created="2024-01-01"), (), rows))
    assert "1 scored run, 0 excluded; 1 provider; 1 transformation." in texts["md"]
    assert "1 scored run · 0 excluded · 1 provider · 1 transformation ·" in texts["html"]
    assert "<th>Solo (1 run)</th>" in texts["html"]
