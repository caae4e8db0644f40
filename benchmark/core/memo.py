"""A bounded, thread-safe memo: what a process has read or loaded recently, kept for its next request.

Loaded metamodels, read answers and reference models are functions of their keys (a path and the hash of
its bytes, an answer's bytes), so a process keeps the last ones it made and hands them out again; a long
session (a Zoo study, thousands of answers) must not keep all of them, hence the bound, and the LLM engine
and xdist's execnet run threads, hence the lock. The least recently used entry is forgotten first.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from typing import Generic, TypeVar

K = TypeVar("K")
V = TypeVar("V")


class BoundedMemo(Generic[K, V]):
    """At most ``size`` entries; :meth:`get` marks an entry as used, :meth:`put` forgets the oldest."""

    def __init__(self, size: int) -> None:
        if size < 1:
            raise ValueError("a memo keeps at least one entry")
        self.size = size
        self._entries: OrderedDict[K, V] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: K) -> V | None:
        """The value kept under ``key`` (now the most recently used), or None."""
        with self._lock:
            value = self._entries.get(key)
            if value is not None:
                self._entries.move_to_end(key)
            return value

    def put(self, key: K, value: V) -> None:
        """Keep ``value`` under ``key``, forgetting the least recently used entries beyond the size."""
        with self._lock:
            self._entries[key] = value
            self._entries.move_to_end(key)
            while len(self._entries) > self.size:
                self._entries.popitem(last=False)

    def clear(self) -> None:
        with self._lock:
            self._entries.clear()

    def __len__(self) -> int:
        return len(self._entries)


__all__ = ["BoundedMemo"]
