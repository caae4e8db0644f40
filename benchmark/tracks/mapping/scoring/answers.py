"""The one decoder of LLM mapping answers: the text a model wrote, to the list of mapping entries it holds.

The prompt asks for a bare JSON array of mapping objects. Models wrap it: in a markdown code fence, after
a sentence of prose, or (OpenAI's JSON mode can only return objects) as the one array member of a JSON
object, ``{"mappings": [...]}``. Every unambiguous wrapping is accepted, and :class:`DecodedAnswer` says
which one was read (``atlbench generate`` records it in the run file as ``generation.answerShape``).
Anything else is an :class:`~benchmark.core.errors.InputFormatError` naming line and column: a truncated
or malformed answer, no JSON at all, an object with no array of mapping objects, or with several (which
one holds the mappings is then a guess, and a guess would invent content).

Rules (``docs/METRICS.md``, section 1): the payload is the first code fence's content (to the end of the
text when the fence is never closed, as in an answer cut off at ``max_tokens``), else the whole text. The
value starts at the payload's first non-blank character when that is ``[`` or ``{``; after prose, at the
first ``[`` followed by ``{`` or ``]``, or the first ``{`` followed by ``"``, whichever comes first. Only
that one candidate is decoded, never a fallback to some inner array.

Both the LLM runner (:mod:`benchmark.tracks.mapping.llm_task`), ``atlbench import`` and the suggestion
reader (:mod:`benchmark.tracks.mapping.scoring.suggestions`, for a raw answer saved as a file) call
:func:`decode_answer`, so an answer reads the same wherever it comes from.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from benchmark.core.errors import InputFormatError

# What held the array (generation.answerShape): the container, and how it was wrapped.
SHAPE_ARRAY = "array"
SHAPE_FENCED_ARRAY = "fenced-array"
SHAPE_PROSE_ARRAY = "array-in-prose"
SHAPE_OBJECT = "object"
SHAPE_FENCED_OBJECT = "fenced-object"
SHAPE_PROSE_OBJECT = "object-in-prose"
ANSWER_SHAPES = (
    SHAPE_ARRAY,
    SHAPE_FENCED_ARRAY,
    SHAPE_PROSE_ARRAY,
    SHAPE_OBJECT,
    SHAPE_FENCED_OBJECT,
    SHAPE_PROSE_OBJECT,
)

_FENCE = re.compile(r"```[^\n`]*\n(.*?)(?:```|\Z)", re.DOTALL)
_ARRAY_START = re.compile(r"\[\s*[\{\]]")
_OBJECT_START = re.compile(r"\{\s*\"")
_BOM = "\ufeff"


@dataclass(frozen=True)
class DecodedAnswer:
    """The entries of an answer, and where they were found (``member``: the object key, for objects)."""

    entries: list[Any]
    shape: str
    member: str | None = None
    object_keys: tuple[str, ...] = ()  # the keys of the object that held the array, for object shapes

    @property
    def in_object(self) -> bool:
        return self.member is not None

    def to_json(self) -> dict[str, Any]:
        """The run file's record of the shape: ``answerShape`` and, for an object, ``answerMember``."""
        data: dict[str, Any] = {"answerShape": self.shape}
        if self.member is not None:
            data["answerMember"] = self.member
        return data


def line_column(text: str, offset: int) -> tuple[int, int]:
    """1-based (line, column) of ``offset`` in ``text``."""
    line = text.count("\n", 0, offset) + 1
    column = offset - (text.rfind("\n", 0, offset) + 1) + 1
    return line, column


def payload(text: str) -> tuple[str, int, bool]:
    """(content of the first markdown code fence, its offset in ``text``, True), to the end of the text
    when the fence is never closed; ``(text, 0, False)`` when there is no fence."""
    match = _FENCE.search(text)
    if match is None:
        return text, 0, False
    return match.group(1), match.start(1), True


def decode_at(text: str, offset: int, *, what: str, source: str | Path | None) -> tuple[Any, int]:
    """(value, end offset) of the JSON value starting at ``offset``; errors carry line and column.

    :mod:`json` words some messages to be followed by a position (``Unterminated string starting at``);
    the position is spelled out so the message is a sentence, and an answer that stops inside its JSON
    says that it looks cut off, the usual cause (``max_tokens``).
    """
    try:
        return json.JSONDecoder().raw_decode(text, offset)
    except json.JSONDecodeError as error:
        line, column = line_column(text, error.pos)
        message = error.msg
        if message.endswith(" at"):
            message += f" line {line}, column {column}"
        if message.startswith("Unterminated string") or not text[error.pos :].strip():
            message += "; the text ends before the JSON does (cut off?)"
        raise InputFormatError(
            f"{what} is not valid JSON: {message}", file=source, line=line, column=column
        ) from error


def _start(text: str) -> tuple[int, bool, bool]:
    """(offset of the value, fenced, after prose), or :class:`InputFormatError` when there is none."""
    content, base, fenced = payload(text)
    stripped = content.lstrip()
    if stripped.startswith(("[", "{")):
        return base + len(content) - len(stripped), fenced, False
    candidates = [m.start() for m in (_ARRAY_START.search(content), _OBJECT_START.search(content)) if m]
    if not candidates:
        raise InputFormatError(
            "expected a JSON array of mappings, found no JSON array or object", line=1, column=1
        )
    return base + min(candidates), fenced, True


def _mapping_arrays(value: dict[str, Any]) -> list[tuple[str, list[Any]]]:
    """The members of an object that can hold the mappings: arrays of objects (or empty arrays)."""
    return [
        (key, member)
        for key, member in value.items()
        if isinstance(member, list) and all(isinstance(item, dict) for item in member)
    ]


def decode_answer(text: str, *, source: str | Path | None = None) -> DecodedAnswer:
    """The mapping entries of an LLM answer (see the module docstring for the accepted shapes).

    The entries are returned as written; checking their fields is the reader's job
    (:func:`benchmark.tracks.mapping.scoring.suggestions.parse_suggestions`).
    """
    text = text.removeprefix(_BOM)
    try:
        start, fenced, prose = _start(text)
    except InputFormatError as error:
        raise InputFormatError(error.message, file=source, line=error.line, column=error.column) from None
    is_array = text[start] == "["
    what = "the answer's JSON array" if is_array else "the answer's JSON object"
    value, _end = decode_at(text, start, what=what, source=source)
    if is_array:
        shape = SHAPE_FENCED_ARRAY if fenced else SHAPE_PROSE_ARRAY if prose else SHAPE_ARRAY
        return DecodedAnswer(entries=value, shape=shape)
    arrays = _mapping_arrays(value)
    if len(arrays) != 1:
        line, column = line_column(text, start)
        keys = ", ".join(repr(key) for key in value) or "none"
        found = (
            f"a JSON object with {len(arrays)} arrays of objects ({', '.join(k for k, _ in arrays)}): "
            "which one holds the mappings is ambiguous"
            if arrays
            else f"a JSON object without an array of mapping objects (its keys: {keys})"
        )
        raise InputFormatError(
            f"expected a JSON array of mappings, found {found}", file=source, line=line, column=column
        )
    member, entries = arrays[0]
    shape = SHAPE_FENCED_OBJECT if fenced else SHAPE_PROSE_OBJECT if prose else SHAPE_OBJECT
    return DecodedAnswer(entries=entries, shape=shape, member=member, object_keys=tuple(value))


__all__ = [
    "ANSWER_SHAPES",
    "DecodedAnswer",
    "SHAPE_ARRAY",
    "SHAPE_FENCED_ARRAY",
    "SHAPE_FENCED_OBJECT",
    "SHAPE_OBJECT",
    "SHAPE_PROSE_ARRAY",
    "SHAPE_PROSE_OBJECT",
    "decode_answer",
    "decode_at",
    "line_column",
    "payload",
]
