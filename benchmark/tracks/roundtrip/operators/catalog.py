"""The ten delta operators, in the order the study lists them, and lookup by name."""

from __future__ import annotations

from benchmark.tracks.roundtrip.operators.attributes import (
    AddAttribute,
    ChangeAttributeType,
    DeleteAttribute,
    RenameAttribute,
)
from benchmark.tracks.roundtrip.operators.base import DeltaOperator
from benchmark.tracks.roundtrip.operators.classes import AddClass, DeleteClass, RenameClass
from benchmark.tracks.roundtrip.operators.references import AddReference, MakeMandatory, ToMany

OPERATORS: tuple[DeltaOperator, ...] = (
    AddClass(),
    DeleteClass(),
    RenameClass(),
    AddAttribute(),
    DeleteAttribute(),
    RenameAttribute(),
    ChangeAttributeType(),
    AddReference(),
    ToMany(),
    MakeMandatory(),
)
OPERATOR_NAMES: tuple[str, ...] = tuple(op.name for op in OPERATORS)


def operator(name: str) -> DeltaOperator:
    """The operator called ``name`` (KeyError listing the valid names otherwise)."""
    for candidate in OPERATORS:
        if candidate.name == name:
            return candidate
    raise KeyError(f"unknown delta operator {name!r}; expected one of {', '.join(OPERATOR_NAMES)}")
