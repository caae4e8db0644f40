"""Benchmark tracks: what the generic collector, pytest plugin and reports run.

A track turns a validation tree into *ground-truth cases* (one per task: an ATL transformation, a round-trip
pair, an OCL model) and *run cases* (one per scored run), checks the former and scores the latter into
:class:`~benchmark.tracks.mapping.counts.RunRow` rows. Everything after that (xdist-safe row collection, the
guard, aggregation, tables, ``results.json``, plots) is shared, so a new study is a new track, not a new
harness. The ATL binding benchmark (RQ1) is the first track.

A test module opts in with ``pytestmark = pytest.mark.atlbench_track("atl")`` and two tests using the
``atlbench_ground_truth`` and ``atlbench_run`` fixtures (see ``cases/test_rq1.py``).
"""

from __future__ import annotations

import importlib
from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from pathlib import Path

from benchmark.core.diskcache import DiskCache
from benchmark.core.errors import ConfigurationError
from benchmark.core.results import TransformationFacts
from benchmark.tracks.mapping.counts import RunRow
from benchmark.tracks.mapping.metrics import DEFAULT_PARTIAL_WEIGHT


@dataclass(frozen=True)
class TrackOptions:
    """What every track needs to know about the session (validated before any track sees it)."""

    validation_root: Path
    partial_weight: float = DEFAULT_PARTIAL_WEIGHT
    confidence: str | None = None
    baselines: tuple[str, ...] = ()
    cache_dir: Path | None = None


@dataclass(frozen=True)
class GroundTruthCase:
    track: str
    transformation: str
    file: Path

    @property
    def case_id(self) -> str:
        return self.transformation


@dataclass(frozen=True)
class RunCase:
    """One scored run: a suggestion file, or a baseline computed live (``file`` is then ``None``)."""

    track: str
    transformation: str
    provider: str
    run: str
    case_id: str
    file: Path | None = None
    baseline: str | None = None
    model: str = "unknown"


@dataclass(frozen=True)
class SkippedInput:
    path: Path
    reason: str


@dataclass(frozen=True)
class Collection:
    ground_truths: tuple[GroundTruthCase, ...] = ()
    runs: tuple[RunCase, ...] = ()
    skipped: tuple[SkippedInput, ...] = field(default=())


class GroundTruthProblem(AssertionError):
    """The ground truth is unusable or inconsistent; its message lists every problem found.

    An ``AssertionError`` so that pytest reports it as a plain failure of the ground-truth case.
    """


class Track(ABC):
    """One benchmark. Instances live once per pytest process (controller and every xdist worker)."""

    name: str = ""
    title: str = ""
    report_prefix: str = ""  # file prefix of the per-track CSVs, e.g. "rq1"

    def __init__(self, options: TrackOptions) -> None:
        self.options = options
        self.cache = DiskCache(options.cache_dir)

    @abstractmethod
    def collect(self) -> Collection:
        """Every case of the validation tree, sorted by id (identical on every xdist worker)."""

    @abstractmethod
    def check_ground_truth(self, case: GroundTruthCase) -> TransformationFacts:
        """Raise :class:`GroundTruthProblem` (or a BenchmarkError) when the ground truth is not usable."""

    @abstractmethod
    def ground_truth_error(self, transformation: str) -> str | None:
        """Why the runs of ``transformation`` cannot be scored (``None`` when they can)."""

    @abstractmethod
    def score_run(self, case: RunCase) -> RunRow:
        """The run's row; input problems give an error row (status ``error``), never an exception."""

    @abstractmethod
    def facts(self, transformation: str) -> TransformationFacts:
        """Characteristics of a ground truth, for the validation-set table (uses the caches)."""

    @abstractmethod
    def input_files(self) -> dict[str, str]:
        """Every input file (relative to the validation root) with its SHA-256, for ``results.json``."""

    def error_row(self, case: RunCase, message: str) -> RunRow:
        """The row of a run that could not be scored: its identity, the session's options, the reason."""
        from benchmark.tracks.mapping.compare import error_row
        from benchmark.tracks.mapping.suggestions import confidence_filter_name, parse_confidence_filter

        return error_row(
            message,
            provider=case.provider,
            model=case.model,
            transformation=case.transformation,
            run=case.run,
            file=str(case.file) if case.file is not None else f"<baseline:{case.baseline}>",
            track=self.name,
            partial_weight=self.options.partial_weight,
            confidence_filter=confidence_filter_name(parse_confidence_filter(self.options.confidence)),
        )


TRACKS: dict[str, str] = {
    "atl": "benchmark.tracks.mapping.track:AtlTrack",
}


def track_class(name: str) -> type[Track]:
    try:
        target = TRACKS[name]
    except KeyError:
        known = ", ".join(sorted(TRACKS))
        raise ConfigurationError(f"unknown track {name!r}; known tracks: {known}") from None
    module, _, attribute = target.partition(":")
    cls: type[Track] = getattr(importlib.import_module(module), attribute)
    return cls
