"""The session's process skips the final garbage collection (``benchmark.harness.exit``)."""

from __future__ import annotations

import subprocess
import sys

CYCLE = """
class Node:
    def __del__(self):
        print("finalised", flush=True)

a, b = Node(), Node()
a.other, b.other = b, a
del a, b  # garbage only the cyclic collector can free
"""


def _run(prelude: str) -> str:
    done = subprocess.run([sys.executable, "-c", prelude + CYCLE], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_without_it_the_final_collection_finalises_a_cycle() -> None:
    """The control: CPython collects the cycle while it shuts down, even with the collector disabled
    (otherwise the tests below would prove nothing)."""
    assert "finalised" in _run("import gc; gc.disable()\n")


def test_with_it_the_final_collection_is_skipped_once_registered_however_often() -> None:
    out = _run(
        "import gc; gc.disable()\n"
        "from benchmark.harness.exit import skip_final_collection\n"
        "skip_final_collection(); skip_final_collection()\n"
        "import atexit; assert atexit._ncallbacks() >= 1\n"
    )
    assert "finalised" not in out


def test_the_benchmark_plugin_registers_it() -> None:
    out = _run(
        "import gc; gc.disable()\n"
        "import pytest\n"
        "pytest.main(['-p', 'benchmark.harness.plugin', '--co', '-q', '-p', 'no:cacheprovider', 'absent'])\n"
    )
    assert "finalised" not in out


FREEZE = """
import gc, os
from benchmark.harness.exit import freeze_after_benchmark_cases
alive = [[] for _ in range(100)]
freeze_after_benchmark_cases()
print("frozen", gc.get_freeze_count() > 0)
"""


def _frozen(env: dict[str, str]) -> str:
    done = subprocess.run([sys.executable, "-c", FREEZE], capture_output=True, text=True, timeout=60, env=env)
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


def test_a_session_of_benchmark_cases_freezes_what_is_alive_at_its_end() -> None:
    import os

    env = {k: v for k, v in os.environ.items() if k != "PYTEST_CURRENT_TEST"}
    assert _frozen(env) == "frozen True"


def test_a_session_nested_in_a_test_freezes_nothing() -> None:
    import os

    assert "PYTEST_CURRENT_TEST" in os.environ  # pytest sets it while this test runs
    assert _frozen(dict(os.environ)) == "frozen False"
