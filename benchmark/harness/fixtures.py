"""The fixtures a track's test module uses: ``atlbench_ground_truth`` and ``atlbench_run``.

A run case scores its run and hands the row to its process's collector (the controller's, or a worker's
that sends it on at the end: :mod:`benchmark.core.collector`); JUnit XML gets readable properties only:
provider, model, task and run (and the prompt template when it is not the study's), and the track's own
(the mapping track's P/R/F1/accuracy per level).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager

import pytest

from benchmark.core import phases
from benchmark.core.collector import RowCollector
from benchmark.core.errors import BenchmarkError
from benchmark.core.rows import FREE_FORMAT, STUDY_TEMPLATE, Facts, Row
from benchmark.core.track import GroundTruthCase, GroundTruthProblem, RunCase, Track, with_template
from benchmark.harness.ledger import with_ledger
from benchmark.harness.state import session_of

#: The per-case work summed for ``python -m benchmark.bench session`` (:func:`benchmark.core.phases.tally`).
SCORING_TALLY = "the tracks' score_run"
GROUND_TRUTH_TALLY = "the tracks' check_ground_truth"


class GroundTruthCheck:
    def __init__(self, track: Track, case: GroundTruthCase, collector: RowCollector) -> None:
        self.track, self.case, self.collector = track, case, collector

    def check(self) -> Facts:
        """The ground truth's facts, kept in the process's collector for ``results.json``; a problem fails
        the case with its positioned message only (failed outside the ``except``: pytest would print the
        problem a second time as the failure's context)."""
        try:
            with phases.tally(GROUND_TRUTH_TALLY):
                facts = self.track.check_ground_truth(self.case)
        except (GroundTruthProblem, BenchmarkError) as problem:
            message = str(problem)
        else:
            if isinstance(facts, Facts):
                self.collector.add_facts(facts)
            return facts
        pytest.fail(message, pytrace=False)


class RunScoring:
    def __init__(self, track: Track, case: RunCase, record: Recorder) -> None:
        self.track, self.case, self._record = track, case, record

    def score(self) -> Row:
        """Score the run and record its row; an error row is recorded too, then the case fails, except
        for a run that got no answer: it is skipped as missing (it says nothing about the model), and
        the session fails on it once, listing every missing run, unless ``--allow-missing-runs``."""
        with recording_errors(self.track, self.case, self._record, "scoring the run"):
            with phases.tally(SCORING_TALLY):
                row = with_template(self.track.score_run(self.case), self.case)
        self._record(self.track, row)
        missing = None if row.ok else self.track.missing_reason(row)
        if missing is not None:
            pytest.skip(f"missing run (no answer was obtained): {missing}")
        if not row.ok:
            pytest.fail(row.error or "the run could not be scored", pytrace=False)
        return row


@contextmanager
def recording_errors(track: Track, case: RunCase, record: Recorder, doing: str) -> Iterator[None]:
    """An unexpected exception (a bug, not an input problem) still records the run's error row before it
    propagates with its traceback: the tables then list the run as excluded, and the row guard, which
    is there to catch rows lost on the way to the controller, is not tripped by a case that failed."""
    try:
        yield
    except Exception as error:
        message = f"internal error {doing}: {type(error).__name__}: {error}"
        record(track, with_template(track.error_row(case, message), case))
        raise


class Recorder:
    """Records a case's row in its process's collector (with its run file's ledger,
    :func:`~benchmark.harness.ledger.with_ledger`), and its readable properties for JUnit XML: the
    case's ``user_properties``, what pytest's ``record_property`` fixture appends to. The fixture is
    not requested: it costs every run case a fixture set-up and tear-down (about 50 µs, 0.1 s over the
    bundled cases), and its check that the JUnit family keeps properties is made once per session
    (:meth:`~benchmark.harness.state.BenchmarkSession.pytest_sessionstart`)."""

    def __init__(self, request: pytest.FixtureRequest) -> None:
        self.request = request

    def __call__(self, track: Track, row: Row) -> None:
        row = with_ledger(row, self.request.param)
        node = self.request.node
        session_of(self.request.config).collector.add(node.nodeid, row)
        properties = node.user_properties
        for name in ("provider", "model", "task", "run"):
            properties.append((name, getattr(row, name)))
        if row.template != STUDY_TEMPLATE:
            properties.append(("template", row.template))
        if row.answer_format != FREE_FORMAT:
            properties.append(("answer_format", row.answer_format))
        properties.append(("status", row.status))
        properties.extend(track.junit_properties(row))


@pytest.fixture
def atlbench_ground_truth(request: pytest.FixtureRequest) -> GroundTruthCheck:
    case: GroundTruthCase = request.param
    session = session_of(request.config)
    return GroundTruthCheck(session.harness.track(case.track), case, session.collector)


@pytest.fixture
def atlbench_run(request: pytest.FixtureRequest) -> RunScoring:
    """A run whose ground truth is unusable errors here, in setup, naming the reason, with its error row
    recorded so the tables list it as excluded."""
    case: RunCase = request.param
    track = session_of(request.config).harness.track(case.track)
    record = Recorder(request)
    with recording_errors(track, case, record, "reading the ground truth"):
        problem = track.ground_truth_error(case.task)
    if problem is not None:
        record(track, with_template(track.error_row(case, problem), case))
        pytest.fail(problem, pytrace=False)
    return RunScoring(track, case, record)


def work_of(item: pytest.Item) -> Callable[[], object] | None:
    """What running the benchmark case ``item`` computes, without recording anything (for the helper that
    scores ahead, :mod:`benchmark.harness.ahead`): a ground-truth case's check; a run case's scoring,
    when its ground truth is usable (as :func:`atlbench_run` and :meth:`RunScoring.score` do). None for
    another test, and for the placeholder of a track without cases (pytest's empty parameter set)."""
    params = getattr(getattr(item, "callspec", None), "params", {})
    harness = session_of(item.config).harness
    case = params.get("atlbench_run")
    if isinstance(case, RunCase):
        track = harness.track(case.track)
        run: RunCase = case

        def score() -> object:
            return None if track.ground_truth_error(run.task) is not None else track.score_run(run)

        return score
    truth = params.get("atlbench_ground_truth")
    if isinstance(truth, GroundTruthCase):
        checking = harness.track(truth.track)
        return lambda: checking.check_ground_truth(truth)
    return None
