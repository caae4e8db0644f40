"""Errors a user can act on: every one names the file and, where known, the line, column and field.

All user-facing failures derive from :class:`BenchmarkError`, so the CLI can print them uniformly as
``FILE:LINE:COL: error: MESSAGE`` and exit with status 2, and the pytest plugin can turn them into a
failing case with the same text.
"""

from __future__ import annotations

from pathlib import Path


class BenchmarkError(Exception):
    """Base class for errors caused by the user's input (a file, an option), not by a bug.

    ``field`` is a JSON path (``$.mappings[3].target.feature``) or a model element name when the
    problem is inside a structured document rather than at a text position.
    """

    def __init__(
        self,
        message: str,
        *,
        file: str | Path | None = None,
        line: int | None = None,
        column: int | None = None,
        field: str | None = None,
    ) -> None:
        super().__init__(message)
        self.message = message
        self.file = str(file) if file is not None else None
        self.line = line
        self.column = column
        self.field = field

    @property
    def location(self) -> str:
        """``FILE:LINE:COL`` (as much of it as is known); empty when nothing is known."""
        parts: list[str] = []
        if self.file is not None:
            parts.append(self.file)
            if self.line is not None:
                parts.append(str(self.line))
                if self.column is not None:
                    parts.append(str(self.column))
        return ":".join(parts)

    def __str__(self) -> str:
        text = self.message if self.field is None else f"{self.field}: {self.message}"
        return f"{self.location}: {text}" if self.location else text

    def to_dict(self) -> dict[str, object]:
        """Plain-JSON form, for reports and for ``record_property`` (builtins only)."""
        return {
            "error": self.message,
            "file": self.file,
            "line": self.line,
            "column": self.column,
            "field": self.field,
            "type": type(self).__name__,
        }


def byte_position(data: bytes, offset: int) -> tuple[int, int]:
    """(line, column) of the byte at ``offset`` of UTF-8 ``data``, both from 1, the column counted in
    characters: where an error about a byte (one that is not UTF-8) points a reader."""
    start = data.rfind(b"\n", 0, offset) + 1
    return data.count(b"\n", 0, offset) + 1, len(data[start:offset].decode("utf-8", errors="replace")) + 1


class InputFormatError(BenchmarkError):
    """A JSON/XML/text input that does not have the documented shape."""


class ConfigurationError(BenchmarkError):
    """A command-line option, pytest option or configuration file entry that cannot be used."""
