"""Options declared once, added to pytest and to the CLI from the same declaration.

A track (and the harness itself) declares each option as an :class:`Option`: its flag, its default (as
text, the way an ini file or a command line gives it), a parser that converts and checks the value, and
the help. The pytest plugin turns it into ``--flag`` plus an ini key (``atlbench_<flag>``); a CLI command
turns it into an argparse argument. The parser raises :class:`~benchmark.core.errors.ConfigurationError`
(or ``ValueError``, translated here) and the message always names the option's flag, so one option has
one spelling of its errors wherever it is given.

An option may have ``aliases``: other spellings of the same flag (the seed study's ``--partial-match-weight``
for ``--partial-weight``), accepted on every command line and, as ``atlbench_<alias>``, in the ini file;
errors name the option's own flag. Given twice under two spellings, the last on the command line wins,
and in an ini file the option's own key.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
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
    aliases: tuple[str, ...] = ()  # other spellings of the flag, accepted wherever the flag is

    @property
    def ini(self) -> str:
        return self.ini_name or _ini_key(self.flag)

    @property
    def flags(self) -> tuple[str, ...]:
        """The flag and its aliases, as a command line accepts them."""
        return (self.flag, *self.aliases)

    @property
    def ini_aliases(self) -> tuple[str, ...]:
        """The ini keys of the aliases (``atlbench_partial_match_weight``)."""
        return tuple(_ini_key(alias) for alias in self.aliases)

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
        if self.kind in (LIST, FLAG) or self.default == "" or self.default in self.help:
            return self.help
        return f"{self.help} (default: {self.default})"


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
        if option.kind == LIST:
            parser.add_argument(
                *option.flags,
                dest=option.dest,
                action="append",
                default=None,
                metavar=option.metavar,
                help=option.help_text(),
            )
        elif option.kind == FLAG:
            parser.add_argument(
                *option.flags, dest=option.dest, action="store_true", default=None, help=option.help
            )
        else:
            parser.add_argument(
                *option.flags, dest=option.dest, default=None, metavar=option.metavar, help=option.help_text()
            )


def read_argparse(args: argparse.Namespace, options: Sequence[Option]) -> dict[str, Any]:
    """The checked values of ``options`` from parsed CLI arguments (defaults where not given)."""
    values: dict[str, Any] = {}
    for option in options:
        given = getattr(args, option.dest, None)
        raw = given if given is not None else (() if option.kind == LIST else option.default)
        values[option.dest] = option.convert(raw, Path.cwd())
    return values


def read_mapping(raw: Mapping[str, tuple[Any, Path]], options: Sequence[Option]) -> dict[str, Any]:
    """Checked values from ``{dest: (raw value, base folder)}`` (the pytest plugin's reading)."""
    return {option.dest: option.convert(*raw[option.dest]) for option in options}
