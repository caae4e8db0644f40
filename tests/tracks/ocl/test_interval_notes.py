"""The note an OCL interval carries when the bootstrap cannot see a source of variation names the track's
unit, the constraint (the mapping track's unit, the transformation, has no place in it)."""

from __future__ import annotations

from benchmark.tracks.ocl.pairs import compare_modes
from benchmark.tracks.ocl.scores import Judged, score


def answer(constraint: str, mode: str, correct: bool, run: str) -> Judged:
    outcome = "agreement" if correct else "disagreement"
    return Judged("P", "m", run, "shop", mode, constraint, outcome, "", (), "f")


def notes(answers: list[Judged]) -> set[str | None]:
    found = {i.note for s in score(answers, draws=50) for i in s.intervals.values()}
    return found | {p.interval.note for p in compare_modes(answers, draws=50) if p.interval is not None}


def test_one_constraint_with_several_runs_says_constraint() -> None:
    answers = [
        answer("a", mode, ok, run)
        for run, ok in (("run01", True), ("run02", False), ("run03", True))
        for mode in ("original", "rename")
    ]
    assert notes(answers) == {
        "one constraint: the interval shows run-to-run variation only, not variation over constraints"
    }


def test_one_run_per_constraint_says_constraint() -> None:
    answers = [answer(c, mode, c != "b", "run01") for c in "abc" for mode in ("original", "rename")]
    assert notes(answers) == {"one run per constraint: the interval shows variation over constraints only"}


def test_one_constraint_with_one_run_says_constraint() -> None:
    answers = [answer("a", mode, True, "run01") for mode in ("original", "rename")]
    (note,) = notes(answers)
    assert note is not None and note.startswith("one constraint with one run: nothing to resample")
    assert "transformation" not in note
