"""Stage payloads in the disk cache: one entry per task once a process has handled all its run cases, one
per payload when it moves on from a task it did not finish; the same payloads either way."""

from pathlib import Path

import pytest

from benchmark.core.diskcache import DiskCache
from benchmark.core.track import RunCase
from benchmark.tracks.roundtrip.scoring.payload_cache import PayloadCache


def _runs(task: str, name: str, count: int) -> tuple[RunCase, ...]:
    return tuple(RunCase("roundtrip", task, "P", f"r{i}", f"{name}-{i}") for i in range(count))


RUNS = {"library/to_many": _runs("library/to_many", "lib", 3), "shop/x": _runs("shop/x", "shop", 2)}
ALL = [case for runs in RUNS.values() for case in runs]


def _payloads(cache: DiskCache) -> PayloadCache:
    return PayloadCache(cache, "roundtrip", lambda task: RUNS.get(task, ()), lambda c: f"key-{c.case_id}")


def _entries(folder: Path) -> int:
    return len(list((folder / "roundtrip").glob("*.pickle")))


def _score(payloads: PayloadCache, cases: list[RunCase], computed: list[str]) -> list[dict[str, str]]:
    def compute(case: RunCase) -> dict[str, str]:
        computed.append(case.case_id)
        return {"case": case.case_id}

    return [payloads.get_or_compute(case, lambda case=case: compute(case)) for case in cases]


def test_a_finished_task_is_one_entry_read_back_whole(tmp_path: Path) -> None:
    computed: list[str] = []
    first = _score(_payloads(DiskCache(tmp_path)), ALL, computed)
    assert computed == [case.case_id for case in ALL]
    assert _entries(tmp_path) == 2  # one per task, not one per payload
    again: list[str] = []
    assert _score(_payloads(DiskCache(tmp_path)), ALL, again) == first and again == []


def test_a_task_left_unfinished_writes_its_payloads_one_by_one(tmp_path: Path) -> None:
    part = [RUNS["library/to_many"][0], RUNS["shop/x"][0]]  # another worker scores the rest
    _score(_payloads(DiskCache(tmp_path)), part, [])
    assert _entries(tmp_path) == 1  # library's payload, on its own; shop's is the last task: not written
    computed: list[str] = []
    values = _score(_payloads(DiskCache(tmp_path)), ALL, computed)
    assert values == [{"case": case.case_id} for case in ALL]
    assert computed == ["lib-1", "lib-2", "shop-0", "shop-1"]  # lib-0 read back on its own
    assert _entries(tmp_path) == 3  # then each task whole
    again: list[str] = []
    assert _score(_payloads(DiskCache(tmp_path)), ALL, again) == values and again == []


def test_the_last_unfinished_task_is_written_when_the_session_ends(tmp_path: Path) -> None:
    part = [RUNS["library/to_many"][0], RUNS["shop/x"][0]]  # another worker scores the rest
    payloads = _payloads(DiskCache(tmp_path))
    _score(payloads, part, [])
    payloads.flush()  # the track's scoring_done
    assert _entries(tmp_path) == 2  # library's payload, and now shop's too
    payloads.flush()  # nothing left to write
    assert _entries(tmp_path) == 2
    computed: list[str] = []
    _score(_payloads(DiskCache(tmp_path)), ALL, computed)
    assert computed == ["lib-1", "lib-2", "shop-1"]  # both payloads scored earlier read back


def test_a_stage_that_raised_is_handled_and_never_stored(tmp_path: Path) -> None:
    payloads = _payloads(DiskCache(tmp_path))
    first, *rest = RUNS["library/to_many"]
    with pytest.raises(ValueError):
        payloads.get_or_compute(first, lambda: (_ for _ in ()).throw(ValueError("no answer")))
    _score(payloads, rest, [])
    assert _entries(tmp_path) == 1  # the task was finished: its two payloads together
    computed: list[str] = []
    _score(_payloads(DiskCache(tmp_path)), [first, *rest], computed)
    assert computed == ["lib-0"]


def test_without_a_folder_everything_is_computed(tmp_path: Path) -> None:
    computed: list[str] = []
    _score(_payloads(DiskCache(None)), ALL + ALL, computed)
    assert computed == [case.case_id for case in ALL + ALL]
