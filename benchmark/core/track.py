"""The track API: what a study implements so the one harness runs it (``docs/TRACKS.md``).

A track turns its data root into *ground-truth cases* (one per task: an ATL transformation, a round-trip
pair, an OCL model) and *run cases* (one per scored run: a file, or a baseline computed live), checks the
former and scores the latter into :class:`~benchmark.core.rows.Row` envelopes whose payload only the track
reads. Everything after that (xdist-safe collection, the row guard, ``results.json``, ``index.html``, the
``--min-score`` and ``--compare`` gates, ``atlbench validate`` and ``atlbench report``) is the harness's,
so a new study is a new track, not a new harness.

A track declares its options (:class:`~benchmark.core.options.Option`: added to pytest and to its CLI
commands from that one declaration), where its data lives (``validation/<data_dir>`` by default,
overridable with ``--<name>-root``), and hooks for what differs between studies: terminal tables, JUnit
properties, a headline metric per provider, report files and its part of ``index.html``, and the LLM task
behind ``atlbench generate --track NAME``. Tracks register through the ``atlbench.tracks`` entry-point
group (:mod:`benchmark.core.registry`), so a track can live in another package.

A test module opts in with ``pytestmark = pytest.mark.atlbench_track("NAME")`` and two tests using the
``atlbench_ground_truth`` and ``atlbench_run`` fixtures (see ``cases/test_rq1.py``).
"""

from __future__ import annotations

import re
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from benchmark.core.diskcache import DiskCache
from benchmark.core.options import Option
from benchmark.core.rows import FREE_FORMAT, STATUS_ERROR, STUDY_TEMPLATE, Facts, Row

if TYPE_CHECKING:
    import numpy as np

    from benchmark.core.results import Results, TrackSection


@dataclass(frozen=True)
class TrackContext:
    """What a track is given: its data root, its own option values (by ``Option.dest``), a cache folder."""

    data_root: Path
    options: Mapping[str, Any] = field(default_factory=dict)
    cache_dir: Path | None = None


@dataclass(frozen=True)
class GroundTruthCase:
    track: str
    task: str
    file: Path

    @property
    def case_id(self) -> str:
        return self.task


@dataclass(frozen=True)
class RunCase:
    """One scored run: a run file, or a baseline computed live (``file`` is then ``None``).

    ``template`` is the prompt template the run file says it was asked with (the study's when it says
    none; a baseline has no prompt and keeps the default); the harness copies it into the run's row
    (:func:`with_template`), so a track's scorer need not carry it; so is ``answer_format``, how the
    run file says its answers were constrained (``free`` when it says nothing).

    ``ledger_scope`` is for a run file that holds the requests of several cases (the OCL track's file per
    mode holds every dataset model's): only the ledger entries below a key starting with it are this
    case's (``"library/"``), so that the harness does not count the file's requests once per case. ``None``:
    the whole file is the case's."""

    track: str
    task: str
    provider: str
    run: str
    case_id: str
    file: Path | None = None
    baseline: str | None = None
    model: str = "unknown"
    template: str = STUDY_TEMPLATE
    ledger_scope: str | None = None
    answer_format: str = FREE_FORMAT

    @property
    def label(self) -> str:
        """The ``file`` field of its row: the path, or ``<baseline:NAME>``."""
        return str(self.file) if self.file is not None else f"<baseline:{self.baseline}>"


def with_template(row: Row, case: RunCase) -> Row:
    """The row of ``case`` with the case's template and answer format in its envelope (the harness owns the
    envelope: every row it receives from a track's :meth:`~Track.score_run` or :meth:`~Track.error_row`
    passes here)."""
    if row.template == case.template and row.answer_format == case.answer_format:
        return row
    return replace(row, template=case.template, answer_format=case.answer_format)


_REPETITION = re.compile(r"run(\d+)", re.IGNORECASE)


@dataclass(frozen=True)
class SkippedInput:
    path: Path
    reason: str


@dataclass(frozen=True)
class Collection:
    ground_truths: tuple[GroundTruthCase, ...] = ()
    runs: tuple[RunCase, ...] = ()
    skipped: tuple[SkippedInput, ...] = ()


@dataclass(frozen=True)
class AnswerQuality:
    """What a track says of the answers of one series (one provider, template and answer format): how
    many rows it scored, how many of those answers it could read as an answer to its task (the rest are
    unusable: measured failures), and how many names of elements the task's models lack they used
    (``None``: the track does not look for made-up names)."""

    answers: int
    usable: int
    invented: int | None = None


@dataclass(frozen=True)
class HtmlPart:
    """A track's part of ``index.html``: header lines, "read this first" notes, sections (key, title, HTML)
    and a closing section. The harness lays out the page (:mod:`benchmark.reports.page`)."""

    provenance: tuple[str, ...] = ()
    notes: tuple[str, ...] = ()
    sections: tuple[tuple[str, str, str], ...] = ()
    footer: tuple[str, str, str] | None = None


@dataclass(frozen=True)
class PairedData:
    """Two sets of a track's rows as a paired comparison of its headline reads them
    (:meth:`Track.paired`): the ``units`` both sides measured (transformations, constraints, round-trip
    pairs), each side's count vectors per unit (``first[t]``: an array ``(runs, k)``, one row per run on
    unit ``t``) and the ``statistic`` that maps summed vectors ``(P, k)`` to the headline (one value per
    row): applied to a side's vectors summed over every unit and run it gives that side's headline."""

    units: tuple[str, ...]
    first: tuple[np.ndarray, ...]
    second: tuple[np.ndarray, ...]
    statistic: Callable[[np.ndarray], np.ndarray]

    @classmethod
    def of(
        cls,
        first: Iterable[tuple[str, Sequence[float]]],
        second: Iterable[tuple[str, Sequence[float]]],
        statistic: Callable[[np.ndarray], np.ndarray],
    ) -> PairedData | None:
        """From each side's ``(unit, vector)`` entries (one per run and unit: a unit's entries are its
        runs), on the units both sides have, in sorted order; ``None`` when they share none."""
        import numpy as np

        sides: list[dict[str, list[Sequence[float]]]] = [{}, {}]
        for side, entries in zip(sides, (first, second), strict=True):
            for unit, vector in entries:
                side.setdefault(unit, []).append(vector)
        units = tuple(sorted(sides[0].keys() & sides[1].keys()))
        if not units:
            return None
        arrays = [tuple(np.array(side[u], dtype=float) for u in units) for side in sides]
        return cls(units, arrays[0], arrays[1], statistic)


@dataclass(frozen=True)
class TrackReport:
    """What a track's report writer produced: the files, in a fixed order, its part of the page, and the
    lines ``atlbench report`` prints about it (headline figures with their intervals, excluded runs)."""

    paths: tuple[Path, ...] = ()
    html: HtmlPart | None = None
    lines: tuple[str, ...] = ()


class GroundTruthProblem(AssertionError):
    """The ground truth is unusable or inconsistent; its message lists every problem found.

    An ``AssertionError`` so that pytest reports it as a plain failure of the ground-truth case (the harness
    prints its message without a traceback).
    """


class Track(ABC):
    """One study. Instances live once per process (pytest controller, every xdist worker, a CLI call)."""

    name: str = ""
    title: str = ""
    #: a short name for the navigation of ``index.html`` (default: :attr:`name`)
    label: str = ""
    #: data folder below the validation root (``None``: the track's name; ``""``: the root itself)
    data_dir: str | None = None
    #: options of the track, for pytest, ``atlbench validate`` and the ini file
    options: tuple[Option, ...] = ()
    #: options of ``atlbench report`` only (they change how stored rows are summarised, not scored)
    report_options: tuple[Option, ...] = ()
    #: options of ``atlbench generate --track NAME`` (e.g. the round-trip track's ``--examples``)
    generate_options: tuple[Option, ...] = ()
    #: what :meth:`headline` measures, as printed by ``--min-score`` and ``--compare``
    headline_name: str = "score"
    #: the track's own spelling of ``--min-score NAME:PROVIDER=X`` (``--min-f1 PROVIDER=X``), if any
    min_score_alias: str | None = None
    #: what one unit of its paired comparisons is (:meth:`paired`), in the singular: ``transformation``
    unit_name: str = "task"

    def __init__(self, context: TrackContext) -> None:
        self.context = context
        self.cache = DiskCache(context.cache_dir)

    @property
    def data_root(self) -> Path:
        return self.context.data_root

    def option(self, dest: str) -> Any:
        """The value of the track's option ``dest``: as the session gave it, else its declared default (a
        track built by a script or a test names only the options it changes)."""
        if dest in self.context.options:
            return self.context.options[dest]
        for option in (*self.options, *self.report_options, *self.generate_options):
            if option.dest == dest:
                return option.convert(option.default, Path.cwd())
        raise KeyError(f"track {self.name!r} has no option {dest!r}")

    @classmethod
    def default_data_dir(cls) -> str:
        return cls.name if cls.data_dir is None else cls.data_dir

    # ---------------------------------------------------------------------------- cases, scores

    @abstractmethod
    def collect(self) -> Collection:
        """Every case of the data root, sorted by id (identical on every xdist worker). Called once per
        process by the harness, which keeps the result."""

    @abstractmethod
    def check_ground_truth(self, case: GroundTruthCase) -> Facts:
        """Raise :class:`GroundTruthProblem` (or a BenchmarkError) when the ground truth is not usable."""

    @abstractmethod
    def ground_truth_error(self, task: str) -> str | None:
        """Why the runs of ``task`` cannot be scored (``None`` when they can)."""

    @abstractmethod
    def score_run(self, case: RunCase) -> Row:
        """The run's row; input problems give an error row (:meth:`error_row`), never an exception."""

    def scoring_done(self) -> None:
        """Every case of this process has run: called once at the session's end in each process that ran
        cases (each pytest-xdist worker, or the single process), before the controller builds the
        results. A track that keeps computed values back to store them together (the round-trip's
        per-task payloads) stores what it still holds. Default: nothing."""
        return

    @abstractmethod
    def facts(self, task: str) -> Facts:
        """Characteristics of a ground truth, for the validation-set table."""

    def input_files(self) -> dict[str, str]:
        """Every input file (relative to the validation root) with its SHA-256, for ``results.json``."""
        return {}

    def error_payload(self) -> dict[str, Any]:
        """The payload of a row that could not be scored (zero counts, the session's settings...)."""
        return {}

    def error_row(self, case: RunCase, message: str) -> Row:
        """The row of a run that could not be scored: its identity and the reason."""
        return Row(
            track=self.name,
            provider=case.provider,
            model=case.model,
            task=case.task,
            run=case.run,
            file=case.label,
            status=STATUS_ERROR,
            error=message,
            payload=self.error_payload(),
        )

    def options_json(self) -> dict[str, Any]:
        """The track's option values as stored in its ``results.json`` section."""
        return {}

    def condition(self, row: Row) -> str:
        """What a row measures, apart from its provider, template and repetition: the prompt-sensitivity
        report compares templates on the conditions every one of them was measured under. By default the
        task; a track whose runs vary more than the task says so (the round-trip track: k and the stage)."""
        return row.task

    def repetition(self, row: Row) -> str:
        """Which repetition of the study a row belongs to, the same name for every task of that
        repetition, so that the headline can be computed per repetition (the run-to-run spread of the
        prompt-sensitivity report). By default the last ``runNN`` in the row's run id (``runs/Claude-run03``
        and ``k2-run03-forward`` are repetition ``run03``), else the run id itself."""
        found = _REPETITION.findall(row.run)
        return f"run{int(found[-1]):02d}" if found else row.run

    def missing_reason(self, row: Row) -> str | None:
        """Why no answer was obtained for the run of this error row (timeout, HTTP error, retries
        exhausted), when that is why it could not be scored; ``None`` for any other row. A missing run
        says nothing about the model: its case is skipped, not failed, and the session fails unless
        ``--allow-missing-runs`` accepts it (the tables would compare providers on different runs)."""
        return None

    def session_check(self, rows: Sequence[Row]) -> tuple[list[str], list[str]]:
        """(messages, failures) this track has about the session's rows as a whole, beyond each case's
        own verdict (the OCL track's disagreements between two judges); a failure fails the session."""
        return [], []

    # ----------------------------------------------------------------------------------- reading

    def headline(self, rows: Sequence[Row]) -> dict[str, float]:
        """One number per provider (higher is better) for ``--min-score`` and ``--compare``, keyed by the
        rows' :attr:`~benchmark.core.rows.Row.series` (the provider, with its prompt template when that is
        not the study's); the prompt-sensitivity report reads it per template and per repetition."""
        return {}

    def paired(self, first: Sequence[Row], second: Sequence[Row]) -> PairedData | None:
        """Two sets of rows (a provider's runs under two prompt templates, say) as one paired comparison of
        the headline: the units both measured and each side's count vectors on them
        (:class:`PairedData`), ``None`` when they share no unit. The report kit computes Δ, its interval,
        its test and its minimum detectable effect from it (:mod:`benchmark.stats.paired`). Default: the
        track has no paired comparison."""
        return None

    def answer_quality(self, rows: Sequence[Row]) -> AnswerQuality | None:
        """The track's reading of the answers of ``rows`` (one series), for the answer-format table
        (:mod:`benchmark.reports.answer_formats`); ``None``: the track has no LLM answers to read."""
        return None

    def incomparable(self, now: Mapping[str, Any], before: Mapping[str, Any]) -> str | None:
        """Why two sessions run with these options (:meth:`options_json`) must not be given a drop verdict
        by ``--compare`` (``None``: they may; differing settings are printed either way)."""
        return None

    def junit_properties(self, row: Row) -> list[tuple[str, str]]:
        """Readable per-case properties for JUnit XML (the harness adds provider, model, task, run)."""
        return []

    def junit_suite_properties(self, rows: Sequence[Row]) -> list[tuple[str, str]]:
        """Suite-level JUnit XML properties (the harness prefixes them with the track's name); by default
        the headline per provider."""
        key = "".join(ch if ch.isalnum() else "_" for ch in self.headline_name.lower())
        return [
            (f"{provider}_{key}", f"{value:.6f}") for provider, value in sorted(self.headline(rows).items())
        ]

    def summary_lines(self, results: Results, section: TrackSection, verbose: bool) -> list[str]:
        """The terminal tables of this track (pytest's summary and ``atlbench validate``)."""
        return []

    def write_reports(
        self, results: Results, section: TrackSection, out_dir: Path, options: Mapping[str, Any]
    ) -> TrackReport:
        """Write this track's report files into ``out_dir``; ``options`` are the :attr:`report_options`."""
        return TrackReport()

    def llm_task(self, request: Any) -> Any:
        """The :class:`~benchmark.llm.task.TrackTask` behind ``atlbench generate --track NAME``, for a
        :class:`~benchmark.llm.task.TaskRequest`."""
        from benchmark.core.errors import ConfigurationError

        raise ConfigurationError(f"track {self.name!r} has no LLM task", field="--track")
