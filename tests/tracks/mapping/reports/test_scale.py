"""The mapping track's reports at ATL Zoo scale (benchmark.tracks.mapping.reports.scale): past 20
transformations the terminal is bounded (the ALL rows first, ``-v`` for every line), ``summary.md`` and
``tables.tex`` give one line per transformation (folded in Markdown, a longtable in LaTeX), the drill-down
leaves ``index.html`` for a page of its own, and the heatmap is drawn in panels; up to 20 nothing changes."""

from __future__ import annotations

import re
import shutil
import struct
import subprocess
from pathlib import Path

import pytest
from text_tables import squeezed

from benchmark.bench.support.synthetic_results import synthetic_results
from benchmark.tracks.mapping.aggregate import aggregate
from benchmark.tracks.mapping.reports.files import write_reports
from benchmark.tracks.mapping.reports.scale import DRILLDOWN_HTML, FULL_UP_TO, HARDEST_SHOWN
from benchmark.tracks.mapping.reports.terminal import format_tables

PROVIDERS = ("Alpha", "Beta", "Gamma")
TRANSFORMATIONS = 60  # past FULL_UP_TO, and past HEATMAP_ROWS_PER_PANEL (the heatmap's panels)


@pytest.fixture(scope="module")
def zoo_sized() -> object:
    return synthetic_results(transformations=TRANSFORMATIONS, providers=PROVIDERS, runs=2, seed=11)


@pytest.fixture(scope="module")
def written(zoo_sized, tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("zoo-reports")
    write_reports(zoo_sized, out, draws=50)
    return out


def png_size(path: Path) -> tuple[int, int]:
    width, height = struct.unpack(">II", path.read_bytes()[16:24])
    return width, height


def test_the_terminal_shows_the_all_rows_first_and_a_bounded_table(zoo_sized) -> None:
    aggregation = aggregate(zoo_sized.rows)
    short = format_tables(aggregation, verbose=False).splitlines()
    every = format_tables(aggregation, verbose=True).splitlines()
    lines = TRANSFORMATIONS * (len(PROVIDERS) + 1)  # with the EMFCompare baseline
    assert len(every) > lines and len(short) < 60
    assert short[1].startswith("Per provider (micro") and every[1] == short[1]  # the ALL rows first
    heading = next(i for i, line in enumerate(short) if line.startswith("Per transformation: micro F1"))
    assert f"-v prints all {lines} provider x transformation lines" in short[heading]
    table = short[heading + 1 : heading + 4 + HARDEST_SHOWN]
    assert table[0].split() == ["transformation", *sorted(PROVIDERS), "EMFCompare"][:1] + table[0].split()[1:]
    assert table[2].startswith("ALL ") and all(line.startswith("T") for line in table[3:])
    assert not any(line.startswith("Per provider and transformation") for line in short)
    # a session of at most FULL_UP_TO transformations prints every line, -v or not
    small = aggregate([r for r in zoo_sized.rows if int(r.transformation[1:3]) <= FULL_UP_TO])
    assert format_tables(small, verbose=False) == format_tables(small, verbose=True)


def test_summary_md_and_tables_tex_have_one_line_per_transformation(written: Path) -> None:
    summary = squeezed((written / "summary.md").read_text(encoding="utf-8"))
    assert "## Per provider and transformation" not in summary
    folded = summary[summary.index("## F1 per transformation") :]
    assert folded.index("<details>") < folded.index("| ALL |") < folded.index("</details>")
    assert sum(1 for line in folded.splitlines() if re.match(r"\| T\d\d_", line)) == TRANSFORMATIONS
    assert len(summary.splitlines()) < TRANSFORMATIONS + 110
    tex = (written / "tables.tex").read_text(encoding="utf-8")
    assert tex.count(r"\begin{longtable}") == 2 and "tab:atlbench-per-transformation" in tex
    assert r"\usepackage{longtable}" in tex.splitlines()[1]
    pdflatex = shutil.which("pdflatex")
    if pdflatex is None:
        pytest.skip("no pdflatex: the long tables were not compiled")
    work = written / "latex"
    work.mkdir(exist_ok=True)
    shutil.copy(written / "tables.tex", work / "tables.tex")
    (work / "doc.tex").write_text(
        "\\documentclass{article}\n\\usepackage{booktabs}\n\\usepackage{longtable}\n"
        "\\begin{document}\n\\input{tables.tex}\n\\end{document}\n",
        encoding="utf-8",
    )
    done = subprocess.run(
        [pdflatex, "-interaction=nonstopmode", "-halt-on-error", "doc.tex"],
        cwd=work,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, (work / "doc.log").read_text(errors="replace")[-3000:]


def test_the_drilldown_is_a_page_of_its_own(written: Path) -> None:
    index = (written / "index.html").read_text(encoding="utf-8")
    drill = (written / DRILLDOWN_HTML).read_text(encoding="utf-8")
    assert f'<a href="{DRILLDOWN_HTML}">' in index and 'id="drill-' not in index
    assert drill.count('<details id="drill-') == TRANSFORMATIONS and "Content-Security-Policy" in drill


def test_the_heatmap_is_split_into_panels_with_every_name(written: Path) -> None:
    width, height = png_size(written / "f1_heatmap.png")
    one_column = (0.35 * TRANSFORMATIONS + 1.6) * 150  # the single panel's height at this size
    assert height < one_column * 0.7 and width < 2.5 * height
    svg = (written / "f1_heatmap.svg").read_text(encoding="utf-8")
    assert all(f"T{i + 1:02d}_Model{i + 1}2Model" in svg for i in range(TRANSFORMATIONS))
    assert "in 2 panels" in (written / "index.html").read_text(encoding="utf-8")


def test_a_small_session_keeps_its_drilldown_inline(tmp_path: Path) -> None:
    small = synthetic_results(transformations=FULL_UP_TO, providers=PROVIDERS[:2], runs=1, seed=2)
    paths = write_reports(small, tmp_path, draws=20)
    assert DRILLDOWN_HTML not in {p.name for p in paths}
    index = (tmp_path / "index.html").read_text(encoding="utf-8")
    assert index.count('<details id="drill-') == FULL_UP_TO
    assert "## Per provider and transformation" in (tmp_path / "summary.md").read_text(encoding="utf-8")
