"""Every track's ``.tex`` files compile with pdfLaTeX when provider and task names hold LaTeX's special
characters (``\\ { } ~ ^ < > & % $ # _ |``): the session of :mod:`three_tracks` names one provider of each
track, and one transformation, with all of them. Skips, in one line, where no pdfLaTeX is installed (CI
installs Debian's texlive-latex-base and texlive-latex-recommended and sets ``ATLBENCH_REQUIRE_LATEX=1``:
``.ci/run``; the test then fails instead of skipping)."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest
from three_tracks import PROVIDER, SPECIAL, TASK

from benchmark.reports.latex import latex_escape

PDFLATEX = shutil.which("pdflatex")
TEX_FILES = (
    "tables.tex",
    "ocl_robustness.tex",
    "ocl_mode_pairs.tex",
    "roundtrip_table.tex",
    "prompt_sensitivity.tex",
)
DOCUMENT = (
    "\\documentclass{article}\n\\usepackage{booktabs}\n\\begin{document}\n\\input{%s}\n\\end{document}\n"
)


def test_the_odd_names_hold_every_special_character() -> None:
    assert all(ch in PROVIDER for ch in SPECIAL.split()) and "$" in TASK


@pytest.mark.parametrize("name", TEX_FILES)
def test_the_file_names_the_odd_provider_escaped(three_tracks: Path, name: str) -> None:
    text = (three_tracks / name).read_text(encoding="utf-8")
    assert latex_escape(PROVIDER) in text
    if name == "tables.tex":
        assert latex_escape(TASK) in text


@pytest.fixture(scope="module")
def pdflatex() -> str:
    if PDFLATEX is None:
        message = "no pdflatex (apt-get install texlive-latex-base texlive-latex-recommended)"
        if os.environ.get("ATLBENCH_REQUIRE_LATEX") == "1":
            pytest.fail(f"ATLBENCH_REQUIRE_LATEX=1 but {message}")
        pytest.skip(message)
    return PDFLATEX


@pytest.mark.parametrize("name", TEX_FILES)
def test_the_file_compiles(pdflatex: str, three_tracks: Path, name: str, tmp_path: Path) -> None:
    shutil.copy(three_tracks / name, tmp_path / name)
    (tmp_path / "doc.tex").write_text(DOCUMENT % name, encoding="utf-8")
    done = subprocess.run(
        [pdflatex, "-interaction=nonstopmode", "-halt-on-error", "doc.tex"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
    )
    log = (tmp_path / "doc.log").read_text(encoding="utf-8", errors="replace")
    assert done.returncode == 0, log[-3000:]
    assert (tmp_path / "doc.pdf").stat().st_size > 1000
    assert "Undefined control sequence" not in log and "Missing $ inserted" not in log
