"""A session's process skips the garbage collection CPython runs while it shuts down.

After a cold benchmark session the interpreter holds millions of objects (parse trees, metamodels,
numpy, matplotlib), and the final collection walks them all: about 0.45 s of a 3 s session on this
project's machine, spent on memory the operating system reclaims anyway. ``gc.freeze()`` as the last
``atexit`` handler moves every object out of the collector's reach, so shutdown only frees what reference
counting frees. What it gives up is what Python never promised: ``__del__`` of objects still alive in
reference cycles at exit (the language reference: "It is not guaranteed that __del__() methods are called
for objects that still exist when the interpreter exits"). The benchmark writes every file explicitly
and atomically (``core.fileio``, ``core.diskcache``), so nothing waits for such a finaliser.
"""

from __future__ import annotations

import atexit
import gc

_registered = False


def skip_final_collection() -> None:
    """Register ``gc.freeze`` to run at exit, once per process (an in-process pytester session calls this
    again; it changes nothing until the process really exits)."""
    global _registered
    if not _registered:
        atexit.register(gc.freeze)
        _registered = True
