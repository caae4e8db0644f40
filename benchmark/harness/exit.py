"""A session's process skips the garbage collection CPython runs while it shuts down, and a session in
which only benchmark cases ran skips the collections pytest runs as it ends.

After a cold benchmark session the interpreter holds millions of objects (parse trees, metamodels,
numpy, matplotlib), and the final collection walks them all: about 0.45 s of a 3 s session on this
project's machine, spent on memory the operating system reclaims anyway. ``gc.freeze()`` as the last
``atexit`` handler moves every object out of the collector's reach, so shutdown only frees what reference
counting frees. What it gives up is what Python never promised: ``__del__`` of objects still alive in
reference cycles at exit (the language reference: "It is not guaranteed that __del__() methods are called
for objects that still exist when the interpreter exits"). The benchmark writes every file explicitly
and atomically (``core.fileio``, ``core.diskcache``), so nothing waits for such a finaliser.

pytest itself collects twice as it ends (its ``unraisableexception`` plugin, at unconfigure and in its
cleanup, so that a ``__del__`` that raises in a test's garbage is reported): after a cold ``pytest cases``
that walked the same millions of objects for about a second per process (0.9 s CPU of the OCL track's
session alone). When every case that ran was a benchmark case there is no test's garbage to look at, so
:func:`freeze_after_benchmark_cases` freezes what is alive at the end of the session and those collections
only walk what the summary allocates afterwards. Not in a session nested in a test (pytester, in process:
``PYTEST_CURRENT_TEST`` is set), whose objects are the outer session's too.
"""

from __future__ import annotations

import atexit
import gc
import os

_registered = False


def skip_final_collection() -> None:
    """Register ``gc.freeze`` to run at exit, once per process (an in-process pytester session calls this
    again; it changes nothing until the process really exits)."""
    global _registered
    if not _registered:
        atexit.register(gc.freeze)
        _registered = True


def freeze_after_benchmark_cases() -> None:
    """Freeze every object alive now (module docstring): called at the end of a session in which only
    benchmark cases ran, in each process."""
    if "PYTEST_CURRENT_TEST" not in os.environ:
        gc.freeze()
