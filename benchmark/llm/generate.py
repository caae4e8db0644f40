"""``atlbench generate`` as a library call: configuration, the track's task, engine, report.

The CLI (``benchmark/cli/generate.py``) only parses options and prints; tests and scripts call
:func:`generate` directly with the same options. What is asked and where answers go is the track's
(:meth:`benchmark.core.track.Track.llm_task`, chosen with ``--track``); the engine, cache, raw logs,
batches and the report are shared by every track.
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
from benchmark.llm.task import Filed, TaskRequest, TrackTask

DEFAULT_VALIDATION_ROOT = Path("validation")


@dataclass
class GenerateOptions:
    provider: str
    track: str = "atl"
    track_options: dict[str, Any] = field(default_factory=dict)  # the track's generate options, by dest
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
    task: TrackTask
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
    redactor = Redactor()
    task = _track(options).llm_task(
        TaskRequest(
            config=config,
            runs=range(1, options.runs + 1),
            selectors=options.selectors,
            prompt_template=options.prompt_template,
            redactor=redactor,
            options=options.track_options,
        )
    )
    cache_dir = resolve_cache_dir(options.cache_dir, llm_config)
    spec = {
        "command": "generate",
        "tool": f"atl-binding-bench {__version__}",
        "provider": config.describe(),
        "parameters": config.parameters.to_json(1) | {"requestSeed": "seed + run - 1"},
        **task.describe(),
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
        replay = LogReplay(task.log_files())
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
    return Session(config=config, task=task, engine=engine, cache_dir=cache_dir)


def _track(options: GenerateOptions) -> Any:
    """The track whose task ``generate`` runs, on ``<validation root>/<its data folder>``."""
    from benchmark.core.registry import track_class
    from benchmark.core.track import TrackContext

    cls = track_class(options.track)
    root = (Path(options.validation_root) / cls.default_data_dir()).resolve()
    defaults = {o.dest: o.convert(o.default, Path.cwd()) for o in cls.options}
    return cls(TrackContext(data_root=root, options=defaults))


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
    report: TaskReport | None = None
    for task in session.task.passes():  # a chained track builds each pass from the previous answers
        done = run_task(
            task,
            session.engine,
            batch=options.batch,
            progress=options.progress,
            stream=stream,
            on_filed=on_filed,
        )
        if report is None:
            report = done
        else:
            report.filed.extend(done.filed)
    return report if report is not None else TaskReport(stats=session.engine.stats)


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
    first = next(iter(session.task.passes()), None)  # later passes depend on answers not yet filed
    for job in first.jobs() if first is not None else []:
        stored = None if options.refresh else session.engine.lookup(session.engine.key(job))
        source = "request" if stored is None else stored[1]
        planned.append(PlannedRun(job.label, source, first.output_of(job)))
    return planned


__all__ = ["GenerateOptions", "PlannedRun", "SOURCE_CACHE", "SOURCE_LOG", "generate", "plan", "prepare"]
