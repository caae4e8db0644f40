"""Adaptive concurrency per provider: halve on HTTP 429, grow back slowly (inspect_ai PR #3820's rule).

The engine's worker threads (``concurrency`` of them) take a slot before every HTTP attempt and give it
back when the attempt ends, so at most :attr:`AdaptiveLimit.limit` requests are in flight. A 429 halves
the limit (never below ``min_concurrency``); after ``limit`` answers in a row without a 429 it grows by
one (never above ``concurrency``): additive increase, multiplicative decrease, so a provider that is
rate-limiting gets fewer parallel requests at once and the call recovers without hammering it again.
A worker never holds a slot while it sleeps before a retry.

Every change is reported to ``on_change`` (the call's event log records it).
"""

from __future__ import annotations

import threading
from collections.abc import Callable


class AdaptiveLimit:
    def __init__(
        self,
        maximum: int,
        minimum: int = 1,
        on_change: Callable[[int, int, str], None] | None = None,
    ) -> None:
        self.maximum = max(1, maximum)
        self.minimum = max(1, min(minimum, self.maximum))
        self.limit = self.maximum
        self.in_flight = 0
        self.peak = 0  # the most requests ever in flight at once
        self._successes = 0
        self._condition = threading.Condition()
        self._on_change = on_change or (lambda old, new, why: None)

    def acquire(self) -> None:
        with self._condition:
            while self.in_flight >= self.limit:
                self._condition.wait()
            self.in_flight += 1
            self.peak = max(self.peak, self.in_flight)

    def release(self) -> None:
        with self._condition:
            self.in_flight -= 1
            self._condition.notify_all()

    def rate_limited(self) -> None:
        """A 429: halve the limit."""
        with self._condition:
            self._successes = 0
            new = max(self.minimum, self.limit // 2)
            if new != self.limit:
                old, self.limit = self.limit, new
                self._on_change(old, new, "HTTP 429")

    def succeeded(self) -> None:
        """An answer: after ``limit`` of them in a row, one more slot."""
        with self._condition:
            if self.limit >= self.maximum:
                return
            self._successes += 1
            if self._successes >= self.limit:
                self._successes = 0
                old, self.limit = self.limit, self.limit + 1
                self._on_change(old, self.limit, f"{old} answers without HTTP 429")
                self._condition.notify_all()


__all__ = ["AdaptiveLimit"]
