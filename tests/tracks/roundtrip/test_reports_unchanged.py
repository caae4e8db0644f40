"""The round-trip track's report files on the bundled data, byte for byte against a saved copy
(:mod:`report_fixtures` says what is normalised and how to regenerate the copy on purpose)."""

from __future__ import annotations

from pathlib import Path

import pytest
from report_fixtures import compare_file, write_session

SAVED = Path(__file__).parent / "data" / "reports-before"
TEXT_FILES = (
    "roundtrip_by_stage.csv",
    "roundtrip_by_operator.csv",
    "roundtrip_by_k.csv",
    "roundtrip_table.tex",
    "roundtrip_cost.tex",
    "prompt_sensitivity.csv",
    "prompt_sensitivity_pairs.csv",
    "prompt_sensitivity.json",
    "prompt_sensitivity.md",
    "prompt_sensitivity.tex",
    "answer_formats.csv",
    "answer_formats_pairs.csv",
    "answer_formats.md",
    "answer_formats.tex",
    "index.html",
    "terminal.txt",
)
DIGESTS = ("roundtrip_per_stage.csv",)
FIGURES = ("roundtrip_heatmap", "roundtrip_correct_vs_k")


@pytest.fixture(scope="module")
def written(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_session("roundtrip", tmp_path_factory.mktemp("reports"))


@pytest.mark.parametrize("name", TEXT_FILES)
def test_report_file_is_unchanged(written: Path, name: str) -> None:
    compare_file(written, SAVED, name)


@pytest.mark.parametrize("name", DIGESTS)
def test_large_report_file_is_unchanged(written: Path, name: str) -> None:
    compare_file(written, SAVED, name, digest=True)


def test_every_figure_is_written(written: Path) -> None:
    for name in FIGURES:
        for suffix in (".png", ".svg"):
            assert (written / f"{name}{suffix}").stat().st_size > 1000
