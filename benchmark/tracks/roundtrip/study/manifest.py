"""The bundled layout of the round-trip study (``validation/roundtrip``, written by ``atlbench roundtrip
generate``): its cases come from ``manifest.json``, never from file-name patterns, so the track and the
generator cannot disagree on what a case is; the SQL metamodel is the track's ``sql.ecore``.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from benchmark.core.errors import InputFormatError
from benchmark.core.wording import word
from benchmark.tracks.roundtrip.names import TRACK_NAME
from benchmark.tracks.roundtrip.study.cases import BasePair, RoundTripCase, Study
from benchmark.tracks.roundtrip.study.generate import MANIFEST_FORMAT_VERSION, MANIFEST_NAME


def default_data_dir() -> Path:
    """``validation/roundtrip`` of the repository this package lives in, else of the working directory."""
    in_repository = Path(__file__).resolve().parents[4] / "validation" / TRACK_NAME
    return in_repository if in_repository.is_dir() else Path.cwd() / "validation" / TRACK_NAME


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


def bundled_study(root: Path) -> Study:
    cases = manifest_cases(root)
    pairs: dict[str, BasePair] = {}
    for case in cases:
        pairs.setdefault(case.domain, BasePair(case.domain, case.source, case.target_model))
    return Study(root, "bundled", tuple(sorted(pairs.values(), key=lambda p: p.name)), tuple(cases))
