from __future__ import annotations

import json
import shutil
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from benchmark.bench.support.fake_llm_server import FakeLLMServer
from benchmark.llm.batch import PollPolicy
from benchmark.llm.generate import GenerateOptions

DATA = Path(__file__).parent / "data"
FAKE_OPENAI_KEY = "sk-test-FAKEKEY-0123456789abcdef"
FAKE_ANTHROPIC_KEY = "sk-ant-test-FAKEKEY-fedcba9876543210"

BOOK_ANSWER = [
    {
        "sourceClass": "Book",
        "sourceAttribute": None,
        "targetClass": "Publication",
        "targetAttribute": None,
        "confidence": "high",
        "reason": "a book is published as a publication",
    },
    {
        "sourceClass": "Book",
        "sourceAttribute": "title",
        "targetClass": "Publication",
        "targetAttribute": "title",
        "confidence": "high",
        "reason": "same name and type",
    },
    {
        "sourceClass": "Book",
        "sourceAttribute": "chapters",
        "targetClass": "Publication",
        "targetAttribute": "nbPages",
        "confidence": "medium",
        "reason": "sum of the chapters' pages",
        "conversionHint": "-- sum of nbPages over chapters",
    },
]
FAMILY_ANSWER = [
    {
        "sourceClass": "Member",
        "sourceAttribute": None,
        "targetClass": "Male",
        "targetAttribute": None,
        "confidence": "high",
        "reason": "male members",
        "guardHint": "not female",
    },
    {
        "sourceClass": "Member",
        "sourceAttribute": "firstName",
        "targetClass": "Male",
        "targetAttribute": "fullName",
        "confidence": "Medium",
        "reason": "first name plus family name",
    },
]


def answer_for(prompt: str) -> str:
    """What the fake model answers: a plausible array for each test transformation."""
    if '"name":"Families"' in prompt:
        return json.dumps(FAMILY_ANSWER)
    if '"name":"Book"' in prompt:
        return json.dumps(BOOK_ANSWER)
    return "[]"


@pytest.fixture
def llm_server() -> Iterator[FakeLLMServer]:
    server = FakeLLMServer(answer_for).start()
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture
def server() -> Iterator[FakeLLMServer]:
    """A server that echoes the prompt (``answer to <prompt>``), for the engine's tests."""
    instance = FakeLLMServer(lambda prompt: f"answer to {prompt}").start()
    try:
        yield instance
    finally:
        instance.stop()


@pytest.fixture
def fake_keys(monkeypatch: pytest.MonkeyPatch) -> dict[str, str]:
    monkeypatch.setenv("FAKE_OPENAI_KEY", FAKE_OPENAI_KEY)
    monkeypatch.setenv("FAKE_ANTHROPIC_KEY", FAKE_ANTHROPIC_KEY)
    monkeypatch.delenv("ATLBENCH_CACHE_DIR", raising=False)
    return {"openai": FAKE_OPENAI_KEY, "anthropic": FAKE_ANTHROPIC_KEY}


@pytest.fixture
def validation_tree(tmp_path: Path) -> Path:
    """Two transformation folders of our own (ATL + Ecore), copied into a fresh tree."""
    root = tmp_path / "validation"
    for folder in ("Book2Publication", "Family2Person"):
        shutil.copytree(DATA / folder, root / folder)
    return root


def write_config(directory: Path, server_url: str, **extra: str) -> Path:
    """An atlbench.toml with one provider of each kind pointing at the fake server."""
    lines = [
        "[providers.OpenAI]",
        'kind = "openai-compatible"',
        'model = "gpt-test-1"',
        f'base_url = "{server_url}/v1"',
        'api_key_env = "FAKE_OPENAI_KEY"',
        "temperature = 0.2",
        "seed = 100",
        "max_tokens = 512",
        "timeout = 0.5",
        "max_attempts = 3",
        "",
        "[providers.Claude]",
        'kind = "anthropic"',
        'model = "claude-test-1"',
        'label = "Claude Test"',
        f'base_url = "{server_url}"',
        'api_key_env = "FAKE_ANTHROPIC_KEY"',
        "temperature = 0.0",
        "max_tokens = 256",
        "timeout = 0.5",
        "max_attempts = 3",
    ]
    for key, value in extra.items():
        lines.append(f"{key} = {value}")
    path = directory / "atlbench.toml"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


@pytest.fixture
def sleeps() -> list[float]:
    return []


@pytest.fixture
def make_options(
    tmp_path: Path, llm_server: FakeLLMServer, validation_tree: Path, fake_keys: dict[str, str]
) -> Callable[..., GenerateOptions]:
    config = write_config(tmp_path, llm_server.url)

    def make(provider: str = "OpenAI", **overrides: object) -> GenerateOptions:
        values: dict[str, object] = {
            "provider": provider,
            "runs": 1,
            "validation_root": validation_tree,
            "config_file": config,
            "cache_dir": tmp_path / "cache",
            "concurrency": 1,
            "progress": False,
            "poll": PollPolicy(initial=0.01, maximum=0.01),
        }
        values.update(overrides)
        return GenerateOptions(**values)  # type: ignore[arg-type]

    return make
