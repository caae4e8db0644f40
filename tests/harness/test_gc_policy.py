"""A pytest session with the benchmark's plugin collects cycles less often (benchmark.core.gcpause)."""

from __future__ import annotations

import gc

from benchmark.core.gcpause import THRESHOLDS


def test_this_session_runs_with_the_raised_thresholds() -> None:
    """This test runs in a session the plugin configured (conftest.py registers it), in every process."""
    assert all(now >= ours for now, ours in zip(gc.get_threshold(), THRESHOLDS, strict=True))
