"""The CPU time a process spends computing what the disk cache did not hold (core.diskcache.computing):
what the next ``-n auto`` subtracts from a session's work (benchmark.harness.autoworkers)."""

from __future__ import annotations

import time
from pathlib import Path

from benchmark.core.diskcache import DiskCache, computed_seconds, computing


def _busy(seconds: float) -> int:
    """Spend about ``seconds`` of CPU time."""
    end, count = time.process_time() + seconds, 0
    while time.process_time() < end:
        count += 1
    return count


def test_a_miss_counts_its_computing_and_a_hit_nothing(tmp_path: Path) -> None:
    cache = DiskCache(tmp_path)
    before = computed_seconds()
    cache.get_or_compute("ns", "k", lambda: _busy(0.05))
    after_miss = computed_seconds()
    assert after_miss - before >= 0.04
    cache.get_or_compute("ns", "k", lambda: _busy(0.05))
    assert computed_seconds() == after_miss


def test_a_value_computed_inside_another_is_counted_once(tmp_path: Path) -> None:
    cache = DiskCache(tmp_path)

    def outer() -> int:
        return cache.get_or_compute("ns", "inner", lambda: _busy(0.05)) + _busy(0.05)

    before = computed_seconds()
    started = time.process_time()
    cache.get_or_compute("ns", "outer", outer)
    spent = time.process_time() - started
    assert 0.09 <= computed_seconds() - before <= spent


def test_a_tracks_own_layout_counts_through_the_same_block() -> None:
    before = computed_seconds()
    with computing():
        _busy(0.03)
    assert computed_seconds() - before >= 0.02


def test_a_block_that_raises_still_counts() -> None:
    before = computed_seconds()
    try:
        with computing():
            _busy(0.03)
            raise ValueError("broken input")
    except ValueError:
        pass
    assert computed_seconds() - before >= 0.02
