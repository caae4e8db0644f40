"""Evaluator throughput: ``python -m benchmark.bench.ocl [--objects N] [--seconds S]``.

Builds a synthetic company state (our own model, generated here), compiles a handful of invariants of
the kinds LLMs write (navigation, iterators, arithmetic, strings, undefined handling) and reports how
many invariant checks and how many body evaluations (one per context object) run per second. Parsing
and checking are timed separately: they happen once per (model, invariant), evaluation once per state.
"""

from __future__ import annotations

import argparse
import random
import time
from typing import Any

from benchmark.lang.ocl.check import evaluate_invariant
from benchmark.lang.ocl.engine import OclEngine

MODEL = """
model Bench
enum Grade { a, b, c }
class Employee
attributes
  name : String
  age : Integer
  salary : Real
  grade : Grade
end
class Department
attributes
  title : String
  budget : Integer
end
association WorksIn between
  Employee[*] role staff
  Department[0..1] role dept
end
association Boss between
  Employee[0..1] role boss
  Employee[*] role reports
end
constraints
context Employee inv adult: self.age >= 18
context Employee inv named:
  self.name.size() > 0 and self.name.substring(1, 1) = self.name.substring(1, 1).toUpper()
context Employee inv bossEarnsMore: self.boss.isDefined() implies self.boss.salary >= self.salary
context Employee inv sameDept: self.reports->forAll(r | r.dept = self.dept)
context Department inv budget: self.staff->collect(e | e.salary)->sum() <= self.budget
context Department inv uniqueNames: self.staff->isUnique(e | e.name)
context Department inv someSenior: self.staff->exists(e | e.grade = Grade::a) or self.staff->isEmpty()
context Department inv avgAge: self.staff->notEmpty() implies self.staff.age->sum() / self.staff->size() < 70
"""


def build_state(engine: OclEngine, objects: int, seed: int = 7) -> str:
    rng = random.Random(seed)
    departments = max(1, objects // 10)
    lines = []
    for d in range(departments):
        lines.append(f"!new Department('d{d}')")
        lines.append(f"!d{d}.title := 'Dept {d}'")
        lines.append(f"!d{d}.budget := {rng.randint(10_000, 100_000)}")
    for e in range(objects):
        lines.append(f"!new Employee('e{e}')")
        lines.append(f"!e{e}.name := '{rng.choice(['Ada', 'Bob', 'cy', 'Dee'])}{e}'")
        lines.append(f"!e{e}.age := {rng.randint(16, 70)}")
        lines.append(f"!e{e}.salary := {rng.randint(1000, 9000)}.0")
        lines.append(f"!e{e}.grade := #{rng.choice('abc')}")
        lines.append(f"!insert (e{e}, d{rng.randrange(departments)}) into WorksIn")
        if e > 0 and rng.random() < 0.8:
            lines.append(f"!insert (e{rng.randrange(e)}, e{e}) into Boss")
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m benchmark.bench ocl", description=__doc__.splitlines()[0]
    )
    parser.add_argument("--objects", type=int, default=200, help="employees in the state (default 200)")
    parser.add_argument("--seconds", type=float, default=2.0, help="time budget for the evaluation loop")
    args = parser.parse_args(argv)

    t0 = time.perf_counter()
    engine = OclEngine.from_text(MODEL, file="<bench>")
    t1 = time.perf_counter()
    state = engine.state_from_text(build_state(engine, args.objects), file="<bench-state>")
    t2 = time.perf_counter()
    invariants = engine.runtime.invariants
    ctx = engine.runtime.context(state)
    bodies_per_round = sum(len(state.instances(ci.cls)) for ci in invariants)

    rounds = 0
    deadline = time.perf_counter() + args.seconds / 2
    start = time.perf_counter()
    while time.perf_counter() < deadline:
        ctx = engine.runtime.context(state)  # fresh caches: every round pays for navigation again
        for ci in invariants:
            evaluate_invariant(ci, ctx)
        rounds += 1
    elapsed = time.perf_counter() - start

    # every body on every context object, no short-circuit (what a per-object classification costs)
    sweeps = 0
    deadline = time.perf_counter() + args.seconds / 2
    start = time.perf_counter()
    while time.perf_counter() < deadline:
        ctx = engine.runtime.context(state)
        for ci in invariants:
            env: list[Any] = [None] * ci.frame_size
            env[0] = ctx
            slot = ci.slots[0]
            for obj in state.instances(ci.cls):
                env[slot] = obj
                ci.fn(env)
        sweeps += 1
    sweep_elapsed = time.perf_counter() - start

    verdicts = {ci.invariant.qualified_name: evaluate_invariant(ci, ctx) for ci in invariants}
    n_classes, n_invariants = len(engine.model.classes), len(invariants)
    checks = rounds * n_invariants / elapsed
    bodies = sweeps * bodies_per_round / sweep_elapsed
    print(f"model: {n_classes} classes, {n_invariants} invariants; parse+check {t1 - t0:.3f} s")
    print(f"state: {len(state.objects)} objects, {len(state.links)} links; SOIL load {t2 - t1:.3f} s")
    print(f"invariant checks/s (USE's forAll, stops at the first failing object): {checks:,.0f}")
    print(f"body evaluations/s (every invariant on every context object): {bodies:,.0f}")
    print("verdicts: " + ", ".join(f"{name}={'OK' if v.value else 'FAILED'}" for name, v in verdicts.items()))
    return 0


def register(subparsers: Any) -> None:
    """``python -m benchmark.bench ocl``: the options are this module's own (``--help`` lists them)."""
    parser = subparsers.add_parser(
        "ocl", help="OCL invariant checks per second on a generated state", add_help=False, prefix_chars="+"
    )
    parser.add_argument("arguments", nargs=argparse.REMAINDER)
    parser.set_defaults(handler=lambda args: main(args.arguments) or 0)


if __name__ == "__main__":
    raise SystemExit(main())
