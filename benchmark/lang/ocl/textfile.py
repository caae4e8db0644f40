"""Reading the OCL track's text inputs (``.use``, PlantUML, SOIL, constraints) as UTF-8.

Every reader needs the same two failure paths: a file that cannot be opened, and bytes that are not
UTF-8 (a model saved as Latin-1 is common). Both must be the reader's own positioned error, not an
``OSError`` or ``UnicodeDecodeError`` traceback, so the CLI can print ``FILE:LINE:COL: error: ...``.
"""

from __future__ import annotations

from pathlib import Path

from benchmark.core.errors import byte_position
from benchmark.lang.ocl.errors import OclError


def read_text_file(path: str | Path, error: type[OclError], what: str) -> str:
    """The text of ``path`` (universal newlines, as :meth:`Path.read_text`), or ``error`` naming the file
    and, for undecodable bytes, the line and column of the first one. ``what`` names the input
    ("model", "state", ...) in the message."""
    path = Path(path)
    try:
        return path.read_text(encoding="utf-8")
    except OSError as failure:
        raise error(f"cannot read {what}: {failure.strerror}", file=str(path)) from None
    except UnicodeDecodeError as failure:
        data = failure.object
        line, column = byte_position(data, failure.start)
        raise error(
            f"cannot read {what}: byte 0x{data[failure.start]:02x} is not UTF-8 (save the file as UTF-8)",
            file=str(path),
            line=line,
            column=column,
        ) from None
