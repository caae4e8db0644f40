"""The OCL track's payload: the judgement of every constraint of one run on one dataset model and mode.

Written by scoring (:mod:`.scoring.runs`) and read by every reader (the scores, the mode pairs, the
per-constraint CSV, JUnit XML) through :meth:`OclPayload.from_json`, the only place that knows its keys.
A judgement's outcome is one of :data:`OUTCOMES` (``docs/OCL.md``; :mod:`.scoring.judge` decides it).

The error row of a *missing* run (a constraint of its model got no answer) carries no judgement: it says
why (:attr:`OclPayload.missing`) and which constraints are unanswered, and is never scored.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from benchmark.core.rows import Row

MISSING = "missing"
SYNTAX_ERROR = "syntax error"
TYPE_ERROR = "type error"
EVALUATION_ERROR = "evaluation error"
WRONG_CONTEXT = "wrong context"
DISAGREEMENT = "disagreement"
AGREEMENT = "agreement"
#: USE could not judge the answer on some state (it died or hung there, twice: scoring/use_batch.py);
#: only USE's judgements have it, and the tables show its column only when an answer has it
JUDGE_ERROR = "judge error"

#: every outcome, in the order of the rules (and of the tables' columns)
OUTCOMES = (MISSING, SYNTAX_ERROR, TYPE_ERROR, EVALUATION_ERROR, WRONG_CONTEXT, DISAGREEMENT, AGREEMENT)


def outcomes_of(counts: Sequence[Mapping[str, int]]) -> tuple[str, ...]:
    """The outcome columns of tables of these counts: :data:`OUTCOMES`, and ``judge error`` when counted."""
    return OUTCOMES + ((JUDGE_ERROR,) if any(c.get(JUDGE_ERROR) for c in counts) else ())


@dataclass(frozen=True)
class Judgement:
    constraint: str
    outcome: str
    detail: str = ""  # the error message, or the answer's invariant(s) as extracted
    states: tuple[str, ...] = ()  # the states where the verdicts differ (or evaluation failed)
    #: states where the answer's verdict depends on the order USE gave elements sharing a hash bucket of
    #: a Set or Bag, which the built-in judge cannot reproduce (benchmark.lang.ocl.hashorder): USE may differ
    order_dependent: tuple[str, ...] = ()

    @property
    def correct(self) -> bool:
        return self.outcome == AGREEMENT

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "id": self.constraint,
            "outcome": self.outcome,
            "detail": self.detail,
            "states": list(self.states),
        }
        if self.order_dependent:
            data["orderDependent"] = list(self.order_dependent)
        return data

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Judgement:
        return cls(
            str(data["id"]),
            str(data["outcome"]),
            str(data.get("detail", "")),
            tuple(data.get("states", ())),
            tuple(data.get("orderDependent", ())),
        )


@dataclass(frozen=True)
class OclPayload:
    """What a row of the OCL track holds beside its identity: which dataset model and mode it answers,
    the transformation seed its prompts were built with, a judgement per constraint of the model, and the
    constraint ids the run answered that the model does not have. Judged with a local USE
    (``--ocl-judge use|both``), it also says who judged, what USE cost, and (``both``) every disagreement
    between the two judges; those keys are written only then, so a built-in session's rows are unchanged."""

    dataset_model: str
    mode: str
    seed: int
    judgements: tuple[Judgement, ...] = ()
    unknown_constraints: tuple[str, ...] = ()
    judge: str | None = None  # "use" or "both"; None: the built-in judge alone
    use_cost: Mapping[str, Any] | None = None  # USE's time for the variant (use_judge.UseVerdicts.cost_json)
    judge_disagreements: tuple[Mapping[str, Any], ...] = ()  # use_judge.Disagreement.to_json() each
    #: why the run is missing (an error row: never judged); None for any other row
    missing: str | None = None
    unanswered: tuple[str, ...] = ()  # the constraints of a missing run that have no answer

    def outcome_counts(self) -> dict[str, int]:
        return {o: sum(1 for j in self.judgements if j.outcome == o) for o in (*OUTCOMES, JUDGE_ERROR)}

    def to_json(self) -> dict[str, Any]:
        return (
            {
                "datasetModel": self.dataset_model,
                "mode": self.mode,
                "seed": self.seed,
                "judgements": [j.to_json() for j in self.judgements],
                "unknownConstraints": list(self.unknown_constraints),
            }
            | self._judge_json()
            | self._missing_json()
        )

    def _missing_json(self) -> dict[str, Any]:
        if self.missing is None:  # written only for a missing run: every other row keeps its bytes
            return {}
        return {"missing": self.missing, "unanswered": list(self.unanswered)}

    def _judge_json(self) -> dict[str, Any]:
        if self.judge is None:
            return {}
        data: dict[str, Any] = {"judge": self.judge, "useJudge": dict(self.use_cost or {})}
        if self.judge == "both":
            data["judgeDisagreements"] = [dict(d) for d in self.judge_disagreements]
        return data

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> OclPayload:
        return cls(
            dataset_model=str(data.get("datasetModel", "")),
            mode=str(data.get("mode", "")),
            seed=int(data.get("seed", 0)),
            judgements=tuple(Judgement.from_json(j) for j in data.get("judgements", ())),
            unknown_constraints=tuple(data.get("unknownConstraints", ())),
            judge=data.get("judge"),
            use_cost=data.get("useJudge"),
            judge_disagreements=tuple(data.get("judgeDisagreements", ())),
            missing=data.get("missing"),
            unanswered=tuple(data.get("unanswered", ())),
        )

    @classmethod
    def of_row(cls, row: Row) -> OclPayload:
        return cls.from_json(row.payload)


def dataset_model(row: Row) -> str:
    """The dataset model a row is about (its task when the payload does not say: an unreadable file)."""
    return OclPayload.of_row(row).dataset_model or row.task


def missing_reason(row: Row) -> str | None:
    """Why the run of an error row got no answer (a missing run); ``None`` for any other row."""
    return None if row.ok else OclPayload.of_row(row).missing


def judged_payload(
    model: str, mode: str, seed: int, judgements: Sequence[Judgement], unknown: Sequence[str] = ()
) -> dict[str, Any]:
    """The JSON payload of a judged run (what a row carries)."""
    return OclPayload(model, mode, seed, tuple(judgements), tuple(unknown)).to_json()


__all__ = [
    "JUDGE_ERROR",
    "OUTCOMES",
    "Judgement",
    "outcomes_of",
    "OclPayload",
    "dataset_model",
    "judged_payload",
    "missing_reason",
]
