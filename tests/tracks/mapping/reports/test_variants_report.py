"""The variants table on the bundled corpus and where it appears (``docs/VARIANTS.md``): the synthetic
memoriser drops significantly under ``synonym`` and the equally noisy provider does not; the table is in
the terminal, ``summary.md``, ``tables.tex``, ``index.html`` and ``rq1_variants.csv``, and a session of the
original task alone writes none of it."""

from __future__ import annotations

import csv
from pathlib import Path

import pytest
from validate_session import mapping_harness

from benchmark.tracks.mapping.payload import RunRow
from benchmark.tracks.mapping.reports.files import write_reports
from benchmark.tracks.mapping.reports.variants import CSV_COLUMNS, READING, VARIANTS_CSV
from benchmark.tracks.mapping.stats.variants import compute_variant_statistics

VALIDATION = Path(__file__).resolve().parents[4] / "validation"


@pytest.fixture(scope="module")
def bundled(tmp_path_factory: pytest.TempPathFactory) -> tuple[list[RunRow], Path, list[str]]:
    harness = mapping_harness(VALIDATION)
    rows, problems = harness.score_all(["atl"])
    assert problems == []
    out = tmp_path_factory.mktemp("reports")
    results = harness.build_results(rows)
    harness.write_reports(results, out)
    track = harness.track("atl")
    lines = track.summary_lines(results, results.section("atl"), False)
    return [RunRow.from_envelope(r) for r in rows], out, lines


def test_the_memoriser_drops_significantly_under_synonym_and_the_steady_provider_does_not(bundled) -> None:
    rows, _out, _lines = bundled
    stats = compute_variant_statistics(rows, draws=500)
    entries = {(e.provider, e.variant): e for e in stats.entries}
    memoriser = entries[("Synthetic-Memoriser", "synonym")]
    steady = entries[("Synthetic-Noisy", "synonym")]
    assert memoriser.delta_f1 is not None and memoriser.delta_f1 < -0.1
    assert memoriser.interval is not None and memoriser.interval.high < 0
    assert memoriser.permutation is not None and memoriser.permutation.p_value < 0.05
    assert memoriser.p_holm is not None and memoriser.p_holm < 0.05
    assert steady.permutation is not None and steady.permutation.p_value > 0.05
    assert steady.interval is not None and steady.interval.low < 0 < steady.interval.high
    # what names alone are worth: a consistent renaming leaves name equality exactly where it was
    assert entries[("NameEquality", "synonym")].delta_f1 == 0.0
    assert {p for p, _ in entries} == {"EMFCompare", "NameEquality", "Synthetic-Memoriser", "Synthetic-Noisy"}


def test_the_table_is_in_every_format(bundled) -> None:
    _rows, out, lines = bundled
    with open(out / VARIANTS_CSV, encoding="utf-8", newline="") as handle:
        records = list(csv.DictReader(handle))
    assert tuple(records[0]) == CSV_COLUMNS
    memoriser = next(
        r for r in records if (r["provider"], r["variant"]) == ("Synthetic-Memoriser", "synonym")
    )
    assert float(memoriser["delta_f1"]) < 0 and float(memoriser["p_value"]) < 0.05
    original = next(
        r for r in records if (r["provider"], r["variant"]) == ("Synthetic-Memoriser", "original")
    )
    assert original["delta_f1"] == original["p_value"] == "" and original["runs"] == "8"
    for name in ("summary.md", "tables.tex", "index.html"):
        text = (out / name).read_text(encoding="utf-8")
        assert "Task variants" in text and "Synthetic-Memoriser" in text, name
    assert READING in (out / "summary.md").read_text(encoding="utf-8")
    assert 'id="variants"' in (out / "index.html").read_text(encoding="utf-8")
    assert "Task variants: the same transformations renamed, reordered or named only" in lines
    assert any(line.startswith("Synthetic-Memoriser  synonym") for line in lines)
    # the study's other tables read the original task: 40 + 8 runs, 16 baseline runs, the 16 runs of the
    # other prompt templates (4 series of their own) and the 21 real runs of SmolLM2-135M (3 series: one per
    # answer format)
    assert "101 scored runs, 0 excluded; 13 providers" in (out / "summary.md").read_text(encoding="utf-8")


def test_a_session_of_the_original_task_alone_writes_no_variant_table(small_results, tmp_path: Path) -> None:
    paths = write_reports(small_results, tmp_path, draws=50)
    assert VARIANTS_CSV not in {p.name for p in paths}
    assert "Task variants" not in (tmp_path / "summary.md").read_text(encoding="utf-8")
    assert "variant" not in (tmp_path / "rq1_per_run.csv").read_text(encoding="utf-8").splitlines()[0]
