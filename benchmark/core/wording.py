"""Small wording helpers for what the commands print, so that counts read as English ("1 run", "2 runs")."""

from __future__ import annotations

import re

_LITERAL = re.compile(r"``(.+?)``")
_ROLE = re.compile(r":[a-z]+(?::[a-z]+)?:`(~?)([^`<]+?)(?:\s*<[^>]+>)?`")
_ESCAPE = re.compile(r"\\(.)")


def plural(count: int, noun: str, plural_form: str | None = None) -> str:
    """``1 run``, ``2 runs``, ``0 runs``; ``plural_form`` for nouns that do not just take an ``s``
    (``plural(2, "entry", "entries")``)."""
    return f"{count} {word(count, noun, plural_form)}"


def word(count: int, noun: str, plural_form: str | None = None) -> str:
    """The noun alone, in the number ``count`` asks for (``unknown key 'x'``, ``unknown keys 'x', 'y'``)."""
    return noun if count == 1 else plural_form or noun + "s"


def plain_text(rest: str) -> str:
    """A reST docstring as terminal text: ``code`` and :role:`target` lose their markup (for ``--help``,
    which prints a module docstring as it is)."""
    text = _LITERAL.sub(r"\1", rest)
    text = _ROLE.sub(lambda m: m.group(2).rsplit(".", 1)[-1] if m.group(1) else m.group(2), text)
    return _ESCAPE.sub(r"\1", text.replace("\\ ", ""))


__all__ = ["plain_text", "plural", "word"]
