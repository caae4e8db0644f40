"""Shared paths for the metamodel tests: only metamodels written for these tests, under ``data/``."""

from __future__ import annotations

from pathlib import Path

import pytest

DATA = Path(__file__).with_name("data")


@pytest.fixture
def data() -> Path:
    return DATA
