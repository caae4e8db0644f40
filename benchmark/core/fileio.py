"""File writing and the reading of run files, shared by every command and the pytest plugin.

Reports and runs are written atomically (temporary file in the same directory, then ``os.replace``) so an
interrupted session or a concurrent reader never sees half a file, and JSON is always written the same
way so regenerated files are byte-identical.

Run files a user supplies are read through :func:`read_json_capped`: a file larger than its cap is refused
from its size alone (never read into memory), and text that is not UTF-8 or not JSON is an error at its
line and column, so a broken file is one positioned message and nothing else.
"""

from __future__ import annotations

import hashlib
import json
import os
import signal
import tempfile
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from benchmark.core.errors import BenchmarkError, InputFormatError, byte_position

#: the largest run file the OCL and round-trip tracks read (a run file of the bundled study is at most a
#: few hundred kilobytes; one of 16 MiB is not a run file but a mistake, said without reading it)
MAX_RUN_FILE_BYTES = 16 * 1024 * 1024


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


# mkstemp creates 0600 files; written files get the mode a plain open() would give them (0644 usually),
# so reports can be served, shared and archived. Read once, at import, while nothing else runs.
_FILE_MODE = 0o666 & ~_umask()


@contextmanager
def ctrl_c_deferred() -> Iterator[None]:
    """Hold a Ctrl-C (SIGINT) that arrives inside the block until the block is done, then raise it as
    usual. In the main thread only (the one Python delivers SIGINT to; elsewhere a no-op). A write is
    then whole or absent even when interrupted between creating its temporary file and entering the
    ``try`` that removes it (``atlbench generate`` files answers in the main thread while Ctrl-C is
    pressed, and an interrupted study must leave no stray ``.tmp`` beside its run files)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    received: list[int] = []
    previous = signal.signal(signal.SIGINT, lambda number, frame: received.append(number))
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)
        if received:
            if callable(previous):
                previous(signal.SIGINT, None)  # Python's default handler raises KeyboardInterrupt
            elif previous == signal.SIG_DFL:
                raise KeyboardInterrupt


def write_text_atomic(path: str | Path, text: str, *, durable: bool = False) -> Path:
    """Write ``text`` whole or not at all, a Ctrl-C included (:func:`ctrl_c_deferred`). ``durable``:
    also flush it to the disk (file and directory) before returning, so that it survives a power cut or
    a reboot, not only a killed process (what ``atlbench generate`` does with every paid answer)."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    with ctrl_c_deferred():
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
        try:
            with os.fdopen(fd, "w", encoding="utf-8", newline="") as handle:
                handle.write(text)
                if durable:
                    handle.flush()
                    os.fsync(handle.fileno())
            os.chmod(tmp, _FILE_MODE)
            os.replace(tmp, path)
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise
    if durable:
        sync_directory(path.parent)
    return path


def sync_directory(directory: str | Path) -> None:
    """Flush a directory's entries (a rename, a new file) to the disk; a no-op where not supported."""
    try:
        fd = os.open(directory, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def write_bytes_atomic(path: str | Path, data: bytes) -> Path:
    """Binary twin of :func:`write_text_atomic` (images)."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    with ctrl_c_deferred():
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
        try:
            with os.fdopen(fd, "wb") as handle:
                handle.write(data)
            os.chmod(tmp, _FILE_MODE)
            os.replace(tmp, path)
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise
    return path


def dumps_json(data: Any) -> str:
    """The project's one JSON text style: two-space indent, UTF-8 kept, trailing newline."""
    return json.dumps(data, indent=2, ensure_ascii=False) + "\n"


def write_json_atomic(path: str | Path, data: Any, *, durable: bool = False) -> Path:
    return write_text_atomic(path, dumps_json(data), durable=durable)


def sha256_file(path: str | Path) -> str:
    """Content hash used for caches and for the input manifest of ``results.json``."""
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        for chunk in iter(lambda: handle.read(1 << 16), b""):
            digest.update(chunk)
    return digest.hexdigest()


def sha256_text(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def read_bytes_capped(
    path: str | Path,
    *,
    limit: int,
    what: str = "file",
    error: type[BenchmarkError] = InputFormatError,
) -> bytes:
    """The bytes of ``path``, refused when the file holds more than ``limit`` bytes: its size is read
    first and a larger file is never loaded."""
    path = Path(path)
    try:
        size = path.stat().st_size
        data = b"" if size > limit else _read_at_most(path, limit + 1)
    except OSError as failure:
        raise error(f"cannot read file: {failure.strerror or failure}", file=path) from None
    if size > limit or len(data) > limit:  # (a file that grew while it was read is as large)
        raise error(
            f"{max(size, len(data)):,} bytes: larger than the {_size(limit)} a {what} may hold, not read "
            f"(not a {what} of this benchmark, or one that a runaway answer filled)",
            file=path,
        )
    return data


def read_text_capped(
    path: str | Path,
    *,
    limit: int,
    what: str = "file",
    error: type[BenchmarkError] = InputFormatError,
) -> str:
    """The UTF-8 text of ``path`` (:func:`read_bytes_capped`). Text that is not UTF-8 is an ``error`` at
    the line and column (counted in characters) of its first undecodable byte."""
    data = read_bytes_capped(path, limit=limit, what=what, error=error)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as failure:
        line, column = byte_position(data, failure.start)
        raise error(
            f"not UTF-8 text: byte 0x{data[failure.start]:02x} cannot be decoded ({failure.reason}); "
            f"save the {what} as UTF-8",
            file=path,
            line=line,
            column=column,
        ) from None


def read_json_capped(
    path: str | Path,
    *,
    limit: int,
    what: str = "file",
    error: type[BenchmarkError] = InputFormatError,
) -> Any:
    """The JSON value of ``path`` (:func:`read_text_capped`), or an ``error`` at the line and column where
    the text stops being JSON; a text that ends inside a value says it was cut off."""
    text = read_text_capped(path, limit=limit, what=what, error=error)
    try:
        return json.loads(text)
    except json.JSONDecodeError as failure:
        cut = failure.msg.startswith("Unterminated string") or failure.pos >= len(text.rstrip())
        hint = f" (the text ends before the JSON value does: a cut-off {what}?)" if cut else ""
        raise error(
            f"not valid JSON: {failure.msg}{hint}", file=path, line=failure.lineno, column=failure.colno
        ) from None


def _read_at_most(path: Path, count: int) -> bytes:
    with open(path, "rb") as handle:
        return handle.read(count)


def _size(limit: int) -> str:
    return f"{limit // (1024 * 1024)} MiB" if limit >= 1024 * 1024 else f"{limit:,} bytes"
