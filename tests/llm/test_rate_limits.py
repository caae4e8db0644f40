"""HTTP 429 against the local fake server: bounded Retry-After, no retry at max_attempts = 1, adaptive
concurrency (halve on 429, grow back slowly)."""

from __future__ import annotations

import json
import time
from pathlib import Path

from benchmark.bench.support.fake_llm_server import FakeLLMServer, Reply
from benchmark.llm.calllog import CallLog
from benchmark.llm.ratelimit import AdaptiveLimit
from benchmark.llm.redact import Redactor
from benchmark.llm.requests import MISSING_RATE_LIMIT
from benchmark.llm.retry import RetryPolicy
from tests.llm.test_engine import engine, jobs, provider

SLOW_DOWN = {"error": {"message": "rate limit reached", "type": "rate_limit_error"}}


def test_a_retry_after_longer_than_allowed_fails_the_request_instead_of_freezing(
    server: FakeLLMServer, tmp_path: Path, fake_keys: dict[str, str]
) -> None:
    server.enqueue(Reply(status=429, headers={"retry-after": "3600"}, body=SLOW_DOWN))
    sleeps: list[float] = []
    config = provider(server, max_retry_after=30.0)
    runner = engine(config, tmp_path, sleeps, retry=RetryPolicy(max_attempts=5, max_retry_after=30.0))
    started = time.monotonic()
    [result] = runner.run(jobs(1))
    assert time.monotonic() - started < 5  # not an hour
    assert sleeps == [] and server.count() == 1
    assert not result.ok and result.missing == MISSING_RATE_LIMIT
    assert result.error is not None and result.error.startswith("rate-limit: HTTP 429")
    assert "wait 3600 s, more than max_retry_after (30 s)" in result.error


def test_a_retry_after_within_the_bound_is_waited_for(
    server: FakeLLMServer, tmp_path: Path, fake_keys: dict[str, str]
) -> None:
    server.enqueue(Reply(status=429, headers={"retry-after": "20"}, body=SLOW_DOWN))
    sleeps: list[float] = []
    runner = engine(provider(server), tmp_path, sleeps, retry=RetryPolicy(max_attempts=3, max_retry_after=30))
    [result] = runner.run(jobs(1))
    assert result.ok and sleeps == [20.0] and server.count() == 2


def test_max_attempts_1_means_no_retry_on_429(
    server: FakeLLMServer, tmp_path: Path, fake_keys: dict[str, str]
) -> None:
    server.enqueue(Reply(status=429, headers={"retry-after": "0"}, body=SLOW_DOWN))
    sleeps: list[float] = []
    runner = engine(provider(server, max_attempts=1), tmp_path, sleeps, retry=RetryPolicy(max_attempts=1))
    [result] = runner.run(jobs(1))
    assert not result.ok and result.attempts == 1 and "HTTP 429" in (result.error or "")
    assert server.count() == 1 and sleeps == [] and runner.stats.retries == 0
    assert runner.stats.rate_limited == 1


def test_adaptive_limit_halves_on_429_and_grows_back_one_step_per_window() -> None:
    changes: list[tuple[int, int]] = []
    limit = AdaptiveLimit(8, 2, on_change=lambda old, new, why: changes.append((old, new)))
    limit.rate_limited()
    limit.rate_limited()
    limit.rate_limited()  # 8 -> 4 -> 2, then the floor
    assert limit.limit == 2 and changes == [(8, 4), (4, 2)]
    for _ in range(2):
        limit.succeeded()
    assert limit.limit == 3  # after `limit` answers without a 429, one more
    for _ in range(2):
        limit.succeeded()
    assert limit.limit == 3  # the next step needs 3 answers
    limit.succeeded()
    assert limit.limit == 4
    limit.rate_limited()
    assert limit.limit == 2 and changes[-1] == (4, 2)
    for _ in range(100):
        limit.succeeded()
    assert limit.limit == 8  # never above the configured concurrency


def test_429s_halve_the_requests_in_flight_against_the_server(
    server: FakeLLMServer, tmp_path: Path, fake_keys: dict[str, str]
) -> None:
    """Four workers; the first answers are 429s: the engine drops to one request at a time (the server
    sees it), every job is still answered, and the event log records each change of the limit."""
    server.answer_delay = 0.15
    server.enqueue(*(Reply(status=429, headers={"retry-after": "0.05"}, body=SLOW_DOWN) for _ in range(3)))
    log = tmp_path / "runs" / ".log" / "P.jsonl"
    calls = CallLog("20250101T000000Z-test0001", Redactor())
    events = calls.session("atl/P")
    changes: list[tuple[int, int]] = []

    def changed(old: int, new: int, why: str) -> None:
        changes.append((old, new))
        calls.broadcast("concurrency", provider="P", limit=new, previous=old, why=why)

    limiter = AdaptiveLimit(4, 1, on_change=changed)
    runner = engine(
        provider(server, max_attempts=5, timeout=5.0),
        tmp_path,
        [],
        concurrency=4,
        limiter=limiter,
        events=events,
        sleep=time.sleep,
        retry=RetryPolicy(max_attempts=5, max_retry_after=1.0),
    )
    work = [job for index in range(10) for job in jobs(1, prompt=f"prompt {index}", log=log)]
    results = runner.run(work)
    assert all(r.ok for r in results) and server.count() == 13  # 10 answers + 3 rate-limited attempts
    assert changes[:2] == [(4, 2), (2, 1)]  # halved twice (then at the floor of 1)
    assert any(new > old for old, new in changes[2:])  # and grown back, one step at a time
    assert all(new - old <= 1 for old, new in changes if new > old)
    assert runner.stats.rate_limited == 3 and limiter.peak <= 4
    lines = [
        json.loads(line)
        for line in (log.parent / "calls" / f"{calls.call_id}.jsonl").read_text().splitlines()
    ]
    limits = [(line["previous"], line["limit"]) for line in lines if line["event"] == "concurrency"]
    assert limits == changes  # every change is in the call's event log
    assert sum(1 for line in lines if line["event"] == "retry") == 3
