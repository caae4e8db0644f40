"""Provider adapters, one per API family, created lazily so the SDKs are imported only when needed."""

from __future__ import annotations

from benchmark.llm.config import KIND_ANTHROPIC, KIND_OPENAI, ProviderConfig
from benchmark.llm.providers.base import (
    BatchBackend,
    BatchState,
    BatchUnsupportedError,
    Provider,
    ProviderError,
)

__all__ = [
    "BatchBackend",
    "BatchState",
    "BatchUnsupportedError",
    "Provider",
    "ProviderError",
    "make_provider",
]


def make_provider(config: ProviderConfig, api_key: str | None) -> Provider:
    if config.kind == KIND_OPENAI:
        from benchmark.llm.providers.openai_compatible import OpenAICompatibleProvider

        return OpenAICompatibleProvider(config, api_key)
    if config.kind == KIND_ANTHROPIC:
        from benchmark.llm.providers.anthropic_messages import AnthropicProvider

        return AnthropicProvider(config, api_key)
    raise ValueError(f"unknown provider kind {config.kind!r}")  # config validation makes this unreachable
