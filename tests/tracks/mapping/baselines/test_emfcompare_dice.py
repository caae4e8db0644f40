"""EMF Compare's bigram Dice coefficient (``DiffUtil.diceCoefficient``), every branch worked out by hand."""

from __future__ import annotations

import pytest

from benchmark.tracks.mapping.baselines.emfcompare.dice import SIMILAR, dice_coefficient


def test_equal_strings_are_exactly_one() -> None:
    assert dice_coefficient("Book", "Book") == 1.0
    assert dice_coefficient("", "") == 1.0  # equal arrays come first, even empty ones


@pytest.mark.parametrize(("first", "second"), [("", "a"), ("abc", ""), ("", "Book")])
def test_an_empty_string_gives_zero(first: str, second: str) -> None:
    assert dice_coefficient(first, second) == 0.0


@pytest.mark.parametrize(
    ("first", "second", "expected"),
    [
        # One string of length 1: equal characters position by position over the shorter length,
        # divided by the total length, not doubled when the lengths differ.
        ("a", "ab", 1 / 3),  # 'a' == 'a': 1 / (1 + 2)
        ("x", "xyz", 1 / 4),  # 1 / (1 + 3)
        ("b", "ab", 0.0),  # 'b' != 'a'
        ("a", "b", 0.0),  # same length 1: 2 * 0 / 2
        # Both of length 2: doubled because the lengths are equal.
        ("ab", "ac", 0.5),  # 2 * 1 / 4
        ("ab", "ba", 0.0),  # no position agrees, although the characters are the same
        ("id", "ID", 0.0),  # case-sensitive
    ],
)
def test_short_strings_compare_character_by_character(first: str, second: str, expected: float) -> None:
    assert dice_coefficient(first, second) == expected


@pytest.mark.parametrize(
    ("first", "second", "expected"),
    [
        ("night", "nacht", 2 * 1 / (4 + 4)),  # only "ht" in common
        ("Book", "Books", 2 * 3 / (3 + 4)),  # Bo, oo, ok
        ("NamedElt", "Named", 2 * 4 / (7 + 4)),  # Na, am, me, ed (the reference note's 0.73)
        ("Name", "name", 2 * 2 / (3 + 3)),  # am, me: the first bigram differs in case
        ("aaa", "aaaa", 2 * 2 / (2 + 3)),  # multiset intersection: "aa" twice
        ("ab", "abc", 2 * 1 / (1 + 2)),  # lengths 2 and 3 use bigrams
        ("title", "authors", 0.0),
    ],
)
def test_longer_strings_use_the_bigram_multiset(first: str, second: str, expected: float) -> None:
    assert dice_coefficient(first, second) == expected


def test_different_strings_with_the_same_bigrams_stay_below_one() -> None:
    # "aba" -> {ab, ba}; "bab" -> {ba, ab}: 2 * 2 / 4 = 1.0, capped just below 1 so it still is a change.
    assert dice_coefficient("aba", "bab") == SIMILAR
    assert SIMILAR < 1.0
    assert 400 * (1 - dice_coefficient("aba", "bab")) > 0


def test_dice_is_symmetric_on_a_few_names() -> None:
    names = ["Book", "Books", "Publication", "a", "ab", "nbPages", "author", "authors"]
    for first in names:
        for second in names:
            assert dice_coefficient(first, second) == dice_coefficient(second, first)
