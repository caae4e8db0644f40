"""The root conftest spares a session without hypothesis tests the import of hypothesis, and only that one."""

from __future__ import annotations

from pathlib import Path

import pytest

pytest_plugins = ("pytester",)

ROOT_CONFTEST = Path(__file__).resolve().parents[2] / "conftest.py"
PROBE = """

def pytest_unconfigure(config):
    import sys

    print("hypothesis imported:", "hypothesis" in sys.modules)
"""


@pytest.fixture
def project(pytester: pytest.Pytester) -> pytest.Pytester:
    text = ROOT_CONFTEST.read_text(encoding="utf-8")
    plugins = 'pytest_plugins = ("benchmark.harness.plugin",)\n'
    assert plugins in text
    pytester.makeconftest(text.replace(plugins, "") + PROBE)
    return pytester


def test_a_session_without_hypothesis_tests_never_imports_hypothesis(project):
    project.makepyfile(test_plain="def test_one():\n    assert 1 + 1 == 2\n")
    result = project.runpytest_subprocess("-p", "no:randomly")
    result.assert_outcomes(passed=1)
    result.stdout.fnmatch_lines(["hypothesis imported: False"])


def test_a_session_with_a_hypothesis_test_keeps_the_plugin(project):
    project.makepyfile(
        test_given="""
from hypothesis import given, strategies as st

@given(st.integers())
def test_any(n):
    assert n == n
"""
    )
    result = project.runpytest_subprocess("-p", "no:randomly", "--hypothesis-show-statistics")
    result.assert_outcomes(passed=1)
    result.stdout.fnmatch_lines(["*Hypothesis Statistics*", "hypothesis imported: True"])
