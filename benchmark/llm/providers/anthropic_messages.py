"""Claude through the official ``anthropic`` SDK: the Messages API, and Message Batches for ``--batch``.

The Messages API has no seed; a configured seed is recorded (it is part of the cache key) but not sent.
"""

from __future__ import annotations

import json
import time
from collections.abc import Sequence
from typing import Any

from benchmark.llm.config import ProviderConfig
from benchmark.llm.providers.base import BatchState, BatchUnsupportedError, ProviderError
from benchmark.llm.providers.openai_compatible import translate_sdk_error
from benchmark.llm.requests import TRANSPORT_BATCH, Completion, LlmRequest, utc_timestamp
from benchmark.llm.retry import is_retryable_status


def _import_sdk() -> Any:
    try:
        import anthropic
    except ImportError as error:  # pragma: no cover - exercised only without the extra
        raise ProviderError(
            "the 'anthropic' package is needed for anthropic providers: pip install 'atl-binding-bench[llm]'",
            retryable=False,
            fatal=True,
        ) from error
    return anthropic


class AnthropicProvider:
    def __init__(self, config: ProviderConfig, api_key: str | None) -> None:
        self._anthropic = _import_sdk()
        self._config = config
        self._client = self._anthropic.Anthropic(
            api_key=api_key or "no-key-configured",
            base_url=config.base_url,
            timeout=config.timeout,
            max_retries=0,
        )

    def request_params(self, request: LlmRequest) -> dict[str, Any]:
        """The Messages API parameters, shared by the direct and the batch path."""
        params: dict[str, Any] = {
            "model": self._config.model,
            "max_tokens": request.parameters.max_tokens,
            "messages": [{"role": "user", "content": request.prompt}],
        }
        if request.system is not None:
            params["system"] = request.system
        if request.parameters.temperature is not None:
            params["temperature"] = request.parameters.temperature
        if request.parameters.top_p is not None:
            params["top_p"] = request.parameters.top_p
        if request.answer_schema is not None:
            from benchmark.llm.dialects import anthropic_fields

            params.update(
                anthropic_fields(request.answer_schema.schema.name, request.answer_schema.schema.schema)
            )
        return params

    def complete(self, request: LlmRequest) -> Completion:
        params = self.request_params(request)
        # Sampling parameters travel as extra body fields: recent SDKs dropped them from create()'s
        # signature while the API (and the batch path, which posts params as JSON) still takes them.
        sampling = {key: params.pop(key) for key in ("temperature", "top_p") if key in params}
        started = time.monotonic()
        try:
            message = self._client.messages.create(**params, extra_body=sampling or None)
        except Exception as error:
            raise self._translate(error) from None
        latency = round(time.monotonic() - started, 3)
        return _completion_from_message(_as_dict(message), latency=latency)

    def _translate(self, error: Exception) -> ProviderError:
        return translate_sdk_error(self._anthropic, error, self._config.timeout)

    def batch_backend(self) -> AnthropicBatchBackend:
        if not self._config.batch:
            raise BatchUnsupportedError(
                f"provider {self._config.name!r} has batch = false in its configuration"
            )
        return AnthropicBatchBackend(self)


class AnthropicBatchBackend:
    def __init__(self, provider: AnthropicProvider) -> None:
        self._provider = provider
        self._batches = provider._client.messages.batches

    def submit(self, items: Sequence[tuple[str, LlmRequest]]) -> str:
        requests = [
            {"custom_id": custom_id, "params": self._provider.request_params(request)}
            for custom_id, request in items
        ]
        try:
            batch = self._batches.create(requests=requests)
        except Exception as error:
            translated = self._provider._translate(error)
            if translated.status == 404:
                raise BatchUnsupportedError(
                    f"{self._provider._config.base_url} does not offer Message Batches (HTTP 404);"
                    " run without --batch"
                ) from None
            raise translated from None
        return str(batch.id)

    def poll(self, batch_id: str) -> BatchState:
        try:
            batch = self._batches.retrieve(batch_id)
        except Exception as error:
            raise self._provider._translate(error) from None
        counts = batch.request_counts
        failed = None
        if counts is not None:
            failed = counts.errored + counts.canceled + counts.expired
        total = (
            None
            if counts is None
            else counts.succeeded + counts.errored + counts.canceled + counts.expired + counts.processing
        )
        return BatchState(
            batch_id=batch_id,
            status=str(batch.processing_status),
            done=batch.processing_status == "ended",
            succeeded=None if counts is None else counts.succeeded,
            failed=failed,
            total=total,
        )

    def results(self, batch_id: str) -> dict[str, Completion | ProviderError]:
        found: dict[str, Completion | ProviderError] = {}
        try:
            for entry in self._batches.results(batch_id):
                item = _as_dict(entry)
                found[str(item.get("custom_id"))] = _batch_item(item, batch_id)
        except Exception as error:
            raise self._provider._translate(error) from None
        return found


def _batch_item(item: dict[str, Any], batch_id: str) -> Completion | ProviderError:
    result = item.get("result") or {}
    kind = result.get("type")
    if kind == "succeeded" and isinstance(result.get("message"), dict):
        completion = _completion_from_message(result["message"], latency=None)
        return Completion(**{**completion.__dict__, "transport": TRANSPORT_BATCH, "batch_id": batch_id})
    if kind == "errored":
        error = (result.get("error") or {}).get("error") or result.get("error") or {}
        error_type = error.get("type") if isinstance(error, dict) else None
        message = error.get("message") if isinstance(error, dict) else None
        status = (
            429
            if error_type == "rate_limit_error"
            else 500
            if error_type in {"api_error", "overloaded_error"}
            else None
        )
        return ProviderError(
            f"batch item errored ({error_type or 'unknown'}): {message or 'no detail'}",
            retryable=status is not None and is_retryable_status(status),
            status=status,
        )
    return ProviderError(f"batch item {kind or 'without result'}", retryable=kind in {"canceled", "expired"})


def _as_dict(value: Any) -> dict[str, Any]:
    return value.model_dump() if hasattr(value, "model_dump") else dict(value)


def _completion_from_message(message: dict[str, Any], *, latency: float | None) -> Completion:
    """The answer of a message: its text blocks, or, when the answer was forced through the answer tool
    (``structured_output = "anthropic-tool"``), that tool's input as JSON (the text beside it, if any, is
    commentary the schema did not ask for)."""
    from benchmark.llm.dialects import TOOL_NAME

    blocks = [block for block in message.get("content") or [] if isinstance(block, dict)]
    tool_inputs = [
        block.get("input")
        for block in blocks
        if block.get("type") == "tool_use" and block.get("name") == TOOL_NAME
    ]
    if tool_inputs:
        text = json.dumps(tool_inputs[0], ensure_ascii=False)
    else:
        text = "".join(block.get("text", "") for block in blocks if block.get("type") == "text")
    usage = message.get("usage") or {}
    return Completion(
        text=text,
        created_at=utc_timestamp(),
        input_tokens=usage.get("input_tokens"),
        output_tokens=usage.get("output_tokens"),
        latency_seconds=latency,
        response_model=message.get("model"),
        finish_reason=message.get("stop_reason"),
    )
