"""The bundled data names no machine's folders: no text file below ``validation/`` holds an absolute path
of the machine it was written on (a worktree, a home, a temporary or cache folder).

The files are committed and read on other machines, where such a path means nothing and tells who wrote
them where; writers record paths relative to the project, or ``<outside the project>/name``
(``benchmark.llm.generate._recorded_path``). A file is text unless it holds a NUL byte; every line of
every text file is searched, and the failure names each file and line. Searched for: the usual roots of
Linux and macOS machines (``/work/``, ``/tmp/``, ``/root/``, ``/home/``, ``/Users/``, ``/var/folders/``),
a Windows drive (``C:\\...\\``, also JSON-escaped, with an upper-case letter: ``x:\\n`` in a JSON string is
a variable and a newline), and this machine's own checkout, home and temporary folders, wherever they are.
"""

from __future__ import annotations

import re
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
VALIDATION = REPO / "validation"

ROOTS = ("work", "tmp", "root", "home", "Users", "var/folders", "private/var")
UNIX = r"(?<![\w.\-])/(?:" + "|".join(re.escape(r) for r in ROOTS) + r")/"
WINDOWS = r"(?<![\w\\])[A-Z]:(?:\\\\|\\|/)[\w.$~ ()-]+(?:\\\\|\\|/)"


def _this_machine() -> list[str]:
    """This checkout's folder, the home and the temporary folder, as they are spelled here."""
    folders = {str(REPO), str(Path.home()), tempfile.gettempdir()}
    return [
        r"(?<![\w.\-])" + re.escape(folder) + r"(?=[/\\\"']|$)"
        for folder in sorted(folders)
        if len(folder) > 1
    ]


MACHINE_PATH = re.compile("|".join([UNIX, WINDOWS, *_this_machine()]))


def machine_paths(root: Path) -> list[str]:
    """``file:line: excerpt`` for every absolute path of a machine in the text files below ``root``."""
    found = []
    for path in sorted(p for p in root.rglob("*") if p.is_file()):
        data = path.read_bytes()
        if b"\0" in data:
            continue
        for number, line in enumerate(data.decode("utf-8", "replace").splitlines(), 1):
            for match in MACHINE_PATH.finditer(line):
                excerpt = line[max(0, match.start() - 30) : match.end() + 30]
                found.append(f"{path.relative_to(root.parent).as_posix()}:{number}: ...{excerpt}...")
    return found


def test_no_bundled_file_names_a_folder_of_a_machine() -> None:
    found = machine_paths(VALIDATION)
    assert not found, "absolute paths of a machine in bundled files:\n" + "\n".join(found)


def test_the_scan_finds_every_kind_of_machine_path(tmp_path: Path) -> None:
    """The negative control: each kind is found, with its file and line; relative paths, URLs and an
    OCL variable before an escaped newline are not paths of a machine."""
    root = tmp_path / "validation"
    (root / "T" / "runs").mkdir(parents=True)
    planted = {
        "/work/wt-29c/atlbench.toml": "unix",
        "/tmp/w29c/cache": "unix",
        "/home/alice/.cache/atlbench": "unix",
        "/Users/alice/project": "unix",
        "C:\\\\Users\\\\alice\\\\cache": "windows, JSON-escaped",
        "D:\\data\\runs": "windows",
        "E:/data/runs": "windows, forward slashes",
        str(REPO / "validation"): "this checkout",
        str(Path(tempfile.gettempdir()) / "x"): "this temporary folder",
    }
    lines = ["{"] + [f'  "{kind}": "{path}",' for path, kind in planted.items()] + ["}"]
    (root / "T" / "runs" / "a.json").write_text("\n".join(lines), encoding="utf-8")
    innocent = (
        '{"text": "context X inv:\\n  x:\\nInteger\\n", "file": "validation/T/runs/a.json", '
        '"url": "http://example.org/home/tmp/", "relative": "src/tmp/x", "placeholder": '
        '"<outside the project>/cache", "here": "./tmp/x"}\n'
    )
    (root / "T" / "b.json").write_text(innocent, encoding="utf-8")
    (root / "T" / "c.bin").write_bytes(b"\0/tmp/binary")
    found = machine_paths(root)
    assert [line.split(": ", 1)[0] for line in found] == [
        f"validation/T/runs/a.json:{n}" for n in range(2, 2 + len(planted))
    ], found
