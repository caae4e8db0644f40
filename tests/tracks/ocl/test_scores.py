"""The study's scores on hand-made judgements: definitions, pairing, intervals."""

from __future__ import annotations

import math

from benchmark.tracks.ocl.scores import Judged, headline, score


def answer(constraint: str, mode: str, correct: bool, run: str = "run01", provider: str = "P") -> Judged:
    outcome = "agreement" if correct else "disagreement"
    return Judged(provider, "m", run, "shop", mode, constraint, outcome, "", (), "f")


def test_definitions() -> None:
    # original: a, b, c correct, d wrong; rename: a, d correct, b, c wrong
    answers = [
        *(answer(c, "original", ok) for c, ok in zip("abcd", (True, True, True, False), strict=True)),
        *(answer(c, "rename", ok) for c, ok in zip("abcd", (True, False, False, True), strict=True)),
    ]
    scores = {s.mode: s for s in score(answers, draws=300)}
    rename = scores["rename"].values
    assert rename["accuracy_original"] == 0.75 and rename["accuracy_transformed"] == 0.5
    assert rename["robustness"] == 0.25  # only a is correct before and after
    assert math.isclose(rename["retention"], 1 / 3)
    assert rename["drop"] == -0.25
    assert scores["original"].values["accuracy_transformed"] == 0.75
    interval = scores["rename"].intervals["robustness"]
    assert 0.0 <= interval.low <= 0.25 <= interval.high <= 1.0 and interval.draws == 300
    assert headline(list(scores.values())) == {"P": 0.25}


def test_pairing_is_per_run_and_an_unpaired_answer_has_no_original() -> None:
    answers = [
        answer("a", "original", True, "run01"),
        answer("a", "rename", True, "run01"),
        answer("a", "rename", True, "run02"),
    ]
    (_, rename) = score(answers, draws=50)
    assert rename.items == 2 and rename.paired == 1
    assert rename.values["robustness"] == 1.0 and rename.values["accuracy_transformed"] == 1.0


def test_intervals_are_reproducible_and_independent_of_other_providers() -> None:
    base = [answer(c, m, (hash(c + m) % 3) > 0) for c in "abcdefgh" for m in ("original", "full")]
    other = [answer(c, m, True, provider="Q") for c in "abcdefgh" for m in ("original", "full")]
    alone = {(s.provider, s.mode): s.intervals for s in score(base, draws=400)}
    together = {(s.provider, s.mode): s.intervals for s in score(base + other, draws=400)}
    assert alone[("P", "full")] == together[("P", "full")]
