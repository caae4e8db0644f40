"""The round-trip track's cases, for part 2 to run (not yet a :class:`benchmark.core.track.Track`).

A case is one (domain, operator) pair of the bundled data; it has two stages, each scored by
:func:`benchmark.tracks.roundtrip.scoring.score`:

* **inverse**: shown the example pair (S, T) and Δ(T), the model writes S'; S' is scored against Δ(S)
  with S as the base;
* **forward**: shown the example pair (S, T) and S' (its own inverse output when the stages are chained,
  Δ(S) otherwise), the model writes T'; T' is scored against Δ(T) with T as the base.

Cases come from ``manifest.json`` (written by ``atlbench roundtrip generate``), never from file-name
patterns, so the track and the generator cannot disagree on what a case is.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from benchmark.core.errors import InputFormatError
from benchmark.tracks.roundtrip.generate import MANIFEST_FORMAT_VERSION, MANIFEST_NAME
from benchmark.tracks.roundtrip.reading import ECORE, SQL, ModelKind
from benchmark.tracks.roundtrip.scoring import ScoreReport, score

TRACK_NAME = "roundtrip"


def default_data_dir() -> Path:
    """``validation/roundtrip`` of the repository this package lives in, else of the working directory."""
    in_repository = Path(__file__).resolve().parents[2] / "validation" / TRACK_NAME
    return in_repository if in_repository.is_dir() else Path.cwd() / "validation" / TRACK_NAME


@dataclass(frozen=True)
class Stage:
    name: str  # "inverse" | "forward"
    kind: ModelKind
    example: tuple[Path, Path]  # (S, T)
    given: Path  # Δ(T) for inverse; Δ(S) for forward (replaced by the inverse output when chaining)
    expected: Path
    base: Path

    def score(self, output: str | Path) -> ScoreReport:
        return score(self.base, self.expected, output, self.kind)


@dataclass(frozen=True)
class RoundTripCase:
    case_id: str  # "<domain>/<operator>"
    domain: str
    operator: str
    seed: int
    target: tuple[str, ...]
    source: Path  # S
    target_model: Path  # T
    delta_source: Path  # Δ(S)
    delta_target: Path  # Δ(T)

    @property
    def inverse(self) -> Stage:
        example = (self.source, self.target_model)
        return Stage("inverse", ECORE, example, self.delta_target, self.delta_source, self.source)

    @property
    def forward(self) -> Stage:
        example = (self.source, self.target_model)
        return Stage("forward", SQL, example, self.delta_source, self.delta_target, self.target_model)

    @property
    def stages(self) -> tuple[Stage, Stage]:
        return (self.inverse, self.forward)


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
            f"case {case.case_id}: missing file(s) {', '.join(missing)}; run `atlbench roundtrip generate`",
            file=str(manifest),
        )
    return case


@dataclass(frozen=True)
class TrackDescriptor:
    """The track's name, its data folder and its cases."""

    name: str = TRACK_NAME
    description: str = (
        "Round-trip Ecore <-> SQL-XMI by example: inverse (Δ(T) -> S') and forward (S' -> T') steps"
    )

    def data_dir(self) -> Path:
        return default_data_dir()

    def cases(self, data_dir: str | Path | None = None) -> list[RoundTripCase]:
        """Every case listed in the folder's manifest, in manifest order."""
        folder = Path(data_dir) if data_dir is not None else self.data_dir()
        manifest = folder / MANIFEST_NAME
        try:
            data = json.loads(manifest.read_text(encoding="utf-8"))
        except FileNotFoundError:
            raise InputFormatError(
                "no manifest.json: not a round-trip data folder (run `atlbench roundtrip generate`)",
                file=str(manifest),
            ) from None
        except json.JSONDecodeError as error:
            raise InputFormatError(
                f"invalid JSON: {error.msg}", file=str(manifest), line=error.lineno
            ) from None
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


TRACK = TrackDescriptor()
