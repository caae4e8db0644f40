"""Pausing Python's cyclic garbage collector while a model, its states or their evaluation are built.

Reading a model and its states, transforming them, compiling and judging constraints allocate many
container objects (lark trees, ASTs, objects, links, values, closures) that live on or die by reference
counting, and create few reference cycles. The collector's passes meanwhile only rescan the growing heap
again and again: in the OCL track's cold session they cost a fifth of its time. It runs again, as usual,
once the work is over (the ATL parser, ``benchmark/lang/atl/parser.py``, does the same).
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


__all__ = ["collector_paused"]
