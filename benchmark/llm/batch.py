"""Sending a whole request set through a provider's batch interface, and collecting it, resumably.

A batch can take up to a day. Its id and the cache keys it carries are written to a journal in the cache
directory (``<cache>/batches/<endpoint>/<batch id>.json``) before polling starts, so an interrupted
session (Ctrl-C, a closed laptop, ``--batch-max-wait``) loses nothing: running the same command again
finds the journal, polls the same batch instead of paying for a new one, and files its results exactly
as the direct path would. A journal is removed once its results are in the cache.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from benchmark.core.fileio import sha256_text, write_json_atomic
from benchmark.llm.providers.base import BatchBackend, BatchState, ProviderError
from benchmark.llm.requests import utc_timestamp
from benchmark.llm.retry import RetryPolicy


@dataclass
class PollPolicy:
    """Poll at once, then after ``initial`` seconds, then ``factor`` times longer each time (at most
    ``maximum``)."""

    initial: float = 5.0
    factor: float = 1.5
    maximum: float = 60.0
    max_wait: float | None = None  # give up waiting (resumable) after this many seconds in total

    def delays(self) -> Iterable[float]:
        delay = self.initial
        while True:
            yield delay
            delay = min(self.maximum, delay * self.factor)


@dataclass(frozen=True)
class JournalEntry:
    batch_id: str
    keys: tuple[str, ...]
    submitted_at: str
    path: Path


class BatchJournal:
    def __init__(self, root: Path, endpoint: dict[str, str]) -> None:
        tag = sha256_text(json.dumps(endpoint, sort_keys=True))[:16]
        self.directory = root / "batches" / f"{endpoint['kind']}-{tag}"
        self._endpoint = endpoint

    def entries(self) -> list[JournalEntry]:
        found: list[JournalEntry] = []
        if not self.directory.is_dir():
            return found
        for path in sorted(self.directory.glob("*.json")):
            try:
                data = json.loads(path.read_text(encoding="utf-8"))
                found.append(
                    JournalEntry(
                        batch_id=str(data["batchId"]),
                        keys=tuple(data["keys"]),
                        submitted_at=str(data.get("submittedAt")),
                        path=path,
                    )
                )
            except (OSError, ValueError, KeyError, TypeError):
                continue
        return found

    def record(self, batch_id: str, keys: Iterable[str]) -> JournalEntry:
        safe = "".join(ch if ch.isalnum() or ch in "-_" else "_" for ch in batch_id)
        path = self.directory / f"{safe}.json"
        entry = JournalEntry(batch_id=batch_id, keys=tuple(keys), submitted_at=utc_timestamp(), path=path)
        write_json_atomic(
            path,
            {
                "batchId": batch_id,
                "endpoint": self._endpoint,
                "submittedAt": entry.submitted_at,
                "keys": list(entry.keys),
            },
        )
        return entry

    def remove(self, entry: JournalEntry) -> None:
        entry.path.unlink(missing_ok=True)


class BatchStillRunning(Exception):
    def __init__(self, state: BatchState) -> None:
        super().__init__(f"batch {state.batch_id} is still {state.status}")
        self.state = state


def call_with_retries(
    action: Callable[[], Any],
    policy: RetryPolicy,
    sleep: Callable[[float], None],
    on_retry: Callable[[ProviderError, float], None],
) -> Any:
    """Run one API call (submit, poll, fetch) under the retry policy, like a direct request."""
    attempt = 0
    while True:
        attempt += 1
        try:
            return action()
        except ProviderError as error:
            if not error.retryable or attempt >= policy.max_attempts:
                raise
            if error.retry_after is not None and error.retry_after > policy.max_retry_after:
                raise  # a wait longer than allowed: fail now rather than freeze the call
            delay = policy.delay(attempt, error.retry_after)
            on_retry(error, delay)
            sleep(delay)


def wait_for_batch(
    backend: BatchBackend,
    batch_id: str,
    poll: PollPolicy,
    retry: RetryPolicy,
    sleep: Callable[[float], None],
    on_state: Callable[[BatchState], None],
    on_retry: Callable[[ProviderError, float], None],
) -> BatchState:
    """Poll until the batch is done; raise :class:`BatchStillRunning` once ``poll.max_wait`` is spent."""
    waited = 0.0
    for delay in poll.delays():
        state: BatchState = call_with_retries(lambda: backend.poll(batch_id), retry, sleep, on_retry)
        on_state(state)
        if state.done:
            return state
        if poll.max_wait is not None and waited + delay > poll.max_wait:
            raise BatchStillRunning(state)
        sleep(delay)
        waited += delay
    raise AssertionError("unreachable: delays() is infinite")
