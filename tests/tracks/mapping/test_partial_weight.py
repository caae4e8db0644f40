"""The partial weight is a lens applied where scores are read: rows hold raw categories, and the value
goes from its option to the formula ``TP = exact + w·partial`` in six calls on one path, the same for
pytest and ``atlbench validate`` (a track hook) and for ``atlbench diff`` (the JSON report)
(``docs/TRACKS.md``, "The partial weight"). The paths are traced, not assumed: the stack under
:meth:`BindingCounts.tp` is read when the formula first runs."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from pathlib import Path

from benchmark.cli import main
from benchmark.core.track import TrackContext
from benchmark.tracks.mapping.counts import BindingCounts, ClassCounts
from benchmark.tracks.mapping.options import PARTIAL_WEIGHT
from benchmark.tracks.mapping.payload import RunRow
from benchmark.tracks.mapping.track import AtlTrack

DATA = Path(__file__).parent / "scoring" / "data"


def _stack_under_the_formula(call: Callable[[], object]) -> list[str]:
    """The names of the functions on the stack when ``BindingCounts.tp`` first runs, innermost first."""
    stacks: list[list[str]] = []

    def profile(frame, event, arg):  # noqa: ARG001
        if event == "call" and frame.f_code is BindingCounts.tp.__code__ and not stacks:
            names, current = [], frame
            while current is not None:
                names.append(current.f_code.co_name)
                current = current.f_back
            stacks.append(names)

    sys.setprofile(profile)
    try:
        call()
    finally:
        sys.setprofile(None)
    return stacks[0]


def test_rows_hold_raw_categories_and_a_track_hook_applies_the_option() -> None:
    w = PARTIAL_WEIGHT.convert("0.25", Path.cwd())  # 1: the option, its one range check
    track = AtlTrack(TrackContext(Path.cwd(), {"partial_weight": w, "confidence": None, "atl_baselines": ()}))
    row = RunRow.of(
        "P", "m", "T", "r1", classes=ClassCounts(1, 0, 0), bindings=BindingCounts(exact=1, partial=2)
    )
    assert "partialWeight" not in row.to_envelope().payload
    stack = _stack_under_the_formula(lambda: track.headline([row.to_envelope()]))
    assert stack[:5] == ["tp", "level_scores", "_group", "aggregate", "headline"]  # 2-6
    # the headline at w = 0.25: TP = 1 + 1 + 0.25·2 = 2.5, FP = FN = 0.75·2 = 1.5 -> F1 = 5 / 8
    assert track.headline([row.to_envelope()]) == {"P": 0.625}


def test_atlbench_diff_takes_the_same_option_and_formula(tmp_path: Path, capsys) -> None:
    argv = [
        "diff",
        "--atl",
        str(DATA / "library2catalog.interchange.json"),
        "--llm",
        str(DATA / "llm-export.json"),
    ]
    stack = _stack_under_the_formula(lambda: main([*argv, "--partial-weight", "1"]))
    assert stack[:5] == ["tp", "level_scores", "summary_json", "to_json", "run"]  # after the option: 6
    report = json.loads(capsys.readouterr().out)
    assert report["input"]["partialWeight"] == 1.0 and report["summary"]["binding"]["tp"] == 5
    assert main([*argv, "--partial-weight", "1.5"]) == 2
    assert "--partial-weight: must be a number in [0, 1], got 1.5" in capsys.readouterr().err
