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


# ------------------------------------------------------------------------------------- capped reading


def test_a_file_over_its_cap_is_refused_from_its_size_without_being_read(tmp_path, monkeypatch):
    import pytest

    from benchmark.core import fileio
    from benchmark.core.errors import InputFormatError

    big = tmp_path / "big.json"
    with open(big, "wb") as handle:  # 50 MB, sparse where the file system allows it
        handle.truncate(50 * 1000 * 1000)
    opened = []
    monkeypatch.setattr(fileio, "_read_at_most", lambda path, count: opened.append(path) or b"")
    with pytest.raises(InputFormatError) as error:
        fileio.read_json_capped(big, limit=fileio.MAX_RUN_FILE_BYTES, what="run file")
    assert opened == []  # the size was enough
    assert str(error.value) == (
        f"{big}: 50,000,000 bytes: larger than the 16 MiB a run file may hold, not read (not a run file "
        "of this benchmark, or one that a runaway answer filled)"
    )


def test_text_that_is_not_utf8_is_an_error_at_its_line_and_column(tmp_path):
    import pytest

    from benchmark.core.errors import InputFormatError
    from benchmark.core.fileio import read_text_capped

    latin = tmp_path / "latin.json"
    latin.write_bytes('{\n  "é": "caf'.encode() + b"\xe9" + b'"\n}\n')
    with pytest.raises(InputFormatError) as error:
        read_text_capped(latin, limit=1000, what="run file")
    assert (error.value.line, error.value.column) == (2, 12)  # "é" is one character, two bytes
    assert str(error.value) == (
        f"{latin}:2:12: not UTF-8 text: byte 0xe9 cannot be decoded (invalid continuation byte); save the "
        "run file as UTF-8"
    )


def test_cut_off_json_says_where_and_that_it_was_cut_off(tmp_path):
    import pytest

    from benchmark.core.errors import InputFormatError
    from benchmark.core.fileio import read_json_capped

    cut = tmp_path / "cut.json"
    cut.write_text('{"format": "x",\n "answers": {"a": "context C inv', encoding="utf-8")
    with pytest.raises(InputFormatError) as error:
        read_json_capped(cut, limit=1000, what="run file")
    assert str(error.value) == (
        f"{cut}:2:19: not valid JSON: Unterminated string starting at (the text ends before the JSON "
        "value does: a cut-off run file?)"
    )
    wrong = tmp_path / "wrong.json"
    wrong.write_text('{"a": 1,, "b": 2}', encoding="utf-8")
    with pytest.raises(InputFormatError, match=r"wrong.json:1:9: not valid JSON: Expecting property name"):
        read_json_capped(wrong, limit=1000)


def test_a_ctrl_c_while_the_temporary_file_is_made_leaves_the_file_whole_and_no_tmp(tmp_path, monkeypatch):
    """SIGINT right after mkstemp made the temporary file, before the write's cleanup can run: the write
    finishes, then the KeyboardInterrupt comes (an interrupted ``atlbench generate`` left a stray .tmp)."""
    import signal
    import tempfile

    import pytest

    real = tempfile.mkstemp

    def interrupted_mkstemp(*args, **kwargs):
        made = real(*args, **kwargs)
        os.kill(os.getpid(), signal.SIGINT)  # delivered at the next bytecode, inside mkstemp's caller
        return made

    monkeypatch.setattr(tempfile, "mkstemp", interrupted_mkstemp)
    target = tmp_path / "run.json"
    with pytest.raises(KeyboardInterrupt):
        write_text_atomic(target, '{"whole": true}')
    assert target.read_text(encoding="utf-8") == '{"whole": true}'
    assert [p.name for p in tmp_path.iterdir()] == ["run.json"]
