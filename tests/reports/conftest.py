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


@pytest.fixture(scope="session")
def zoo_sized(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The reports folder of a synthetic session of ATL Zoo size (:mod:`zoo_sized`)."""
    from zoo_sized import write_zoo_sized

    out = tmp_path_factory.mktemp("zoo-sized")
    write_zoo_sized(out)
    return out


@pytest.fixture(scope="session")
def bundled_session(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The reports folder of the bundled session: every track's cases below ``validation/`` scored and
    reported by ``atlbench validate --reports-dir``, the pytest session's code and options (the page
    ``pytest cases -n auto`` writes into ``reports/``)."""
    from benchmark.cli import main

    out = tmp_path_factory.mktemp("bundled-session")
    validation = Path(__file__).resolve().parents[2] / "validation"
    assert main(["validate", str(validation), "--reports-dir", str(out)]) == 0
    return out
