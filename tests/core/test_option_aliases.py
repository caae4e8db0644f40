"""An option's aliases: other spellings of one flag, from the one declaration, on a command line and as ini
keys; an alias that another option already spells is caught when the session's options are gathered."""

from __future__ import annotations

import argparse

import pytest

from benchmark.core.errors import ConfigurationError
from benchmark.core.options import LIST, Option, add_to_argparse, number, read_argparse
from benchmark.core.track import Track
from benchmark.harness.options import all_options

WEIGHT = Option(
    "--partial-weight",
    "0.5",
    "weight",
    number("a number in [0, 1]", 0, 1),
    aliases=("--partial-match-weight",),
)
TAGS = Option("--tag", "", "tags", kind=LIST, aliases=("--label",))


def parsed(*argv: str) -> dict[str, object]:
    parser = argparse.ArgumentParser()
    add_to_argparse(parser, [WEIGHT, TAGS])
    return read_argparse(parser.parse_args(argv), [WEIGHT, TAGS])


def test_every_spelling_sets_the_one_value() -> None:
    assert parsed()["partial_weight"] == 0.5
    assert parsed("--partial-match-weight", "1")["partial_weight"] == 1.0
    # the option's own flag wins over an alias given beside it
    assert parsed("--partial-weight", "0.2", "--partial-match-weight", "0.3")["partial_weight"] == 0.2
    assert parsed("--label", "b")["tag"] == ("b",)
    assert parsed("--tag", "a", "--label", "b")["tag"] == ("a",)


def test_an_alias_is_checked_and_reported_under_the_spelling_the_user_typed() -> None:
    with pytest.raises(ConfigurationError) as caught:
        parsed("--partial-match-weight", "2")
    assert str(caught.value) == "--partial-match-weight: must be a number in [0, 1], got 2"


def test_ini_keys_of_the_aliases() -> None:
    assert WEIGHT.flags == ("--partial-weight", "--partial-match-weight")
    assert WEIGHT.ini == "atlbench_partial_weight"
    assert WEIGHT.alias_inis == ("atlbench_partial_match_weight",)
    assert TAGS.alias_inis == ("atlbench_label",)


def test_an_alias_that_the_harness_spells_is_a_configuration_error() -> None:
    class Clashing(Track):
        name = "clash"
        options = (Option("--clash-who", "", "who", aliases=("--provider",)),)

    with pytest.raises(ConfigurationError, match="track 'clash' declares --provider, which the harness"):
        all_options([Clashing])
