"""The mapping track's report files on the bundled corpus, byte for byte against a saved copy.

The copy (``data/reports-before/``) was written by the suite before the harness was made generic (issue
13) and is compared with what the generic harness writes today, scoring the corpus the way ``atlbench
validate`` does (the pytest session's code path). Normalised: the timestamp, commit and version lines, the
checkout's path, and the figures' pixels (they depend on matplotlib's version; the figures' presence is
checked, their bytes are not). A change that alters the reports on purpose regenerates the copy with
``ATLBENCH_REGENERATE_FIXTURES=1 pytest tests/tracks/mapping/test_reports_unchanged.py`` in the same commit.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest
from validate_session import mapping_harness

REPO = Path(__file__).resolve().parents[3]
SAVED = Path(__file__).parent / "data" / "reports-before"
TEXT_FILES = (
    "rq1_per_run.csv",
    "rq1_aggregate.csv",
    "rq1_pairs.csv",
    "summary.md",
    "statistics.json",
    "tables.tex",
    "prompt_sensitivity.csv",
    "prompt_sensitivity_pairs.csv",
    "prompt_sensitivity.json",
    "prompt_sensitivity.md",
    "prompt_sensitivity.tex",
    "index.html",
    "rq1_variants.csv",
    "answer_formats.csv",
    "answer_formats_pairs.csv",
    "answer_formats.md",
    "answer_formats.tex",
)
FIGURES = ("pr_scatter", "f1_heatmap", "confidence", "categories")


def normalise(text: str) -> str:
    text = text.replace(str(REPO / "validation"), "<VALIDATION>")
    text = re.sub(r"Results (file )?created [^<\n]*", "Results created <WHEN>", text)
    text = re.sub(r"<p>Versions: [^<]*</p>", "<p>Versions: <VERSIONS></p>", text)
    return re.sub(r"data:image/svg\+xml;base64,[A-Za-z0-9+/=]+", "data:image/svg+xml;base64,<FIGURE>", text)


@pytest.fixture(scope="module")
def written(tmp_path_factory: pytest.TempPathFactory) -> Path:
    harness = mapping_harness(REPO / "validation")
    rows, problems = harness.score_all(["atl"])
    assert problems == []
    out = tmp_path_factory.mktemp("reports")
    harness.write_reports(harness.build_results(rows), out)
    return out


@pytest.mark.parametrize("name", TEXT_FILES)
def test_report_file_is_unchanged(written: Path, name: str) -> None:
    now = normalise((written / name).read_text(encoding="utf-8"))
    if os.environ.get("ATLBENCH_REGENERATE_FIXTURES") == "1":
        SAVED.mkdir(parents=True, exist_ok=True)
        (SAVED / name).write_text(now, encoding="utf-8")
    assert now == (SAVED / name).read_text(encoding="utf-8")


def test_every_figure_is_written(written: Path) -> None:
    for name in FIGURES:
        for suffix in (".png", ".svg"):
            assert (written / f"{name}{suffix}").stat().st_size > 1000
