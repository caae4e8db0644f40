"""Provenance of a session for ``results.json`` and of a ``generate`` call for its manifest: package
versions, where the code and data come from in git, a timestamp.

The project is not always a git checkout: a release, an sdist, a tarball attached to a paper or a copy made
for an artefact evaluation (``git archive``) has no ``.git`` folder, and such a copy may be unpacked inside
some other repository, whose commit is not the copy's. So a folder's git state is either the commit its
files were checked out from or, in words, why there is none (:class:`GitSource`); the package's version
(:func:`versions`) is recorded in both cases and is then what identifies the code.
"""

from __future__ import annotations

import datetime as _dt
import os
import subprocess
import sys
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path
from typing import Any

PACKAGES = ("lark", "pyecore", "pytest", "pytest-xdist", "numpy", "scipy", "matplotlib")
PACKAGE = "atl-binding-bench"  # the key of this package's version in :func:`versions`

NOT_A_CHECKOUT = "not a git checkout"
NOT_A_FOLDER = "not a folder"
NO_GIT = "git is not installed"
NO_COMMIT_YET = "a git repository without a commit"
NOT_IN_THE_COMMIT = "inside a git checkout whose commit does not hold it"
GIT_TIMEOUT = 10  # seconds


def versions() -> dict[str, str]:
    from benchmark import __version__

    found = {"python": sys.version.split()[0], PACKAGE: __version__}
    for package in PACKAGES:
        try:
            found[package] = metadata.version(package)
        except metadata.PackageNotFoundError:
            continue
    return found


@dataclass(frozen=True)
class GitSource:
    """What git says of a folder: the commit its files were checked out from, or why there is none
    (``missing``, in words: :data:`NOT_A_CHECKOUT`, ...). ``changed``: whether its tracked files had
    uncommitted changes (``None``: not asked, or no commit to compare with)."""

    commit: str | None = None
    missing: str | None = None
    changed: bool | None = None

    def to_json(self) -> dict[str, Any]:
        """A manifest's ``code`` or ``data`` block: ``gitCommit``, ``uncommittedChanges`` and, when there
        is no commit, ``gitCommitMissing`` (why)."""
        data: dict[str, Any] = {"gitCommit": self.commit, "uncommittedChanges": self.changed}
        if self.commit is None:
            data["gitCommitMissing"] = self.missing
        return data


def git_source(directory: Path, *, changes: bool = False) -> GitSource:
    """The commit ``directory``'s files come from, and with ``changes`` whether its tracked files differ
    from it; or why there is none. A folder inside a repository whose commit does not hold it (a source
    archive unpacked in someone's checkout, data not committed yet) has no commit: the repository's
    would name other files."""
    if not Path(directory).is_dir():
        return GitSource(missing=NOT_A_FOLDER)
    try:
        top = _git(directory, "rev-parse", "--show-toplevel")
        if top.returncode != 0:
            said = (top.stderr.strip().splitlines() or ["no message"])[0]
            return GitSource(missing=NOT_A_CHECKOUT if "not a git repository" in said else f"git: {said}")
        commit = _git(directory, "rev-parse", "--verify", "--quiet", "HEAD^{commit}").stdout.strip()
        if not commit:
            return GitSource(missing=NO_COMMIT_YET)
        if not _git(directory, "ls-tree", "--name-only", "HEAD", "--", ".").stdout.strip():
            return GitSource(missing=NOT_IN_THE_COMMIT)
        changed = None
        if changes:
            status = _git(directory, "status", "--porcelain", "--untracked-files=no", "--", ".")
            changed = bool(status.stdout.strip()) if status.returncode == 0 else None
    except FileNotFoundError:
        return GitSource(missing=NO_GIT)
    except subprocess.TimeoutExpired:
        return GitSource(missing=f"git did not answer within {GIT_TIMEOUT} s")
    except (OSError, subprocess.SubprocessError) as error:
        return GitSource(missing=f"git could not run: {error}")
    return GitSource(commit=commit, changed=changed)


def _git(directory: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """``git -C directory ARGS``, its messages in English (they are matched above)."""
    return subprocess.run(
        ["git", "-C", str(directory), *args],
        capture_output=True,
        text=True,
        timeout=GIT_TIMEOUT,
        env={**os.environ, "LC_ALL": "C"},
    )


def source_words(commit: str | None, missing: str | None, package_version: str | None) -> str:
    """How a report's header names the code: ``atl-binding-bench 0.1.0, commit abc…``, or the version
    and why there is no commit (``no git commit: not a git checkout``), or that none was recorded (a
    file written before the reason was)."""
    named = [f"{PACKAGE} {package_version}"] if package_version else []
    if commit:
        return ", ".join([*named, f"commit {commit}"])
    return ", ".join([*named, f"no git commit: {missing or 'none recorded'}"])


def now() -> str:
    return _dt.datetime.now(_dt.UTC).replace(microsecond=0).isoformat()
