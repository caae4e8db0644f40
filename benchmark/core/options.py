"""Options declared once, added to pytest and to the CLI from the same declaration, and their grammar.

A track (and the harness itself) declares each option as an :class:`Option`: its flag (and the older
spellings it still accepts, :attr:`Option.aliases`), its default (as text, the way an ini file or a command
line gives it), a parser that converts and checks the value, and the help. The pytest plugin turns it into
``--flag`` plus an ini key (``atlbench_<flag>``); a CLI command turns it into an argparse argument, and a
track's own sub-command (``atlbench ocl transform --seed``) takes the same declaration under its own
spelling (:meth:`Option.spelled`). The parser raises :class:`~benchmark.core.errors.ConfigurationError` (or
``ValueError``, translated here) and the message always names the flag the user typed, so one option has
one spelling of its errors wherever it is given.

One grammar for every track's values: :func:`number` (a float in a range), :func:`integer` (a whole number
in a range), :func:`integers` (a comma list of them), :func:`names` (``all``, ``none`` or a comma list of
known names, in any case and punctuation), :func:`switch` and :func:`optional`. Every message reads
``must be WHAT, got VALUE``.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from benchmark.core.errors import ConfigurationError

VALUE = "value"
LIST = "list"  # repeatable on the command line; one item per line in an ini file
PATH = "path"  # a path, relative to where it was given (the invocation or the ini file's folder)
FLAG = "flag"  # a switch: given without a value on the command line; true/false in an ini file


@dataclass(frozen=True)
class Option:
    flag: str  # "--partial-weight"
    default: str  # as text; "" means unset
    help: str
    parse: Callable[[str], Any] = str
    kind: str = VALUE
    metavar: str | None = None
    ini_name: str | None = None  # the ini key, when not ``atlbench_<flag>``
    aliases: tuple[str, ...] = ()  # older spellings, still accepted (``--baseline`` for ``--atl-baselines``)

    @property
    def ini(self) -> str:
        return self.ini_name or _ini_key(self.flag)

    @property
    def flags(self) -> tuple[str, ...]:
        """The flag, then its aliases: every spelling the command line accepts."""
        return (self.flag, *self.aliases)

    @property
    def alias_inis(self) -> tuple[str, ...]:
        """The ini keys of the aliases (``atlbench_baseline``), read when the option's own key is unset."""
        return tuple(_ini_key(alias) for alias in self.aliases)

    def alias_dest(self, alias: str) -> str:
        """Where a parser keeps the value given under ``alias`` (apart, so that a message can name the
        spelling the user typed)."""
        return f"{self.dest}__as__{alias.lstrip('-').replace('-', '_')}"

    def given_as(self, read: Callable[[str], Any]) -> tuple[Any, Option]:
        """(value, the option as spelt) from ``read(dest)`` of a parser: the flag's value, else the first
        alias given (the option then names the alias in its messages), else ``(None, self)``."""
        given = read(self.dest)
        if given is not None:
            return given, self
        for alias in self.aliases:
            given = read(self.alias_dest(alias))
            if given is not None:
                return given, self.spelled(alias)
        return None, self

    def spelled(self, flag: str) -> Option:
        """The same option under another flag, without aliases: a track's sub-command spells it its own
        way (``--seed`` for ``--ocl-seed``) with the same parser, help and messages."""
        return replace(self, flag=flag, aliases=(), ini_name=None)

    @property
    def dest(self) -> str:
        return self.flag.lstrip("-").replace("-", "_")

    def convert(self, value: Any, base: Path) -> Any:
        """The checked value of ``value`` (text, a list of texts for :data:`LIST`), given at ``base``."""
        if self.kind == LIST:
            items = [str(item).strip() for item in (value or []) if str(item).strip()]
            return tuple(self._one(item) for item in items)
        if self.kind == FLAG:
            return value if isinstance(value, bool) else self._one(str(value if value is not None else ""))
        text = "" if value is None else str(value)
        if self.kind == PATH:
            return (base / text).resolve() if text else None
        return self._one(text)

    def _one(self, text: str) -> Any:
        try:
            return self.parse(text)
        except ConfigurationError as error:
            raise ConfigurationError(_without_field(error), field=self.flag) from None
        except ValueError as error:
            raise ConfigurationError(str(error), field=self.flag) from None

    def help_text(self) -> str:
        text = self.help
        if not (self.kind in (LIST, FLAG) or self.default == "" or self.default in self.help):
            text = f"{text} (default: {self.default})"
        if self.aliases:
            text = f"{text} (also spelt {', '.join(self.aliases)})"
        return text


def _ini_key(flag: str) -> str:
    return "atlbench_" + flag.lstrip("-").replace("-", "_")


def _without_field(error: ConfigurationError) -> str:
    return error.message


def number(
    what: str = "a number", low: float | None = None, high: float | None = None
) -> Callable[[str], float]:
    """A parser for a float in [low, high] whose message says what was expected."""

    def parse(text: str) -> float:
        try:
            value = float(text)
        except ValueError:
            raise ValueError(f"must be {what}, got {text!r}") from None
        if (low is not None and value < low) or (high is not None and value > high):
            raise ValueError(f"must be {what}, got {text}")
        return value

    return parse


def integer(
    what: str = "a whole number", low: int | None = None, high: int | None = None
) -> Callable[[str], int]:
    """A parser for a whole number in [low, high] whose message says what was expected (``what`` names
    the range: ``a whole number of at least 1``)."""

    def parse(text: str) -> int:
        try:
            value = int(text.strip())
        except ValueError:
            raise ValueError(f"must be {what}, got {text!r}") from None
        if (low is not None and value < low) or (high is not None and value > high):
            raise ValueError(f"must be {what}, got {value}")
        return value

    return parse


def integers(
    what: str = "whole numbers separated by commas", low: int | None = None
) -> Callable[[str], tuple[int, ...]]:
    """A parser for a comma list of whole numbers of at least ``low`` (``1,2,4``): sorted, each once."""
    one = integer(what, low)

    def parse(text: str) -> tuple[int, ...]:
        parts = [part for part in text.split(",") if part.strip()]
        if not parts:
            raise ValueError(f"must be {what}, got {text!r}")
        try:
            return tuple(sorted({one(part) for part in parts}))
        except ValueError:
            raise ValueError(f"must be {what}, got {text!r}") from None

    return parse


def _squash(text: str) -> str:
    return "".join(ch for ch in text.lower() if ch.isalnum())


def names(known: Sequence[str], what: str = "name") -> Callable[[str], tuple[str, ...]]:
    """A parser for ``all`` (every known name, in ``known``'s order), ``none`` or nothing (no name), or a
    comma list of known names in any case and punctuation (``name-equality`` is ``NameEquality``), given
    back in their own spelling, in the order given, each once. Every track's ``--<track>-baselines``."""
    spelled = {_squash(name): name for name in known}

    def parse(text: str) -> tuple[str, ...]:
        words = [word.strip() for word in text.split(",") if word.strip()]
        if [w.lower() for w in words] in ([], ["none"]):
            return ()
        if [w.lower() for w in words] == ["all"]:
            return tuple(known)
        chosen = []
        for word in words:
            if _squash(word) not in spelled:
                raise ValueError(f"unknown {what} {word!r}; choose all, none or some of: {', '.join(known)}")
            chosen.append(spelled[_squash(word)])
        return tuple(dict.fromkeys(chosen))

    return parse


def switch(text: str) -> bool:
    """A :data:`FLAG`'s value as an ini file gives it: ``true``/``false`` (also yes/no, on/off, 1/0);
    empty is false."""
    word = text.strip().lower()
    if word in ("", "false", "no", "off", "0"):
        return False
    if word in ("true", "yes", "on", "1"):
        return True
    raise ValueError(f"must be true or false, got {text!r}")


def optional(parse: Callable[[str], Any]) -> Callable[[str], Any]:
    """``parse``, except that an empty text means "not set" (``None``)."""
    return lambda text: None if text.strip() == "" else parse(text)


def add_to_argparse(parser: argparse.ArgumentParser, options: Iterable[Option]) -> None:
    """The same options on a CLI command (``atlbench validate``, ``atlbench report``...)."""
    for option in options:
        spellings = [(option.flag, option.dest, option.help_text())]
        spellings += [(alias, option.alias_dest(alias), argparse.SUPPRESS) for alias in option.aliases]
        for flag, dest, help in spellings:
            if option.kind == LIST:
                parser.add_argument(
                    flag, dest=dest, action="append", default=None, metavar=option.metavar, help=help
                )
            elif option.kind == FLAG:
                parser.add_argument(flag, dest=dest, action="store_true", default=None, help=help)
            else:
                parser.add_argument(flag, dest=dest, default=None, metavar=option.metavar, help=help)


def read_argparse(args: argparse.Namespace, options: Sequence[Option]) -> dict[str, Any]:
    """The checked values of ``options`` from parsed CLI arguments (defaults where not given)."""
    values: dict[str, Any] = {}
    for option in options:
        given, spelt = option.given_as(lambda dest: getattr(args, dest, None))
        raw = given if given is not None else (() if option.kind == LIST else option.default)
        values[option.dest] = spelt.convert(raw, Path.cwd())
    return values


def read_mapping(raw: Mapping[str, tuple[Any, Path]], options: Sequence[Option]) -> dict[str, Any]:
    """Checked values from ``{dest: (raw value, base folder)}`` (the pytest plugin's reading)."""
    return {option.dest: option.convert(*raw[option.dest]) for option in options}
