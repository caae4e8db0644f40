"""Helpers of the real-model tests (tests/real_llm/): run ``atlbench`` as a user would, compare trees."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

TRACEBACK = "Traceback (most recent call last)"


def clean_environment() -> dict[str, str]:
    """The environment of a user's shell: no pytest or xdist variables of this session, no cache dir."""
    return {
        key: value
        for key, value in os.environ.items()
        if not key.startswith(("PYTEST_", "ATLBENCH_CACHE_DIR")) and key != "PYTHONBREAKPOINT"
    }


def atlbench(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    script = Path(sys.executable).with_name("atlbench")
    command = [str(script)] if script.exists() else [sys.executable, "-m", "benchmark"]
    return subprocess.run(
        [*command, *args], cwd=cwd, env=clean_environment(), capture_output=True, text=True, timeout=1800
    )


def tree_bytes(root: Path) -> dict[str, bytes]:
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}
