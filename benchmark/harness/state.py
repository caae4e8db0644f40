"""Per-process session state and the controller's hooks: options, the harness, rows, reports, gates.

One :class:`BenchmarkSession` is registered as a plugin per pytest ``Config`` (like pytest-benchmark's
session object), so nested in-process sessions (pytester) never share state. The controller receives every
teardown report (workers re-fire theirs there), collects the rows, checks that each run case that ran sent
exactly one, writes the report files and applies the CI gates (``pytest_sessionfinish``), then prints the
tables (``pytest_terminal_summary``). Workers never write report files.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from benchmark.core import phases
from benchmark.core.collector import FACTS_OUTPUT_KEY, WORKER_OUTPUT_KEY, RowCollector
from benchmark.core.diskcache import computed_seconds
from benchmark.core.errors import BenchmarkError
from benchmark.core.results import Results
from benchmark.harness.ahead import ScoringAhead
from benchmark.harness.session import Harness

SESSION_KEY = pytest.StashKey["BenchmarkSession"]()
TRACK_MARKER = "atlbench_track"
COLLECTED_KEY = "atlbench_collected"  # config.workeroutput[...] = whether the worker built benchmark cases
# config.workeroutput[...] = the CPU seconds its benchmark cases took, less those spent computing values the
# disk cache did not hold (benchmark.harness.autoworkers)
WORK_KEY = "atlbench_case_work_seconds"
# config.workeroutput[...] = the CPU seconds the worker spent computing values the disk cache did not hold
COMPUTED_KEY = "atlbench_computed_seconds"
# config.workeroutput[...] = what the worker's harness had to say (a cache it could not write): the controller
# prints it with its own messages, once however many workers said it
MESSAGES_KEY = "atlbench_messages"
# config.workeroutput[...] = the benchmark cases the worker collected (every worker collects the session's
# cases): what the controller, which collects none, checks a session stopped early against
SELECTED_KEY = "atlbench_selected_cases"


def session_of(config: pytest.Config) -> BenchmarkSession:
    return config.stash[SESSION_KEY]


def _case_ids(lost: dict[str, str]) -> dict[str, str]:
    """node id -> reason, as case id (the parameter id of ``test_run[CASE]``) -> reason."""
    found = {}
    for nodeid, reason in lost.items():
        name = nodeid.rsplit("::", 1)[-1]
        if "[" in name and name.endswith("]"):
            found[name[name.index("[") + 1 : -1]] = reason
    return found


@dataclass(eq=False)  # registered as a plugin: must hash by identity
class BenchmarkSession:
    config: pytest.Config
    harness: Harness
    collector: RowCollector = field(default_factory=RowCollector)
    benchmark_seen: bool = False  # a case of a track module was reported (run, skipped or failed)
    benchmark_collected: bool = False  # a track module's cases were built (here or in a worker)
    results: Results | None = None
    messages: list[str] = field(default_factory=list)
    failures: list[str] = field(default_factory=list)
    written: list[Path] = field(default_factory=list)
    clock: dict[str, float] = field(default_factory=dict)  # when each stage began (ATLBENCH_PHASE_TIMES)
    only_benchmark_cases: bool | None = None  # every case reported in this process was a benchmark case
    # for the next -n auto (benchmark.harness.autoworkers): the benchmark cases reported, and the CPU
    # seconds their set-up, call and teardown took in this process (and, in the controller, its workers),
    # less those spent computing values the disk cache did not hold
    cases_reported: int = 0
    case_work: float = 0.0
    computed_elsewhere: float = 0.0  # the workers' computed_seconds(): did the session fill its cache?
    drawing_imported: bool = False  # the controller imported the reports' drawing library (xdist)
    # a cold session's helper that runs its remaining cases from the last one (benchmark.harness.ahead),
    # the session's items in order, each one's position by node id, and the disk cache's computing when
    # the current case began
    ahead: ScoringAhead = field(default_factory=ScoringAhead)
    items: list[pytest.Item] = field(default_factory=list)
    positions: dict[str, int] = field(default_factory=dict)
    computed_before_case: float = 0.0
    # why the session ended before its last benchmark case (Ctrl-C, -x): it then writes no report; the
    # benchmark cases the workers collected (the controller collects none)
    stopped: str | None = None
    selected_in_workers: int = 0

    @property
    def is_controller(self) -> bool:
        return not hasattr(self.config, "workerinput")

    # -- hooks (pytest calls these methods because the instance is registered as a plugin)

    def pytest_sessionstart(self, session: pytest.Session) -> None:
        self.clock["collection"] = time.time()
        self._check_junit_family()

    def _check_junit_family(self) -> None:
        """Say once what pytest's ``record_property`` warns in every case that uses it: the properties
        each case records (provider, task, run, scores; the harness appends them to the case's
        ``user_properties`` as that fixture does) go inside ``<testcase>``, which the JUnit XML schema of
        families other than xunit1 and legacy does not allow."""
        from _pytest.junitxml import xml_key

        xml = self.config.stash.get(xml_key, None)
        if xml is not None and xml.family not in ("xunit1", "legacy"):
            self.messages.append(
                f"atlbench: junit_family = {xml.family}: each case's properties (provider, task, run, "
                f"scores) are written inside <testcase>, which the {xml.family} schema does not allow; set "
                "junit_family = xunit1 (or legacy) for a file that validates"
            )

    def pytest_collection_finish(self, session: pytest.Session) -> None:
        self.clock["scoring"] = time.time()
        self.items = list(session.items)
        self.positions = {item.nodeid: index for index, item in enumerate(self.items)}

    @pytest.hookimpl(optionalhook=True)
    def pytest_xdist_node_collection_finished(self, node: Any, ids: Any) -> None:
        """pytest-xdist: the controller collects nothing; collection ends when the last worker's does."""
        self.clock["scoring"] = time.time()

    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        case = TRACK_MARKER in report.keywords
        self.only_benchmark_cases = case and self.only_benchmark_cases is not False
        if self.is_controller:
            self.collector.accept(report.nodeid, report.when or "", report.outcome, report.keywords)
            self.benchmark_seen = self.benchmark_seen or case
            self.cases_reported += case and report.when == "teardown"
            if case and not self.drawing_imported and self.config.getoption("dist", "no") != "no":
                self._import_drawing_while_the_workers_score()

    def _import_drawing_while_the_workers_score(self) -> None:
        """Under xdist the controller waits while the workers score: it imports the report kit's drawing
        library then (about 0.4 s, once the first case has come back and every worker has its work), so
        that the report processes it forks later share it instead of each importing it."""
        from benchmark.reports.figures import import_drawing

        self.drawing_imported = True
        with phases.phase("report drawing imported (while the workers score)"):
            import_drawing()

    @contextmanager
    def _measured(self, item: pytest.Item) -> Iterator[None]:
        """One phase of a case: its CPU time less the disk cache's computing, added to :attr:`case_work` for
        a benchmark case (measured inside the phase, so not the reports xdist sends after it)."""
        cpu, computed = time.process_time(), computed_seconds()
        try:
            yield
        finally:
            if TRACK_MARKER in item.keywords:
                self.case_work += (time.process_time() - cpu) - (computed_seconds() - computed)

    @pytest.hookimpl(wrapper=True)
    def pytest_runtest_setup(self, item: pytest.Item) -> Iterator[None]:
        if TRACK_MARKER in item.keywords:
            self.computed_before_case = computed_seconds()
            self.ahead.at(self._position(item))
        with self._measured(item):
            return (yield)

    @pytest.hookimpl(wrapper=True)
    def pytest_runtest_call(self, item: pytest.Item) -> Iterator[None]:
        try:
            with self._measured(item):
                return (yield)
        finally:
            if not self.ahead.started and TRACK_MARKER in item.keywords:
                self._score_ahead(item)

    def _position(self, item: pytest.Item) -> int:
        """Where ``item`` is in the session's order (-1: not one of its collected items)."""
        return self.positions.get(item.nodeid, -1)

    def _score_ahead(self, item: pytest.Item) -> None:
        """Once a benchmark case computed what the disk cache did not hold (a cold cache), fork the helper
        that runs the session's remaining benchmark cases from the last one backwards
        (:mod:`benchmark.harness.ahead`)."""
        if computed_seconds() <= self.computed_before_case or self.harness.cache_dir is None:
            return
        from benchmark.harness.fixtures import work_of

        position = self._position(item)
        if position < 0:
            return
        later = ((index, work_of(other)) for index, other in enumerate(self.items) if index > position)
        self.ahead.start(position, ((index, call) for index, call in later if call is not None))

    @pytest.hookimpl(wrapper=True)
    def pytest_runtest_teardown(self, item: pytest.Item) -> Iterator[None]:
        with self._measured(item):
            return (yield)

    @pytest.hookimpl(optionalhook=True)
    def pytest_testnodedown(self, node: Any, error: Any) -> None:
        """pytest-xdist: a worker finished; take the rows it recorded."""
        output = getattr(node, "workeroutput", None) or {}
        self.benchmark_collected = self.benchmark_collected or bool(output.get(COLLECTED_KEY))
        self.collector.merge(
            output.get(WORKER_OUTPUT_KEY, {}), source=str(output.get("workerid", "a worker"))
        )
        self.collector.merge_facts(output.get(FACTS_OUTPUT_KEY, []))
        self.case_work += float(output.get(WORK_KEY, 0.0))
        self.computed_elsewhere += float(output.get(COMPUTED_KEY, 0.0))
        self.messages.extend(m for m in output.get(MESSAGES_KEY, ()) if m not in self.messages)
        self.selected_in_workers = max(self.selected_in_workers, int(output.get(SELECTED_KEY, 0)))

    @pytest.hookimpl(tryfirst=True)  # before junitxml writes its file: the suite properties go in it
    def pytest_sessionfinish(self, session: pytest.Session, exitstatus: int) -> None:
        self.ahead.stop()  # every case has run: what the helper does has no use any more
        self._scoring_done()
        if not self.is_controller:
            self.config.workeroutput[WORKER_OUTPUT_KEY] = self.collector.export()  # type: ignore[attr-defined]
            self.config.workeroutput[FACTS_OUTPUT_KEY] = self.collector.export_facts()  # type: ignore[attr-defined]
            self.config.workeroutput[COLLECTED_KEY] = self.benchmark_collected  # type: ignore[attr-defined]
            self.config.workeroutput[WORK_KEY] = self.case_work  # type: ignore[attr-defined]
            self.config.workeroutput[COMPUTED_KEY] = computed_seconds()  # type: ignore[attr-defined]
            self.config.workeroutput[MESSAGES_KEY] = list(self.messages)  # type: ignore[attr-defined]
            self.config.workeroutput[SELECTED_KEY] = self._selected()  # type: ignore[attr-defined]
            self._freeze_if_only_benchmark_cases()
            return
        self._record_stages(time.time())
        self.stopped = self._stopped_early(session)
        rows: list[Any] = []
        if self.stopped is not None:  # no report of the cases that ran (a worker may not have sent its rows)
            self.messages.append(
                f"atlbench: {self.stopped}: no results, table or report written (the reports folder keeps "
                "what it held), as a report of the cases that ran would read as the whole study's; run the "
                "session to its end for them (the values it computed are in the disk cache)"
            )
        else:
            problems = self.collector.problems()
            if problems:
                self.failures.append(
                    "the count table is incomplete: rows were lost between the cases and the controller"
                )
                self.failures.extend(f"  {problem}" for problem in problems)
            # the cases whose row was lost are error rows of their track: the tables list them as excluded
            rows = self.collector.rows + self.harness.lost_rows(_case_ids(self.collector.lost()))
            if self.benchmark_seen and not rows and not problems:
                self.failures.append(
                    "atlbench: this benchmark session scored no run (no run case was collected or all were "
                    "deselected); a session that measures nothing fails"
                )
        if rows:
            for check in (self.harness.missing_check, self.harness.track_checks):
                messages, failures = check(rows)
                self.messages.extend(f"atlbench: {m}" for m in messages)
                self.failures.extend(f"atlbench: {f}" for f in failures)
            self.failures.extend(f"atlbench: {f}" for f in self.harness.nothing_scored(rows))
            try:
                with phases.phase("results"):
                    self.results = self.harness.build_results(rows, known=self.collector.facts)
            except BenchmarkError as error:
                self.failures.append(f"atlbench: {error}")
        if self.results is not None:
            self._suite_properties(self.results)
            # Independent steps: a report that cannot be written must not skip the CI gates.
            for name, step in (("reports", self._write_reports), ("gates", self._apply_gates)):
                try:
                    with phases.phase(name):
                        step(self.results)
                except BenchmarkError as error:
                    self.failures.append(f"atlbench: {error}")
                except OSError as error:
                    where = f" ({error.filename})" if error.filename else ""
                    self.failures.append(f"atlbench: cannot write the reports{where}: {error.strerror}")
        if self.failures and session.exitstatus == pytest.ExitCode.OK:
            session.exitstatus = pytest.ExitCode.TESTS_FAILED
        self._leave_note_for_auto_workers(session, rows)
        self.clock["terminal summary and teardown"] = time.time()
        self._freeze_if_only_benchmark_cases()

    def _stopped_early(self, session: pytest.Session) -> str | None:
        """Why the session ended before its last selected benchmark case, or ``None``: interrupted
        (Ctrl-C), or stopped by ``-x``/``--maxfail``, ``--stepwise`` or xdist. A session that stopped
        after its last benchmark case (``-x`` and a failing test after them) is complete."""
        if not (self.benchmark_seen or self.benchmark_collected):
            return None
        if session.exitstatus == pytest.ExitCode.INTERRUPTED:
            reason = "interrupted"
        elif session.shouldfail or session.shouldstop:
            said = session.shouldfail or session.shouldstop  # pytest's, xdist's or a plugin's words, or True
            reason = said if isinstance(said, str) else "stopped"
        else:
            return None
        selected = self._selected() or self.selected_in_workers  # unknown: workers ended without a word
        if selected and self.cases_reported >= selected:
            return None
        of = f" of {selected:,}" if selected else ""
        return f"the session stopped after {self.cases_reported:,}{of} benchmark cases ({reason})"

    def _selected(self) -> int:
        """The benchmark cases this process collected (none in an xdist controller)."""
        return sum(TRACK_MARKER in item.keywords for item in self.items)

    def _scoring_done(self) -> None:
        """The tracks store what they kept back for later cases (in each process that ran cases). The
        disk cache only saves time: a value it cannot store is computed again next time."""
        try:
            self.harness.scoring_done()
        except OSError as error:
            self.messages.append(f"atlbench: could not store computed values in the disk cache: {error}")

    def _leave_note_for_auto_workers(self, session: pytest.Session, rows: list[Any]) -> None:
        """What this session's cases cost once the disk cache holds everything, for the next ``-n auto``
        (:mod:`benchmark.harness.autoworkers`): only after a session that ran benchmark cases alone, to its
        end, with a disk cache to leave the note in."""
        folder = self.harness.cache_dir
        complete = session.exitstatus in (pytest.ExitCode.OK, pytest.ExitCode.TESTS_FAILED)
        if not (self.only_benchmark_cases and rows and complete and folder is not None) or session.shouldstop:
            return
        from benchmark.harness import autoworkers

        work = max(0.0, self.case_work)
        try:
            stamp = autoworkers.stamp(self.config, autoworkers.data_roots(self.harness.options))
            autoworkers.write_note(autoworkers.note_path(folder), stamp, self.cases_reported, work)
        except OSError as error:  # a note only makes the next session faster; this one is done
            self.messages.append(f"atlbench: could not leave the note for the next -n auto: {error}")

    def _freeze_if_only_benchmark_cases(self) -> None:
        from benchmark.harness.exit import freeze_after_benchmark_cases

        if self.only_benchmark_cases:
            freeze_after_benchmark_cases()

    def pytest_unconfigure(self, config: pytest.Config) -> None:
        if self.is_controller and phases.enabled():
            self._record_stages(time.time())
            phases.write({"workers": getattr(config.option, "numprocesses", None) or 0})

    def _record_stages(self, now: float) -> None:
        """Record the stages begun so far as phases, each ending when the next began and the last at
        ``now`` (collection ends when scoring begins, scoring when the session finishes, the terminal
        summary and the teardown when pytest unconfigures)."""
        started = sorted(self.clock.items(), key=lambda item: item[1])
        for (name, start), (_, end) in zip(started, [*started[1:], ("", now)], strict=True):
            phases.record(name, start, end)
        self.clock.clear()

    def pytest_terminal_summary(self, terminalreporter: Any) -> None:
        if not self.is_controller:
            return
        write = terminalreporter.write_line
        if self.results is not None:
            for heading, lines in self.harness.summary_lines(self.results, self.config.get_verbosity() > 0):
                terminalreporter.write_sep("=", heading)
                for line in lines:
                    write(line)
            if self.written:
                names = ", ".join(p.name for p in self.written)
                write(f"\nreports written to {self.harness.options.reports_dir}: {names}")
        elif self.stopped is not None:
            terminalreporter.write_sep("-", "atlbench")  # the message says why, below
        elif self.collector.seen:
            terminalreporter.write_sep("-", "atlbench")
            write("atlbench: benchmark cases ran but none recorded a row; no table printed.")
        elif self.benchmark_collected or self.benchmark_seen:  # a library-only session hears nothing
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
        from benchmark.reports import RESULTS_JSON

        directory = self.harness.options.reports_dir
        try:
            verbose = self.config.get_verbosity() > 0  # the terminal tables are computed with the files
            computed = computed_seconds() + self.computed_elsewhere > 0  # a cold session: see write_reports
            self.written.extend(self.harness.write_reports(results, directory, verbose, computed))
        except ImportError as error:  # a broken install (numpy, scipy, matplotlib are dependencies)
            self.written.append(results.save(directory / RESULTS_JSON))
            self.failures.append(f"atlbench: only results.json was written; the reports need {error}")

    def _suite_properties(self, results: Results) -> None:
        """Each track's headline per provider as JUnit XML suite properties (``--junitxml``)."""
        from _pytest.junitxml import xml_key

        xml = self.config.stash.get(xml_key, None)
        if xml is None:
            return
        for section in results.sections:
            track = self.harness.track(section.track)
            for name, value in track.junit_suite_properties(section.rows):
                xml.add_global_property(f"{section.track}_{name}", value)

    def _apply_gates(self, results: Results) -> None:
        messages, failures = self.harness.gates(results)
        self.messages.extend(messages)
        self.failures.extend(failures)
