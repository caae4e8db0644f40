"""``atlbench generate`` as a library call: configuration, cases, task, engine, report.

The CLI (``benchmark/cli/generate.py``) only parses options and prints; tests and scripts call
:func:`generate` directly with the same options.
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TextIO

from benchmark import __version__
from benchmark.core.errors import ConfigurationError
from benchmark.llm.batch import PollPolicy
from benchmark.llm.cache import LogReplay, ResponseCache
from benchmark.llm.config import ProviderConfig, load_config, resolve_cache_dir
from benchmark.llm.engine import Engine
from benchmark.llm.providers import Provider, make_provider
from benchmark.llm.rawlog import RawLog
from benchmark.llm.redact import Redactor
from benchmark.llm.requests import SOURCE_CACHE, SOURCE_LOG
from benchmark.llm.runner import TaskReport, run_task
from benchmark.llm.task import Filed
from benchmark.tracks.mapping.llm_task import LOG_DIR, MappingCase, MappingTask, load_cases
from benchmark.tracks.mapping.prompt import mapping_template

DEFAULT_VALIDATION_ROOT = Path("validation")


@dataclass
class GenerateOptions:
    provider: str
    runs: int = 1
    validation_root: Path = DEFAULT_VALIDATION_ROOT
    selectors: Sequence[str] = ()
    concurrency: int | None = None
    offline: bool = False
    batch: bool = False
    refresh: bool = False
    replay_logs: bool = True
    prompt_template: Path | None = None
    config_file: Path | None = None
    cache_dir: Path | None = None
    timeout: float | None = None
    max_attempts: int | None = None
    poll: PollPolicy = field(default_factory=PollPolicy)
    progress: bool = True


@dataclass
class Session:
    """Everything :func:`generate` and :func:`plan` share: resolved configuration, cases, task, engine."""

    config: ProviderConfig
    cases: list[MappingCase]
    task: MappingTask
    engine: Engine
    cache_dir: Path


def prepare(
    options: GenerateOptions,
    *,
    provider_factory: Callable[[ProviderConfig, str | None], Provider] = make_provider,
    sleep: Callable[[float], None] = time.sleep,
    notify: Callable[[str], None] = lambda message: None,
) -> Session:
    for flag, value in (
        ("--runs", options.runs),
        ("--concurrency", options.concurrency),
        ("--max-attempts", options.max_attempts),
    ):
        if value is not None and value < 1:
            raise ConfigurationError("must be at least 1", field=flag)
    if options.timeout is not None and options.timeout <= 0:
        raise ConfigurationError("must be positive (seconds)", field="--timeout")
    if options.offline and options.refresh:
        raise ConfigurationError(
            "--offline replays cached answers, --refresh ignores them: pick one", field="--refresh"
        )
    llm_config = load_config(options.config_file, start=Path.cwd())
    config = llm_config.provider(options.provider)
    overrides: dict[str, Any] = {}
    if options.timeout is not None:
        overrides["timeout"] = options.timeout
    if options.max_attempts is not None:
        overrides["max_attempts"] = options.max_attempts
    if overrides:
        config = dataclasses.replace(config, **overrides)
    template = mapping_template(options.prompt_template)
    cases = load_cases(options.validation_root, options.selectors)
    redactor = Redactor()
    task = MappingTask(cases, template, config, range(1, options.runs + 1), redactor)
    cache_dir = resolve_cache_dir(options.cache_dir, llm_config)
    spec = {
        "command": "generate",
        "tool": f"atl-binding-bench {__version__}",
        "provider": config.describe(),
        "parameters": config.parameters.to_json(1) | {"requestSeed": "seed + run - 1"},
        "promptTemplate": template.describe(),
        "options": {
            "runs": options.runs,
            "offline": options.offline,
            "batch": options.batch,
            "refresh": options.refresh,
            "concurrency": options.concurrency or config.concurrency,
        },
    }
    replay = None
    if options.replay_logs and not options.refresh:
        replay = LogReplay(path for case in cases for path in (case.runs_dir / LOG_DIR).glob("*.jsonl"))
    engine = Engine(
        config,
        cache=ResponseCache(cache_dir),
        log=RawLog(spec, redactor),
        redactor=redactor,
        replay=replay,
        poll=options.poll,
        concurrency=options.concurrency,
        offline=options.offline,
        refresh=options.refresh,
        provider_factory=provider_factory,
        sleep=sleep,
        notify=notify,
    )
    return Session(config=config, cases=cases, task=task, engine=engine, cache_dir=cache_dir)


def generate(
    options: GenerateOptions,
    *,
    provider_factory: Callable[[ProviderConfig, str | None], Provider] = make_provider,
    sleep: Callable[[float], None] = time.sleep,
    notify: Callable[[str], None] = lambda message: None,
    stream: TextIO | None = None,
    on_filed: Callable[[Filed], None] | None = None,
) -> TaskReport:
    """Fill ``runs/`` for the selected transformations; see ``docs/LLM_RUNS.md``."""
    session = prepare(options, provider_factory=provider_factory, sleep=sleep, notify=notify)
    return run_task(
        session.task,
        session.engine,
        batch=options.batch,
        progress=options.progress,
        stream=stream,
        on_filed=on_filed,
    )


@dataclass(frozen=True)
class PlannedRun:
    label: str
    source: str  # "cache", "log" or "request"
    path: Path


def plan(options: GenerateOptions) -> list[PlannedRun]:
    """What ``generate`` would do (``--dry-run``): per run, whether its answer is stored, and where it goes.

    Sends nothing and needs no key.
    """
    session = prepare(options)
    planned: list[PlannedRun] = []
    for job in session.task.jobs():
        stored = None if options.refresh else session.engine.lookup(session.engine.key(job))
        source = "request" if stored is None else stored[1]
        case = session.task.case_of(job)
        planned.append(PlannedRun(job.label, source, session.task.output_path(case, job.request.run_index)))
    return planned


__all__ = ["GenerateOptions", "PlannedRun", "SOURCE_CACHE", "SOURCE_LOG", "generate", "plan", "prepare"]
