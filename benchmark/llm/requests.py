"""The data that crosses the boundary between a task and the engine: requests, answers, failures.

A task (the ATL mapping track, later round-trip or OCL) only ever builds :class:`Job`\\ s and reads
:class:`JobResult`\\ s; it never sees an SDK, a retry or a cache. Everything here is plain, frozen and
JSON-serialisable, because completions are stored in the cache and in the raw logs and must come back
byte-identical for ``--offline`` to reproduce the same files.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from benchmark.core.fileio import sha256_text
from benchmark.llm.answer_formats import RequestedSchema

TRANSPORT_DIRECT = "direct"
TRANSPORT_BATCH = "batch"


@dataclass(frozen=True)
class GenerationParameters:
    """Sampling parameters sent with a request. ``None`` means "not sent; the provider's default".

    ``seed`` is the configured base seed; the seed actually sent for run *i* is ``seed + i - 1`` (see
    :meth:`request_seed`), so that N repetitions with a fixed seed are N different samples rather than
    the same one N times, and each stays reproducible.
    """

    max_tokens: int
    temperature: float | None = None
    top_p: float | None = None
    seed: int | None = None

    def request_seed(self, run_index: int) -> int | None:
        return None if self.seed is None else self.seed + run_index - 1

    def to_json(self, run_index: int) -> dict[str, Any]:
        return {
            "temperature": self.temperature,
            "topP": self.top_p,
            "maxTokens": self.max_tokens,
            "seed": self.seed,
            "requestSeed": self.request_seed(run_index),
        }


@dataclass(frozen=True)
class LlmRequest:
    """One prompt to send, for one run index. ``system`` is optional; ``prompt`` is the user message.
    ``answer_schema``: the JSON Schema the answer is constrained by, and the dialect it is sent in (``None``:
    a free answer, nothing sent beside the prompt)."""

    prompt: str
    parameters: GenerationParameters
    run_index: int
    system: str | None = None
    answer_schema: RequestedSchema | None = None

    @property
    def prompt_sha256(self) -> str:
        """Hash of everything the model reads (system and user text), the cache's notion of "prompt"."""
        return sha256_text(json.dumps({"system": self.system, "user": self.prompt}, sort_keys=True))


@dataclass(frozen=True)
class Job:
    """A request plus what the engine needs to report on it: a label for messages and a raw log file."""

    request: LlmRequest
    label: str  # e.g. "Grafcet2Petrinet run 03", used in progress and error messages
    log_path: Path | None = None


def utc_timestamp(moment: datetime | None = None) -> str:
    moment = moment or datetime.now(UTC)
    return moment.astimezone(UTC).replace(microsecond=0).isoformat().replace("+00:00", "Z")


@dataclass(frozen=True)
class Completion:
    """A model's answer, as received (fresh) or replayed (cache, log). Serialised in cache and logs.

    ``created_at`` and ``latency_seconds`` describe the original request, so a replay writes the same
    bytes as the first run did; so do the ledger's fields, set by the engine when the answer arrives:
    ``attempts`` (HTTP attempts it took, retries included), ``wall_seconds`` (from the first attempt to
    the answer, retry waits included) and ``call_id`` (the ``generate`` call that paid for it, whose
    manifest and event log sit beside the runs).
    """

    text: str
    created_at: str
    input_tokens: int | None = None
    output_tokens: int | None = None
    latency_seconds: float | None = None
    response_model: str | None = None
    finish_reason: str | None = None
    transport: str = TRANSPORT_DIRECT
    batch_id: str | None = None
    attempts: int | None = None
    wall_seconds: float | None = None
    call_id: str | None = None

    def to_json(self) -> dict[str, Any]:
        data = {
            "text": self.text,
            "createdAt": self.created_at,
            "inputTokens": self.input_tokens,
            "outputTokens": self.output_tokens,
            "latencySeconds": self.latency_seconds,
            "responseModel": self.response_model,
            "finishReason": self.finish_reason,
            "transport": self.transport,
            "batchId": self.batch_id,
        }
        # Only when set, so that answers stored before the ledger existed keep their bytes.
        for key, value in (
            ("attempts", self.attempts),
            ("wallSeconds", self.wall_seconds),
            ("call", self.call_id),
        ):
            if value is not None:
                data[key] = value
        return data

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Completion:
        text = data.get("text")
        created = data.get("createdAt")
        if not isinstance(text, str) or not isinstance(created, str):
            raise ValueError("a stored completion needs string 'text' and 'createdAt'")
        return cls(
            text=text,
            created_at=created,
            input_tokens=data.get("inputTokens"),
            output_tokens=data.get("outputTokens"),
            latency_seconds=data.get("latencySeconds"),
            response_model=data.get("responseModel"),
            finish_reason=data.get("finishReason"),
            transport=data.get("transport") or TRANSPORT_DIRECT,
            batch_id=data.get("batchId"),
            attempts=data.get("attempts"),
            wall_seconds=data.get("wallSeconds"),
            call_id=data.get("call"),
        )


# Why a job got no answer, in one word (JobResult.missing); the message (JobResult.error) says more.
MISSING_ERROR = "error"  # the request failed (HTTP error, timeout) after its attempts
MISSING_BUDGET = "budget"  # not sent: --max-cost or --max-requests would have been crossed
MISSING_RATE_LIMIT = "rate-limit"  # the server asked to wait longer than max_retry_after
MISSING_CONTEXT = "context"  # not sent: the prompt does not fit the provider's context window
MISSING_OFFLINE = "offline"  # --offline and no stored answer
MISSING_NOT_SENT = "not-sent"  # the call stopped before sending it (401/403, Ctrl-C)

# Where a result came from.
SOURCE_REQUEST = "request"  # sent now (directly or in a batch)
SOURCE_CACHE = "cache"  # the response cache directory
SOURCE_LOG = "log"  # a committed raw log (runs/.log/*.jsonl), read only


@dataclass(frozen=True)
class JobResult:
    """The outcome of one job: a completion, or an error message saying why there is none.

    ``error`` set means *no answer* (network, timeout, authentication, offline cache miss): nothing for
    the task to file. An answer the task cannot parse is still a completion; the task decides.
    """

    job: Job
    key: str
    completion: Completion | None = None
    source: str | None = None
    error: str | None = None
    attempts: int = 0
    missing: str | None = None  # why there is no answer, in one word: MISSING_* below (None: an answer)

    @property
    def ok(self) -> bool:
        return self.completion is not None
