"""The controller's side of the benchmark session: rows in, one checked table out.

A case records its row in its own process (:meth:`RowCollector.add`). Without pytest-xdist that process is
the controller. With xdist, each worker hands every row it holds to the controller at its end through
xdist's ``workeroutput`` channel (builtins only: JSON strings), which works for local and remote (SSH)
workers alike, and keeps the rows out of the test reports, so JUnit XML carries readable properties only.
The controller also sees every test report, so at the end it checks that exactly one row arrived for
every benchmark case that ran: a worker that crashed, a serialisation failure or a test that forgot to
record would otherwise give a green session with silently missing numbers; the cases whose row was lost
(:meth:`RowCollector.lost`) are listed in the tables as excluded runs, so the reports say what they lack.
No pytest imports here: it is tested with plain objects.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from benchmark.core.rows import Facts, Row
from benchmark.core.wording import plural

RUN_MARKER = "atlbench_run"
WORKER_OUTPUT_KEY = "atlbench_rows"  # config.workeroutput[...] = {nodeid: [row JSON, ...]}
FACTS_OUTPUT_KEY = "atlbench_facts"  # config.workeroutput[...] = [facts JSON, ...]
PHASES = ("setup", "call", "teardown")  # pytest's; pytest-xdist reports a worker's crash as phase "???"
LOST = (
    "its row was lost: the pytest-xdist worker that scored it ended before handing its rows to the "
    "controller (a killed machine or a lost connection); run the case again"
)
CRASHED = "its row was lost: its pytest-xdist worker crashed while scoring it; run the case again"


@dataclass
class RowCollector:
    """Accumulates rows keyed by node id, and which benchmark run cases ran."""

    rows_by_node: dict[str, list[Row]] = field(default_factory=dict)
    ran: set[str] = field(default_factory=set)
    seen: set[str] = field(default_factory=set)
    crashed: set[str] = field(default_factory=set)
    undecodable: list[str] = field(default_factory=list)
    facts: dict[tuple[str, str], Facts] = field(default_factory=dict)  # (track, task) -> its facts

    def accept(self, nodeid: str, when: str, outcome: str, keywords: Iterable[str]) -> None:
        """Take one phase report. Only benchmark run cases (marked ``atlbench_run``) count, and the crash
        of a worker while it ran one (pytest-xdist's report of it has no keywords, but its setup report
        came before)."""
        if RUN_MARKER not in keywords:
            if when not in PHASES and outcome == "failed" and nodeid in self.seen:
                self.crashed.add(nodeid)
            return
        self.seen.add(nodeid)
        if when == "call":
            self.ran.add(nodeid)

    def add(self, nodeid: str, row: Row) -> None:
        """A row recorded by the case ``nodeid`` in this process."""
        self.rows_by_node.setdefault(nodeid, []).append(row)

    def export(self) -> dict[str, list[str]]:
        """This process's rows as builtins, for a worker's ``workeroutput``."""
        return {node: [row.dumps() for row in rows] for node, rows in self.rows_by_node.items()}

    def merge(self, exported: Mapping[str, Iterable[str]], source: str = "a worker") -> None:
        """Rows a worker exported (:meth:`export`); a row that cannot be decoded is a problem, not a crash."""
        for nodeid, texts in exported.items():
            for text in texts:
                try:
                    self.add(nodeid, Row.loads(str(text)))
                except (ValueError, KeyError, TypeError) as error:
                    self.undecodable.append(f"{nodeid} (from {source}): {error}")

    @property
    def rows(self) -> list[Row]:
        return [row for node in sorted(self.rows_by_node) for row in self.rows_by_node[node]]

    def add_facts(self, facts: Facts) -> None:
        """A task's ground-truth facts, as its ground-truth case found them. ``results.json`` holds every
        task's; with them at hand the controller does not read the task's inputs again to state them
        (under xdist it has read none: the round-trip track's four models per case took it a second)."""
        self.facts[(facts.track, facts.task)] = facts

    def export_facts(self) -> list[str]:
        """The facts this process found, as builtins, for a worker's ``workeroutput``."""
        return [json.dumps(facts.to_json()) for facts in self.facts.values()]

    def merge_facts(self, exported: Iterable[str]) -> None:
        """Facts a worker exported (:meth:`export_facts`). They spare work, nothing more: facts that
        cannot be decoded are left out, and the controller states those tasks' facts itself."""
        for text in exported:
            try:
                self.add_facts(Facts.from_json(json.loads(str(text))))
            except (ValueError, KeyError, TypeError):
                continue

    def lost(self) -> dict[str, str]:
        """The run cases that ran (or were running when their worker crashed) and whose row never
        arrived, each with why: node id -> reason."""
        lost = {nodeid: LOST for nodeid in self.ran if nodeid not in self.rows_by_node}
        lost |= {nodeid: CRASHED for nodeid in self.crashed if nodeid not in self.rows_by_node}
        return dict(sorted(lost.items()))

    def problems(self) -> list[str]:
        """Why the table cannot be trusted; empty when every case that ran sent exactly one row."""
        found = [f"row could not be decoded: {text}" for text in self.undecodable]
        for nodeid in sorted(self.ran | self.crashed | set(self.rows_by_node)):
            count = len(self.rows_by_node.get(nodeid, []))
            if nodeid in self.ran and count == 0:
                found.append(f"{nodeid}: ran but sent no row")
            elif nodeid in self.crashed and count == 0:
                found.append(f"{nodeid}: its worker crashed while scoring it; no row")
            elif count > 1:
                found.append(f"{nodeid}: sent {plural(count, 'row')}")
        keys: dict[tuple[str, ...], str] = {}
        for nodeid, rows in sorted(self.rows_by_node.items()):
            for row in rows:
                other = keys.setdefault(row.key, nodeid)
                if other != nodeid:
                    found.append(f"{nodeid}: row {'/'.join(row.key)} also sent by {other}")
        return found
