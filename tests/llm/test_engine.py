"""The engine with the real SDK clients against the local server: retries, timeouts, concurrency, batches."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from benchmark.bench.support.fake_llm_server import FakeLLMServer, Reply
from benchmark.llm.batch import BatchJournal, PollPolicy
from benchmark.llm.cache import ResponseCache
from benchmark.llm.config import KIND_ANTHROPIC, KIND_OPENAI, ProviderConfig
from benchmark.llm.engine import Engine
from benchmark.llm.rawlog import RawLog
from benchmark.llm.redact import Redactor
from benchmark.llm.requests import GenerationParameters, Job, LlmRequest
from benchmark.llm.retry import RetryPolicy


def provider(server: FakeLLMServer, kind: str = KIND_OPENAI, **overrides: object) -> ProviderConfig:
    values: dict[str, object] = {
        "name": "P",
        "kind": kind,
        "model": "m-1",
        "base_url": server.url + ("/v1" if kind == KIND_OPENAI else ""),
        "api_key_env": "FAKE_OPENAI_KEY",
        "parameters": GenerationParameters(max_tokens=64, temperature=0.0, seed=1),
        "timeout": 0.3,
        "max_attempts": 3,
    }
    values.update(overrides)
    return ProviderConfig(**values)  # type: ignore[arg-type]


def engine(config: ProviderConfig, tmp_path: Path, sleeps: list[float], **options: object) -> Engine:
    redactor = Redactor()
    values: dict[str, object] = {
        "retry": RetryPolicy(max_attempts=config.max_attempts, base_delay=2.0, max_delay=8.0),
        "poll": PollPolicy(initial=0.01, maximum=0.02),
        "sleep": sleeps.append,
    }
    values.update(options)
    return Engine(
        config,
        cache=ResponseCache(tmp_path / "cache"),
        log=RawLog({"test": True}, redactor),
        redactor=redactor,
        **values,  # type: ignore[arg-type]
    )


def jobs(*runs: int, prompt: str = "map these", log: Path | None = None) -> list[Job]:
    parameters = GenerationParameters(max_tokens=64, temperature=0.0, seed=1)
    return [
        Job(LlmRequest(prompt=prompt, parameters=parameters, run_index=r), label=f"run{r}", log_path=log)
        for r in runs
    ]


@pytest.mark.parametrize("kind", [KIND_OPENAI, KIND_ANTHROPIC])
def test_429_honours_retry_after_instead_of_backoff(
    kind: str, server: FakeLLMServer, tmp_path: Path, fake_keys: dict[str, str]
) -> None:
    server.enqueue(
        Reply(status=429, headers={"retry-after": "0.05"}, body={"error": {"message": "slow down"}})
    )
    server.enqueue(
        Reply(status=429, headers={"retry-after-ms": "70"}, body={"error": {"message": "slow down"}})
    )
    sleeps: list[float] = []
    runner = engine(provider(server, kind), tmp_path, sleeps)
    [result] = runner.run(jobs(1))
    assert result.ok and result.attempts == 3
    assert sleeps == [0.05, 0.07]  # the server's wishes, not the 2 s backoff
    assert runner.stats.requests == 3 and runner.stats.retries == 2 and server.count() == 3


def test_5xx_backs_off_exponentially_then_gives_up(
    server: FakeLLMServer, tmp_path: Path, fake_keys: dict[str, str]
) -> None:
    server.enqueue(*(Reply(status=status) for status in (500, 503, 502)))
    sleeps: list[float] = []
    runner = engine(provider(server), tmp_path, sleeps)
    [result] = runner.run(jobs(1))
    assert not result.ok and result.error == "HTTP 502: scripted (after 3 attempts)"
    assert (
        len(sleeps) == 2 and 1.0 <= sleeps[0] <= 2.0 and 2.0 <= sleeps[1] <= 4.0
    )  # base 2 s, jitter in [0.5, 1]
    assert runner.stats.failures == 1 and runner.cache.get(result.key) is None  # errors are never cached


def test_4xx_is_not_retried(server: FakeLLMServer, tmp_path: Path, fake_keys: dict[str, str]) -> None:
    server.enqueue(Reply(status=400, body={"error": {"message": "prompt too long"}}))
    sleeps: list[float] = []
    [result] = engine(provider(server), tmp_path, sleeps).run(jobs(1))
    assert result.error is not None and "HTTP 400" in result.error and "prompt too long" in result.error
    assert sleeps == [] and server.count() == 1


@pytest.mark.parametrize("kind", [KIND_OPENAI, KIND_ANTHROPIC])
def test_slow_answer_past_the_timeout_is_retried(
    kind: str, server: FakeLLMServer, tmp_path: Path, fake_keys: dict[str, str]
) -> None:
    server.enqueue(Reply(text="too late", delay=1.0))
    sleeps: list[float] = []
    runner = engine(provider(server, kind), tmp_path, sleeps)
    [result] = runner.run(jobs(1))
    assert result.ok and result.completion is not None
    assert result.completion.text == "answer to map these" and result.attempts == 2
    assert runner.stats.retries == 1


def test_timeout_on_the_last_attempt_is_a_failure(
    server: FakeLLMServer, tmp_path: Path, fake_keys: dict[str, str]
) -> None:
    server.enqueue(Reply(text="too late", delay=1.0))
    [result] = engine(provider(server, max_attempts=1), tmp_path, []).run(jobs(1))
    assert result.error == "no answer within the timeout of 0.3 s"


def test_concurrency_answers_every_job_in_order(
    server: FakeLLMServer, tmp_path: Path, fake_keys: dict[str, str]
) -> None:
    work = [job for index in range(6) for job in jobs(1, prompt=f"prompt {index}")]
    runner = engine(provider(server), tmp_path, [], concurrency=4)
    results = runner.run(work)
    assert [r.completion.text for r in results if r.completion] == [f"answer to prompt {i}" for i in range(6)]
    assert len({r.key for r in results}) == 6 and server.count() == 6


@pytest.mark.parametrize("kind", [KIND_OPENAI, KIND_ANTHROPIC])
def test_batch_files_results_like_the_direct_path(
    kind: str, server: FakeLLMServer, tmp_path: Path, fake_keys: dict[str, str]
) -> None:
    log = tmp_path / "log.jsonl"
    runner = engine(provider(server, kind), tmp_path, [])
    results = runner.run(jobs(1, 2, 3, log=log), batch=True)
    assert [r.completion.text for r in results if r.completion] == ["answer to map these"] * 3
    assert all(r.completion and r.completion.transport == "batch" and r.completion.batch_id for r in results)
    assert runner.stats.batches == 1 and runner.stats.requests == 3
    assert server.count("/v1/chat/completions") == 0 and server.count("/v1/messages") == (
        server.count("/v1/messages/batches")
    )
    if kind == KIND_OPENAI:
        uploaded = [json.loads(line) for line in next(iter(server.files.values())).decode().splitlines()]
        assert [item["custom_id"] for item in uploaded] == [r.key for r in results]
        assert {item["url"] for item in uploaded} == {"/v1/chat/completions"}
        assert [item["body"]["seed"] for item in uploaded] == [1, 2, 3]
    else:
        [batch] = server.anthropic_batches.values()
        assert [item["custom_id"] for item in batch["requests"]] == [r.key for r in results]
        assert all(item["params"]["temperature"] == 0.0 for item in batch["requests"])
    # Answers are cached and logged like direct ones; a second session sends nothing.
    events = [json.loads(line) for line in log.read_text().splitlines()]
    assert [e["event"] for e in events] == ["spec", "response", "response", "response"]
    before = server.count()
    again = engine(provider(server, kind), tmp_path, []).run(jobs(1, 2, 3), batch=True)
    assert server.count() == before and all(r.source == "cache" for r in again)
    assert not list((tmp_path / "cache" / "batches").rglob("*.json"))  # journal cleared


def test_interrupted_batch_is_resumed_not_resubmitted(
    server: FakeLLMServer, tmp_path: Path, fake_keys: dict[str, str]
) -> None:
    server.polls_until_done = 5
    config = provider(server)
    impatient = engine(config, tmp_path, [], poll=PollPolicy(initial=0.01, maximum=0.01, max_wait=0.015))
    results = impatient.run(jobs(1, 2), batch=True)
    assert all(not r.ok and "run the same command again" in (r.error or "") for r in results)
    assert len(server.openai_batches) == 1
    assert len(list((tmp_path / "cache" / "batches").rglob("*.json"))) == 1
    patient = engine(config, tmp_path, [])
    results = patient.run(jobs(1, 2), batch=True)
    assert all(r.ok for r in results)
    assert len(server.openai_batches) == 1 and patient.stats.batches == 0  # the same batch, collected


def test_batch_answers_kept_for_a_later_session_are_redacted(
    server: FakeLLMServer, tmp_path: Path, fake_keys: dict[str, str]
) -> None:
    # A batch of runs 1 and 2 is collected by a session that only wants run 1: run 2's answer goes to
    # the cache for later, through the same redaction as every other answer (the server echoes the key).
    server.polls_until_done = 5
    config = provider(server)
    leaky = jobs(1, 2, prompt=f"echo {fake_keys['openai']}")
    impatient = engine(config, tmp_path, [], poll=PollPolicy(initial=0.01, maximum=0.01, max_wait=0.015))
    assert not any(r.ok for r in impatient.run(leaky, batch=True))
    [first] = engine(config, tmp_path, []).run(leaky[:1], batch=True)
    assert first.completion is not None and first.completion.text == "answer to echo ***"
    [second] = engine(config, tmp_path, [], offline=True).run(leaky[1:])
    assert second.source == "cache" and second.completion is not None
    assert second.completion.text == "answer to echo ***"
    for path in (tmp_path / "cache").rglob("*.json"):
        assert fake_keys["openai"] not in path.read_text(encoding="utf-8"), path


def test_a_journaled_batch_the_provider_does_not_know_is_forgotten(
    server: FakeLLMServer, tmp_path: Path, fake_keys: dict[str, str]
) -> None:
    # A journal left by a session under another account (or a purged batch): polling answers 404 in
    # every session, so the journal is dropped and the next session submits the requests again.
    config = provider(server)
    runner = engine(config, tmp_path, [])
    work = jobs(1, 2)
    journal = BatchJournal(tmp_path / "cache", config.endpoint)
    journal.record("batch_gone", [runner.key(job) for job in work])
    results = runner.run(work, batch=True)
    assert all(
        not r.ok and "batch batch_gone is unknown to the provider (HTTP 404" in (r.error or "")
        for r in results
    )
    assert journal.entries() == [] and server.openai_batches == {}
    again = engine(config, tmp_path, [])
    assert all(r.ok for r in again.run(work, batch=True)) and again.stats.batches == 1


def test_endpoint_without_batch_api_says_so(
    server: FakeLLMServer, tmp_path: Path, fake_keys: dict[str, str]
) -> None:
    config = provider(server, base_url=server.url + "/elsewhere/v1")
    [result] = engine(config, tmp_path, []).run(jobs(1), batch=True)
    assert result.error is not None and "does not offer OpenAI's Batch API" in result.error


def test_offline_engine_never_builds_a_client(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("FAKE_OPENAI_KEY", raising=False)
    config = ProviderConfig(
        name="P",
        kind=KIND_OPENAI,
        model="m",
        base_url="http://127.0.0.1:9/v1",
        api_key_env="FAKE_OPENAI_KEY",
        parameters=GenerationParameters(max_tokens=8),
    )

    def no_client(*args: object) -> None:
        raise AssertionError("offline mode must not create a provider")

    redactor = Redactor()
    runner = Engine(
        config,
        cache=ResponseCache(tmp_path),
        log=RawLog({}, redactor),
        redactor=redactor,
        offline=True,
        provider_factory=no_client,
    )  # type: ignore[arg-type]
    [result] = runner.run(jobs(1))
    assert result.error is not None and result.error.startswith("offline: no cached answer")
