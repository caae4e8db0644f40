"""``python -m benchmark.bench synth``: its options, the command it times, a command stopped at its bound,
and the cells it prints. Nothing here is timed: the bound is what is tested, with a command that sleeps."""

from __future__ import annotations

import os
import sys
from pathlib import Path

from benchmark.bench import build_parser
from benchmark.bench.synth import DEFAULT_PROFILES, Timed, _cell, _ratio, synth_command, time_synth


def test_defaults_time_every_variant_of_two_profiles_three_runs() -> None:
    args = build_parser().parse_args(["synth", "--tree", "validation"])
    assert args.profile is None and args.variants is None and args.runs == 3 and args.repeat == 3
    command = synth_command(Path("t"), list(DEFAULT_PROFILES), 3, "all")
    assert command[1:] == [
        "-m", "benchmark", "synth", "t", "--profile", "Synthetic-Memoriser", "--profile", "Synthetic-Noisy",
        "--runs", "3", "--atl-variant", "all",
    ]  # fmt: skip


def test_a_command_still_running_at_its_bound_is_stopped_and_reported_as_not_ended(tmp_path: Path) -> None:
    (tmp_path / "A" / "runs").mkdir(parents=True)
    (tmp_path / "A" / "runs" / "one.json").write_text("{}", encoding="utf-8")
    sleeping = [sys.executable, "-c", "import time; time.sleep(30)"]
    one = time_synth(tmp_path, sleeping, tmp_path, dict(os.environ), timeout=0.5)
    assert not one.ended and one.status is None and one.written == 1
    wall, cpu, files = _cell([one, Timed(1.0, 1.0, True, 0, 5)], 0.5)
    assert wall == "did not end within 0.5 s (1 of 2 ended)" and cpu == files == "-"
    assert _ratio([Timed(1.0, 1.0, True, 0, 5)], [one]) == "-"


def test_cells_give_medians_with_their_range_and_the_ratio_of_pairs() -> None:
    this = [Timed(s, s, True, 0, 30) for s in (10.0, 12.0, 11.0, 9.0, 10.5)]
    other = [Timed(2 * t.seconds, 2 * t.seconds, True, 0, 30) for t in this]
    assert _cell(this, 60) == ("10.50 [9.00-12.00]", "10.50", "30")
    assert _ratio(this, other) == "0.50 [0.50-0.50]"
