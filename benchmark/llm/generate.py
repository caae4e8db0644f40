"""``atlbench generate`` as a library call: configuration, the track's task, engine, report.

The CLI (``benchmark/cli/generate.py``) only parses options and prints; tests and scripts call
:func:`generate` (one track, one provider) or :func:`generate_call` (several, sharing one budget and one
call id) directly with the same options. What is asked and where answers go is the track's
(:meth:`benchmark.core.track.Track.llm_task`, chosen with ``--track``); the engine, cache, raw logs,
batches, budget, adaptive concurrency, the call's manifest and event log, and the report are shared by
every track. :func:`estimate` is ``--dry-run``: what would be sent, its prompt tokens and its cost range.
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
from benchmark.llm.budget import Budget, missing_prices
from benchmark.llm.cache import LogReplay, ResponseCache
from benchmark.llm.calllog import CallLog, SessionLog, new_call_id
from benchmark.llm.config import ProviderConfig, load_config, resolve_cache_dir
from benchmark.llm.engine import Engine
from benchmark.llm.providers import Provider, make_provider
from benchmark.llm.ratelimit import AdaptiveLimit
from benchmark.llm.rawlog import RawLog
from benchmark.llm.redact import Redactor
from benchmark.llm.requests import SOURCE_CACHE, SOURCE_LOG, Job, utc_timestamp
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
    templates: Sequence[str] = ()  # --template: names of the track's templates (none: the study's)
    answer_formats: Sequence[str] = ()  # --answer-format: free, schema, grounded (none: free)
    config_file: Path | None = None
    cache_dir: Path | None = None
    timeout: float | None = None
    max_attempts: int | None = None
    max_tokens: int | None = None  # --max-tokens: the provider's max_tokens for this call
    poll: PollPolicy = field(default_factory=PollPolicy)
    progress: bool = True
    max_cost: float | None = None  # USD for the whole call (every track and provider of it)
    max_requests: int | None = None  # HTTP requests for the whole call


@dataclass
class Call:
    """What every (track, provider) session of one ``generate`` call shares: its id (named by every
    answer it pays for), its budget, its event log, one adaptive limit per provider and the redactor."""

    budget: Budget
    redactor: Redactor = field(default_factory=Redactor)
    call_id: str = field(default_factory=new_call_id)
    limiters: dict[str, AdaptiveLimit] = field(default_factory=dict)
    events: CallLog = field(init=False)
    _provenance: dict[str, Any] | None = field(default=None, init=False, repr=False)

    def __post_init__(self) -> None:
        self.events = CallLog(self.call_id, self.redactor)

    @classmethod
    def for_options(cls, options: GenerateOptions) -> Call:
        for flag, value in (("--max-cost", options.max_cost), ("--max-requests", options.max_requests)):
            if value is not None and value <= 0:
                raise ConfigurationError("must be positive", field=flag)
        return cls(Budget(max_cost=options.max_cost, max_requests=options.max_requests))

    def limiter(self, config: ProviderConfig, concurrency: int) -> AdaptiveLimit:
        """The provider's adaptive limit, shared by every track of the call that uses the provider."""
        if config.name not in self.limiters:

            def changed(old: int, new: int, why: str) -> None:
                self.events.broadcast("concurrency", provider=config.name, limit=new, previous=old, why=why)

            minimum = min(config.min_concurrency, concurrency)
            self.limiters[config.name] = AdaptiveLimit(concurrency, minimum, on_change=changed)
        return self.limiters[config.name]

    def provenance(self, validation_root: Path) -> dict[str, Any]:
        """Code and data commits and package versions (computed once per call)."""
        if self._provenance is None:
            self._provenance = code_provenance(validation_root)
        return self._provenance


@dataclass
class Session:
    """Everything :func:`generate` and :func:`plan` share: resolved configuration, cases, task, engine."""

    config: ProviderConfig
    task: TrackTask
    engine: Engine
    cache_dir: Path
    call: Call | None = None
    manifest: dict[str, Any] = field(default_factory=dict)
    events: SessionLog | None = None  # the session's part of the call's event log


def prepare(
    options: GenerateOptions,
    *,
    provider_factory: Callable[[ProviderConfig, str | None], Provider] = make_provider,
    sleep: Callable[[float], None] = time.sleep,
    notify: Callable[[str], None] = lambda message: None,
    call: Call | None = None,
) -> Session:
    for flag, value in (
        ("--runs", options.runs),
        ("--concurrency", options.concurrency),
        ("--max-attempts", options.max_attempts),
        ("--max-tokens", options.max_tokens),
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
    if options.max_tokens is not None:  # a sampling parameter: recorded in the run files and the cache key
        overrides["parameters"] = dataclasses.replace(config.parameters, max_tokens=options.max_tokens)
    if overrides:
        config = dataclasses.replace(config, **overrides)
    redactor = call.redactor if call is not None else Redactor()
    task = _track(options).llm_task(
        TaskRequest(
            config=config,
            runs=range(1, options.runs + 1),
            selectors=options.selectors,
            prompt_template=options.prompt_template,
            redactor=redactor,
            options=options.track_options,
            templates=options.templates,
            answer_formats=options.answer_formats,
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
    concurrency = options.concurrency or config.concurrency
    events = call.events.session(f"{options.track}/{config.name}") if call is not None else None
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
        budget=call.budget if call is not None else None,
        limiter=call.limiter(config, concurrency) if call is not None else None,
        events=events,
    )
    manifest: dict[str, Any] = {}
    if call is not None:
        manifest = {
            "created": utc_timestamp(),
            "tool": spec["tool"],
            **call.provenance(Path(options.validation_root)),
            "track": options.track,
            "provider": {**config.manifest(), "source": _recorded_path(config.source)},
            "task": task.describe(),
            "options": {
                **spec["options"],
                "selectors": list(options.selectors),
                "replayLogs": options.replay_logs,
                "timeout": options.timeout,
                "maxAttempts": options.max_attempts,
                **({"maxTokens": options.max_tokens} if options.max_tokens is not None else {}),
                "trackOptions": {k: _plain(v) for k, v in sorted(options.track_options.items())},
                "promptTemplate": _recorded_path(options.prompt_template),
                **({"templates": list(options.templates)} if options.templates else {}),
                **({"answerFormats": list(options.answer_formats)} if options.answer_formats else {}),
                "validationRoot": _recorded_path(options.validation_root),
                "cacheDir": _recorded_path(cache_dir),
            },
            "budget": {"maxCost": options.max_cost, "maxRequests": options.max_requests},
        }
    return Session(
        config=config,
        task=task,
        engine=engine,
        cache_dir=cache_dir,
        call=call,
        manifest=manifest,
        events=events,
    )


OUTSIDE_THE_PROJECT = "<outside the project>"


def _recorded_path(path: str | Path | None) -> str | None:
    """A path as a call's manifest records it: relative to the current directory when it lies under it
    (``generate`` runs from the project, and the manifest is committed with the runs it paid for, so it
    must not carry one machine's folders, e.g. a worktree's or a home directory's); a file or folder kept
    elsewhere (a cache in ``/tmp`` or ``~/.cache``) as :data:`OUTSIDE_THE_PROJECT` and its last name,
    ``<outside the project>/cache``: where it was says nothing to a reader of another machine, and
    ``tests/core/test_no_machine_paths.py`` fails on any absolute path below ``validation/``."""
    if path is None or str(path) == "":
        return None
    given = Path(path).expanduser().absolute()
    try:
        return given.relative_to(Path.cwd()).as_posix()
    except ValueError:
        return f"{OUTSIDE_THE_PROJECT}/{given.name}" if given.name else OUTSIDE_THE_PROJECT


def _plain(value: Any) -> Any:
    """A track option's value as JSON (tuples as lists, paths as :func:`_recorded_path` writes them)."""
    if isinstance(value, Path):
        return _recorded_path(value)
    if isinstance(value, list | tuple):
        return [_plain(v) for v in value]
    return value


def code_provenance(validation_root: Path, code_root: Path | None = None) -> dict[str, Any]:
    """Where the code (``code_root``: the project holding the ``benchmark`` package) and the data come
    from in git: each one's commit and whether its tracked files had uncommitted changes, or why there is
    no commit (``gitCommitMissing``: ``not a git checkout`` for a source archive); and the versions of the
    packages that shape a request (SDKs, tokenizers) besides the usual ones, this package's among them."""
    from importlib import metadata

    import benchmark
    from benchmark.core.provenance import git_source, versions

    found = versions()
    for package in ("openai", "anthropic", "httpx", "tiktoken", "llama_cpp_python"):
        try:
            found[package] = metadata.version(package)
        except Exception:
            continue
    code = code_root or Path(benchmark.__file__).resolve().parent.parent
    return {
        "code": git_source(code, changes=True).to_json(),
        "data": git_source(Path(validation_root).resolve(), changes=True).to_json(),
        "versions": dict(sorted(found.items())),
    }


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
    call: Call | None = None,
) -> TaskReport:
    """Fill the runs of one track for one provider; see ``docs/LLM_RUNS.md``."""
    if call is None:
        call = Call.for_options(options)
        check_prices(options, call)
    session = prepare(options, provider_factory=provider_factory, sleep=sleep, notify=notify, call=call)
    report: TaskReport | None = None
    try:
        for number, task in enumerate(session.task.passes(), start=1):  # a chained track builds each
            # pass from the previous answers

            def before_send(jobs: list[Job], number: int = number) -> None:
                if session.events is not None:
                    session.events.begin_pass(session.manifest, jobs, number)

            done = run_task(
                task,
                session.engine,
                batch=options.batch,
                progress=options.progress,
                stream=stream,
                on_filed=on_filed,
                before_send=before_send,
            )
            if report is None:
                report = done
            else:
                report.filed.extend(done.filed)
    finally:
        if session.events is not None:  # only where this session wrote something: replays write nothing
            session.events.broadcast(
                "end", stats=session.engine.stats.to_json(), budget=call.budget.to_json()
            )
    return report if report is not None else TaskReport(stats=session.engine.stats)


def check_prices(options: GenerateOptions | Sequence[GenerateOptions], call: Call) -> None:
    """``--max-cost`` needs a price for every provider of the call: refuse to start, naming them."""
    if call.budget.max_cost is None:
        return
    chosen = [options] if isinstance(options, GenerateOptions) else list(options)
    configs = [load_config(o.config_file, start=Path.cwd()).provider(o.provider) for o in chosen]
    unpriced = missing_prices(configs)
    if unpriced:
        source = next((c.source for c in configs if c.name == unpriced[0]), None)
        raise ConfigurationError(
            f"--max-cost needs the price of every provider of the call; no price is configured for "
            f"{', '.join(unpriced)} (add [providers.NAME.price] with input_per_million, output_per_million "
            'and date; a local server: both 0 with reason = "local")',
            file=source,
            field="--max-cost",
        )


def generate_call(
    options: Sequence[GenerateOptions],
    *,
    provider_factory: Callable[[ProviderConfig, str | None], Provider] = make_provider,
    sleep: Callable[[float], None] = time.sleep,
    notify: Callable[[str], None] = lambda message: None,
    stream: TextIO | None = None,
    on_filed: Callable[[Filed], None] | None = None,
) -> tuple[Call, list[TaskReport]]:
    """Several (track, provider) sessions as one call: one id, one budget (``max_cost`` and
    ``max_requests`` of the first options), prices checked for all before anything is sent."""
    if not options:
        raise ConfigurationError("nothing to generate", field="--provider")
    call = Call.for_options(options[0])
    check_prices(options, call)
    reports = [
        generate(
            item,
            provider_factory=provider_factory,
            sleep=sleep,
            notify=notify,
            stream=stream,
            on_filed=on_filed,
            call=call,
        )
        for item in options
    ]
    return call, reports


@dataclass(frozen=True)
class PlannedRun:
    label: str
    source: str  # "cache", "log" or "request"
    path: Path
    key: str = ""
    job: Job | None = None


def plan(options: GenerateOptions) -> list[PlannedRun]:
    """What ``generate`` would do (``--dry-run``): per run, whether its answer is stored, and where it goes.

    Sends nothing and needs no key.
    """
    return plan_session(prepare(options), options)


def plan_session(session: Session, options: GenerateOptions) -> list[PlannedRun]:
    planned: list[PlannedRun] = []
    first = next(iter(session.task.passes()), None)  # later passes depend on answers not yet filed
    for job in first.jobs() if first is not None else []:
        key = session.engine.key(job)
        stored = None if options.refresh else session.engine.lookup(key)
        source = "request" if stored is None else stored[1]
        planned.append(PlannedRun(job.label, source, first.output_of(job), key, job))
    return planned


__all__ = [
    "Call",
    "GenerateOptions",
    "PlannedRun",
    "SOURCE_CACHE",
    "SOURCE_LOG",
    "check_prices",
    "generate",
    "generate_call",
    "plan",
    "plan_session",
    "prepare",
]
