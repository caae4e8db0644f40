"""Finding the constraint in an LLM's answer: fenced code, inline code or prose.

An answer is free text. The constraint is ``context C inv [name]: expr`` (several invariants, or several
``context`` blocks, are allowed: the answer then means their conjunction). Where it is looked for, first
match wins:

1. fenced code blocks (```` ```ocl ```` or any other fence) that contain ``context``, joined in order;
2. inline code spans (single backticks) that contain ``context``, joined in order;
3. the whole answer.

In the chosen text the constraint starts at the first line that begins with ``context`` (else at the
first ``context NAME`` followed later by ``inv``). Prose may follow it ("This ensures that ..."): when
the text from the start does not parse, trailing lines are dropped one at a time until it does. When no
prefix parses, the extraction is the whole text from ``context`` on, and the parser's error is the
judge's syntax error. The rules are deliberately forgiving about presentation and strict about OCL: an
answer that needs a human to fix the constraint itself is a failure, not something this module repairs.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from benchmark.lang.ocl.errors import OclSyntaxError
from benchmark.lang.ocl.parser import parse_tree

_FENCE = re.compile(r"^[ \t]*(```|~~~)[^\n]*\n(.*?)^[ \t]*\1[ \t]*$", re.MULTILINE | re.DOTALL)
_INLINE = re.compile(r"`([^`\n]+)`")
_CONTEXT_WORD = re.compile(r"\bcontext\b")
_CONTEXT_LINE = re.compile(r"^[ \t]*context\s+[A-Za-z_]", re.MULTILINE)
_CONTEXT_INV = re.compile(r"\bcontext\s+[A-Za-z_][\w\s,:]*?\binv\b", re.DOTALL)


@dataclass(frozen=True)
class Extraction:
    """The constraint text found in an answer (``None``: there is none) and where it came from."""

    text: str | None
    source: str  # fence | inline | prose | none


def extract_constraint(answer: str) -> Extraction:
    """The ``context ... inv ...`` text of ``answer`` (see the module docstring)."""
    fences = [m.group(2) for m in _FENCE.finditer(answer) if _CONTEXT_WORD.search(m.group(2))]
    if fences:
        return _from(fences, "fence")
    spans = [m.group(1) for m in _INLINE.finditer(answer) if _CONTEXT_WORD.search(m.group(1))]
    if spans:
        found = _from(spans, "inline")
        if found.text is not None:
            return found
    return _from([answer], "prose")


def _from(parts: list[str], source: str) -> Extraction:
    text = "\n".join(part.strip("\n") for part in parts)
    start = _CONTEXT_LINE.search(text) or _CONTEXT_INV.search(text)
    if start is None:
        return Extraction(None, "none")
    lines = text[start.start() :].strip().splitlines()
    for end in range(len(lines), 0, -1):
        candidate = "\n".join(lines[:end]).strip()
        if _parses(candidate):
            return Extraction(candidate, source)
    return Extraction("\n".join(lines), source)


def _parses(text: str) -> bool:
    try:
        parse_tree(text, "constraints_file")
    except OclSyntaxError:
        return False
    return "inv" in text


__all__ = ["Extraction", "extract_constraint"]
