"""The benchmark's pytest plugin: collection, xdist-safe row collection, tables and report files.

Loaded by the project's ``conftest.py`` (``pytest_plugins``); kept here so its logic is importable and
tested. The flow, identical with and without pytest-xdist:

1. Every process (controller and workers) builds the same sorted cases from the validation tree for each
   test module marked ``atlbench_track(NAME)`` (``pytest_generate_tests``).
2. A run case scores its run and records the row with ``record_property`` as a JSON *string* (xdist
   crashes on anything but builtins and then exits 0 with nothing run).
3. The controller receives every teardown report (``pytest_runtest_logreport``; workers re-fire theirs
   there), collects the rows, checks that each run case that ran sent exactly one, aggregates, writes the
   report files and applies the CI gates (``pytest_sessionfinish``), then prints the tables
   (``pytest_terminal_summary``). Workers never write report files.
"""

from __future__ import annotations

import datetime as _dt
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from importlib import metadata
from pathlib import Path
from typing import Any

import pytest

from benchmark.core.collector import ROW_PROPERTY, RUN_MARKER, RowCollector
from benchmark.core.errors import BenchmarkError, ConfigurationError
from benchmark.core.results import Results, ResultsHeader, TransformationFacts
from benchmark.core.track import GroundTruthCase, RunCase, Track, TrackOptions, track_class
from benchmark.tracks.mapping.counts import RunRow
from benchmark.tracks.mapping.metrics import check_partial_weight

TRACK_MARKER = "atlbench_track"
GROUND_TRUTH_MARKER = "atlbench_ground_truth"
SESSION_KEY = pytest.StashKey["BenchmarkSession"]()

_OPTIONS: tuple[tuple[str, str, str, str], ...] = (
    # (option, ini name, default, help)
    ("--validation-root", "atlbench_validation_root", "validation", "validation tree to benchmark"),
    ("--partial-weight", "atlbench_partial_weight", "0.5", "weight w in [0, 1] of a partial binding"),
    ("--confidence", "atlbench_confidence", "all", "confidence filter: all, high, high,medium, ..."),
    ("--reports-dir", "atlbench_reports_dir", "reports", "where the report files are written"),
    (
        "--baseline",
        "atlbench_baseline",
        "all",
        "baselines run live: all, none, or a comma list (emfcompare, nameequality)",
    ),
    ("--compare", "atlbench_compare", "", "a saved results.json to compare this session with"),
    (
        "--max-drop",
        "atlbench_max_drop",
        "",
        "fail when a provider's micro overall F1 drops by more than "
        "this against --compare (default: never fail)",
    ),
)
_LIST_OPTIONS: tuple[tuple[str, str, str], ...] = (
    ("--provider", "atlbench_providers", "only run cases of this provider (repeatable)"),
    (
        "--min-f1",
        "atlbench_min_f1",
        "PROVIDER=F1: fail when that provider's micro overall F1 is below F1 (repeatable)",
    ),
)


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("atlbench", "atl-binding-bench benchmark")
    for option, ini, default, help_text in _OPTIONS:
        group.addoption(option, dest=ini, default=None, help=f"{help_text} (default: {default or 'off'})")
        parser.addini(ini, help_text, default=default)
    for option, ini, help_text in _LIST_OPTIONS:
        group.addoption(option, dest=ini, action="append", default=None, help=help_text)
        parser.addini(ini, help_text, type="linelist", default=[])


# ---------------------------------------------------------------------------------------- options


@dataclass(frozen=True)
class BenchmarkOptions:
    validation_root: Path
    partial_weight: float
    confidence: str | None
    reports_dir: Path
    baselines: tuple[str, ...]
    providers: tuple[str, ...]
    min_f1: tuple[tuple[str, float], ...]
    compare: Path | None
    max_drop: float | None

    def to_json(self) -> dict[str, Any]:
        return {
            "validationRoot": str(self.validation_root),
            "partialWeight": self.partial_weight,
            "confidence": self.confidence or "all",
            "baselines": list(self.baselines),
            "providers": list(self.providers),
            "minF1": {p: v for p, v in self.min_f1},
            "compare": str(self.compare) if self.compare else None,
            "maxDrop": self.max_drop,
        }


def _value(config: pytest.Config, ini: str) -> tuple[Any, Path]:
    """An option's value and the directory a relative path in it is relative to (command line: where
    pytest was invoked; ini file: the ini file's directory)."""
    given = config.getoption(ini)
    if given is not None:
        return given, config.invocation_params.dir
    base = config.inipath.parent if config.inipath else config.rootpath
    return config.getini(ini), base


def normalise_baselines(spec: str) -> tuple[str, ...]:
    """``all``/``none``/comma list, case- and punctuation-insensitive, to registry names."""
    from benchmark.tracks.mapping.baselines import BASELINES

    def squash(text: str) -> str:
        return "".join(ch for ch in text.lower() if ch.isalnum())

    known = {squash(name): name for name in BASELINES}
    words = [w.strip() for w in spec.split(",") if w.strip()]
    if not words or words == ["none"]:
        return ()
    if words == ["all"]:
        return tuple(sorted(BASELINES))
    chosen = []
    for word in words:
        if squash(word) not in known:
            raise ConfigurationError(
                f"unknown baseline {word!r}; choose all, none or some of: {', '.join(sorted(BASELINES))}",
                field="--baseline",
            )
        chosen.append(known[squash(word)])
    return tuple(dict.fromkeys(chosen))


def _float(text: str, what: str) -> float:
    try:
        return float(text)
    except ValueError:
        raise ConfigurationError(f"{what} must be a number, got {text!r}", field=what) from None


def read_options(config: pytest.Config) -> BenchmarkOptions:
    root, root_base = _value(config, "atlbench_validation_root")
    weight_text, _ = _value(config, "atlbench_partial_weight")
    confidence, _ = _value(config, "atlbench_confidence")
    reports, reports_base = _value(config, "atlbench_reports_dir")
    baseline_spec, _ = _value(config, "atlbench_baseline")
    compare_text, compare_base = _value(config, "atlbench_compare")
    drop_text, _ = _value(config, "atlbench_max_drop")
    providers, _ = _value(config, "atlbench_providers")
    gates, _ = _value(config, "atlbench_min_f1")

    weight = _float(str(weight_text), "--partial-weight")
    try:
        check_partial_weight(weight)
    except ValueError as error:
        raise ConfigurationError(str(error), field="--partial-weight") from None
    from benchmark.tracks.mapping.suggestions import parse_confidence_filter

    parse_confidence_filter(str(confidence))  # raises a ConfigurationError naming the bad label
    min_f1 = []
    for gate in gates or []:
        provider, sep, value = str(gate).rpartition("=")
        if not sep or not provider:
            raise ConfigurationError(f"--min-f1 takes PROVIDER=F1, got {gate!r}", field="--min-f1")
        min_f1.append((provider.strip(), _float(value, "--min-f1")))
    return BenchmarkOptions(
        validation_root=(root_base / str(root)).resolve(),
        partial_weight=weight,
        confidence=None if str(confidence).strip().lower() == "all" else str(confidence),
        reports_dir=(reports_base / str(reports)).resolve(),
        baselines=normalise_baselines(str(baseline_spec)),
        providers=tuple(str(p).strip() for p in providers or [] if str(p).strip()),
        min_f1=tuple(min_f1),
        compare=(compare_base / str(compare_text)).resolve() if compare_text else None,
        max_drop=_float(str(drop_text), "--max-drop") if drop_text not in (None, "") else None,
    )


# ---------------------------------------------------------------------------------------- session


def _is_worker(config: pytest.Config) -> bool:
    return hasattr(config, "workerinput")


@dataclass(eq=False)  # registered as a plugin: must hash by identity
class BenchmarkSession:
    """Per-process state and the controller's hooks: options, tracks and, on the controller, the rows.

    One instance is registered as a plugin per pytest ``Config`` (like pytest-benchmark's session object),
    so nested in-process sessions (pytester) never share state.
    """

    config: pytest.Config
    options: BenchmarkOptions
    tracks: dict[str, Track] = field(default_factory=dict)
    collector: RowCollector = field(default_factory=RowCollector)
    results: Results | None = None
    messages: list[str] = field(default_factory=list)
    failures: list[str] = field(default_factory=list)
    written: list[Path] = field(default_factory=list)

    @property
    def is_controller(self) -> bool:
        return not _is_worker(self.config)

    def track(self, name: str) -> Track:
        if name not in self.tracks:
            cache_plugin = getattr(self.config, "cache", None)  # absent with -p no:cacheprovider
            cache = cache_plugin.mkdir("atlbench") if cache_plugin is not None else None
            options = TrackOptions(
                validation_root=self.options.validation_root,
                partial_weight=self.options.partial_weight,
                confidence=self.options.confidence,
                baselines=self.options.baselines,
                cache_dir=cache,
            )
            self.tracks[name] = track_class(name)(options)
        return self.tracks[name]

    # -- hooks (pytest calls these methods because the instance is registered as a plugin)

    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        if self.is_controller:
            self.collector.accept(
                report.nodeid, report.when or "", report.outcome, report.keywords, report.user_properties
            )

    def pytest_sessionfinish(self, session: pytest.Session, exitstatus: int) -> None:
        if not self.is_controller:
            return
        problems = self.collector.problems()
        if problems:
            self.failures.append(
                "the count table is incomplete: rows were lost between the cases and the controller"
            )
            self.failures.extend(f"  {problem}" for problem in problems)
        if self.collector.rows:
            try:
                self.results = build_results(self)
            except BenchmarkError as error:
                self.failures.append(f"atlbench: {error}")
        if self.results is not None:
            # Independent steps: a report that cannot be written must not skip the CI gates.
            for step in (self._write_reports, self._apply_gates):
                try:
                    step(self.results)
                except BenchmarkError as error:
                    self.failures.append(f"atlbench: {error}")
                except OSError as error:
                    where = f" ({error.filename})" if error.filename else ""
                    self.failures.append(f"atlbench: cannot write the reports{where}: {error.strerror}")
        if self.failures and session.exitstatus == pytest.ExitCode.OK:
            session.exitstatus = pytest.ExitCode.TESTS_FAILED

    def pytest_terminal_summary(self, terminalreporter: Any) -> None:
        if not self.is_controller:
            return
        write = terminalreporter.write_line
        if self.results is not None:
            self._print_tables(terminalreporter, self.results)
        elif self.collector.seen:
            terminalreporter.write_sep("-", "atlbench")
            write("atlbench: benchmark cases ran but none recorded a row; no table printed.")
        else:
            terminalreporter.write_sep("-", "atlbench")
            write("atlbench: no benchmark case ran in this session; no table printed and no report written.")
        for message in self.messages:
            write(message)
        if self.failures:
            terminalreporter.write_sep("=", "atlbench: session failed", red=True)
            for failure in self.failures:
                write(failure, red=True)

    # -- controller work

    def _write_reports(self, results: Results) -> None:
        directory = self.options.reports_dir
        self.written.append(results.save(directory / "results.json"))
        try:
            from benchmark.tracks.mapping.reports import write_reports
        except ImportError as error:  # a broken install (numpy, scipy, matplotlib are dependencies)
            self.failures.append(f"atlbench: only results.json was written; the reports need {error}")
            return
        self.written.extend(write_reports(results, directory))

    def _apply_gates(self, results: Results) -> None:
        self.failures.extend(min_f1_failures(results, self.options.min_f1))
        if self.options.compare is not None:
            messages, failures = compare_with(
                results, Results.load(self.options.compare), self.options.max_drop
            )
            self.messages.append(f"change of micro overall F1 against {self.options.compare}:")
            self.messages.extend(messages)
            self.failures.extend(failures)

    def _print_tables(self, terminalreporter: Any, results: Results) -> None:
        from benchmark.tracks.mapping.aggregate import aggregate
        from benchmark.tracks.mapping.tables import format_tables

        options = self.options
        for track_name in sorted({row.track for row in results.rows}):
            rows = [row for row in results.rows if row.track == track_name]
            terminalreporter.write_sep("=", f"atlbench {self.track(track_name).title}")
            terminalreporter.write_line(
                f"{len({r.transformation for r in rows})} transformations, {len(rows)} runs, partial "
                f"weight {options.partial_weight:g}, confidence {options.confidence or 'all'}"
            )
            for line in format_tables(aggregate(rows, partial_weight=options.partial_weight)).splitlines():
                terminalreporter.write_line(line)
            skipped = self.track(track_name).collect().skipped
            if self.config.get_verbosity() > 0:
                for item in skipped:
                    terminalreporter.write_line(f"skipped {item.path}: {item.reason}")
            elif skipped:  # never silent: say how many, as atlbench validate does
                what = "folder or file" if len(skipped) == 1 else "folders or files"
                terminalreporter.write_line(f"{len(skipped)} {what} skipped by rule (-v lists them)")
        if self.written:
            names = ", ".join(p.name for p in self.written)
            terminalreporter.write_line(f"\nreports written to {options.reports_dir}: {names}")


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", f"{TRACK_MARKER}(name): run this module's cases for a benchmark track")
    config.addinivalue_line("markers", f"{RUN_MARKER}: a benchmark run case (it records one count-table row)")
    config.addinivalue_line("markers", f"{GROUND_TRUTH_MARKER}: a benchmark ground-truth case")
    try:
        options = read_options(config)
    except BenchmarkError as error:
        raise pytest.UsageError(f"atlbench: {error}") from None
    state = BenchmarkSession(config, options)
    config.stash[SESSION_KEY] = state
    config.pluginmanager.register(state, "atlbench-session")


def _session(config: pytest.Config) -> BenchmarkSession:
    return config.stash[SESSION_KEY]


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    marker = metafunc.definition.get_closest_marker(TRACK_MARKER)
    wants_truth = "atlbench_ground_truth" in metafunc.fixturenames
    wants_run = "atlbench_run" in metafunc.fixturenames
    if marker is None or not (wants_truth or wants_run):
        return
    session = _session(metafunc.config)
    try:
        track = session.track(marker.args[0])
        collection = track.collect()
    except BenchmarkError as error:
        raise pytest.UsageError(f"atlbench: {error}") from None
    if wants_truth:
        metafunc.parametrize(
            "atlbench_ground_truth",
            [
                pytest.param(c, id=c.case_id, marks=pytest.mark.atlbench_ground_truth)
                for c in collection.ground_truths
            ],
            indirect=True,
        )
    if wants_run:
        metafunc.parametrize(
            "atlbench_run",
            [pytest.param(c, id=c.case_id, marks=pytest.mark.atlbench_run) for c in collection.runs],
            indirect=True,
        )


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """``--provider`` deselects other providers' runs (reported by pytest as deselected, not lost)."""
    providers = {p.lower() for p in _session(config).options.providers}
    if not providers:
        return
    keep, drop = [], []
    for item in items:
        case = getattr(getattr(item, "callspec", None), "params", {}).get("atlbench_run")
        (drop if isinstance(case, RunCase) and case.provider.lower() not in providers else keep).append(item)
    if drop:
        config.hook.pytest_deselected(items=drop)
        items[:] = keep


# --------------------------------------------------------------------------------------- fixtures


class GroundTruthCheck:
    def __init__(self, track: Track, case: GroundTruthCase) -> None:
        self.track, self.case = track, case

    def check(self) -> TransformationFacts:
        return self.track.check_ground_truth(self.case)


class RunScoring:
    def __init__(self, track: Track, case: RunCase, record: Any) -> None:
        self.track, self.case, self._record = track, case, record

    def score(self) -> RunRow:
        """Score the run and record its row; an error row is recorded too, then the case fails."""
        with recording_errors(self.track, self.case, self._record, "scoring the run"):
            row = self.track.score_run(self.case)
        record_row(self._record, row)
        if not row.ok:
            pytest.fail(row.error or "the run could not be scored", pytrace=False)
        return row


@contextmanager
def recording_errors(track: Track, case: RunCase, record: Any, doing: str) -> Iterator[None]:
    """An unexpected exception (a bug, not an input problem) still records the run's error row before it
    propagates with its traceback: the tables then list the run as excluded, and the row guard, which
    is there to catch rows lost on the way to the controller, is not tripped by a case that failed."""
    try:
        yield
    except Exception as error:
        record_row(record, track.error_row(case, f"internal error {doing}: {type(error).__name__}: {error}"))
        raise


def record_row(record: Any, row: RunRow) -> None:
    """The row as one JSON string, plus readable metrics that land in the JUnit XML."""
    record(ROW_PROPERTY, row.dumps())
    if not row.ok:
        return
    levels = row.scores()
    for level, scores in (
        ("class", levels.classes),
        ("binding", levels.bindings),
        ("overall", levels.overall),
    ):
        for metric, value in scores.to_json().items():
            record(f"{level}_{metric}", f"{value:.6f}")


@pytest.fixture
def atlbench_ground_truth(request: pytest.FixtureRequest) -> GroundTruthCheck:
    case: GroundTruthCase = request.param
    return GroundTruthCheck(_session(request.config).track(case.track), case)


@pytest.fixture
def atlbench_run(request: pytest.FixtureRequest, record_property: Any) -> RunScoring:
    """A run whose ground truth is unusable errors here, in setup, naming the reason, with its error row
    recorded so the tables list it as excluded."""
    case: RunCase = request.param
    track = _session(request.config).track(case.track)
    with recording_errors(track, case, record_property, "reading the ground truth"):
        problem = track.ground_truth_error(case.transformation)
    if problem is not None:
        record_row(record_property, track.error_row(case, problem))
        pytest.fail(problem, pytrace=False)
    return RunScoring(track, case, record_property)


# ---------------------------------------------------------------------------- results and gates


def _versions() -> dict[str, str]:
    from benchmark import __version__

    versions = {"python": sys.version.split()[0], "atl-binding-bench": __version__}
    for package in ("lark", "pyecore", "pytest", "pytest-xdist", "numpy", "scipy", "matplotlib"):
        try:
            versions[package] = metadata.version(package)
        except metadata.PackageNotFoundError:
            continue
    return versions


def _git_commit(directory: Path) -> str | None:
    try:
        result = subprocess.run(
            ["git", "-C", str(directory), "rev-parse", "HEAD"], capture_output=True, text=True, timeout=10
        )
    except (OSError, subprocess.SubprocessError):
        return None
    return (result.stdout.strip() or None) if result.returncode == 0 else None


def build_results(session: BenchmarkSession) -> Results:
    """The session's ``results.json``: provenance header, ground-truth facts and every row."""
    rows = session.collector.rows
    facts: list[TransformationFacts] = []
    inputs: dict[str, str] = {}
    for track_name in sorted({row.track for row in rows}):
        track = session.track(track_name)
        facts += [
            track.facts(name) for name in sorted({r.transformation for r in rows if r.track == track_name})
        ]
        inputs.update(track.input_files())
    header = ResultsHeader(
        created=_dt.datetime.now(_dt.UTC).replace(microsecond=0).isoformat(),
        versions=_versions(),
        git_commit=_git_commit(session.config.rootpath),
        options=session.options.to_json(),
        validation_root=str(session.options.validation_root),
        inputs=inputs,
    )
    return Results(header=header, transformations=tuple(facts), rows=tuple(rows))


def _overall_f1(rows: list[RunRow], partial_weight: float | None = None) -> dict[str, float]:
    """Micro overall F1 per provider, at ``partial_weight`` (default: the weight the rows were scored at)."""
    from benchmark.tracks.mapping.aggregate import aggregate

    aggregation = aggregate(rows, partial_weight=partial_weight)
    return {group.provider: group.micro.overall.f1 for group in aggregation.totals()}


def min_f1_failures(results: Results, gates: tuple[tuple[str, float], ...]) -> list[str]:
    """``--min-f1 PROVIDER=F1``: a message for each provider below its bar (or with no scored run)."""
    if not gates:
        return []
    totals = _overall_f1(list(results.rows))
    failures = []
    for provider, bar in gates:
        if provider not in totals:
            failures.append(f"--min-f1 {provider}={bar:g}: no scored run of provider {provider!r}")
        elif totals[provider] < bar:
            failures.append(f"--min-f1 {provider}={bar:g}: micro overall F1 is {totals[provider]:.4f}")
    return failures


def compare_with(results: Results, previous: Results, max_drop: float | None) -> tuple[list[str], list[str]]:
    """(lines describing the change per provider, failures for drops larger than ``max_drop``).

    Rows keep raw counts, so the saved session is re-scored at this session's partial weight: a session
    run with another ``--partial-weight`` is compared on the same formula, not reported as a change.
    """
    from benchmark.tracks.mapping.aggregate import resolve_partial_weight

    weight = resolve_partial_weight([row for row in results.rows if row.ok], None)
    now, before = _overall_f1(list(results.rows), weight), _overall_f1(list(previous.rows), weight)
    lines, failures = [], []
    for provider in sorted(set(now) | set(before)):
        old, new = before.get(provider), now.get(provider)
        if old is None or new is None:
            lines.append(
                f"  {provider}: {'new in this session' if old is None else 'absent from this session'}"
            )
            continue
        delta = new - old
        lines.append(f"  {provider}: {old:.4f} -> {new:.4f} ({delta:+.4f})")
        if max_drop is not None and -delta > max_drop:
            failures.append(
                f"{provider}: micro overall F1 dropped by {-delta:.4f} (more than --max-drop {max_drop:g})"
            )
    return lines, failures


__all__ = [
    "BenchmarkOptions",
    "BenchmarkSession",
    "build_results",
    "compare_with",
    "min_f1_failures",
    "normalise_baselines",
    "read_options",
]
