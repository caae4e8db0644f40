"""Fixtures of the report kit's tests."""

from __future__ import annotations

from pathlib import Path

import pytest


@pytest.fixture(scope="session")
def three_tracks(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The reports folder of a small three-track session with odd names (:mod:`three_tracks`)."""
    from three_tracks import write_three_tracks

    out = tmp_path_factory.mktemp("three-tracks")
    write_three_tracks(out)
    return out
