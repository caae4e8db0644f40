"""Thin shim: the benchmark's pytest logic lives in an importable, tested plugin module.

One more thing for speed: hypothesis's pytest plugin imports hypothesis in every terminal summary, and
under pytest (which rewrites the asserts of every module of a package that registers a plugin) that costs
about half a second, more than the rest of a benchmark session's summary. A session in which no
hypothesis test ran (``pytest cases``, say) has nothing for that plugin to report, so it is unregistered
before the summary; whenever a hypothesis test ran, hypothesis was imported here or its statistics were
asked for, it stays.
"""

from __future__ import annotations

import sys

import pytest

pytest_plugins = ("benchmark.harness.plugin",)

HYPOTHESIS_PLUGIN = "hypothesispytest"  # its pytest11 entry point name
HYPOTHESIS_MARKER = "hypothesis"  # the plugin marks every hypothesis test with it (workers included)


class HypothesisOnlyWhenUsed:
    def __init__(self, config: pytest.Config) -> None:
        self.config = config
        self.ran = False

    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        self.ran = self.ran or HYPOTHESIS_MARKER in report.keywords

    @pytest.hookimpl(tryfirst=True)
    def pytest_sessionfinish(self) -> None:
        manager = self.config.pluginmanager
        wanted = self.ran or "hypothesis" in sys.modules
        wanted = wanted or bool(self.config.getoption("hypothesis_show_statistics", default=False))
        if not wanted and manager.get_plugin(HYPOTHESIS_PLUGIN) is not None:
            manager.unregister(name=HYPOTHESIS_PLUGIN)


def pytest_configure(config: pytest.Config) -> None:
    config.pluginmanager.register(HypothesisOnlyWhenUsed(config), "atlbench-hypothesis-only-when-used")
