"""Atomic writes: content, no temporary file left behind, the mode a plain open() would give."""

import os
import stat

from benchmark.core.fileio import write_bytes_atomic, write_text_atomic


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def test_atomic_writes_leave_one_readable_file(tmp_path):
    text = write_text_atomic(tmp_path / "sub" / "a.txt", "héllo\n")
    data = write_bytes_atomic(tmp_path / "b.png", b"\x89PNG\x00")
    assert text.read_text(encoding="utf-8") == "héllo\n" and data.read_bytes() == b"\x89PNG\x00"
    assert sorted(p.name for p in tmp_path.rglob("*") if p.is_file()) == ["a.txt", "b.png"]
    expected = 0o666 & ~_umask()
    for path in (text, data):
        assert stat.S_IMODE(path.stat().st_mode) == expected
