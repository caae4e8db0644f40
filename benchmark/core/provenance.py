"""Provenance of a session for ``results.json``: package versions, git commit, a timestamp."""

from __future__ import annotations

import datetime as _dt
import subprocess
import sys
from importlib import metadata
from pathlib import Path

PACKAGES = ("lark", "pyecore", "pytest", "pytest-xdist", "numpy", "scipy", "matplotlib")


def versions() -> dict[str, str]:
    from benchmark import __version__

    found = {"python": sys.version.split()[0], "atl-binding-bench": __version__}
    for package in PACKAGES:
        try:
            found[package] = metadata.version(package)
        except metadata.PackageNotFoundError:
            continue
    return found


def git_commit(directory: Path) -> str | None:
    try:
        result = subprocess.run(
            ["git", "-C", str(directory), "rev-parse", "HEAD"], capture_output=True, text=True, timeout=10
        )
    except (OSError, subprocess.SubprocessError):
        return None
    return (result.stdout.strip() or None) if result.returncode == 0 else None


def now() -> str:
    return _dt.datetime.now(_dt.UTC).replace(microsecond=0).isoformat()
