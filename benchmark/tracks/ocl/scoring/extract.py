"""Finding the constraint in an LLM's answer: fenced code, inline code or prose.

An answer is free text. The constraint is ``context C inv [name]: expr`` (several invariants, or several
``context`` blocks, are allowed: the answer then means their conjunction). Where it is looked for, first
match wins:

1. fenced code blocks (```` ```ocl ```` or any other fence) that contain ``context``, joined in order;
2. inline code spans (single backticks) that contain ``context``, joined in order;
3. the whole answer.

An answer asked for with a JSON Schema (``--answer-format schema`` or ``grounded``,
:mod:`benchmark.tracks.ocl.answer_schema`) is the object ``{"context", "name", "body"}``: when the whole
answer is such an object, the constraint is ``context CONTEXT inv NAME: BODY`` (``inv: BODY`` when the
name is not an identifier), its source ``json``, and judged like any other.

In the chosen text the constraint starts at the first line that begins with ``context`` (else at the
first ``context NAME`` followed later by ``inv``). Prose may follow it ("This ensures that ..."): when
the text from the start does not parse, trailing lines are dropped one at a time until it does. When no
prefix parses, the extraction is the whole text from ``context`` on, and the parser's error is the
judge's syntax error. The rules are deliberately forgiving about presentation and strict about OCL: an
answer that needs a human to fix the constraint itself is a failure, not something this module repairs.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import TypeVar

from benchmark.lang.ocl.errors import OclSyntaxError
from benchmark.lang.ocl.parser import parse_tree

_FENCE = re.compile(r"^[ \t]*(```|~~~)[^\n]*\n(.*?)^[ \t]*\1[ \t]*$", re.MULTILINE | re.DOTALL)
_INLINE = re.compile(r"`([^`\n]+)`")
_CONTEXT_WORD = re.compile(r"\bcontext\b")
_CONTEXT_LINE = re.compile(r"^[ \t]*context\s+[A-Za-z_]", re.MULTILINE)
T = TypeVar("T")

_CONTEXT_INV = re.compile(r"\bcontext\s+[A-Za-z_][\w\s,:]*?\binv\b", re.DOTALL)


@dataclass(frozen=True)
class Extraction:
    """The constraint text found in an answer (``None``: there is none) and where it came from."""

    text: str | None
    source: str  # json | fence | inline | prose | none


_IDENTIFIER = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")


def from_json_answer(answer: str) -> str | None:
    """The constraint an answer in the JSON answer format states (``context C inv NAME: BODY``), or
    ``None`` when the answer is not such an object (a free answer)."""
    try:
        # strict=False: raw line breaks inside a string read as line breaks (llama-cpp-python 0.3.36's
        # grammar lets the model write them; the schema check still reports the answer as not JSON)
        value = json.loads(answer, strict=False)
    except ValueError:
        return None
    if not isinstance(value, dict) or not all(isinstance(value.get(key), str) for key in ("context", "body")):
        return None
    name = value.get("name")
    named = f" {name.strip()}" if isinstance(name, str) and _IDENTIFIER.match(name.strip()) else ""
    return f"context {value['context'].strip()} inv{named}: {value['body'].strip()}"


def extract_constraint(answer: str) -> Extraction:
    """The ``context ... inv ...`` text of ``answer`` (see the module docstring); never raises."""
    try:
        return find_constraint(answer, _parse_tree)[0]
    except Unparsable as error:
        return error.extraction


def find_constraint(answer: str, parse: Callable[[str], T]) -> tuple[Extraction, T | None]:
    """The extraction and ``parse``'s result on it. ``parse`` raises :class:`OclSyntaxError` on text that
    does not parse; the judge passes the parser that builds the invariants, so an answer that parses as
    it stands (the usual case) is parsed once. When no prefix parses, :class:`Unparsable` is raised (the
    parser's first error, with the extraction). ``(Extraction(None, "none"), None)`` when there is no
    constraint at all."""
    stated = from_json_answer(answer)
    if stated is not None:  # the answer says which text is the constraint: no searching, no trimming
        extraction = Extraction(stated, "json")
        try:
            return extraction, parse(stated)
        except OclSyntaxError as error:
            raise Unparsable(extraction, error) from None
    fences = [m.group(2) for m in _FENCE.finditer(answer) if _CONTEXT_WORD.search(m.group(2))]
    if fences:
        return _from(fences, "fence", parse)
    spans = [m.group(1) for m in _INLINE.finditer(answer) if _CONTEXT_WORD.search(m.group(1))]
    if spans:
        found = _from(spans, "inline", parse)
        if found[0].text is not None:
            return found
    return _from([answer], "prose", parse)


def _from(parts: list[str], source: str, parse: Callable[[str], T]) -> tuple[Extraction, T | None]:
    text = "\n".join(part.strip("\n") for part in parts)
    start = _CONTEXT_LINE.search(text) or _CONTEXT_INV.search(text)
    if start is None:
        return Extraction(None, "none"), None
    lines = text[start.start() :].strip().splitlines()
    first: OclSyntaxError | None = None
    for end in range(len(lines), 0, -1):
        candidate = "\n".join(lines[:end]).strip()
        if "inv" not in candidate:
            break
        try:
            return Extraction(candidate, source), parse(candidate)
        except OclSyntaxError as error:
            first = first or error
    whole = Extraction("\n".join(lines), source)
    if first is None:  # no candidate had an `inv': the parser says what is wrong with the whole text
        try:
            return whole, parse(whole.text)  # type: ignore[arg-type]
        except OclSyntaxError as error:
            first = error
    raise Unparsable(whole, first)


class Unparsable(OclSyntaxError):
    """No prefix parses: the extraction (the whole text from ``context`` on) and the first error."""

    def __init__(self, extraction: Extraction, error: OclSyntaxError) -> None:
        super().__init__(error.message, file=error.file, line=error.line, column=error.column)
        self.extraction = extraction
        self.error = error

    def __str__(self) -> str:
        return str(self.error)


def _parse_tree(text: str) -> object:
    return parse_tree(text, "constraints_file")


__all__ = ["Extraction", "Unparsable", "extract_constraint", "find_constraint"]
