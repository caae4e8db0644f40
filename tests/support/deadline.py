"""A bound on how long a call may run, for tests of code that must terminate on any input.

A call that never ends (a renaming that loops over candidate names) would hang the suite instead of
failing it. :func:`ends_within` turns that into a failure naming the call: ``SIGALRM`` interrupts the
Python loop of the main thread (where pytest and its xdist workers run tests). The bound is a
termination guard, many times what the call needs on a loaded machine, never a speed measure.
"""

from __future__ import annotations

import signal
import threading
from collections.abc import Iterator
from contextlib import contextmanager


class DidNotEnd(AssertionError):
    """The guarded call was still running when its bound passed."""


@contextmanager
def ends_within(seconds: float, what: str) -> Iterator[None]:
    """Fail with :class:`DidNotEnd` when the block runs longer than ``seconds`` (no guard off the main
    thread, or where the platform has no ``setitimer``)."""
    if not hasattr(signal, "setitimer") or threading.current_thread() is not threading.main_thread():
        yield
        return

    def stop(signum, frame):  # noqa: ANN001, ARG001
        raise DidNotEnd(f"{what} did not end within {seconds:g} s: it loops")

    previous = signal.signal(signal.SIGALRM, stop)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
