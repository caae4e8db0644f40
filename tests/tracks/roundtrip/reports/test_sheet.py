"""The sheet (reports/roundtrip_per_stage.csv) and its summaries, on hand-made rows."""

from __future__ import annotations

import csv
import io
from pathlib import Path

import pytest
from text_tables import squeezed

from benchmark.core.rows import Row
from benchmark.tracks.roundtrip.reports.files import track_report
from benchmark.tracks.roundtrip.reports.sheet import (
    aggregate,
    latex_table,
    sheet_csv,
    sheet_rows,
    terminal_lines,
)

SHEET_HEAD = (
    "pair,operator,k,provider,model,run,stage,LOC,Cr,InCr,Ad,Miss,pctCorrect,pctWSuccess,deltaDetected,"
    "loadable,equivalent,flags"
)


def row(provider: str, pair: str, stage: str, k: int | None, w: float, c: float, status: str = "ok") -> Row:
    payload = {
        "pair": pair, "operator": "to_many", "k": k, "runIndex": 1 if k else None, "stage": stage,
        "stageStatus": status, "LOC": 10, "Cr": 8, "InCr": 1, "Ad": 1, "AdHarmful": 0, "Miss": 1,
        "pctCorrect": c, "pctWSuccess": w, "pctWSuccessSheet": w, "deltaDetected": w > 0.5,
        "deltaRecall": c, "deltaPrecision": c, "deltaLines": 2, "loadable": status == "ok",
        "loadError": None, "readAs": "model", "equivalent": False,
        "flags": ["x"] if stage == "inverse" else [], "extractionNotes": [],
    }  # fmt: skip
    run = f"k{k}-run01-{stage}" if k else f"{provider.lower()}-{stage}"
    return Row("roundtrip", provider, "m", f"{pair}/to_many", run, "f", payload=payload)


ROWS = [
    row("A", "p1", "inverse", 1, 0.8, 0.9),
    row("A", "p2", "inverse", 1, 0.4, 0.7),
    row("A", "p1", "forward", 1, -0.5, 0.0, "not-run"),
    row("A", "p2", "forward", 2, 0.6, 0.8),
    row("Echo", "p1", "inverse", None, 0.85, 0.96),
]


def test_the_sheet_has_the_studys_columns_first_and_one_line_per_stage_evaluation() -> None:
    text = sheet_csv(sheet_rows(ROWS))
    lines = text.splitlines()
    assert lines[0].startswith(
        SHEET_HEAD + ",AdHarmful,pctWSuccessSheet,deltaRecall,deltaPrecision,stageStatus"
    )
    assert len(lines) == 1 + len(ROWS)
    first = next(csv.DictReader(io.StringIO(text)))
    assert (first["pair"], first["stage"], first["flags"], first["deltaDetected"]) == (
        "p1",
        "inverse",
        "1",
        "yes",
    )
    assert "error" not in text


def test_means_count_every_stage_evaluation_and_say_how_many_failed() -> None:
    (a_inverse, a_forward, echo) = aggregate(sheet_rows(ROWS), ("provider", "stage"), draws=200, seed=1)
    assert a_inverse.keys == ("A", "inverse") and a_inverse.n == 2 and a_inverse.pairs == 2
    assert a_inverse.means["pctWSuccess"] == pytest.approx(0.6)
    assert a_forward.means["pctWSuccess"] == pytest.approx(0.05) and a_forward.not_run == 1  # not dropped
    assert echo.keys == ("Echo", "inverse")  # baselines after the providers
    interval = a_inverse.intervals["pctWSuccess"]
    assert 0.4 <= interval.low <= 0.6 <= interval.high <= 0.8
    assert echo.intervals["pctWSuccess"].note == "one pair: the interval shows no variation over pairs"
    again = aggregate(sheet_rows(ROWS), ("provider", "stage"), draws=200, seed=1)
    assert [g.intervals for g in again] == [a_inverse.intervals, a_forward.intervals, echo.intervals]


def test_baselines_have_no_k() -> None:
    groups = aggregate(sheet_rows(ROWS), ("provider", "k"), draws=0)
    assert [g.keys for g in groups] == [("A", "1"), ("A", "2"), ("Echo", "any")]
    assert all(not g.intervals for g in groups)


def test_the_latex_table_and_the_terminal_table() -> None:
    groups = aggregate(sheet_rows(ROWS), ("provider", "stage"), draws=0)
    tex = squeezed(latex_table(groups))
    assert (
        r"LLM & Stage & LOC & Cr & InCr & Ad & Miss & \%Correct & \%WSuccess & DeltaDetected & Loadable \\"
        in tex
    )
    assert r"A & inverse & 10.0 & 8.0 & 1.0 & 1.0 & 1.0 & 80.0 & 60.0 & 50.0 & 100.0 \\" in tex
    lines = terminal_lines(groups, ("provider", "stage"))
    assert lines[0].split()[:4] == ["provider", "stage", "n", "%Correct"] and len(lines) == 2 + 3


def test_the_report_files_are_written_and_identical_when_written_again(tmp_path: Path) -> None:
    first = track_report(ROWS, tmp_path / "a", {"roundtrip_draws": 100, "roundtrip_seed": 3})
    second = track_report(ROWS, tmp_path / "b", {"roundtrip_draws": 100, "roundtrip_seed": 3})
    names = [p.name for p in first.paths]
    assert names == [
        "roundtrip_per_stage.csv", "roundtrip_by_stage.csv", "roundtrip_by_operator.csv",
        "roundtrip_by_k.csv", "roundtrip_table.tex", "roundtrip_cost.tex", "roundtrip_heatmap.png",
        "roundtrip_heatmap.svg",
        "roundtrip_correct_vs_k.png", "roundtrip_correct_vs_k.svg",
    ]  # fmt: skip
    for a, b in zip(first.paths, second.paths, strict=True):
        assert a.read_bytes() == b.read_bytes(), a.name
    assert first.html is not None
    assert [key for key, _, _ in first.html.sections] == ["by-stage", "by-operator", "by-k", "costs"]
    assert "data:image/svg+xml;base64," in first.html.sections[1][2]
    assert first.lines[0].startswith("provider")
