"""A round-trip study as values: its base pairs, and its (pair, operator) cases with their two stages.

A case is one (pair, operator) of a study; it has two stages, each scored by
:func:`benchmark.tracks.roundtrip.scoring.scorer.score_stage`:

* **inverse**: shown the example pair(s) and Δ(T), the model writes S'; S' is scored against Δ(S) with S
  as the base;
* **forward**: shown the same example pair(s) and S' (its own inverse answer when the stages are chained),
  the model writes T'; T' is scored against Δ(T) with T as the base.

Two layouts give these values (:func:`benchmark.tracks.roundtrip.study.load.load_study`): the bundled data
(:mod:`.manifest`) and a study's own folder (:mod:`.own_layout`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from benchmark.tracks.roundtrip.models.sqlmeta import SQL_METAMODEL_FILE
from benchmark.tracks.roundtrip.names import FORWARD, INVERSE
from benchmark.tracks.roundtrip.reading.models import ECORE, SQL, ModelKind

if TYPE_CHECKING:
    from benchmark.tracks.roundtrip.reading.runfile import StageRun


@dataclass(frozen=True)
class Stage:
    name: str  # "inverse" | "forward"
    kind: ModelKind
    example: tuple[Path, Path]  # the case's own (S, T)
    given: Path  # Δ(T) for inverse; Δ(S) for forward (replaced by the inverse answer when chaining)
    expected: Path
    base: Path


@dataclass(frozen=True)
class RoundTripCase:
    case_id: str  # "<pair>/<operator>"
    domain: str  # the pair's name
    operator: str
    seed: int | None
    target: tuple[str, ...]
    source: Path  # S
    target_model: Path  # T
    delta_source: Path  # Δ(S)
    delta_target: Path  # Δ(T)
    sql_kind: ModelKind = SQL

    @property
    def inverse(self) -> Stage:
        example = (self.source, self.target_model)
        return Stage(INVERSE, ECORE, example, self.delta_target, self.delta_source, self.source)

    @property
    def forward(self) -> Stage:
        example = (self.source, self.target_model)
        return Stage(FORWARD, self.sql_kind, example, self.delta_source, self.delta_target, self.target_model)

    @property
    def stages(self) -> tuple[Stage, Stage]:
        return (self.inverse, self.forward)

    def stage(self, name: str) -> Stage:
        return self.inverse if name == INVERSE else self.forward


@dataclass(frozen=True)
class BasePair:
    """One base pair (S, T) of a study: the examples a prompt is made of."""

    name: str
    source: Path
    target: Path


@dataclass(frozen=True)
class Study:
    """A study's data: its base pairs, its cases, and how its SQL side is read."""

    root: Path
    layout: str  # "bundled" | "study"
    pairs: tuple[BasePair, ...]
    cases: tuple[RoundTripCase, ...]
    sql_kind: ModelKind = SQL
    sql_metamodel: Path = SQL_METAMODEL_FILE
    skipped: tuple[tuple[Path, str], ...] = field(default=())

    def pair(self, name: str) -> BasePair:
        for pair in self.pairs:
            if pair.name == name:
                return pair
        raise KeyError(name)

    def case(self, case_id: str) -> RoundTripCase:
        for case in self.cases:
            if case.case_id == case_id:
                return case
        raise KeyError(case_id)


@dataclass(frozen=True)
class StageCase:
    """What a run case scores: a case's stage, from a run file, a study answer or a baseline."""

    case: RoundTripCase
    stage: str
    k: int | None  # None for a baseline
    run_index: int | None
    source: str  # "run file" | "study answer" | "baseline"
    # the run file as the collection read it (scoring reads it from here, not from the file again)
    run: StageRun | None = field(default=None, compare=False, repr=False)
