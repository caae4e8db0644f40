"""The round-trip track's cases: a study's base pairs and its (pair, operator) cases with their two stages.

A case is one (pair, operator) of a study; it has two stages, each scored by
:func:`benchmark.tracks.roundtrip.scoring.scorer.score`:

* **inverse**: shown the example pair(s) and Δ(T), the model writes S'; S' is scored against Δ(S) with S
  as the base;
* **forward**: shown the same example pair(s) and S' (its own inverse answer when the stages are chained),
  the model writes T'; T' is scored against Δ(T) with T as the base.

Two layouts are read (:func:`load_study`):

* the **bundled** data (``validation/roundtrip``, written by ``atlbench roundtrip generate``): the cases
  come from ``manifest.json``, never from file-name patterns, so the track and the generator cannot
  disagree on what a case is; the SQL metamodel is the track's ``sql.ecore``;
* a **study's own folder** (``--roundtrip-root DIR`` without a manifest, :mod:`.study_layout`):
  ``S_<pair>.ecore``, ``T_<pair>.sql.xmi``, ``Delta_<op>_S_<pair>.ecore``, ``Delta_<op>_T_<pair>.sql.xmi``
  and its own SQL metamodel, read from its ``.ecore`` file (the nsURI is the file's).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from benchmark.core.errors import InputFormatError
from benchmark.core.wording import word
from benchmark.tracks.roundtrip.models.sqlmeta import SQL_METAMODEL_FILE
from benchmark.tracks.roundtrip.names import (  # noqa: F401  (re-exported: the study's names)
    BASELINES,
    ECHO,
    FORWARD,
    INVERSE,
    ORACLE,
    STAGES,
    TRACK_NAME,
)
from benchmark.tracks.roundtrip.reading.models import ECORE, SQL, ModelKind
from benchmark.tracks.roundtrip.scoring.scorer import ScoreReport, score
from benchmark.tracks.roundtrip.study.generate import MANIFEST_FORMAT_VERSION, MANIFEST_NAME


def default_data_dir() -> Path:
    """``validation/roundtrip`` of the repository this package lives in, else of the working directory."""
    in_repository = Path(__file__).resolve().parents[4] / "validation" / TRACK_NAME
    return in_repository if in_repository.is_dir() else Path.cwd() / "validation" / TRACK_NAME


@dataclass(frozen=True)
class Stage:
    name: str  # "inverse" | "forward"
    kind: ModelKind
    example: tuple[Path, Path]  # the case's own (S, T)
    given: Path  # Δ(T) for inverse; Δ(S) for forward (replaced by the inverse answer when chaining)
    expected: Path
    base: Path

    def score(self, output: str | Path) -> ScoreReport:
        return score(self.base, self.expected, output, self.kind)


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


# -- the bundled layout: manifest.json ---------------------------------------------------------------
def _case(entry: dict[str, Any], data_dir: Path, manifest: Path, where: str) -> RoundTripCase:
    try:
        files = {key: data_dir / str(entry[key]) for key in ("S", "T", "deltaS", "deltaT")}
        case = RoundTripCase(
            case_id=str(entry["id"]),
            domain=str(entry["domain"]),
            operator=str(entry["operator"]),
            seed=int(entry["seed"]),
            target=tuple(str(t) for t in entry["target"]),
            source=files["S"],
            target_model=files["T"],
            delta_source=files["deltaS"],
            delta_target=files["deltaT"],
        )
    except (KeyError, TypeError, ValueError) as error:
        raise InputFormatError(f"malformed case entry: {error!r}", file=str(manifest), field=where) from None
    missing = [str(p.name) for p in files.values() if not p.is_file()]
    if missing:
        raise InputFormatError(
            f"case {case.case_id}: missing {word(len(missing), 'file')} {', '.join(missing)}; "
            "run `atlbench roundtrip generate`",
            file=str(manifest),
        )
    return case


def manifest_cases(data_dir: str | Path | None = None) -> list[RoundTripCase]:
    """Every case listed in the folder's manifest, in manifest order."""
    folder = Path(data_dir) if data_dir is not None else default_data_dir()
    manifest = folder / MANIFEST_NAME
    try:
        data = json.loads(manifest.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise InputFormatError(
            "no manifest.json: not a round-trip data folder (run `atlbench roundtrip generate`)",
            file=str(manifest),
        ) from None
    except json.JSONDecodeError as error:
        raise InputFormatError(f"invalid JSON: {error.msg}", file=str(manifest), line=error.lineno) from None
    if (
        not isinstance(data, dict)
        or data.get("formatVersion") != MANIFEST_FORMAT_VERSION
        or data.get("track") != TRACK_NAME
    ):
        raise InputFormatError(
            f"not a round-trip manifest of format {MANIFEST_FORMAT_VERSION}", file=str(manifest)
        )
    entries = data.get("cases")
    if not isinstance(entries, list):
        raise InputFormatError("no case list", file=str(manifest), field="$.cases")
    return [_case(entry, folder, manifest, f"$.cases[{i}]") for i, entry in enumerate(entries)]


def _bundled_study(root: Path) -> Study:
    cases = manifest_cases(root)
    pairs: dict[str, BasePair] = {}
    for case in cases:
        pairs.setdefault(case.domain, BasePair(case.domain, case.source, case.target_model))
    return Study(root, "bundled", tuple(sorted(pairs.values(), key=lambda p: p.name)), tuple(cases))


def load_study(root: str | Path | None = None) -> Study:
    """The study in ``root`` (default: the bundled data): the bundled layout when it has a
    ``manifest.json``, the study's own layout otherwise."""
    folder = Path(root) if root is not None else default_data_dir()
    if not folder.is_dir():
        raise InputFormatError("no such folder: not a round-trip data folder", file=str(folder))
    if (folder / MANIFEST_NAME).is_file():
        return _bundled_study(folder)
    from benchmark.tracks.roundtrip.study.own_layout import read_study_layout

    return read_study_layout(folder)
