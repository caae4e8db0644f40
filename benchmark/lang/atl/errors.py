"""The ATL front-end's error type."""

from __future__ import annotations

from pathlib import Path

from benchmark.core.errors import BenchmarkError

__all__ = ["AtlSyntaxError"]


class AtlSyntaxError(BenchmarkError):
    """An ATL text the parser rejects: lexical error, syntax error, or a construct ATL forbids.

    Besides ``file``, ``line`` and ``column`` (1-based, of the offending token) it carries ``token`` (the
    offending text, ``""`` at end of file) and ``expected`` (what would have been accepted there, as a
    user reads it: ``"';'"``, ``"a name"``; empty when not applicable). ``str()`` gives
    ``FILE:LINE:COL: message``."""

    def __init__(
        self,
        message: str,
        *,
        file: str | Path | None = None,
        line: int | None = None,
        column: int | None = None,
        token: str | None = None,
        expected: tuple[str, ...] = (),
    ) -> None:
        super().__init__(message, file=file, line=line, column=column)
        self.token = token
        self.expected = expected

    def to_dict(self) -> dict[str, object]:
        result = super().to_dict()
        result["token"] = self.token
        result["expected"] = list(self.expected)
        return result

    def __reduce__(self) -> tuple[object, ...]:
        # Keyword-only arguments: the default exception pickling would lose them (worker processes send
        # errors back to the parent).
        return (
            _rebuild,
            (self.message, self.file, self.line, self.column, self.token, self.expected),
        )


def _rebuild(
    message: str,
    file: str | None,
    line: int | None,
    column: int | None,
    token: str | None,
    expected: tuple[str, ...],
) -> AtlSyntaxError:
    return AtlSyntaxError(message, file=file, line=line, column=column, token=token, expected=expected)
