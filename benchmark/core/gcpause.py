"""The cost of Python's cyclic garbage collector on the benchmark's work, and the two ways it is cut.

Parsing (lark trees, ASTs), loading models (pyecore objects), transforming them, compiling and judging
constraints, matching metamodels: all allocate container objects that live on or die by reference
counting, and create few reference cycles. The collector's passes meanwhile only rescan the growing heap
again and again, a cost that grows faster than the input (a fifth of a cold OCL session, up to a second in
a long EMF Compare batch).

- :func:`collector_paused` turns it off around one such block; it runs again, as usual, once the block is
  over.
- :func:`collect_less_often` raises its thresholds for the whole process (a pytest session, a command of
  the CLI). The values that the caches keep (parsed files, models, variants, states) live until the
  process ends, so each full collection walks all of them, and CPython runs one each time the heap has
  grown by a quarter: six in a cold ``pytest cases -n 0`` on the bundled data, 1.7 s of the 2.3 s it spent
  in the collector (measured with ``gc.callbacks``, 2026-12-02). With the thresholds below the same session
  ran no full collection and 0.7 s of collection in all, and its peak memory was the same (258 MB): the
  work makes few cycles, so collecting them later keeps little more alive.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def collector_paused() -> Iterator[None]:
    """The cyclic collector off inside the block (left off if it was off already)."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


#: gc.set_threshold's three values for a benchmark process: a young collection every 2,000 net allocations
#: instead of 700, and a full one after 100 middle ones instead of 10 (and, as always in CPython, only once
#: the heap has grown by a quarter since the last).
THRESHOLDS = (2000, 10, 100)


def collect_less_often() -> None:
    """Raise the collector's thresholds for this process (module docstring), never lowering one that the
    user or another tool raised further, and leaving it off if a first threshold of 0 turned it off."""
    if gc.get_threshold()[0] == 0:
        return
    gc.set_threshold(*(max(now, ours) for now, ours in zip(gc.get_threshold(), THRESHOLDS, strict=True)))


__all__ = ["THRESHOLDS", "collect_less_often", "collector_paused"]
