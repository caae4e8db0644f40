"""File writing shared by every command and the pytest plugin.

Reports and runs are written atomically (temporary file in the same directory, then ``os.replace``) so an
interrupted session or a concurrent reader never sees half a file, and JSON is always written the same
way so regenerated files are byte-identical.
"""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
from pathlib import Path
from typing import Any


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


# mkstemp creates 0600 files; written files get the mode a plain open() would give them (0644 usually),
# so reports can be served, shared and archived. Read once, at import, while nothing else runs.
_FILE_MODE = 0o666 & ~_umask()


def write_text_atomic(path: str | Path, text: str, *, durable: bool = False) -> Path:
    """Write ``text`` whole or not at all. ``durable``: also flush it to the disk (file and directory)
    before returning, so that it survives a power cut or a reboot, not only a killed process (what
    ``atlbench generate`` does with every paid answer)."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
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
