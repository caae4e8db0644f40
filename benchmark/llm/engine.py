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
from benchmark.llm.cache import LogReplay, ResponseCache, cache_key, cache_key_fields
from benchmark.llm.config import ProviderConfig
from benchmark.llm.providers import Provider, ProviderError, make_provider
from benchmark.llm.providers.base import BatchState
from benchmark.llm.rawlog import RawLog
from benchmark.llm.redact import Redactor
from benchmark.llm.requests import SOURCE_CACHE, SOURCE_LOG, SOURCE_REQUEST, Completion, Job, JobResult
from benchmark.llm.retry import RetryPolicy

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
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False, compare=False)

    def add(self, **increments: int) -> None:
        with self._lock:
            for name, amount in increments.items():
                setattr(self, name, getattr(self, name) + amount)

    def to_json(self) -> dict[str, int]:
        return {k: v for k, v in self.__dict__.items() if not k.startswith("_")}


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
    ) -> None:
        self.config = config
        self.cache = cache
        self.replay = replay
        self.log = log
        self.redactor = redactor
        self.retry = retry or RetryPolicy(max_attempts=config.max_attempts)
        self.poll = poll or PollPolicy()
        self.concurrency = max(1, concurrency or config.concurrency)
        self.offline = offline
        self.refresh = refresh
        self.stats = EngineStats()
        self._provider_factory = provider_factory
        self._provider: Provider | None = None
        self._sleep = sleep
        self._notify = notify
        self._abort = threading.Event()
        self._abort_reason = ""
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
                )
                deliver(results[index])
            else:
                misses.setdefault(key, []).append((index, job))
        if misses:
            self._ensure_provider()
            if batch:
                self._run_batch(misses, results, deliver)
            else:
                self._run_direct(misses, results, deliver)
        return [results[i] for i in range(len(jobs))]

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
                # Ctrl-C: stop starting new requests; answers already received are cached and logged.
                self._abort_all("interrupted")
                for future in pending:
                    future.cancel()
                raise

    def _answer_directly(self, jobs: Sequence[Job], key: str) -> list[JobResult]:
        """One request (retried) for jobs that share ``key``; one result per job, in order."""
        provider = self._ensure_provider()
        job = jobs[0]  # the request and the retry events; every job gets the answer or the error
        attempt = 0
        while True:
            if self._abort.is_set():
                return self._fail_all(jobs, key, f"not sent: {self._abort_reason}", attempts=attempt)
            attempt += 1
            self.stats.add(requests=1)
            try:
                completion = provider.complete(job.request)
            except ProviderError as error:
                if error.fatal:
                    self._abort_all(f"an earlier request failed with {self.redactor.text(error.message)}")
                    return self._fail_all(jobs, key, error.message, attempts=attempt, status=error.status)
                if error.retryable and attempt < self.retry.max_attempts:
                    delay = self.retry.delay(attempt, error.retry_after)
                    self.stats.add(retries=1)
                    self.log.write(
                        job.log_path,
                        self._event(
                            "retry",
                            job,
                            key,
                            attempt=attempt,
                            status=error.status,
                            error=error.message,
                            delaySeconds=round(delay, 3),
                        ),
                    )
                    self._sleep(delay)
                    continue
                suffix = f" (after {attempt} attempts)" if attempt > 1 else ""
                return self._fail_all(
                    jobs, key, error.message + suffix, attempts=attempt, status=error.status
                )
            except Exception as error:  # an SDK or adapter bug must not take the other jobs down
                return self._fail_all(
                    jobs, key, f"unexpected {type(error).__name__}: {error}", attempts=attempt
                )
            return self._received(jobs, key, completion, attempts=attempt)

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
        self.stats.add(
            answered=1, input_tokens=completion.input_tokens or 0, output_tokens=completion.output_tokens or 0
        )
        results = []
        for job in jobs:
            self.log.write(
                job.log_path,
                self._event("response", job, key, attempts=attempts, completion=completion.to_json()),
            )
            results.append(
                JobResult(job=job, key=key, completion=completion, source=SOURCE_REQUEST, attempts=attempts)
            )
        return results

    def _fail_all(
        self, jobs: Sequence[Job], key: str, message: str, *, attempts: int, status: int | None = None
    ) -> list[JobResult]:
        return [self._fail(job, key, message, attempts=attempts, status=status) for job in jobs]

    def _fail(
        self, job: Job, key: str, message: str, *, attempts: int, status: int | None = None
    ) -> JobResult:
        message = self.redactor.text(message)
        self.stats.add(failures=1)
        self.log.write(
            job.log_path, self._event("error", job, key, attempts=attempts, status=status, error=message)
        )
        return JobResult(job=job, key=key, error=message, attempts=attempts)

    def _abort_all(self, reason: str) -> None:
        if not self._abort.is_set():
            self._abort_reason = reason
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

        def finish(key: str, outcome: Completion | ProviderError | str) -> None:
            group = wanted.pop(key, [])
            if not group:
                return
            jobs = [job for _, job in group]
            if isinstance(outcome, Completion):
                done = self._received(jobs, key, outcome, attempts=1)
            else:
                message = outcome if isinstance(outcome, str) else outcome.message
                status = outcome.status if isinstance(outcome, ProviderError) else None
                done = self._fail_all(jobs, key, message, attempts=1, status=status)
            for (index, _), result in zip(group, done, strict=True):
                results[index] = result
                deliver(result)

        try:
            backend = provider.batch_backend()
            entries = [entry for entry in journal.entries() if set(entry.keys) & set(wanted)]
            for entry in entries:
                self._notify(f"resuming batch {entry.batch_id} submitted {entry.submitted_at}")
            covered = {key for entry in entries for key in entry.keys}
            to_send = [(key, jobs[0][1].request) for key, jobs in wanted.items() if key not in covered]
            if to_send:
                batch_id = call_with_retries(
                    lambda: backend.submit(to_send), self.retry, self._sleep, self._on_retry
                )
                self.stats.add(requests=len(to_send), batches=1)
                entries.append(journal.record(batch_id, [key for key, _ in to_send]))
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
