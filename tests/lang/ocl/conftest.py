"""The campus model and state of :mod:`campus` as an engine, a state and a printer of values."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from campus import CAMPUS_SOIL, CAMPUS_USE

from benchmark.lang.ocl.engine import OclEngine
from benchmark.lang.ocl.state import ObjectState


@pytest.fixture(scope="module")
def engine() -> OclEngine:
    return OclEngine.from_text(CAMPUS_USE, file="campus.use")


@pytest.fixture(scope="module")
def state(engine: OclEngine) -> ObjectState:
    return engine.state_from_text(CAMPUS_SOIL, file="campus.soil")


@pytest.fixture(scope="module")
def show(engine: OclEngine, state: ObjectState) -> Callable[[str], str]:
    """What USE's ``?`` command prints for an expression in the campus state."""

    def evaluate(expr: str) -> str:
        return engine.evaluate(expr, state).text

    return evaluate
