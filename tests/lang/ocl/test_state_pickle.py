"""A pickled object state (the OCL track's disk cache) is the same state: its Booleans are the two OCL
Boolean instances again and its identity-keyed indexes are rebuilt for the new objects."""

from __future__ import annotations

import pickle
from pathlib import Path

import pytest

from benchmark.lang.ocl.check import check_invariant
from benchmark.lang.ocl.compiler import Runtime
from benchmark.lang.ocl.errors import StateError
from benchmark.lang.ocl.soil import read_soil
from benchmark.lang.ocl.use_io import read_use
from benchmark.lang.ocl.values import FALSE, TRUE, OclBoolean

LIBRARY = Path(__file__).resolve().parents[3] / "validation" / "ocl" / "library"


def test_a_pickled_state_evaluates_and_links_as_the_original() -> None:
    model = read_use(LIBRARY / "library.use")
    state = read_soil(LIBRARY / "states" / "s01.soil", model).state
    state.links_at(state.links[0].association.ends[0])  # an index built before pickling
    model2, state2 = pickle.loads(pickle.dumps((model, state)))
    booleans = [v for o in state2.objects.values() for v in o.values.values() if isinstance(v, OclBoolean)]
    assert booleans and all(v is TRUE or v is FALSE for v in booleans)
    link = state2.links[0]
    assert state2.find_link(link.association, link.objects) is link
    with pytest.raises(StateError, match="already exists"):
        state2.insert_link(link.association, link.objects)
    runtime, runtime2 = Runtime(model), Runtime(model2)
    for inv, inv2 in zip(model.invariants, model2.invariants, strict=True):
        before = check_invariant(runtime.compile_invariant(inv), runtime.context(state)).ok
        after = check_invariant(runtime2.compile_invariant(inv2), runtime2.context(state2)).ok
        assert before is after, inv.name
