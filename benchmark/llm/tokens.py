"""Counting a prompt's tokens before it is sent: for ``--dry-run``, ``--max-cost`` and context windows.

A count is only as good as its tokenizer, so every count says how it was made:

* ``tiktoken`` (OpenAI's own tokenizer library, when installed and its encoding loads): the encoding of
  the model (``o200k_base`` for gpt-4o and later), plus the chat format's overhead (3 tokens per
  message, 3 to prime the answer, as OpenAI documents it). Exact for OpenAI's models. tiktoken downloads
  an encoding file once and caches it; where it cannot, the count falls back to the estimate and says why;
* ``gguf:PATH`` (llama-cpp-python, when installed): the tokenizer and chat template inside a GGUF model
  file, applied as llama.cpp's server applies them. Exact for a llama.cpp server serving that file;
* ``estimate``: UTF-8 bytes / 3, rounded up. Labelled as an estimate everywhere. It over-counts on
  purpose: this project's prompts (compact JSON, PlantUML, XMI) run at 3.5 to 3.8 characters per token
  with SmolLM2's tokenizer, so a budget or a context check built on it errs on the safe side.

The provider setting is ``tokenizer`` (``[providers.NAME]``); without it, an OpenAI endpoint
(``api.openai.com``) uses ``tiktoken`` and every other provider the estimate (Anthropic publishes no
local tokenizer for its current models; its token-counting endpoint is a request, which a dry run must
not send).
"""

from __future__ import annotations

import math
import threading
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from typing import Any
from urllib.parse import urlparse

from benchmark.llm.requests import LlmRequest

ESTIMATE = "estimate"
TIKTOKEN = "tiktoken"
GGUF_PREFIX = "gguf:"
BYTES_PER_TOKEN_ESTIMATE = 3
OPENAI_HOST = "api.openai.com"
TIKTOKEN_FALLBACK_ENCODING = "o200k_base"
# OpenAI's chat format: every message costs its content plus 3 tokens, and the answer is primed with 3.
CHAT_TOKENS_PER_MESSAGE = 3
CHAT_TOKENS_REPLY_PRIMING = 3


def check_tokenizer_setting(setting: str) -> str | None:
    """Why a ``tokenizer`` setting is not understood (``None`` when it is)."""
    if setting in (ESTIMATE, TIKTOKEN):
        return None
    if setting.startswith(TIKTOKEN + ":") and setting[len(TIKTOKEN) + 1 :].strip():
        return None
    if setting.startswith(GGUF_PREFIX) and setting[len(GGUF_PREFIX) :].strip():
        return None
    choices = f'"{ESTIMATE}", "{TIKTOKEN}", "{TIKTOKEN}:ENCODING" or "{GGUF_PREFIX}PATH"'
    return f"unknown tokenizer {setting!r}; use {choices}"


@dataclass(frozen=True)
class Tokenizer:
    """Counts a request's prompt tokens. ``exact``: the provider's own tokenizer; ``method`` says which
    (or, for an estimate, how and why)."""

    method: str
    exact: bool
    _count: Callable[[LlmRequest], int]

    def count(self, request: LlmRequest) -> int:
        return self._count(request)

    @property
    def label(self) -> str:
        return self.method if self.exact else f"estimated ({self.method})"


def estimate_tokens(text: str) -> int:
    return math.ceil(len(text.encode("utf-8")) / BYTES_PER_TOKEN_ESTIMATE)


def _estimate_request(request: LlmRequest) -> int:
    return estimate_tokens(request.prompt) + (estimate_tokens(request.system) if request.system else 0)


def estimator(why: str | None = None) -> Tokenizer:
    method = f"UTF-8 bytes / {BYTES_PER_TOKEN_ESTIMATE}" + (f"; {why}" if why else "")
    return Tokenizer(method, False, _estimate_request)


def default_setting(kind: str, base_url: str) -> str:
    """``tiktoken`` for OpenAI's own endpoint, else the estimate."""
    host = urlparse(base_url).hostname or ""
    return TIKTOKEN if kind == "openai-compatible" and host == OPENAI_HOST else ESTIMATE


_lock = threading.Lock()


def tokenizer_for(config: Any) -> Tokenizer:
    """The tokenizer of a :class:`~benchmark.llm.config.ProviderConfig` (cached per setting and model)."""
    setting = config.tokenizer or default_setting(config.kind, config.base_url)
    with _lock:
        return _tokenizer(setting, config.model)


@lru_cache(maxsize=16)
def _tokenizer(setting: str, model: str) -> Tokenizer:
    if setting == ESTIMATE:
        return estimator()
    if setting.startswith(TIKTOKEN):
        return _tiktoken(setting[len(TIKTOKEN) + 1 :] or None, model)
    return _gguf(setting[len(GGUF_PREFIX) :])


def _tiktoken(encoding_name: str | None, model: str) -> Tokenizer:
    try:
        import tiktoken
    except ImportError:
        return estimator("tiktoken is not installed (pip install tiktoken)")
    try:
        if encoding_name is None:
            try:
                encoding = tiktoken.encoding_for_model(model)
            except KeyError:
                encoding = tiktoken.get_encoding(TIKTOKEN_FALLBACK_ENCODING)
        else:
            encoding = tiktoken.get_encoding(encoding_name)
    except Exception as error:  # no network for the encoding file, an unknown encoding name
        # Only the error's type: its text is a long URL, and the label is printed per provider.
        return estimator(f"tiktoken could not load its encoding ({type(error).__name__})")

    def count(request: LlmRequest) -> int:
        texts = [request.prompt] + ([request.system] if request.system is not None else [])
        content = sum(len(encoding.encode(text, disallowed_special=())) for text in texts)
        return content + CHAT_TOKENS_PER_MESSAGE * len(texts) + CHAT_TOKENS_REPLY_PRIMING

    return Tokenizer(f"tiktoken {encoding.name}", True, count)


def _gguf(path: str) -> Tokenizer:
    try:
        import llama_cpp
        from llama_cpp import llama_chat_format
    except ImportError:
        return estimator("llama-cpp-python is not installed, so the GGUF tokenizer cannot be read")
    try:
        model = llama_cpp.Llama(model_path=path, vocab_only=True, verbose=False)
    except Exception as error:  # a missing or unreadable file
        return estimator(f"cannot read the tokenizer of {path}: {error}"[:200])
    template = model.metadata.get("tokenizer.chat_template")

    def special_text(token: int) -> str:
        return model.detokenize([token], special=True).decode("utf-8", errors="replace") if token >= 0 else ""

    formatter = None
    if template:
        formatter = llama_chat_format.Jinja2ChatFormatter(
            template=template,
            eos_token=special_text(model.token_eos()),
            bos_token=special_text(model.token_bos()),
        )

    def count(request: LlmRequest) -> int:
        messages = ([{"role": "system", "content": request.system}] if request.system is not None else []) + [
            {"role": "user", "content": request.prompt}
        ]
        if formatter is None:  # no chat template: the texts alone
            return sum(len(model.tokenize(m["content"].encode("utf-8"), add_bos=False)) for m in messages)
        rendered = formatter(messages=messages)
        tokens = model.tokenize(
            rendered.prompt.encode("utf-8"), add_bos=not rendered.added_special, special=True
        )
        return len(tokens)

    name = path.rsplit("/", 1)[-1]
    return Tokenizer(f"GGUF tokenizer and chat template of {name}", True, count)


__all__ = [
    "BYTES_PER_TOKEN_ESTIMATE",
    "ESTIMATE",
    "Tokenizer",
    "check_tokenizer_setting",
    "default_setting",
    "estimate_tokens",
    "estimator",
    "tokenizer_for",
]
