"""Test-suite wide settings that must be known before collection (this file is loaded by the controller),
and the fixtures shared across the suite (``chromium``).

Under ``pytest -n``, every test below ``tests/real_llm/`` runs on one xdist worker, first, so that one
session fixture starts one model server for all of them and the slowest tests do not end the session.
xdist's own ``--dist loadgroup`` would keep them together with ``xdist_group`` marks, but pytest-xdist
3.8.0 under pytest 9.2 groups nothing, silently (pytest-dev/pytest-xdist#1386: it renames
``item._nodeid``, which pytest 9.2's structured node ids ignore), and its scope schedulers spread
module fixtures over every worker. So the default ``load`` scheduler is kept, with one change to its
first distribution: the real-model tests go to the first worker as one batch, ahead of its share of the
rest. Another ``--dist`` mode given on the command line is left alone.
"""

from __future__ import annotations

import os
from typing import Any

import pytest

from benchmark.reports.browser import find_chromium

REAL_LLM_PREFIX = "tests/real_llm/"


def pytest_xdist_make_scheduler(config: pytest.Config, log: Any) -> Any:
    if config.getoption("dist", None) != "load":
        return None
    from xdist.scheduler import LoadScheduling

    class RealLlmTestsTogether(LoadScheduling):
        def schedule(self) -> None:
            if self.collection is not None or not self._check_nodes_have_same_collection():
                return super().schedule()  # a later call, or xdist's own "different tests" abort
            collection = next(iter(self.node2collection.values()))
            together = [i for i, nodeid in enumerate(collection) if nodeid.startswith(REAL_LLM_PREFIX)]
            grouped = set(together)
            if not together or len(self.nodes) < 2:
                return super().schedule()
            # xdist's initial distribution (LoadScheduling.schedule), minus the real-model tests,
            # which go first and together to the first worker.
            self.collection = collection
            self.pending[:] = [i for i in range(len(collection)) if i not in grouped]
            first = self.nodes[0]
            self.node2pending[first].extend(together)
            first.send_runtest_some(together)
            if self.maxschedchunk is None:
                self.maxschedchunk = len(collection)
            chunk = max(min(len(collection) // len(self.nodes) // 4, self.maxschedchunk), 2)
            for node in self.nodes:
                self._send_tests(node, chunk)
            if not self.pending:
                for node in self.nodes:
                    node.shutdown()

    return RealLlmTestsTogether(config, log)


@pytest.fixture(scope="session")
def chromium() -> str:
    """The Chromium the report's browser tests open pages in; they skip without one, unless
    ``ATLBENCH_REQUIRE_BROWSER=1`` (CI sets it): then they fail."""
    found = find_chromium()
    if found is None:
        message = "Chromium not found (apt-get install chromium, or set ATLBENCH_CHROMIUM)"
        if os.environ.get("ATLBENCH_REQUIRE_BROWSER") == "1":
            pytest.fail(f"ATLBENCH_REQUIRE_BROWSER=1 but {message}")
        pytest.skip(message)
    return found
