"""Judging one answer: the outcome of an LLM-written constraint against the reference, state by state.

A generated constraint is **correct** when it classifies every state of its model exactly as the reference
does: USE's ``check`` verdict (OK = defined and true for every instance of the context class) is the same
on every state. Every answer gets exactly one outcome, the first that applies:

``missing``           the run has no answer for the constraint;
``syntax error``      no ``context C inv [name]: expr`` in the answer (:mod:`.extract`), or it does not parse;
``type error``        it parses but the model rejects it (unknown class, attribute or role, ill-typed);
``evaluation error``  evaluation could not finish on some state (USE's ``N/A``: a to-one navigation met
                      several links; recursion too deep), those states listed;
``wrong context``     a disagreement where the answer's context class is not the reference's;
``disagreement``      the verdicts differ on the listed states;
``agreement``         the verdicts are the same on every state: the only correct outcome.

An answer with several invariants means their conjunction (it holds on a state when each one is OK), so
an LLM that splits a requirement in two is judged on what it said, not on its layout. A different context
class whose verdicts agree everywhere is an agreement: correctness is semantic, as in the study.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

from benchmark.core.gcpause import collector_paused
from benchmark.lang.ocl.check import InvariantResult, check_invariant
from benchmark.lang.ocl.compiler import CompiledInvariant, EvalContext, Runtime
from benchmark.lang.ocl.errors import OclError, OclSyntaxError, OclTypeError
from benchmark.lang.ocl.model import Invariant, Model
from benchmark.lang.ocl.state import ObjectState
from benchmark.lang.ocl.use_io import parse_constraints
from benchmark.tracks.ocl.payload import (
    AGREEMENT,
    DISAGREEMENT,
    EVALUATION_ERROR,
    MISSING,
    SYNTAX_ERROR,
    TYPE_ERROR,
    WRONG_CONTEXT,
    Judgement,
)
from benchmark.tracks.ocl.scoring.extract import find_constraint

if TYPE_CHECKING:
    from benchmark.tracks.ocl.variants import Variant


@dataclass
class Referee:
    """What judging needs of one model variant: its compiled model, its states, the reference verdicts and
    the reference's context class per constraint. Built once per variant, used for every answer."""

    model: Model
    runtime: Runtime
    states: dict[str, ObjectState]  # state file (relative to the model folder) -> state
    verdicts: dict[str, dict[str, bool]]  # state -> constraint id -> the reference holds
    contexts: dict[str, str]  # constraint id -> the reference's context class
    _scratch: list[Model] = field(default_factory=list, repr=False)
    # (constraint, answer) -> its judgement, for the outcomes whose judgement is a function of the answer
    # alone (an error's message names the run it was read from, so errors are judged each time)
    _judged: dict[tuple[str, str], Judgement] = field(default_factory=dict, repr=False)
    # state -> its evaluation context, shared by the references and every answer: its caches are keyed
    # by the model's navigations, the state's objects and class names, which live as long as the variant
    _evaluating: dict[str, EvalContext] = field(default_factory=dict, repr=False)
    # (context class, variables, expression) -> state -> its check on the state. ASTs compare by structure
    # (not by position), so an answer that is a reference (the Oracle, a faithful LLM) or another
    # answer written differently is evaluated once per state; an evaluation error is not kept (its
    # message may name the answer's run)
    _checked: dict[tuple[str, tuple[str, ...], Any], dict[str, InvariantResult]] = field(
        default_factory=dict, repr=False
    )
    _compiled: dict[tuple[str, tuple[str, ...], Any], CompiledInvariant] = field(
        default_factory=dict, repr=False
    )
    # id of a compiled invariant -> (it, its entry of ``_checked``): its structural key is hashed once,
    # not once per state (hashing an AST walks all of it)
    _checks_of: dict[int, tuple[CompiledInvariant, dict[str, InvariantResult]]] = field(
        default_factory=dict, repr=False
    )

    @classmethod
    def of(cls, variant: Variant) -> Referee:
        """The judge of a variant: its model, states and the reference verdicts, evaluated here (with
        the cyclic garbage collector paused, :mod:`benchmark.core.gcpause`)."""
        with collector_paused():
            return cls._of(variant)

    @classmethod
    def _of(cls, variant: Variant) -> Referee:
        runtime = Runtime(variant.model)  # compiles the model's invariants, the references among them
        compiled = {ci.invariant.name: ci for ci in runtime.invariants}
        contexts = {cid: compiled[cid].invariant.class_name for cid in variant.references}
        referee = cls(variant.model, runtime, dict(variant.states), {}, contexts)
        for name in variant.states:
            referee.verdicts[name] = {
                cid: referee.check(compiled[cid], name).ok for cid in variant.references
            }
        return referee

    def compile(self, inv: Invariant) -> CompiledInvariant:
        """The invariant compiled, once for every invariant of the same context class, variables and
        expression that compiled (a type error names the answer's run, so it is raised each time)."""
        key = (inv.class_name, inv.variables, inv.expr)
        found = self._compiled.get(key)
        if found is None:
            found = self._compiled[key] = self.runtime.compile_invariant(inv)
        return found

    def check(self, ci: CompiledInvariant, state: str) -> InvariantResult:
        """``check_invariant`` of ``ci`` on a state, once per state for every invariant of the same
        context class, variables and expression. Only the verdict, the reason and the order note of the
        result are the invariant's own (its name is the first such invariant's)."""
        known = self._checks_of.get(id(ci))
        if known is not None and known[0] is ci:
            done = known[1]
        else:  # held with its entry, so its id is not reused meanwhile
            inv = ci.invariant
            done = self._checked.setdefault((inv.class_name, inv.variables, inv.expr), {})
            self._checks_of[id(ci)] = (ci, done)
        found = done.get(state)
        if found is None:
            found = done[state] = check_invariant(ci, self.context(state))
        return found

    def context(self, state: str) -> EvalContext:
        """The evaluation context of a state, one per state and referee."""
        found = self._evaluating.get(state)
        if found is None:
            found = self._evaluating[state] = self.runtime.context(self.states[state])
        return found

    def judge(self, constraint: str, answer: str | None, *, label: str = "answer") -> Judgement:
        """The outcome of ``answer`` (raw text, ``None`` when missing) for ``constraint``. The same
        answer to the same constraint (several runs and providers often give it, the baselines too) is
        read and evaluated once per variant and process when it was read without error."""
        if answer is None:
            return Judgement(constraint, MISSING, "no answer for this constraint")
        found = self._judged.get((constraint, answer))
        if found is not None:
            return found
        judgement = self._judge(constraint, answer, label)
        if judgement.outcome in (AGREEMENT, DISAGREEMENT, WRONG_CONTEXT):
            self._judged[(constraint, answer)] = judgement
        return judgement

    def _judge(self, constraint: str, answer: str, label: str) -> Judgement:
        scratch = self._detached()
        try:
            extraction, invariants = find_constraint(
                answer, lambda text: parse_constraints(text, scratch, file=label)
            )
        except OclSyntaxError as error:
            return Judgement(constraint, SYNTAX_ERROR, str(error))
        except OclError as error:  # an unknown context class is the model's verdict, not the grammar's
            return Judgement(constraint, TYPE_ERROR, str(error))
        if extraction.text is None:
            return Judgement(constraint, SYNTAX_ERROR, "no `context C inv [name]: expr' in the answer")
        if not invariants:
            return Judgement(constraint, SYNTAX_ERROR, f"no invariant in `{extraction.text}'")
        try:
            compiled = [self.compile(inv) for inv in invariants]
        except OclTypeError as error:
            return Judgement(constraint, TYPE_ERROR, str(error))
        except OclError as error:
            return Judgement(constraint, TYPE_ERROR, str(error))
        return self._compare(constraint, invariants, compiled, extraction.text)

    def _detached(self) -> Model:
        """A model sharing the variant's types but none of its invariants, so an answer may reuse a
        reference's name; unnamed invariants are numbered as USE numbers them."""
        scratch = Model(self.model.name, self.model.enumerations, self.model.classes, self.model.associations)
        scratch.invariant_counter = self.model.invariant_counter
        return scratch

    def _compare(
        self, constraint: str, invariants: list[Invariant], compiled: list[CompiledInvariant], text: str
    ) -> Judgement:
        results: dict[str, bool | str] = {}
        unordered: list[str] = []
        for name in self.states:
            outcome: bool | str = True
            for ci in compiled:
                try:
                    result = self.check(ci, name)
                except OclError as error:
                    outcome = str(error)
                    break
                if result.reason is not None:
                    outcome = result.reason
                    break
                if result.order is not None and name not in unordered:
                    unordered.append(name)
                outcome = outcome and result.ok
            results[name] = outcome
        reference = {name: verdicts[constraint] for name, verdicts in self.verdicts.items()}
        contexts = [inv.class_name for inv in invariants]
        judgement = compare_verdicts(
            constraint, contexts, self.contexts[constraint], results, reference, text
        )
        return replace(judgement, order_dependent=tuple(unordered)) if unordered else judgement


def compare_verdicts(
    constraint: str,
    contexts: Sequence[str],
    expected_context: str,
    results: Mapping[str, bool | str],
    reference: Mapping[str, bool],
    text: str,
) -> Judgement:
    """The outcome of an answer that compiled, from its result on each state: whether it holds there (the
    conjunction of its invariants' ``check`` verdicts), or why its evaluation could not finish. The rules
    of the module docstring, shared by the built-in judge and USE's (:mod:`.use_judge`)."""
    failed = [name for name, result in results.items() if isinstance(result, str)]
    if failed:
        return Judgement(constraint, EVALUATION_ERROR, str(results[failed[0]]), tuple(failed))
    differ = tuple(name for name, holds in results.items() if holds is not reference[name])
    if differ:
        others = sorted(set(contexts) - {expected_context})
        if others:
            detail = f"context {', '.join(others)} instead of {expected_context}: {text}"
            return Judgement(constraint, WRONG_CONTEXT, detail, differ)
        return Judgement(constraint, DISAGREEMENT, text, differ)
    return Judgement(constraint, AGREEMENT, text)


__all__ = ["Referee", "compare_verdicts"]
