"""The collector's pause around a block and the process-wide thresholds (benchmark.core.gcpause)."""

from __future__ import annotations

import gc
from collections.abc import Iterator

import pytest

from benchmark.core.gcpause import THRESHOLDS, collect_less_often, collector_paused


@pytest.fixture
def thresholds() -> Iterator[None]:
    """The process's thresholds and collector state restored after the test."""
    before, enabled = gc.get_threshold(), gc.isenabled()
    try:
        yield
    finally:
        gc.set_threshold(*before)
        (gc.enable if enabled else gc.disable)()


def test_the_collector_is_off_inside_the_block_and_on_after_it(thresholds: None) -> None:
    gc.enable()
    with collector_paused():
        assert not gc.isenabled()
    assert gc.isenabled()


def test_a_collector_that_was_off_stays_off(thresholds: None) -> None:
    gc.disable()
    with collector_paused():
        assert not gc.isenabled()
    assert not gc.isenabled()


def test_the_collector_is_on_again_when_the_block_raises(thresholds: None) -> None:
    gc.enable()
    with pytest.raises(ValueError), collector_paused():
        raise ValueError("inside")
    assert gc.isenabled()


def test_default_thresholds_are_raised(thresholds: None) -> None:
    gc.set_threshold(700, 10, 10)  # CPython's defaults
    collect_less_often()
    assert gc.get_threshold() == THRESHOLDS


def test_a_threshold_raised_further_is_kept(thresholds: None) -> None:
    gc.set_threshold(50_000, 5, 1_000)
    collect_less_often()
    assert gc.get_threshold() == (50_000, THRESHOLDS[1], 1_000)


def test_a_collector_turned_off_by_a_zero_threshold_stays_off(thresholds: None) -> None:
    gc.set_threshold(0, 10, 10)
    collect_less_often()
    assert gc.get_threshold() == (0, 10, 10)
