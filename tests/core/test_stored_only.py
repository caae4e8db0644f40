"""``stored_only``: inside it the disk cache serves what it holds and refuses to compute the rest."""

from __future__ import annotations

from pathlib import Path

import pytest

from benchmark.core.diskcache import DiskCache, NotStored, stored_only
from benchmark.reports.cached import cached


def test_a_stored_value_is_served_and_a_missing_one_is_not_computed(tmp_path: Path) -> None:
    cache = DiskCache(tmp_path)
    cache.put("ns", "held", 1)
    computed: list[str] = []
    with stored_only():
        assert cache.get_or_compute("ns", "held", lambda: computed.append("held") or 2) == 1
        with pytest.raises(NotStored, match="ns/absent"):
            cache.get_or_compute("ns", "absent", lambda: computed.append("absent") or 3)
    assert computed == []
    assert cache.get_or_compute("ns", "absent", lambda: 3) == 3  # outside: computed and stored
    assert cache.get("ns", "absent") == 3


def test_without_a_cache_directory_every_report_value_is_a_miss() -> None:
    with stored_only(), pytest.raises(NotStored):
        cached(DiskCache(None), "ns", lambda: "key", lambda: 1)
    assert cached(DiskCache(None), "ns", lambda: "key", lambda: 1) == 1


def test_the_mode_ends_with_its_block_even_on_an_error(tmp_path: Path) -> None:
    cache = DiskCache(tmp_path)
    with pytest.raises(NotStored), stored_only():
        with stored_only():
            pass
        cache.get_or_compute("ns", "absent", lambda: 1)  # still inside the outer block
    assert cache.get_or_compute("ns", "absent", lambda: 1) == 1
