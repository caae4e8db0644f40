"""Test-suite wide settings that must be known before collection (this file is loaded by the controller).

Under ``pytest -n``, every test below ``tests/real_llm/`` runs on one xdist worker, so that one session
fixture starts one model server for all of them (a server per worker would double the CPU and memory the
real-model tests take). xdist's own ``--dist loadgroup`` would do this with ``xdist_group`` marks, but
pytest-xdist 3.8.0 under pytest 9.2 groups nothing, silently (pytest-dev/pytest-xdist#1386: it renames
``item._nodeid``, which pytest 9.2's structured node ids ignore). So the default ``load`` distribution is
replaced by xdist's scope scheduler with one scope per test, except one scope for ``tests/real_llm/``; the
largest scope goes out first, so the real-model tests start at once instead of ending the session.
Another ``--dist`` mode given on the command line is left alone.
"""

from __future__ import annotations

from typing import Any

import pytest

REAL_LLM_PREFIX = "tests/real_llm/"


def pytest_xdist_make_scheduler(config: pytest.Config, log: Any) -> Any:
    if config.getoption("dist", None) != "load":
        return None
    from xdist.scheduler import LoadScopeScheduling

    class RealLlmTestsTogether(LoadScopeScheduling):
        def _split_scope(self, nodeid: str) -> str:
            return REAL_LLM_PREFIX if nodeid.startswith(REAL_LLM_PREFIX) else nodeid

    return RealLlmTestsTogether(config, log)
