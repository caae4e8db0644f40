"""Checking a state the way USE's ``check`` command does: structure first, then every invariant.

An invariant ``context C inv: e`` means ``C.allInstances->forAll(self | e)``; it is OK only when that
value is defined and true, otherwise FAILED (an undefined body therefore fails the invariant). When the
evaluation stops because a to-one navigation met several links, USE prints ``N/A``; here the invariant
is FAILED and :attr:`InvariantResult.reason` says why. Multiplicity violations and whole/part errors are
reported separately, as USE's ``checking structure...`` does, and do not change invariant verdicts.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from itertools import product
from typing import Any

from benchmark.lang.ocl.compiler import (
    RECURSION_TOO_DEEP,
    CompiledInvariant,
    EvalContext,
    MultiplicityViolation,
    Runtime,
)
from benchmark.lang.ocl.model import Association, AssociationEnd, Model, use_name_order
from benchmark.lang.ocl.state import ObjectState
from benchmark.lang.ocl.values import FALSE, TRUE, Obj, to_use_string_with_type

OK = "OK"
FAILED = "FAILED"


@dataclass(frozen=True)
class InvariantResult:
    name: str  # Class::name
    status: str  # OK | FAILED
    value: str  # what USE prints after `->`, e.g. `false : Boolean`
    reason: str | None = None  # why a FAILED invariant could not be evaluated (USE: N/A)
    #: why the verdict may be another in USE: it depends on the order of elements sharing a hash bucket
    order: str | None = None

    @property
    def ok(self) -> bool:
        return self.status == OK


@dataclass(frozen=True)
class StructureViolation:
    kind: str  # multiplicity | part-of-itself | shared-part | part-cycle
    association: str
    message: str
    details: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "association": self.association, **self.details, "message": self.message}


@dataclass(frozen=True)
class CheckReport:
    invariants: list[InvariantResult]
    structure: list[StructureViolation]

    @property
    def ok(self) -> bool:
        return not self.structure and all(r.ok for r in self.invariants)

    def to_json(self) -> dict[str, Any]:
        return {
            "invariants": {r.name: r.status for r in self.invariants},
            "structure": [v.to_json() for v in self.structure],
        }

    def to_text(self) -> str:
        """USE-like output of ``check``."""
        lines = ["checking structure..."]
        lines.extend(v.message for v in self.structure)
        lines.append("checking invariants...")
        for i, r in enumerate(self.invariants, start=1):
            head = f"checking invariant ({i}) `{r.name}': "
            if r.ok:
                lines.append(head + "OK.")
            elif r.reason is not None:
                lines.append(head + "FAILED.")
                lines.append(f"  -> N/A: {r.reason}")
            else:
                lines.append(head + "FAILED.")
                lines.append(f"  -> {r.value}")
        failures = sum(1 for r in self.invariants if not r.ok)
        n = len(self.invariants)
        lines.append(
            f"checked {n} invariant{'' if n == 1 else 's'}, {failures} failure{'' if failures == 1 else 's'}."
        )
        return "\n".join(lines) + "\n"


def evaluate_invariant(ci: CompiledInvariant, ctx: EvalContext) -> Any:
    """The value of ``C.allInstances->forAll(v1, ..., vn | e)``: TRUE or FALSE.

    Raises :class:`MultiplicityViolation` when the evaluation cannot finish (USE's N/A).
    """
    instances = tuple(ctx.instances(ci.cls))
    env: list[Any] = [None] * ci.frame_size
    env[0] = ctx
    fn = ci.fn
    if len(ci.slots) == 1:
        slot = ci.slots[0]
        for obj in instances:
            env[slot] = obj
            if fn(env) is not TRUE:
                return FALSE
        return TRUE
    for combo in product(instances, repeat=len(ci.slots)):
        for slot, obj in zip(ci.slots, combo, strict=True):
            env[slot] = obj
        if fn(env) is not TRUE:
            return FALSE
    return TRUE


def check_invariant(ci: CompiledInvariant, ctx: EvalContext) -> InvariantResult:
    name = ci.invariant.qualified_name
    ctx.order_notes.clear()
    try:
        value = evaluate_invariant(ci, ctx)
    except MultiplicityViolation as violation:
        return InvariantResult(name, FAILED, "N/A", str(violation))
    except RecursionError:
        return InvariantResult(name, FAILED, "N/A", RECURSION_TOO_DEEP)
    order = "; ".join(ctx.order_notes) or None
    return InvariantResult(name, OK if value is TRUE else FAILED, to_use_string_with_type(value), order=order)


def use_order(ci: CompiledInvariant) -> bytes:
    """USE's order of invariants: its ``TreeMap`` keyed by ``Class::name`` (``MModel.fClassInvariants``)."""
    return use_name_order(ci.invariant.qualified_name)


def check_state(
    runtime: Runtime, state: ObjectState, invariants: list[CompiledInvariant] | None = None
) -> CheckReport:
    """Structure and invariants of ``state`` (all of the model's invariants unless given), the invariants
    in USE's order (:func:`use_order`, not the order of declaration)."""
    ctx = runtime.context(state)
    chosen = sorted(runtime.invariants if invariants is None else invariants, key=use_order)
    return CheckReport([check_invariant(ci, ctx) for ci in chosen], check_structure(runtime.model, state))


# ------------------------------------------------------------------------------------------ structure
def check_structure(model: Model, state: ObjectState) -> list[StructureViolation]:
    violations = _whole_part(model, state)
    for assoc in model.associations.values():
        if assoc.is_nary:
            violations.extend(_nary(assoc, state))
        else:
            first, second = assoc.ends
            violations.extend(_binary(assoc, first, second, state))
            violations.extend(_binary(assoc, second, first, state))
    return violations


def _binary(
    assoc: Association, near: AssociationEnd, far: AssociationEnd, state: ObjectState
) -> list[StructureViolation]:
    out = []
    index = state.links_at(near)
    near_class = state.model.classes[near.class_name]
    far_class = far.class_name
    for obj in state.instances(near_class):
        linked = {id(lk.objects[far.index]) for lk in index.get(obj, ())}
        n = len(linked)
        if far.multiplicity.contains(n):
            continue
        message = (
            f"Multiplicity constraint violation in association `{assoc.name}':\n"
            f"  Object `{obj.name}' of class `{obj.cls.name}' is connected to {n} "
            f"object{'' if n == 1 else 's'} "
            f"of class `{far_class}'\n"
            f"  at association end `{far.name}' but the multiplicity is specified as `{far.multiplicity}'."
        )
        out.append(
            StructureViolation(
                "multiplicity",
                assoc.name,
                message,
                {
                    "object": obj.name,
                    "class": obj.cls.name,
                    "end": far.name,
                    "count": n,
                    "multiplicity": str(far.multiplicity),
                },
            )
        )
    return out


def _nary(assoc: Association, state: ObjectState) -> list[StructureViolation]:
    out = []
    for selected in assoc.ends:
        others = [e for e in assoc.ends if e is not selected]
        pools = [state.instances(state.model.classes[e.class_name]) for e in others]
        counts: dict[tuple[int, ...], int] = {}
        for link in state.links:
            if link.association is assoc:
                key = tuple(id(link.objects[e.index]) for e in others)
                counts[key] = counts.get(key, 0) + 1
        if selected.multiplicity.contains(0):
            # only tuples that have links can violate it; USE walks the whole cross product, same verdicts
            by_key = {tuple(id(o) for o in combo): combo for combo in _linked_tuples(assoc, others, state)}
            candidates = [(by_key[key], n) for key, n in counts.items()]
        else:
            candidates = [(combo, counts.get(tuple(id(o) for o in combo), 0)) for combo in product(*pools)]
        for combo, n in candidates:
            if selected.multiplicity.contains(n):
                continue
            names = ", ".join(o.name for o in combo)
            message = (
                f"Multiplicity constraint violation in association `{assoc.name}':\n"
                f"  Objects `{names}' are connected to {n} object{'' if n == 1 else 's'} of class "
                f"`{selected.class_name}'\n"
                f"  but the multiplicity is specified as `{selected.multiplicity}'."
            )
            out.append(
                StructureViolation(
                    "multiplicity",
                    assoc.name,
                    message,
                    {
                        "objects": [o.name for o in combo],
                        "end": selected.name,
                        "count": n,
                        "multiplicity": str(selected.multiplicity),
                    },
                )
            )
    return out


def _linked_tuples(
    assoc: Association, others: list[AssociationEnd], state: ObjectState
) -> list[tuple[Obj, ...]]:
    return [tuple(lk.objects[e.index] for e in others) for lk in state.links if lk.association is assoc]


def _whole_part(model: Model, state: ObjectState) -> list[StructureViolation]:
    """USE's whole/part rules: no object is part of itself, composition parts are not shared, no cycles."""
    out: list[StructureViolation] = []
    edges = [
        (lk.association, lk.objects[0], lk.objects[1])
        for lk in state.links
        if lk.association.kind in ("aggregation", "composition") and len(lk.objects) == 2
    ]
    parts_of: dict[int, list[Obj]] = {}
    for _, whole, part in edges:
        parts_of.setdefault(id(whole), []).append(part)
    shared_reported: set[int] = set()
    cycle_reported = False
    for assoc, whole, part in edges:
        if whole is part:
            out.append(
                StructureViolation(
                    "part-of-itself",
                    assoc.name,
                    f"Error: Object `{whole.name}' cannot be a part of itself.",
                    {"object": whole.name},
                )
            )
        if assoc.kind == "composition" and id(part) not in shared_reported:
            owners = [w for a, w, p in edges if p is part and a.kind == "composition" and w is not whole]
            if owners:
                out.append(
                    StructureViolation(
                        "shared-part",
                        assoc.name,
                        f"Error: Object `{part.name}' is shared by object `{whole.name}' and object "
                        f"`{owners[0].name}'.",
                        {"object": part.name, "owners": [whole.name, owners[0].name]},
                    )
                )
                shared_reported.add(id(part))
        if not cycle_reported and whole is not part and _reaches(parts_of, part, whole):
            out.append(
                StructureViolation(
                    "part-cycle",
                    assoc.name,
                    f"Error: There is a cycle in the part-whole hierarchy. Object `{whole.name}' is a "
                    "direct or "
                    f"indirect part of `{part.name}'.",
                    {"object": whole.name, "part": part.name},
                )
            )
            cycle_reported = True
    return out


def _reaches(parts_of: dict[int, list[Obj]], start: Obj, goal: Obj) -> bool:
    seen: set[int] = set()
    stack = [start]
    while stack:
        node = stack.pop()
        if node is goal:
            return True
        if id(node) in seen:
            continue
        seen.add(id(node))
        stack.extend(parts_of.get(id(node), ()))
    return False
