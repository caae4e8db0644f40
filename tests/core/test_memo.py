"""The bounded memo the loaders and readers keep their last results in."""

from __future__ import annotations

import threading

import pytest

from benchmark.core.memo import BoundedMemo


def test_the_least_recently_used_entry_is_forgotten_first() -> None:
    memo: BoundedMemo[str, int] = BoundedMemo(2)
    memo.put("a", 1)
    memo.put("b", 2)
    assert memo.get("a") == 1  # "a" is now the most recently used: "b" goes next
    memo.put("c", 3)
    assert (memo.get("a"), memo.get("b"), memo.get("c"), len(memo)) == (1, None, 3, 2)
    memo.put("a", 10)  # kept again: the most recently used, its new value
    memo.put("d", 4)
    assert (memo.get("a"), memo.get("c"), memo.get("d")) == (10, None, 4)
    memo.clear()
    assert len(memo) == 0 and memo.get("a") is None


def test_a_memo_keeps_at_least_one_entry() -> None:
    with pytest.raises(ValueError, match="at least one"):
        BoundedMemo(0)


def test_threads_sharing_a_memo_never_exceed_its_size() -> None:
    memo: BoundedMemo[tuple[int, int], int] = BoundedMemo(8)

    def fill(worker: int) -> None:
        for i in range(2_000):
            memo.put((worker, i), i)
            memo.get((worker, i - 1))

    threads = [threading.Thread(target=fill, args=(w,)) for w in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(memo) == 8
