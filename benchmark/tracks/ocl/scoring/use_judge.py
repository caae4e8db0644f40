"""USE as the judge: the same outcomes as the built-in judge, with every verdict and rejection USE's own.

For one model variant, every answer the session judges (every run file and baseline of the variant) and
the references go to one USE batch (:mod:`.use_batch`) in the process's USE shell (:mod:`.use_shell`):
the model without invariants, each state written as SOIL, each distinct constraint text once, as
extracted (:mod:`.extract`, the same text the built-in judge reads: runs and providers often repeat it).
USE's results become :class:`~.judge.Judgement` by the built-in judge's rules
(:func:`~.judge.compare_verdicts`): rejected by USE's parser is a ``syntax error``, by its type checker a
``type error`` (USE's message as the detail), ``N/A`` on a state an ``evaluation error``, a state USE
could not judge the answer on (it died or hung there, twice) a ``judge error``; otherwise the conjunction
of the answer's invariants is compared, state by state, with USE's verdicts of the reference.

:func:`disagreements` compares the two judges' judgements of the same answers (``--ocl-judge both``).
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from benchmark.tracks.ocl.payload import JUDGE_ERROR, MISSING, SYNTAX_ERROR, TYPE_ERROR, Judgement
from benchmark.tracks.ocl.scoring.extract import extract_constraint
from benchmark.tracks.ocl.scoring.judge import compare_verdicts
from benchmark.tracks.ocl.scoring.use_batch import NOT_AVAILABLE, OK, UseAnswer, UseCost, run_batch
from benchmark.tracks.ocl.scoring.use_install import UseFailed

if TYPE_CHECKING:
    from benchmark.tracks.ocl.scoring.use_shell import UseShell
    from benchmark.tracks.ocl.variants import Variant

#: an answer of the session: (case id, constraint id)
AnswerKey = tuple[str, str]


@dataclass
class UseVerdicts:
    """USE's judgements of one variant's answers, and what computing them cost."""

    judgements: dict[AnswerKey, Judgement]
    references: dict[str, dict[str, bool]]  # state -> constraint id -> USE's verdict of the reference
    cost: UseCost
    run: str  # identifies the batch (process and variant), so a session counts each once
    cached: bool = False  # read from the disk cache: USE was not asked in this session

    def judge(self, key: AnswerKey, answer: str | None) -> Judgement:
        if answer is None:
            return Judgement(key[1], MISSING, "no answer for this constraint")
        return self.judgements[key]

    def cost_json(self) -> dict[str, Any]:
        c = self.cost
        data = {
            "run": self.run,
            "version": c.version,
            "jvms": c.jvms,
            "states": c.states,
            "checks": c.checks,
            "seconds": round(c.seconds, 3),
            "answers": len(self.judgements),
            "restarts": c.restarts,
            "judgeErrors": c.judge_errors,
            "breakdown": {kind: round(seconds, 3) for kind, seconds in c.breakdown.items()},
        }
        return data | ({"cached": True} if self.cached else {})


def model_text(variant: Variant) -> str:
    """The variant's model as ``.use`` text, without its invariants (answers may reuse their names)."""
    from benchmark.lang.ocl.model import Model
    from benchmark.lang.ocl.use_io import write_use

    m = variant.model
    return write_use(Model(m.name, m.enumerations, m.classes, m.associations))


def state_texts(variant: Variant) -> dict[str, str]:
    from benchmark.lang.ocl.soil_writer import write_soil

    return {name: write_soil(state) for name, state in variant.states.items()}


def judge_with_use(variant: Variant, answers: Mapping[AnswerKey, str], shell: UseShell) -> UseVerdicts:
    """USE's judgement of every answer (raw text) of ``variant``, in one batch with its references."""
    keys = list(answers)
    extracted = {key: extract_constraint(answers[key]).text for key in keys}
    sent = [key for key in keys if extracted[key] is not None]
    cids = list(variant.references)
    distinct = list(dict.fromkeys(str(extracted[key]) for key in sent))
    texts = [variant.references[cid] for cid in cids] + distinct
    results, cost = run_batch(shell, model_text(variant), state_texts(variant), texts)
    reference_results = dict(zip(cids, results[: len(cids)], strict=True))
    by_text = dict(zip(distinct, results[len(cids) :], strict=True))
    problems: list[str] = []
    references: dict[str, dict[str, bool]] = {state: {} for state in variant.states}
    for cid, result in reference_results.items():
        if result.rejected is not None:
            problems.append(f"USE rejects the reference {cid} ({result.rejected} error): {result.message}")
            continue
        for state in variant.states:
            holds = _holds(result, state)
            if isinstance(holds, str):
                problems.append(f"USE cannot evaluate the reference {cid} on {state}: {holds}")
            else:
                references[state][cid] = holds
    if not problems:
        problems += [
            f"USE loaded no invariant for the reference {cid}"
            for cid, r in reference_results.items()
            if not r.invariants
        ]
    if problems:
        raise UseFailed(f"{variant.name} ({variant.mode}): " + "; ".join(problems))
    expected = {cid: result.invariants[0].split("::", 1)[0] for cid, result in reference_results.items()}
    judgements: dict[AnswerKey, Judgement] = {}
    for key in keys:
        if extracted[key] is None:
            judgements[key] = Judgement(key[1], SYNTAX_ERROR, "no `context C inv [name]: expr' in the answer")
    for key in sent:
        reference = {state: references[state][key[1]] for state in variant.states}
        text = str(extracted[key])
        judgements[key] = _judgement(key[1], by_text[text], text, expected[key[1]], reference)
    run = f"{os.getpid()}-{variant.name}-{variant.mode}-{variant.seed}"
    return UseVerdicts(judgements, references, cost, run)


def _holds(result: UseAnswer, state: str) -> bool | str:
    if state in result.errors:
        return f"USE could not judge it: {result.errors[state]}"
    verdicts = result.verdicts.get(state, {})
    if any(v == NOT_AVAILABLE for v in verdicts.values()):
        note = result.notes.get(state, "")
        return f"USE: N/A{': ' + note if note else ''}"
    return all(v == OK for v in verdicts.values())


def _judgement(
    constraint: str, result: UseAnswer, text: str, expected: str, reference: dict[str, bool]
) -> Judgement:
    if result.rejected == "syntax":
        return Judgement(constraint, SYNTAX_ERROR, f"USE: {result.message}")
    if result.rejected is not None:
        return Judgement(constraint, TYPE_ERROR, f"USE: {result.message}")
    if not result.invariants:
        return Judgement(constraint, SYNTAX_ERROR, f"no invariant in `{text}'")
    if result.errors:
        failed = tuple(state for state in reference if state in result.errors)
        return Judgement(
            constraint, JUDGE_ERROR, f"USE could not judge it: {result.errors[failed[0]]}", failed
        )
    outcomes = {state: _holds(result, state) for state in reference}
    contexts = [name.split("::", 1)[0] for name in result.invariants]
    return compare_verdicts(constraint, contexts, expected, outcomes, reference, text)


# ------------------------------------------------------------------------------------ both judges


@dataclass(frozen=True)
class Disagreement:
    """One answer the two judges judge differently."""

    constraint: str
    builtin: Judgement
    use: Judgement

    def to_json(self) -> dict[str, Any]:
        return {"id": self.constraint, "builtin": self.builtin.to_json(), "use": self.use.to_json()}


def disagreements(builtin: Sequence[Judgement], use: Sequence[Judgement]) -> list[Disagreement]:
    """Answers whose outcome, or set of states where it differs from the reference, is not the same."""
    return [
        Disagreement(b.constraint, b, u)
        for b, u in zip(builtin, use, strict=True)
        if (b.outcome, b.states) != (u.outcome, u.states)
    ]


__all__ = ["AnswerKey", "Disagreement", "UseVerdicts", "disagreements", "judge_with_use", "model_text"]
