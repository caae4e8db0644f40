"""A row that crosses from an xdist worker (local or over SSH) keeps its keys in the order the track wrote
them, so ``results.json`` is the same bytes with and without xdist."""

from __future__ import annotations

import json

from benchmark.core.rows import Row


def test_a_row_keeps_its_key_order_across_the_worker_channel() -> None:
    row = Row(
        "atl",
        "P",
        "m",
        "T",
        "run01",
        payload={"partialWeight": 0.5, "class": {"tp": 1, "fp": 0}, "binding": {"exact": 2, "divergent": 0}},
    )
    crossed = Row.loads(row.dumps())
    assert crossed == row
    assert json.dumps(crossed.to_json()) == json.dumps(row.to_json())
    assert list(crossed.payload) == ["partialWeight", "class", "binding"]
