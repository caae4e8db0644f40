"""The round-trip track's payload: one line of the study's sheet, the scores of one stage evaluation.

Written by scoring (:func:`benchmark.tracks.roundtrip.scoring.stage.stage_payload`) and read by every reader
(the sheet and its summaries, the headline, JUnit XML) through :meth:`StagePayload.from_json`: this module is
the only one that knows the payload's keys, which are the sheet's column names (:meth:`StagePayload.column`).
The error row of a *missing* stage (no answer was obtained) carries no scores, only why
(:func:`missing_payload`, :func:`missing_reason`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from benchmark.core.rows import Row

STAGE_STATUS_OK = "ok"
MISSING_KEY = "missing"  # the payload of a missing stage's error row: why no answer was obtained

# JSON key -> attribute, in the payload's order.
_KEYS = {
    "pair": "pair",
    "operator": "operator",
    "k": "k",
    "runIndex": "run_index",
    "stage": "stage",
    "stageStatus": "stage_status",
    "LOC": "loc",
    "Cr": "cr",
    "InCr": "incr",
    "Ad": "ad",
    "AdHarmful": "ad_harmful",
    "Miss": "miss",
    "pctCorrect": "pct_correct",
    "pctWSuccess": "pct_wsuccess",
    "pctWSuccessSheet": "pct_wsuccess_sheet",
    "deltaDetected": "delta_detected",
    "deltaRecall": "delta_recall",
    "deltaPrecision": "delta_precision",
    "deltaLines": "delta_lines",
    "loadable": "loadable",
    "loadError": "load_error",
    "readAs": "read_as",
    "equivalent": "equivalent",
    "flags": "flags",
    "extractionNotes": "extraction_notes",
}


@dataclass(frozen=True)
class StagePayload:
    """What a stage evaluation is about (pair, operator, k, run, stage and how it went) and its scores:
    the sheet's nine columns, the delta scores, loadability and flags."""

    pair: str
    operator: str
    k: int | None  # None for a baseline
    run_index: int | None
    stage: str
    stage_status: str
    loc: int
    cr: int
    incr: int
    ad: int
    ad_harmful: int
    miss: int
    pct_correct: float
    pct_wsuccess: float
    pct_wsuccess_sheet: float
    delta_detected: bool
    delta_recall: float
    delta_precision: float
    delta_lines: int
    loadable: bool
    load_error: str | None
    read_as: str
    equivalent: bool
    flags: tuple[str, ...] = ()
    extraction_notes: tuple[str, ...] = ()

    def column(self, key: str) -> Any:
        """The value of the sheet's column ``key`` (a payload key: ``pctCorrect``, ``Cr``...)."""
        return getattr(self, _KEYS[key])

    def to_json(self) -> dict[str, Any]:
        data = {key: getattr(self, name) for key, name in _KEYS.items()}
        data["flags"], data["extractionNotes"] = list(self.flags), list(self.extraction_notes)
        return data

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> StagePayload:
        values = {name: data.get(key) for key, name in _KEYS.items()}
        values["flags"] = tuple(data.get("flags") or ())
        values["extraction_notes"] = tuple(data.get("extractionNotes") or ())
        return cls(**values)

    @classmethod
    def of_row(cls, row: Row) -> StagePayload:
        return cls.from_json(row.payload)


def missing_payload(reason: str) -> dict[str, Any]:
    """The payload of a missing stage's error row."""
    return {MISSING_KEY: reason}


def missing_reason(row: Row) -> str | None:
    """Why the stage of an error row got no answer (a missing stage); ``None`` for any other row."""
    reason = None if row.ok else row.payload.get(MISSING_KEY)
    return str(reason) if reason is not None else None


__all__ = ["STAGE_STATUS_OK", "StagePayload", "missing_payload", "missing_reason"]
