"""OpenAI-compatible chat completions (OpenAI, OpenRouter, Mistral, DeepSeek, Ollama, vLLM ...).

One adapter for all of them, through the official ``openai`` SDK pointed at the configured base URL.
Batches use OpenAI's Batch API (upload a JSONL file, create a batch, poll it, download the output
file); endpoints that do not implement it answer 404, which is reported as "no batch interface".
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any

from benchmark.llm.config import ProviderConfig
from benchmark.llm.providers.base import BatchState, BatchUnsupportedError, ProviderError
from benchmark.llm.requests import TRANSPORT_BATCH, Completion, LlmRequest, utc_timestamp
from benchmark.llm.retry import FATAL_STATUS, is_retryable_status, parse_retry_after

CHAT_PATH = "/v1/chat/completions"
_TERMINAL_FAILURES = {"failed", "expired", "cancelled"}  # "cancelling" is still moving


def _import_sdk() -> Any:
    try:
        import openai
    except ImportError as error:  # pragma: no cover - exercised only without the extra
        raise ProviderError(
            "the 'openai' package is needed for openai-compatible providers:"
            " pip install 'atl-binding-bench[llm]'",
            retryable=False,
            fatal=True,
        ) from error
    return openai


class OpenAICompatibleProvider:
    def __init__(self, config: ProviderConfig, api_key: str | None) -> None:
        self._openai = _import_sdk()
        self._config = config
        # Local servers need no key, but the SDK insists on one; the placeholder is not a secret.
        self._client = self._openai.OpenAI(
            api_key=api_key or "no-key-configured",
            base_url=config.base_url,
            timeout=config.timeout,
            max_retries=0,
        )

    def request_body(self, request: LlmRequest) -> dict[str, Any]:
        """The JSON body of a chat-completions call, shared by the direct and the batch path."""
        messages: list[dict[str, str]] = []
        if request.system is not None:
            messages.append({"role": "system", "content": request.system})
        messages.append({"role": "user", "content": request.prompt})
        body: dict[str, Any] = {"model": self._config.model, "messages": messages}
        parameters = request.parameters
        body[self._config.max_tokens_parameter] = parameters.max_tokens
        if parameters.temperature is not None:
            body["temperature"] = parameters.temperature
        if parameters.top_p is not None:
            body["top_p"] = parameters.top_p
        seed = parameters.request_seed(request.run_index)
        if seed is not None:
            body["seed"] = seed
        if request.answer_schema is not None:
            from benchmark.llm.dialects import openai_fields

            requested = request.answer_schema
            body.update(openai_fields(requested.dialect, requested.schema.name, requested.schema.schema))
        return body

    def complete(self, request: LlmRequest) -> Completion:
        started = time.monotonic()
        body = self.request_body(request)
        # Fields the SDK does not declare (vLLM's structured_outputs) travel as extra body fields.
        extra = {key: body.pop(key) for key in ("structured_outputs",) if key in body}
        try:
            response = self._client.chat.completions.create(**body, extra_body=extra or None)
        except Exception as error:
            raise self._translate(error) from None
        latency = round(time.monotonic() - started, 3)
        return _completion_from_chat(_as_dict(response), latency=latency)

    def _translate(self, error: Exception) -> ProviderError:
        return translate_sdk_error(self._openai, error, self._config.timeout)

    def batch_backend(self) -> OpenAIBatchBackend:
        if not self._config.batch:
            raise BatchUnsupportedError(
                f"provider {self._config.name!r} has batch = false in its configuration"
            )
        return OpenAIBatchBackend(self)


class OpenAIBatchBackend:
    def __init__(self, provider: OpenAICompatibleProvider) -> None:
        self._provider = provider
        self._client = provider._client

    def submit(self, items: Sequence[tuple[str, LlmRequest]]) -> str:
        lines = [
            json.dumps(
                {
                    "custom_id": custom_id,
                    "method": "POST",
                    "url": CHAT_PATH,
                    "body": self._provider.request_body(request),
                },
                ensure_ascii=False,
            )
            for custom_id, request in items
        ]
        payload = ("\n".join(lines) + "\n").encode("utf-8")
        try:
            uploaded = self._client.files.create(file=("atlbench-batch.jsonl", payload), purpose="batch")
            batch = self._client.batches.create(
                input_file_id=uploaded.id, endpoint=CHAT_PATH, completion_window="24h"
            )
        except Exception as error:
            translated = self._provider._translate(error)
            if translated.status == 404:
                raise BatchUnsupportedError(
                    f"{self._provider._config.base_url} does not offer OpenAI's Batch API (HTTP 404);"
                    " run without --batch"
                ) from None
            raise translated from None
        return str(batch.id)

    def poll(self, batch_id: str) -> BatchState:
        try:
            batch = self._client.batches.retrieve(batch_id)
        except Exception as error:
            raise self._provider._translate(error) from None
        counts = batch.request_counts
        status = str(batch.status)
        failure = None
        if status in _TERMINAL_FAILURES and not batch.output_file_id:
            details = [e.message for e in (batch.errors.data or [])] if batch.errors else []
            failure = f"batch {batch_id} {status}" + (
                ": " + "; ".join(str(d) for d in details) if details else ""
            )
        return BatchState(
            batch_id=batch_id,
            status=status,
            done=status in {"completed", *_TERMINAL_FAILURES},
            succeeded=getattr(counts, "completed", None),
            failed=getattr(counts, "failed", None),
            total=getattr(counts, "total", None),
            error=failure,
        )

    def results(self, batch_id: str) -> dict[str, Completion | ProviderError]:
        try:
            batch = self._client.batches.retrieve(batch_id)
            outputs = [
                self._client.files.content(file_id).text
                for file_id in (batch.output_file_id, batch.error_file_id)
                if file_id
            ]
        except Exception as error:
            raise self._provider._translate(error) from None
        found: dict[str, Completion | ProviderError] = {}
        for text in outputs:
            for line in text.splitlines():
                if not line.strip():
                    continue
                item = json.loads(line)
                custom_id = str(item.get("custom_id"))
                found[custom_id] = _batch_item(item, batch_id)
        return found


def _batch_item(item: dict[str, Any], batch_id: str) -> Completion | ProviderError:
    response = item.get("response") or {}
    error = item.get("error")
    status = response.get("status_code")
    body = response.get("body")
    if error or status != 200 or not isinstance(body, dict):
        detail = error.get("message") if isinstance(error, dict) else None
        if detail is None and isinstance(body, dict) and isinstance(body.get("error"), dict):
            detail = body["error"].get("message")
        return ProviderError(
            f"batch item failed (HTTP {status}): {detail or 'no detail'}",
            retryable=status is None or is_retryable_status(int(status)),
            status=status,
        )
    completion = _completion_from_chat(body, latency=None)
    return Completion(**{**completion.__dict__, "transport": TRANSPORT_BATCH, "batch_id": batch_id})


def _as_dict(response: Any) -> dict[str, Any]:
    return response.model_dump() if hasattr(response, "model_dump") else dict(response)


def _completion_from_chat(body: dict[str, Any], *, latency: float | None) -> Completion:
    choices = body.get("choices") or []
    first = choices[0] if choices else {}
    message = first.get("message") or {}
    text = message.get("content") or ""
    usage = body.get("usage") or {}
    created = body.get("created")
    created_at = (
        utc_timestamp(datetime.fromtimestamp(created, UTC))
        if isinstance(created, int | float)
        else utc_timestamp()
    )
    return Completion(
        text=text,
        created_at=created_at,
        input_tokens=usage.get("prompt_tokens"),
        output_tokens=usage.get("completion_tokens"),
        latency_seconds=latency,
        response_model=body.get("model"),
        finish_reason=first.get("finish_reason"),
    )


def translate_sdk_error(sdk: Any, error: Exception, timeout: float) -> ProviderError:
    """SDK exception -> ProviderError. Works for both SDKs: they share the exception hierarchy's names."""
    if isinstance(error, ProviderError):
        return error
    if isinstance(error, sdk.APITimeoutError):
        return ProviderError(f"no answer within the timeout of {timeout:g} s", retryable=True)
    if isinstance(error, sdk.APIConnectionError):
        return ProviderError(f"connection failed: {error}", retryable=True)
    if isinstance(error, sdk.APIStatusError):
        status = int(error.status_code)
        headers = dict(error.response.headers) if getattr(error, "response", None) is not None else {}
        message = getattr(error, "message", None) or str(error)
        message = re.sub(r"^Error code: \d+ - ", "", message)  # the SDKs' prefix; we say "HTTP nnn" already
        return ProviderError(
            f"HTTP {status}: {message}",
            retryable=is_retryable_status(status),
            status=status,
            retry_after=parse_retry_after(headers),
            fatal=status in FATAL_STATUS,
        )
    if isinstance(error, sdk.APIError):
        return ProviderError(f"API error: {error}", retryable=False)
    raise error
