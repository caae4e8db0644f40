"""One option grammar for every track: integers, lists of integers, lists of names, aliases, and a track's
sub-command taking its declaration from the track's option."""

from __future__ import annotations

import argparse

import pytest

from benchmark.core.errors import ConfigurationError
from benchmark.core.options import (
    Option,
    add_to_argparse,
    integer,
    integers,
    names,
    optional,
    read_argparse,
)
from benchmark.core.registry import track_classes


def test_integer_says_what_it_wants():
    parse = integer("a whole number of at least 1", 1)
    assert parse(" 7 ") == 7
    with pytest.raises(ValueError, match=r"must be a whole number of at least 1, got 0$"):
        parse("0")
    with pytest.raises(ValueError, match=r"must be a whole number of at least 1, got 'x'$"):
        parse("x")
    assert optional(parse)("") is None


def test_integers_are_sorted_once():
    parse = integers("numbers of at least 1 separated by commas", 1)
    assert parse("4,1, 2,4") == (1, 2, 4)
    for bad in ("", "1,x", "0,2"):
        with pytest.raises(ValueError, match="must be numbers of at least 1 separated by commas"):
            parse(bad)


def test_names_take_all_none_and_lists_in_any_spelling():
    parse = names(("EMFCompare", "NameEquality"), "baseline")
    assert parse("all") == parse("ALL") == ("EMFCompare", "NameEquality")
    assert parse("none") == parse("") == ()
    assert parse("name-equality, emfcompare,NameEquality") == ("NameEquality", "EMFCompare")
    with pytest.raises(ValueError, match="unknown baseline 'x'; choose all, none or some of: EMFCompare"):
        parse("emfcompare,x")


def test_every_track_speaks_the_same_vocabulary():
    """``--<track>-baselines``, ``--<track>-draws`` (report), ``--<track>-seed``; each accepts ``all``."""
    for track in track_classes():
        if track.name not in ("atl", "roundtrip", "ocl"):
            continue
        flags = {o.flag: o for o in (*track.options, *track.report_options)}
        baselines = flags[f"--{track.name}-baselines"]
        assert baselines.parse("all") and baselines.parse("none") == ()
        assert f"--{track.name}-draws" in flags and f"--{track.name}-seed" in flags


def _parsed(options, argv):
    parser = argparse.ArgumentParser(exit_on_error=False)
    add_to_argparse(parser, options)
    return read_argparse(parser.parse_args(argv), options)


def test_an_alias_is_read_and_named_in_its_messages():
    option = Option(
        "--atl-draws", "5", "draws", integer("a whole number of at least 1", 1), aliases=("--draws",)
    )
    assert _parsed([option], []) == {"atl_draws": 5}
    assert _parsed([option], ["--draws", "9"]) == {"atl_draws": 9}
    assert _parsed([option], ["--atl-draws", "8"]) == {"atl_draws": 8}
    with pytest.raises(ConfigurationError) as error:
        _parsed([option], ["--draws", "0"])
    assert str(error.value) == "--draws: must be a whole number of at least 1, got 0"
    assert "also spelt --draws" in option.help_text()


def test_a_sub_command_spells_the_track_option_its_own_way():
    from benchmark.tracks.ocl.options import SEED

    for option, flag in ((SEED, "--ocl-seed"), (SEED.spelled("--seed"), "--seed")):
        with pytest.raises(ConfigurationError) as error:
            _parsed([option], [flag, "-1"])
        assert str(error.value) == f"{flag}: must be a whole number of at least 0, got -1"


def test_the_cli_sub_commands_use_the_track_options(tmp_path, capsys):
    from benchmark.cli import main

    assert main(["ocl", "synth", "--root", str(tmp_path), "--seed", "-3"]) == 2
    assert "--seed: must be a whole number of at least 0, got -3" in capsys.readouterr().err
    assert main(["roundtrip", "synth", "--data", str(tmp_path), "--examples", "0"]) == 2
    assert "--examples: must be numbers of example pairs of at least 1" in capsys.readouterr().err
