"""The ten delta operators of the round-trip track, in the order the study lists them."""

from __future__ import annotations

from benchmark.tracks.roundtrip.operators.base import (
    DeltaOperator,
    OperatorNotApplicable,
    Target,
    Witness,
    choose,
)
from benchmark.tracks.roundtrip.operators.catalog import OPERATOR_NAMES, OPERATORS, operator

__all__ = [
    "OPERATORS",
    "OPERATOR_NAMES",
    "DeltaOperator",
    "OperatorNotApplicable",
    "Target",
    "Witness",
    "choose",
    "operator",
]
