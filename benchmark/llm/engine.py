"""The engine: from jobs to answers, through the cache, the provider (direct or batch), retries and logs.

Generic over tracks: it knows prompts, parameters and answers, never what they mean. For each job it
(1) computes the cache key and replays a cached answer (response cache, then committed raw logs) unless
``refresh``; (2) in ``offline`` mode reports a miss as that job's error without sending anything;
(3) otherwise sends the misses, directly with bounded concurrency or as one batch, retrying under the
:class:`~benchmark.llm.retry.RetryPolicy`; (4) stores every fresh answer in the cache and the raw log the
moment it arrives (an interrupted session keeps what it paid for); (5) hands each result to the caller's
``on_result`` in the main thread, so filing and progress bars need no locking.

Jobs with the same cache key (two ground truths of one metamodel pair give the same prompt) are one
request on either path: the cache holds one answer per key, so asking twice would file two answers of
which ``--offline`` could replay only one.

Errors that concern the whole session (no API key, SDK missing, HTTP 401/403) stop it: the first is a
:class:`~benchmark.core.errors.ConfigurationError` before anything is sent, the others mark the remaining jobs
as not sent.

For real studies (``docs/LLM_RUNS.md``, "Cost, budgets, resume, rate limits"): before every HTTP attempt
the call's :class:`~benchmark.llm.budget.Budget` is asked for the attempt's worst case (a refusal stops
the call; the jobs not sent are missing with the reason ``budget``), and a slot of the provider's
:class:`~benchmark.llm.ratelimit.AdaptiveLimit` is taken (halved on 429, grown back slowly). A
``Retry-After`` longer than the provider's ``max_retry_after`` fails the request as missing (``rate-limit``)
instead of freezing the call. With a ``context_window``, prompts that do not fit are reported before
anything is sent (and not sent when the count is the provider's own tokenizer's). Every attempt, answer,
retry and stop is an event of the call's :class:`~benchmark.llm.calllog.CallLog`; every answer carries
its attempts, wall seconds and call id into the cache, so the run files' ledgers replay byte for byte.
"""

from __future__ import annotations

import dataclasses
import os
import threading
import time
from collections.abc import Callable, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor, wait
from dataclasses import dataclass, field
from typing import Any

from benchmark.core.errors import ConfigurationError
from benchmark.core.wording import plural
from benchmark.llm.batch import BatchJournal, BatchStillRunning, PollPolicy, call_with_retries, wait_for_batch
from benchmark.llm.budget import Budget, Reservation
from benchmark.llm.cache import LogReplay, ResponseCache, cache_key, cache_key_fields
from benchmark.llm.calllog import SessionLog
from benchmark.llm.config import ProviderConfig
from benchmark.llm.providers import Provider, ProviderError, make_provider
from benchmark.llm.providers.base import BatchState
from benchmark.llm.ratelimit import AdaptiveLimit
from benchmark.llm.rawlog import RawLog
from benchmark.llm.redact import Redactor
from benchmark.llm.requests import (
    MISSING_BUDGET,
    MISSING_CONTEXT,
    MISSING_ERROR,
    MISSING_NOT_SENT,
    MISSING_OFFLINE,
    MISSING_RATE_LIMIT,
    SOURCE_CACHE,
    SOURCE_LOG,
    SOURCE_REQUEST,
    Completion,
    Job,
    JobResult,
)
from benchmark.llm.retry import RetryPolicy
from benchmark.llm.tokens import Tokenizer, tokenizer_for

Group = list[tuple[int, Job]]  # the jobs (with their positions) that share one cache key


@dataclass
class EngineStats:
    """HELM-style accounting, printed as the final line of ``generate``."""

    jobs: int = 0
    cache_hits: int = 0  # answers replayed from the response cache directory
    log_hits: int = 0  # answers replayed from committed raw logs
    requests: int = 0  # HTTP requests sent for answers (every attempt; a batch item counts once)
    retries: int = 0
    answered: int = 0  # fresh answers received (one per request, however many jobs share it)
    failures: int = 0  # jobs left without an answer
    batches: int = 0  # batches submitted (resumed ones not counted)
    input_tokens: int = 0  # spent in this session (fresh answers only)
    output_tokens: int = 0
    cost_usd: float | None = None  # spent in this session; None when the provider has no price
    rate_limited: int = 0  # HTTP 429 answers received
    budget_stopped: int = 0  # jobs not sent because of --max-cost / --max-requests
    context_refused: int = 0  # jobs not sent because their prompt does not fit the context window
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False, compare=False)

    def add(self, **increments: float) -> None:
        with self._lock:
            for name, amount in increments.items():
                current = getattr(self, name)
                if current is not None:
                    setattr(self, name, current + amount)

    def to_json(self) -> dict[str, Any]:
        data = {k: v for k, v in self.__dict__.items() if not k.startswith("_")}
        if self.cost_usd is not None:
            data["cost_usd"] = round(self.cost_usd, 8)
        return data


class Engine:
    def __init__(
        self,
        config: ProviderConfig,
        *,
        cache: ResponseCache,
        log: RawLog,
        redactor: Redactor,
        replay: LogReplay | None = None,
        retry: RetryPolicy | None = None,
        poll: PollPolicy | None = None,
        concurrency: int | None = None,
        offline: bool = False,
        refresh: bool = False,
        provider_factory: Callable[[ProviderConfig, str | None], Provider] = make_provider,
        sleep: Callable[[float], None] = time.sleep,
        notify: Callable[[str], None] = lambda message: None,
        budget: Budget | None = None,
        limiter: AdaptiveLimit | None = None,
        events: SessionLog | None = None,
        call_id: str | None = None,
    ) -> None:
        self.config = config
        self.cache = cache
        self.replay = replay
        self.log = log
        self.redactor = redactor
        self.retry = retry or RetryPolicy(
            max_attempts=config.max_attempts, max_retry_after=config.max_retry_after
        )
        self.poll = poll or PollPolicy()
        self.concurrency = max(1, concurrency or config.concurrency)
        self.offline = offline
        self.refresh = refresh
        self.stats = EngineStats(cost_usd=0.0 if config.price is not None else None)
        self.budget = budget or Budget()
        self.limiter = limiter or AdaptiveLimit(
            self.concurrency, min(config.min_concurrency, self.concurrency)
        )
        self.events = events
        self.call_id = call_id if call_id is not None else (events.call_id if events is not None else None)
        self._tokenizer: Tokenizer | None = None
        self._worst: dict[str, float | None] = {}
        self._provider_factory = provider_factory
        self._provider: Provider | None = None
        self._sleep = sleep
        self._notify = notify
        self._abort = threading.Event()
        self._abort_reason = ""
        self._abort_kind = MISSING_NOT_SENT
        if config.api_key_env:
            redactor.add(os.environ.get(config.api_key_env))

    # -- public -----------------------------------------------------------------------------------

    def key(self, job: Job) -> str:
        return cache_key(self.config.endpoint, job.request)

    def lookup(self, key: str) -> tuple[Completion, str] | None:
        """A stored answer and where it came from, or ``None``."""
        found = self.cache.get(key)
        if found is not None:
            return found, SOURCE_CACHE
        if self.replay is not None:
            replayed = self.replay.get(key)
            if replayed is not None:
                return replayed, SOURCE_LOG
        return None

    @property
    def tokenizer(self) -> Tokenizer:
        """The provider's prompt counter (loaded on first use: only budgets and context checks need it)."""
        if self._tokenizer is None:
            self._tokenizer = tokenizer_for(self.config)
        return self._tokenizer

    def worst_cost(self, job: Job, key: str) -> float | None:
        """The most one attempt of ``job`` can cost: its prompt, and ``max_tokens`` of answer, at the
        provider's price (``None`` without a price, or without ``--max-cost``: nothing to check)."""
        price = self.config.price
        if price is None or self.budget.max_cost is None:
            return None
        if key not in self._worst:
            prompt = self.tokenizer.count(job.request)
            self._worst[key] = price.cost(prompt, job.request.parameters.max_tokens)
        return self._worst[key]

    def _cost(self, completion: Completion) -> float | None:
        price = self.config.price
        if price is None or completion.input_tokens is None or completion.output_tokens is None:
            return None
        return price.cost(completion.input_tokens, completion.output_tokens)

    def _emit(self, kind: str, job: Job | None, **fields: Any) -> None:
        if self.events is not None:
            folder = job.log_path.parent if job is not None and job.log_path is not None else None
            if job is not None:
                fields = {"label": job.label, "run": job.request.run_index, **fields}
            self.events.event(kind, folder, **fields)

    def _emit_all(self, kind: str, **fields: Any) -> None:
        if self.events is not None:
            self.events.broadcast(kind, **fields)

    def run(
        self,
        jobs: Sequence[Job],
        *,
        batch: bool = False,
        on_result: Callable[[JobResult], None] | None = None,
    ) -> list[JobResult]:
        """Answer every job; results come back in job order (and to ``on_result`` as they arrive)."""
        deliver = on_result or (lambda result: None)
        self.stats.add(jobs=len(jobs))
        results: dict[int, JobResult] = {}
        misses: dict[str, Group] = {}  # per cache key, the jobs that one request answers
        for index, job in enumerate(jobs):
            key = self.key(job)
            stored = None if self.refresh else self.lookup(key)
            if stored is not None:
                completion, source = stored
                # Not logged: replaying must leave committed logs untouched (they record what was asked).
                self.stats.add(**{"cache_hits" if source == SOURCE_CACHE else "log_hits": 1})
                if source == SOURCE_LOG:
                    # Copy into the cache so later sessions do not depend on the log.
                    self.cache.put(key, cache_key_fields(self.config.endpoint, job.request), completion)
                results[index] = JobResult(job=job, key=key, completion=completion, source=source)
                deliver(results[index])
            elif self.offline:
                results[index] = self._fail(
                    job,
                    key,
                    "offline: no cached answer for this request (run once online, or check"
                    " --cache-dir and the prompt template)",
                    attempts=0,
                    missing=MISSING_OFFLINE,
                )
                deliver(results[index])
            else:
                misses.setdefault(key, []).append((index, job))
        if misses and self.config.context_window is not None:
            self._check_context(misses, results, deliver)
        if misses:
            self._ensure_provider()
            if batch:
                self._run_batch(misses, results, deliver)
            else:
                self._run_direct(misses, results, deliver)
        return [results[i] for i in range(len(jobs))]

    def _check_context(
        self, misses: dict[str, Group], results: dict[int, JobResult], deliver: Callable[[JobResult], None]
    ) -> None:
        """Report, before sending, every prompt that does not fit the provider's context window (and not
        send it when the count is exact: the server would refuse it, or worse, silently cut it)."""
        window = self.config.context_window
        assert window is not None
        tokenizer = self.tokenizer
        for key, group in list(misses.items()):
            job = group[0][1]
            tokens = tokenizer.count(job.request)
            room = window - tokens
            if room >= job.request.parameters.max_tokens:
                continue
            counted = f"{tokens} prompt tokens ({tokenizer.label})"
            if room > 0:
                self._notify(
                    f"{job.label}: {counted} leave {room} of the context window ({window}) for the"
                    f" answer, less than max_tokens ({job.request.parameters.max_tokens}): it may be cut"
                )
                continue
            self._emit(
                "context", job, key=key, promptTokens=tokens, contextWindow=window, method=tokenizer.label
            )
            message = (
                f"context: the prompt has {counted}, more than the context window of provider"
                f" {self.config.name} ({window} tokens, context_window)"
            )
            if not tokenizer.exact:
                self._notify(f"{job.label}: {message}; sent anyway, as the count is an estimate")
                continue
            del misses[key]
            self.stats.add(context_refused=len(group))
            for index, member in group:
                results[index] = self._fail(
                    member, key, message + "; not sent", attempts=0, missing=MISSING_CONTEXT
                )
                deliver(results[index])

    # -- direct -----------------------------------------------------------------------------------

    def _ensure_provider(self) -> Provider:
        if self._provider is None:
            api_key = self.config.api_key()  # ConfigurationError (exit 2) before anything is sent
            self.redactor.add(api_key)
            try:
                self._provider = self._provider_factory(self.config, api_key)
            except ProviderError as error:
                raise ConfigurationError(self.redactor.text(error.message), file=self.config.source) from None
        return self._provider

    def _run_direct(
        self, misses: dict[str, Group], results: dict[int, JobResult], deliver: Callable[[JobResult], None]
    ) -> None:
        with ThreadPoolExecutor(max_workers=self.concurrency, thread_name_prefix="atlbench-llm") as pool:
            pending: dict[Future[list[JobResult]], Group] = {
                pool.submit(self._answer_directly, [job for _, job in group], key): group
                for key, group in misses.items()
            }
            try:
                while pending:
                    done, _ = wait(pending, return_when=FIRST_COMPLETED)
                    for future in done:
                        group = pending.pop(future)
                        for (index, _), result in zip(group, future.result(), strict=True):
                            results[index] = result
                            deliver(result)
            except BaseException:
                # Ctrl-C: stop starting new requests; requests in flight finish (the pool waits for them)
                # and their answers are cached and logged; nothing is filed, the next call replays them.
                self._abort_all("interrupted")
                self._emit_all("interrupted")
                for future in pending:
                    future.cancel()
                raise

    def _answer_directly(self, jobs: Sequence[Job], key: str) -> list[JobResult]:
        """One request (retried) for jobs that share ``key``; one result per job, in order."""
        provider = self._ensure_provider()
        job = jobs[0]  # the request and the retry events; every job gets the answer or the error
        attempt = 0
        started: float | None = None
        while True:
            if self._abort.is_set():
                return self._fail_all(
                    jobs, key, self._not_sent_message(), attempts=attempt, missing=self._abort_kind
                )
            reservation = self.budget.reserve(self.worst_cost(job, key))
            if isinstance(reservation, str):
                self._stop_for_budget(reservation)
                return self._fail_all(
                    jobs, key, self._not_sent_message(), attempts=attempt, missing=MISSING_BUDGET
                )
            self.limiter.acquire()
            outcome: Completion | ProviderError | Exception
            try:
                if self._abort.is_set():  # stopped while this worker waited for a slot
                    self.budget.settle(reservation, None)
                    return self._fail_all(
                        jobs, key, self._not_sent_message(), attempts=attempt, missing=self._abort_kind
                    )
                attempt += 1
                self.stats.add(requests=1)
                self._emit("request", job, key=key, attempt=attempt, promptSha256=job.request.prompt_sha256)
                started = time.monotonic() if started is None else started
                try:
                    outcome = provider.complete(job.request)
                except ProviderError as error:
                    outcome = error
                except Exception as error:  # an SDK or adapter bug must not take the other jobs down
                    outcome = error
            finally:
                self.limiter.release()
            if isinstance(outcome, Completion):
                self.limiter.succeeded()
                completion = dataclasses.replace(
                    outcome,
                    attempts=attempt,
                    wall_seconds=round(time.monotonic() - started, 3),
                    call_id=self.call_id,
                )
                self.budget.settle(reservation, self._cost(completion))
                return self._received(jobs, key, completion, attempts=attempt)
            self.budget.settle(reservation, None)
            if not isinstance(outcome, ProviderError):
                return self._fail_all(
                    jobs, key, f"unexpected {type(outcome).__name__}: {outcome}", attempts=attempt
                )
            error = outcome
            if error.status == 429:
                self.stats.add(rate_limited=1)
                self.limiter.rate_limited()
            if error.fatal:
                self._abort_all(f"an earlier request failed with {self.redactor.text(error.message)}")
                return self._fail_all(jobs, key, error.message, attempts=attempt, status=error.status)
            if error.retryable and attempt < self.retry.max_attempts:
                if self.retry.too_long(error.retry_after):
                    return self._fail_all(
                        jobs,
                        key,
                        f"rate-limit: {error.message}; the server asked to wait {error.retry_after:g} s,"
                        f" more than max_retry_after ({self.retry.max_retry_after:g} s) of provider"
                        f" {self.config.name}: not waited for (run generate again later)",
                        attempts=attempt,
                        status=error.status,
                        missing=MISSING_RATE_LIMIT,
                    )
                delay = self.retry.delay(attempt, error.retry_after)
                self.stats.add(retries=1)
                retry_fields: dict[str, Any] = {
                    "attempt": attempt,
                    "status": error.status,
                    "error": error.message,
                    "delaySeconds": round(delay, 3),
                }
                self.log.write(job.log_path, self._event("retry", job, key, **retry_fields))
                self._emit("retry", job, key=key, **retry_fields)
                self._sleep(delay)
                continue
            suffix = f" (after {attempt} attempts)" if attempt > 1 else ""
            return self._fail_all(jobs, key, error.message + suffix, attempts=attempt, status=error.status)

    def _not_sent_message(self) -> str:
        if self._abort_kind == MISSING_BUDGET:
            return f"{self._abort_reason}; not sent (run generate again to send it)"
        return f"not sent: {self._abort_reason}"

    def _stop_for_budget(self, reason: str) -> None:
        """The budget refused an attempt: stop sending (once), tell the user and the event log."""
        with self.stats._lock:
            first = not self._abort.is_set()
            if first:
                self._abort_reason = reason
                self._abort_kind = MISSING_BUDGET
                self._abort.set()
        if first:
            self._notify(f"{reason}: the call stops sending; requests in flight are finished and filed")
            self._emit_all("budget-stop", reason=reason, budget=self.budget.to_json())

    def _store(self, key: str, fields: dict[str, Any] | None, completion: Completion) -> Completion:
        """Cache a fresh answer, redacted here, so the cache, the log and the run file hold the same text."""
        completion = dataclasses.replace(completion, text=self.redactor.text(completion.text))
        self.cache.put(key, fields, completion)
        return completion

    def _received(
        self, jobs: Sequence[Job], key: str, completion: Completion, *, attempts: int
    ) -> list[JobResult]:
        """Store one answer (counted once) and log it for every job it answers, so that each job's raw
        log can replay it on its own."""
        completion = self._store(key, cache_key_fields(self.config.endpoint, jobs[0].request), completion)
        cost = self._cost(completion)
        self.stats.add(
            answered=1,
            input_tokens=completion.input_tokens or 0,
            output_tokens=completion.output_tokens or 0,
            cost_usd=cost or 0.0,
        )
        results = []
        for job in jobs:
            self.log.write(
                job.log_path,
                self._event("response", job, key, attempts=attempts, completion=completion.to_json()),
                durable=True,
            )
            self._emit(
                "response",
                job,
                key=key,
                attempts=attempts,
                inputTokens=completion.input_tokens,
                outputTokens=completion.output_tokens,
                seconds=completion.wall_seconds,
                costUsd=cost,
                transport=completion.transport,
            )
            results.append(
                JobResult(job=job, key=key, completion=completion, source=SOURCE_REQUEST, attempts=attempts)
            )
        return results

    def _fail_all(
        self,
        jobs: Sequence[Job],
        key: str,
        message: str,
        *,
        attempts: int,
        status: int | None = None,
        missing: str = MISSING_ERROR,
    ) -> list[JobResult]:
        return [
            self._fail(job, key, message, attempts=attempts, status=status, missing=missing) for job in jobs
        ]

    def _fail(
        self,
        job: Job,
        key: str,
        message: str,
        *,
        attempts: int,
        status: int | None = None,
        missing: str = MISSING_ERROR,
    ) -> JobResult:
        message = self.redactor.text(message)
        self.stats.add(failures=1, budget_stopped=1 if missing == MISSING_BUDGET else 0)
        fields = {"attempts": attempts, "status": status, "error": message, "missing": missing}
        self.log.write(job.log_path, self._event("error", job, key, **fields))
        self._emit("error", job, key=key, **fields)
        return JobResult(job=job, key=key, error=message, attempts=attempts, missing=missing)

    def _abort_all(self, reason: str, kind: str = MISSING_NOT_SENT) -> None:
        with self.stats._lock:
            if not self._abort.is_set():
                self._abort_reason = reason
                self._abort_kind = kind
                self._abort.set()

    def _event(self, kind: str, job: Job, key: str, **fields: Any) -> dict[str, Any]:
        return {
            "event": kind,
            "label": job.label,
            "run": job.request.run_index,
            "key": key,
            "promptSha256": job.request.prompt_sha256,
            **{k: v for k, v in fields.items() if v is not None},
        }

    # -- batch ------------------------------------------------------------------------------------

    def _run_batch(
        self, misses: dict[str, Group], results: dict[int, JobResult], deliver: Callable[[JobResult], None]
    ) -> None:
        provider = self._ensure_provider()
        wanted = dict(misses)  # keys still waiting for their outcome
        journal = BatchJournal(self.cache.root, self.config.endpoint)
        reservations: dict[str, Reservation] = {}

        def finish(key: str, outcome: Completion | ProviderError | str, missing: str = MISSING_ERROR) -> None:
            group = wanted.pop(key, [])
            if not group:
                return
            jobs = [job for _, job in group]
            reservation = reservations.pop(key, None)
            if isinstance(outcome, Completion):
                outcome = dataclasses.replace(outcome, attempts=1, call_id=self.call_id)
                if reservation is not None:
                    self.budget.settle(reservation, self._cost(outcome))
                done = self._received(jobs, key, outcome, attempts=1)
            else:
                if reservation is not None:
                    self.budget.settle(reservation, None)
                message = outcome if isinstance(outcome, str) else outcome.message
                status = outcome.status if isinstance(outcome, ProviderError) else None
                done = self._fail_all(jobs, key, message, attempts=1, status=status, missing=missing)
            for (index, _), result in zip(group, done, strict=True):
                results[index] = result
                deliver(result)

        try:
            backend = provider.batch_backend()
            entries = [entry for entry in journal.entries() if set(entry.keys) & set(wanted)]
            for entry in entries:
                self._notify(f"resuming batch {entry.batch_id} submitted {entry.submitted_at}")
            covered = {key for entry in entries for key in entry.keys}
            to_send = []
            for key, group in list(wanted.items()):
                if key in covered:
                    continue
                reservation = self.budget.reserve(self.worst_cost(group[0][1], key))
                if isinstance(reservation, str):  # the batch takes what fits; the rest is missing
                    self._stop_for_budget(reservation)
                    finish(key, self._not_sent_message(), MISSING_BUDGET)
                    continue
                reservations[key] = reservation
                to_send.append((key, group[0][1].request))
            if to_send:
                batch_id = call_with_retries(
                    lambda: backend.submit(to_send), self.retry, self._sleep, self._on_retry
                )
                self.stats.add(requests=len(to_send), batches=1)
                entries.append(journal.record(batch_id, [key for key, _ in to_send]))
                for key, request in to_send:
                    self._emit(
                        "request", wanted[key][0][1], key=key, attempt=1, batch=batch_id,
                        promptSha256=request.prompt_sha256,
                    )  # fmt: skip
                self._notify(f"submitted batch {batch_id} with {plural(len(to_send), 'request')}")
            for entry in entries:
                self._collect_batch(backend, journal, entry, finish, lambda key: key in wanted)
        except ProviderError as error:
            for key in list(wanted):
                finish(key, error.message)

    def _collect_batch(
        self,
        backend: Any,
        journal: BatchJournal,
        entry: Any,
        finish: Callable[[str, Completion | ProviderError | str], None],
        is_wanted: Callable[[str], bool],
    ) -> None:
        def on_state(state: BatchState) -> None:
            counts = (
                ""
                if state.total is None
                else f": {state.succeeded or 0}/{state.total} done, {state.failed or 0} failed"
            )
            self._notify(f"batch {state.batch_id} {state.status}{counts}")

        try:
            state = wait_for_batch(
                backend, entry.batch_id, self.poll, self.retry, self._sleep, on_state, self._on_retry
            )
        except BatchStillRunning as still:
            for key in entry.keys:
                finish(
                    key,
                    f"batch {entry.batch_id} still {still.state.status};"
                    " run the same command again to collect it",
                )
            return
        except ProviderError as error:
            if error.status != 404:
                raise  # kept in the journal: the batch may well be there next time
            # The provider does not know the batch (another account or project, or purged): polling it
            # again would fail the same way in every later session, so forget it; the next one resubmits.
            journal.remove(entry)
            for key in entry.keys:
                finish(
                    key,
                    f"batch {entry.batch_id} is unknown to the provider ({error.message});"
                    " its journal is removed: run the same command again to submit these requests anew",
                )
            return
        outcomes: dict[str, Completion | ProviderError] = {}
        if state.error is None:
            outcomes = call_with_retries(
                lambda: backend.results(entry.batch_id), self.retry, self._sleep, self._on_retry
            )
        for key in entry.keys:
            outcome = outcomes.get(key)
            if is_wanted(key):
                finish(
                    key,
                    outcome
                    if outcome is not None
                    else state.error or f"batch {entry.batch_id} returned no result for this request",
                )
            elif isinstance(outcome, Completion):
                # Paid for by an earlier session with a wider selection: keep it for later.
                self._store(key, None, outcome)
        journal.remove(entry)

    def _on_retry(self, error: ProviderError, delay: float) -> None:
        self.stats.add(retries=1)
        self._notify(f"retrying in {delay:.1f} s: {self.redactor.text(error.message)}")
