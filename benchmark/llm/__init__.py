"""Asking LLMs for suggestion runs: prompts, providers, a replay cache, retries, batches and raw logs.

The machinery is generic over tracks. A *task* turns its inputs into :class:`~benchmark.llm.requests.Job`\\ s
(a prompt plus where to log it) and files each :class:`~benchmark.llm.requests.JobResult`; the
:class:`~benchmark.llm.engine.Engine` owns everything in between (cache, concurrency, retries with backoff,
batch submission, raw JSONL logs, key redaction, statistics). The ATL mapping task
(:mod:`benchmark.tracks.mapping.llm_task`) is the first user; a round-trip or OCL track brings its own prompt
builder and answer parser and reuses the rest.

The ``openai`` and ``anthropic`` SDKs are the optional extra ``llm`` and are imported only when a request
really has to be sent, so replaying from the cache (``--offline``) and the rest of the suite work without
them.
"""
