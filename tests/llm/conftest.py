from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.llm.fake_llm_server import FakeLLMServer

FAKE_OPENAI_KEY = "sk-test-FAKEKEY-0123456789abcdef"
FAKE_ANTHROPIC_KEY = "sk-ant-test-FAKEKEY-fedcba9876543210"


@pytest.fixture
def llm_server() -> Iterator[FakeLLMServer]:
    server = FakeLLMServer().start()
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture
def fake_keys(monkeypatch: pytest.MonkeyPatch) -> dict[str, str]:
    monkeypatch.setenv("FAKE_OPENAI_KEY", FAKE_OPENAI_KEY)
    monkeypatch.setenv("FAKE_ANTHROPIC_KEY", FAKE_ANTHROPIC_KEY)
    return {"openai": FAKE_OPENAI_KEY, "anthropic": FAKE_ANTHROPIC_KEY}
