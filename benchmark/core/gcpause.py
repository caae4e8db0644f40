"""Pausing Python's cyclic garbage collector around work that builds many objects and few cycles.

Parsing (lark trees, ASTs), loading models (pyecore objects), transforming them, compiling and judging
constraints, matching metamodels: all allocate container objects that live on or die by reference
counting, and create few reference cycles. The collector's passes meanwhile only rescan the growing heap
again and again, a cost that grows faster than the input (a fifth of a cold OCL session, up to a second in
a long EMF Compare batch). The collector runs again, as usual, once the block is over.
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
