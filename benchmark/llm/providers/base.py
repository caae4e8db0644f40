"""What every provider adapter offers the engine, and the two ways a request can fail.

An adapter wraps one official SDK client. It translates an :class:`~benchmark.llm.requests.LlmRequest`
into that SDK's call, the SDK's answer into a :class:`~benchmark.llm.requests.Completion`, and the SDK's
exceptions into :class:`ProviderError` with a retry verdict; it never retries, caches or logs itself.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from benchmark.llm.requests import Completion, LlmRequest


class ProviderError(Exception):
    """A request that produced no answer. ``retryable``: worth another attempt; ``fatal``: stop all.

    ``status`` is the HTTP status when there was one; ``retry_after`` the server's requested wait (s).
    """

    def __init__(
        self,
        message: str,
        *,
        retryable: bool,
        status: int | None = None,
        retry_after: float | None = None,
        fatal: bool = False,
    ) -> None:
        super().__init__(message)
        self.message = message
        self.retryable = retryable
        self.status = status
        self.retry_after = retry_after
        self.fatal = fatal


class BatchUnsupportedError(ProviderError):
    def __init__(self, message: str) -> None:
        super().__init__(message, retryable=False, fatal=True)


@dataclass(frozen=True)
class BatchState:
    """A batch's progress as the provider reports it. ``done`` once results (if any) can be fetched."""

    batch_id: str
    status: str
    done: bool
    succeeded: int | None = None
    failed: int | None = None
    total: int | None = None
    error: str | None = None  # a batch that ended without results (failed, expired, cancelled)


class BatchBackend(Protocol):
    def submit(self, items: Sequence[tuple[str, LlmRequest]]) -> str:
        """Send (custom id, request) pairs as one batch; return the batch id."""

    def poll(self, batch_id: str) -> BatchState: ...

    def results(self, batch_id: str) -> dict[str, Completion | ProviderError]:
        """Per custom id: the answer, or why there is none. Ids missing from the dict failed silently."""


class Provider(Protocol):
    def complete(self, request: LlmRequest) -> Completion:
        """One direct request. Raises :class:`ProviderError`."""

    def batch_backend(self) -> BatchBackend:
        """The provider's batch interface; raises :class:`BatchUnsupportedError` when it has none."""
