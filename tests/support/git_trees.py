"""Folders in each state the provenance code tells apart, made for a test: a git checkout with a commit,
and the source archive of that commit (``git archive``, as a release or an artefact copy is made).

Tests make their own repositories instead of reading this project's: the suite must pass in a source
archive of the project too (CI runs it in one: ``.ci/run``), where there is no ``.git`` to read.
"""

from __future__ import annotations

import io
import subprocess
import tarfile
from pathlib import Path

import pytest

# No user's configuration decides how these commits are made (a name is required, signing may be on).
SETTINGS = ("user.name=atlbench tests", "user.email=tests@atlbench.invalid", "commit.gpgsign=false")


def git(folder: Path, *args: str) -> str:
    return subprocess.run(
        ["git", "-C", str(folder), *(a for s in SETTINGS for a in ("-c", s)), *args],
        check=True,
        capture_output=True,
        text=True,
    ).stdout


def checkout(folder: Path, files: dict[str, str] | None = None) -> str:
    """``folder`` made a git repository whose one commit holds ``files`` (path -> text; two small files
    when not given) and whatever the folder held already; its commit."""
    for name, text in (files if files is not None else {"data/a.txt": "a\n", "b.txt": "b\n"}).items():
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_text(text, encoding="utf-8")
    git(folder, "init", "-q")
    git(folder, "add", "-A")
    git(folder, "commit", "-q", "-m", "the one commit")
    return git(folder, "rev-parse", "HEAD").strip()


def archive(repo: Path, into: Path) -> Path:
    """The source archive of ``repo``'s HEAD unpacked into ``into``, as a user unpacks a release."""
    into.mkdir(parents=True, exist_ok=True)
    packed = subprocess.run(
        ["git", "-C", str(repo), "archive", "HEAD"], check=True, capture_output=True
    ).stdout
    with tarfile.open(fileobj=io.BytesIO(packed)) as tar:
        if hasattr(tarfile, "data_filter"):  # Python 3.11.4 on: extract files and folders only
            tar.extractall(into, filter="data")
        else:
            tar.extractall(into)  # an archive git just made of a repository a test wrote
    return into


def no_git_above(folder: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Git looks for no repository above ``folder`` (``GIT_CEILING_DIRECTORIES``: it never enters the folder
    that holds it), so that a test's folder outside its own repositories is "not a git checkout" even
    where the temporary folders lie inside someone's repository."""
    monkeypatch.setenv("GIT_CEILING_DIRECTORIES", str(folder.resolve().parent))
    return folder
