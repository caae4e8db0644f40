"""A one-model copy of the bundled OCL dataset (``library``), for tests that write runs or judge fast."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[3]
DATASET = REPO / "validation" / "ocl"


@pytest.fixture
def library_root(tmp_path: Path) -> Path:
    """``<tmp>/validation/ocl`` holding the library model and its part of the specification, no runs."""
    root = tmp_path / "validation" / "ocl"
    shutil.copytree(DATASET / "library", root / "library")
    spec = json.loads((DATASET / "specification.json").read_text(encoding="utf-8"))
    (root / "specification.json").write_text(json.dumps({"library": spec["library"]}), encoding="utf-8")
    return root
