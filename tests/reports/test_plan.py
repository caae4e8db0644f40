"""``atlbench plan`` (benchmark/reports/plan.py, benchmark/cli/plan.py): from a pilot, the units × runs a
study needs for an effect, and what generating them costs, on a small track of our own and on the bundle."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import numpy as np
import pytest
from report_only_track import ReportOnlyTrack

from benchmark.cli import main
from benchmark.core.results import Results, ResultsHeader, TrackSection
from benchmark.core.rows import Row
from benchmark.core.track import PairedData, TrackContext
from benchmark.llm.ledger import LEDGER_KEY, RunLedger
from benchmark.llm.pricing import Price
from benchmark.reports.plan import plan_pairs, side_cost, table
from benchmark.stats.power import components, design_se, detectable, units_needed


def _mean(sums: np.ndarray) -> np.ndarray:
    sums = np.atleast_2d(sums)
    return sums[:, 0] / sums[:, 1]


class Scores(ReportOnlyTrack):
    """Rows with a ``score`` each; the headline is their mean, the unit their task."""

    name = "scores"
    title = "Scores"
    headline_name = "mean score"
    unit_name = "task"

    def paired(self, first: Sequence[Row], second: Sequence[Row]) -> PairedData | None:
        def entries(rows: Sequence[Row]) -> list[tuple[str, tuple[float, float]]]:
            return [(row.task, (row.payload["score"], 1.0)) for row in rows]

        return PairedData.of(entries(first), entries(second), _mean)


def _ledger(input_tokens: int, output_tokens: int, cost: float | None) -> dict:
    ledger = RunLedger(1, input_tokens, output_tokens, cost, None, (1.0,), 1, ())
    return {LEDGER_KEY: ledger.row_json()}


def _rows(seed: int = 1, tasks: int = 12, runs: int = 2) -> list[Row]:
    rng = np.random.default_rng(seed)
    found = []
    for t in range(tasks):
        base = rng.uniform(0.3, 0.7)
        for r in range(runs):
            for provider, shift in (("A", 0.1), ("B", 0.0)):
                score = float(np.clip(base + shift + rng.normal(0, 0.1), 0, 1))
                provenance = _ledger(1000, 200, 0.0045) if provider == "A" else {}
                found.append(
                    Row(
                        "scores",
                        provider,
                        "m",
                        f"t{t:02d}",
                        f"run{r + 1:02d}",
                        provenance=provenance,
                        payload={"score": score},
                    )
                )
        found.append(
            Row("scores", "Base", "m", f"t{t:02d}", "Base", file="<baseline:Base>", payload={"score": 0.2})
        )
    return found


@pytest.fixture
def track(tmp_path: Path) -> Scores:
    return Scores(TrackContext(tmp_path))


def test_the_plan_is_the_fewest_units_that_reach_the_effect(track: Scores) -> None:
    rows = _rows()
    plans = {(p.first, p.second): p for p in plan_pairs(track, rows, effect=0.08, runs=(1, 4))}
    assert set(plans) == {("A", "B"), ("A", "Base"), ("B", "Base")}
    plan = plans[("A", "B")]
    data = track.paired([r for r in rows if r.provider == "A"], [r for r in rows if r.provider == "B"])
    expected = components(data.first, data.second, data.statistic, mean_runs=False)
    assert plan.components == expected
    assert plan.pilot == detectable(expected.se, 12)
    one, four = plan.designs
    assert one.units == units_needed(expected, 0.08, 1) and four.units == units_needed(expected, 0.08, 4)
    assert four.units <= one.units  # more runs never need more units
    assert one.mde <= 0.08 < detectable(design_se(expected, one.units - 1, 1), one.units - 1).effect
    # A's ledgers know no price here (no configured one): the pilot's paid cost per unit x run; B has none
    assert one.cost is None and "no ledger" in one.note


def test_the_cost_uses_the_configured_price_else_the_pilots(track: Scores) -> None:
    rows = [r for r in _rows() if r.provider == "A"]
    price = Price(2.5, 10.0)
    assert side_cost(rows, 24, price).usd == pytest.approx(price.cost(24 * 1000, 24 * 200) / 24)
    paid = side_cost(rows, 24, None)
    assert paid.usd == pytest.approx(0.0045) and paid.note == "at the pilot ledgers' price"
    baseline = [r for r in _rows() if r.provider == "Base"]
    assert side_cost(baseline, 12, None).usd == 0  # a baseline costs nothing, however many runs
    plans = plan_pairs(track, _rows(), effect=0.08, runs=(2,), providers=("base",), price_of=lambda p: price)
    (a_base,) = [p for p in plans if p.first == "A"]
    design = a_base.designs[0]
    assert design.cost == pytest.approx(design.units * 2 * price.cost(1000, 200))  # Base adds 0
    assert {p.second for p in plans} == {"Base"}  # --provider: only the pairs with it


def test_a_pilot_with_one_run_per_unit_cannot_split_the_variance(track: Scores) -> None:
    plans = plan_pairs(track, _rows(runs=1), effect=0.08, runs=(1, 5))
    plan = next(p for p in plans if (p.first, p.second) == ("A", "B"))
    assert plan.components.within_first is None and plan.components.within_second is None
    assert plan.designs[0].units == plan.designs[1].units  # more runs do not help on this evidence
    notes = table(plans, track, 0.08, (1, 5)).notes
    assert any("one run per unit on both sides" in note for note in notes)


def test_the_command_plans_from_a_saved_session(track: Scores, tmp_path: Path, capsys, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setattr("benchmark.core.registry.track_class", lambda name: Scores)
    saved = Results(ResultsHeader(), (TrackSection("scores", {}, (), tuple(_rows())),)).save(
        tmp_path / "r.json"
    )
    assert main(["plan", str(saved), "--track", "scores", "--effect", "0.08", "--runs", "1,4"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("Study plan, scores: Scores") and "4 runs: tasks × runs (cost)" in out
    assert main(["plan", str(saved), "--track", "scores", "--effect", "-1"]) == 2
    assert "--effect: must be a positive number, got -1.0" in capsys.readouterr().err
    assert main(["plan", str(saved), "--track", "scores", "--effect", "0.1", "--runs", "0"]) == 2


def test_the_command_plans_from_the_bundled_tree(capsys) -> None:  # type: ignore[no-untyped-def]
    root = Path(__file__).resolve().parents[2] / "validation"
    assert main(["plan", str(root), "--effect", "0.1", "--provider", "Synthetic-Noisy", "--runs", "1,3"]) == 0
    out = capsys.readouterr().out
    lines = out.splitlines()
    line = next(x for x in lines if x.startswith("Synthetic-Noisy ") and "Synthetic-Sloppy " in x)
    assert line.split()[2] == "8"  # the pilot's eight transformations
    assert "transformations × runs" in out and "cost not known" in out  # synthetic runs: no ledger
