"""Writing a state as SOIL and reading it back gives the same state (objects, values, link order)."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from ocl_models import models, states

from benchmark.lang.ocl.engine import OclEngine
from benchmark.lang.ocl.errors import StateError
from benchmark.lang.ocl.soil_writer import states_equal, write_soil
from benchmark.lang.ocl.use_io import parse_use

from .conftest import CAMPUS_SOIL, CAMPUS_USE

FIXTURE = Path(__file__).parent / "data" / "transform"

VALUES_USE = """model Values
enum Colour { red, green }
class Box
attributes
  n : Integer
  r : Real
  s : String
  b : Boolean
  c : Colour
  friend : Box
  nums : Sequence(Set(Integer))
  bag : Bag(String)
  pair : Tuple(x : Integer, y : String)
end
association Next between
  Box[*] role before
  Box[*] role after ordered
end
"""


def _round_trip(engine: OclEngine, text: str) -> None:
    state = engine.state_from_text(text, file="in.soil")
    written = write_soil(state, header="a header\nof two lines")
    again = engine.state_from_text(written, file="out.soil")
    assert states_equal(state, again), written
    assert write_soil(again, header="a header\nof two lines") == written


def test_the_campus_state_round_trips() -> None:
    _round_trip(OclEngine.from_text(CAMPUS_USE), CAMPUS_SOIL)


@pytest.mark.parametrize(
    ("model", "state"),
    [
        ("library.use", "states/library/valid.soil"),
        ("library.use", "states/library/invalid.soil"),
        ("library.use", "states/library/undefined.soil"),
        ("shop/shop.use", "shop/states/happy.soil"),
        ("shop/shop.use", "shop/states/broken.soil"),
    ],
)
def test_the_fixture_states_round_trip(model: str, state: str) -> None:
    _round_trip(OclEngine.from_file(FIXTURE / model), (FIXTURE / state).read_text(encoding="utf-8"))


def test_every_kind_of_value_round_trips() -> None:
    engine = OclEngine.from_text(VALUES_USE)
    _round_trip(
        engine,
        """!new Box('a')
!new Box('b')
!a.n := -2147483647 - 1
!b.n := -3
!a.r := -0.0
!b.r := 1.0e-300
!a.s := 'it\\'s /'
!a.s := 'a\\nb'
!a.b := false
!a.c := #green
!a.friend := b
!b.friend := a
!a.nums := Sequence{Set{1, 2}, Set(Integer){}, Set{2, 1}}
!b.nums := Sequence{}
!a.bag := Bag{'x', 'x', null}
!a.pair := Tuple{x = 1, y = 'one'}
!b.s := null
!insert (a, b) into Next
!insert (a, a) into Next
!insert (b, a) into Next
!destroy b
!new Box('b')
""",
    )


def test_a_value_without_literal_is_an_error() -> None:
    engine = OclEngine.from_text(VALUES_USE)
    state = engine.state_from_text("!new Box('a')\n")
    state.objects["a"].values["r"] = float("nan")
    with pytest.raises(StateError, match="a.r: the Real nan has no OCL literal"):
        write_soil(state)


def test_an_object_name_that_is_not_an_identifier_is_an_error() -> None:
    engine = OclEngine.from_text(VALUES_USE)
    state = engine.state_from_text("!new Box('a box')\n", file="spaces.soil")
    with pytest.raises(StateError, match="object `a box' cannot be written as SOIL") as caught:
        write_soil(state)
    assert caught.value.file == "spaces.soil"


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_generated_states_round_trip(data: st.DataObject) -> None:
    generated = data.draw(models())
    engine = OclEngine(parse_use(generated.use_text([])))
    _round_trip(engine, data.draw(states(generated)))
