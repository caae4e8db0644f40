"""The architecture holds: the core imports no track, the generic harness imports no track, the languages
import no study, and no track imports another (the contracts in pyproject.toml, run by import-linter)."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]


def test_the_import_contracts_are_kept() -> None:
    linter = shutil.which("lint-imports", path=str(Path(sys.executable).parent)) or shutil.which(
        "lint-imports"
    )
    if linter is None:
        pytest.fail("lint-imports is not installed: pip install -e '.[dev]' brings import-linter")
    done = subprocess.run([linter, "--no-cache"], cwd=REPO, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "4 kept, 0 broken" in done.stdout, done.stdout
