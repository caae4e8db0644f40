"""Value printing (USE's toString), ordering, equality and the JSON encoding of ``ocl eval --json``."""

from __future__ import annotations

import json

import pytest

from benchmark.lang.ocl.engine import OclEngine
from benchmark.lang.ocl.state import ObjectState
from benchmark.lang.ocl.values import (
    FALSE,
    TRUE,
    OclBag,
    OclOrderedSet,
    OclSequence,
    OclSet,
    java_double_to_string,
    java_equals,
    wrap_int,
)


@pytest.mark.parametrize(
    ("value", "text"),
    [
        (0.0, "0.0"),
        (-0.0, "-0.0"),
        (1.0, "1.0"),
        (0.5, "0.5"),
        (0.001, "0.001"),
        (0.0009, "9.0E-4"),
        (1234567.0, "1234567.0"),
        (12345678.9, "1.23456789E7"),
        (1e21, "1.0E21"),
        (-2.5e-7, "-2.5E-7"),
        (float("nan"), "NaN"),
        (float("inf"), "Infinity"),
        (0.1 + 0.2, "0.30000000000000004"),
    ],
)
def test_java_double_to_string(value: float, text: str) -> None:
    assert java_double_to_string(value) == text


def test_wrap_int_is_java_int_arithmetic() -> None:
    assert wrap_int(2**31) == -(2**31)
    assert wrap_int(-(2**31) - 1) == 2**31 - 1
    assert wrap_int(12) == 12


def test_booleans_are_not_numbers() -> None:
    assert OclSet([1, TRUE, FALSE]).__len__() == 3  # Python's True == 1 must not leak into OCL
    assert not java_equals(TRUE, 1)


def test_collection_equality_follows_use() -> None:
    assert OclSet([1, 2]) == OclSet([2, 1])
    assert OclBag([1, 1, 2]) == OclBag([2, 1, 1]) and OclBag([1, 2]) != OclBag([1, 1, 2])
    assert OclSequence([1, 2]) != OclSequence([2, 1])
    assert OclSequence([0.1 + 0.2]) == OclSequence([0.3])  # element-wise Java equals (fuzzy Reals)
    assert OclSequence([1]) != OclOrderedSet([1])
    assert OclOrderedSet([1, 2, 1]).items == (1, 2)


JSON_CASES = [
    ("1", {"type": "Integer", "value": 1}),
    ("2.5", {"type": "Real", "value": 2.5}),
    ("'x'", {"type": "String", "value": "x"}),
    ("true", {"type": "Boolean", "value": True}),
    ("null", {"type": "OclVoid", "value": None}),
    ("ann", {"type": "Student", "value": "@ann"}),
    ("#fall", {"type": "Term", "value": "#fall"}),
    ("Set{2, 1}", {"type": "Set(Integer)", "value": {"Set": [1, 2]}}),
    ("Bag{ann, ann}", {"type": "Bag(Student)", "value": {"Bag": ["@ann", "@ann"]}}),
    ("Sequence{2, null}", {"type": "Sequence(Integer)", "value": {"Sequence": [2, None]}}),
    ("OrderedSet{'b', 'a'}", {"type": "OrderedSet(String)", "value": {"OrderedSet": ["b", "a"]}}),
    (
        "Tuple{b = 1, a = Set{#spring}}",
        {"type": "Tuple(b:Integer,a:Set(Term))", "value": {"Tuple": {"b": 1, "a": {"Set": ["#spring"]}}}},
    ),
]


@pytest.mark.parametrize(("expr", "encoded"), JSON_CASES, ids=[e for e, _ in JSON_CASES])
def test_json_value_encoding(engine: OclEngine, state: ObjectState, expr: str, encoded: dict) -> None:
    result = engine.evaluate(expr, state).to_json()
    assert result == encoded
    assert json.loads(json.dumps(result)) == encoded
