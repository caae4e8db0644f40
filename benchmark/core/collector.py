"""The controller's side of the benchmark session: rows in, one checked count table out.

Rows leave each test as a JSON string in ``user_properties`` (the only channel that works the same with and
without pytest-xdist: a worker serialises its reports, the controller re-fires
``pytest_runtest_logreport``). This module receives those reports and, at the end, checks that exactly
one row arrived for every benchmark case that ran: a worker that crashed, a serialisation failure or a
test that forgot to record would otherwise give a green session with silently missing numbers.
It has no pytest imports, so it is tested with plain objects.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from benchmark.core.rows import Row

ROW_PROPERTY = "atlbench_row"
RUN_MARKER = "atlbench_run"


@dataclass
class RowCollector:
    """Accumulates rows from test reports, keyed by node id."""

    rows_by_node: dict[str, list[Row]] = field(default_factory=dict)
    ran: set[str] = field(default_factory=set)
    seen: set[str] = field(default_factory=set)
    undecodable: list[str] = field(default_factory=list)

    def accept(
        self,
        nodeid: str,
        when: str,
        outcome: str,
        keywords: Iterable[str],
        user_properties: Iterable[tuple[str, object]],
    ) -> None:
        """Take one phase report. Only benchmark run cases (marked ``atlbench_run``) count."""
        if RUN_MARKER not in keywords:
            return
        self.seen.add(nodeid)
        if when == "call":
            self.ran.add(nodeid)
        if when != "teardown":
            return  # the teardown report carries every property recorded during setup and call
        rows = []
        for name, value in user_properties:
            if name != ROW_PROPERTY:
                continue
            try:
                rows.append(Row.loads(str(value)))
            except (ValueError, KeyError, TypeError) as error:
                self.undecodable.append(f"{nodeid}: {error}")
        self.rows_by_node[nodeid] = rows

    @property
    def rows(self) -> list[Row]:
        return [row for node in sorted(self.rows_by_node) for row in self.rows_by_node[node]]

    def problems(self) -> list[str]:
        """Why the count table cannot be trusted; empty when every case that ran sent exactly one row."""
        found = [f"row could not be decoded: {text}" for text in self.undecodable]
        for nodeid in sorted(self.ran | set(self.rows_by_node)):
            count = len(self.rows_by_node.get(nodeid, []))
            if nodeid in self.ran and count == 0:
                found.append(f"{nodeid}: ran but sent no row")
            elif count > 1:
                found.append(f"{nodeid}: sent {count} rows")
        keys: dict[tuple[str, ...], str] = {}
        for nodeid, rows in sorted(self.rows_by_node.items()):
            for row in rows:
                other = keys.setdefault(row.key, nodeid)
                if other != nodeid:
                    found.append(f"{nodeid}: row {'/'.join(row.key)} also sent by {other}")
        return found
