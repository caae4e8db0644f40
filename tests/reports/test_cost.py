"""The report kit's cost columns (benchmark.reports.cost) and the ledger a row carries (benchmark.llm.ledger,
benchmark.harness.ledger): what a group of runs cost, never a made-up number."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from text_tables import squeezed

from benchmark.core.rows import Row
from benchmark.core.track import RunCase
from benchmark.harness.ledger import with_ledger
from benchmark.llm.ledger import file_ledger, row_ledger, summarise
from benchmark.reports.cost import BASELINE, NO_LEDGER, CostLine, cost_table, csv_values, spend


def entry(seconds: float, cost: float | None = 0.001, note: str | None = None) -> dict[str, object]:
    data: dict[str, object] = {
        "inputTokens": 100,
        "outputTokens": 20,
        "seconds": seconds,
        "attempts": 1,
        "costUsd": cost,
    }
    return data | ({"costNote": note} if note else {})


def row(provider: str, *entries: dict[str, object], file: str = "runs/x.json") -> Row:
    """A row whose run file had ``entries`` in its ledger (none: a run without a ledger)."""
    provenance = {"ledger": summarise(entries).row_json()} if entries else {}
    return Row("t", provider, "m", "task", "run", file=file, provenance=provenance)


def test_a_group_adds_tokens_and_cost_and_takes_the_median_over_requests() -> None:
    group = spend([row("P", entry(1.0), entry(2.0), entry(3.0)), row("P", entry(10.0))])
    assert (group.requests, group.input_tokens, group.output_tokens) == (4, 400, 80)
    assert group.cost_usd == pytest.approx(0.004)
    assert group.median_seconds == 2.5  # over the four requests, not the median of the runs' medians (6)
    assert group.per_dollar(0.8) == pytest.approx(0.8 / 0.001)  # per the mean cost of one request
    assert csv_values(group) == {
        "input_tokens": 400,
        "output_tokens": 80,
        "cost_usd": "0.004",
        "median_seconds": "2.500",
        "cost_note": "",
    }


def test_runs_without_a_ledger_are_blank_and_say_why() -> None:
    synthetic = spend([row("Synthetic-Noisy"), row("Synthetic-Noisy")])
    assert synthetic.cost_usd is None and synthetic.requests is None and synthetic.median_seconds is None
    assert synthetic.note == NO_LEDGER and synthetic.per_dollar(0.9) is None
    baseline = spend([row("EMFCompare", file="<baseline:EMFCompare>")])
    assert baseline.note == BASELINE
    assert csv_values(synthetic) == {
        "input_tokens": "",
        "output_tokens": "",
        "cost_usd": "",
        "median_seconds": "",
        "cost_note": NO_LEDGER,
    }
    # one run of two without a ledger: nothing is added up (a partial sum would look complete)
    mixed = spend([row("P", entry(1.0)), row("P")])
    assert mixed.cost_usd is None and mixed.input_tokens is None
    assert mixed.note == "1 of 2 runs have no ledger"


def test_an_unknown_price_is_blank_and_a_zero_price_shows_its_reason() -> None:
    unpriced = spend([row("OpenAI", entry(1.0, None, "no price configured for provider OpenAI"))])
    local = spend([row("Local", entry(4.0, 0.0, "local"))])
    paid = spend([row("Paid", entry(2.0, 0.002))])
    assert unpriced.cost_usd is None and unpriced.input_tokens == 100  # tokens are known all the same
    assert local.cost_usd == 0 and local.note == "local" and local.per_dollar(0.5) is None
    table = cost_table(
        "costs",
        "Costs",
        ("Provider",),
        [
            CostLine(("OpenAI",), unpriced, 0.5),
            CostLine(("Local",), local, 0.4),
            CostLine(("Paid",), paid, 0.6),
        ],
        "F1",
    )
    cells = {r[0]: r for r in table.rows}
    cost, seconds, per_dollar = (
        table.headers.index(h) for h in ("Cost ($)", "Median s / request", "F1 per $")
    )
    assert cells["OpenAI"][cost] is None and cells["Local"][cost] == "0 (local)"
    assert cells["Paid"][cost] == "0.0020" and cells["Paid"][per_dollar] == "300.0"
    assert cells["Local"][seconds] == "4.00" and cells["Local"][per_dollar] is None
    assert table.notes[1:] == ("OpenAI: no price configured for provider OpenAI.", "Local: local.")
    assert "| Local | 1 | 1 | 100 | 20 | 0 (local) | 4.00 | 0.400 | – |" in squeezed(table.to_markdown())


def test_a_provider_is_named_once_when_all_its_groups_share_a_reason() -> None:
    lines = [
        CostLine(("Synthetic", "inverse"), spend([row("Synthetic")]), 90.0),
        CostLine(("Synthetic", "forward"), spend([row("Synthetic")]), 80.0),
        CostLine(("OpenAI", "inverse"), spend([row("OpenAI", entry(1.0))]), 70.0),
        CostLine(("OpenAI", "forward"), spend([row("OpenAI")]), 60.0),
    ]
    notes = cost_table("c", "C", ("Provider", "Stage"), lines, "%Correct", digits=1).notes
    assert notes[1:] == (f"Synthetic, OpenAI forward: {NO_LEDGER}.",)


def test_the_harness_puts_a_run_files_ledger_into_its_row_and_leaves_other_rows_alone(tmp_path: Path) -> None:
    generated = tmp_path / "generated.json"
    generated.write_text(
        json.dumps({"answer": [], "generation": {"ledger": entry(1.5, 0.00045)}}), encoding="utf-8"
    )
    plain = tmp_path / "synthetic.json"
    plain.write_text(json.dumps({"answer": [], "reason": "a word about the ledger"}), encoding="utf-8")
    case = RunCase("atl", "task", "OpenAI", "run01", "id", file=generated)
    scored = Row("atl", "OpenAI", "m", "task", "run01", file=str(generated))
    carried = with_ledger(scored, case)
    ledger = row_ledger(carried.provenance)
    assert ledger is not None and (ledger.requests, ledger.cost_usd, ledger.seconds) == (1, 0.00045, (1.5,))
    assert Row.loads(carried.dumps()).provenance == carried.provenance  # crosses xdist, results.json
    # a run without a ledger, a baseline, an unreadable file: the row is the same, byte for byte
    for file in (plain, None, tmp_path / "missing.json"):
        other = RunCase("atl", "task", "P", "run01", "id", file=file, baseline=None if file else "B")
        assert with_ledger(scored, other).dumps() == scored.dumps()
    assert file_ledger(plain) is None
