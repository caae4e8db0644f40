"""Round-trip Ecore <-> SQL track: SQL metamodel, forward mapping, delta operators, scorer.

Public entry points (``docs/ROUNDTRIP.md`` documents each):

* :func:`forward` -- the reference mapping Ecore -> SQL schema;
* :data:`OPERATORS` -- the ten delta operators, each with ``apply_s``/``apply_t`` and witnesses;
* :func:`score` -> :class:`ScoreReport` (``.to_json()``) -- the automatic scorer;
* :func:`load_study` -- a study's pairs and cases (the bundled 100, or a study's own folder), each case
  with its two stages;
* :func:`read_ecore`, :func:`write_ecore`, :func:`read_sql`, :func:`write_sql` -- canonical I/O.
"""

from benchmark.tracks.roundtrip.cases import RoundTripCase, Stage, Study, load_study, manifest_cases
from benchmark.tracks.roundtrip.ecore_io import read_ecore, write_ecore
from benchmark.tracks.roundtrip.forward import ForwardMappingError, forward
from benchmark.tracks.roundtrip.lines import CanonicalLine, ecore_lines, sql_lines
from benchmark.tracks.roundtrip.operators import (
    OPERATOR_NAMES,
    OPERATORS,
    DeltaOperator,
    OperatorNotApplicable,
    operator,
)
from benchmark.tracks.roundtrip.reading import ECORE, SQL, ReadModel, read_model
from benchmark.tracks.roundtrip.scoring import LineVerdict, ScoreReport, score
from benchmark.tracks.roundtrip.sql_io import read_sql, write_sql
from benchmark.tracks.roundtrip.sqlmeta import SQL_NS_URI

__all__ = [
    "ECORE",
    "OPERATORS",
    "OPERATOR_NAMES",
    "SQL",
    "SQL_NS_URI",
    "CanonicalLine",
    "DeltaOperator",
    "ForwardMappingError",
    "LineVerdict",
    "OperatorNotApplicable",
    "ReadModel",
    "RoundTripCase",
    "ScoreReport",
    "Stage",
    "Study",
    "ecore_lines",
    "forward",
    "load_study",
    "manifest_cases",
    "operator",
    "read_ecore",
    "read_model",
    "read_sql",
    "score",
    "sql_lines",
    "write_ecore",
    "write_sql",
]
