"""Round-trip Ecore <-> SQL track: SQL metamodel, forward mapping, delta operators, scorer.

Public entry points (``docs/ROUNDTRIP.md`` documents each):

* :func:`forward` -- the reference mapping Ecore -> SQL schema;
* :data:`OPERATORS` -- the ten delta operators, each with ``apply_s``/``apply_t`` and witnesses;
* :func:`score` -> :class:`ScoreReport` (``.to_json()``) -- the automatic scorer;
* :func:`load_study` -- a study's pairs and cases (the bundled 100, or a study's own folder), each case
  with its two stages;
* :func:`read_ecore`, :func:`write_ecore`, :func:`read_sql`, :func:`write_sql` -- canonical I/O.
"""

# The names load on first use (PEP 562): every session imports this package to read the track's options,
# and the readers, scorer and operators need pyecore and lxml, which a session without this track never uses.
_WHERE = {
    "CanonicalLine": "benchmark.tracks.roundtrip.scoring.lines",
    "DeltaOperator": "benchmark.tracks.roundtrip.operators",
    "ECORE": "benchmark.tracks.roundtrip.reading.models",
    "ForwardMappingError": "benchmark.tracks.roundtrip.models.forward",
    "LineVerdict": "benchmark.tracks.roundtrip.scoring.scorer",
    "OPERATORS": "benchmark.tracks.roundtrip.operators",
    "OPERATOR_NAMES": "benchmark.tracks.roundtrip.operators",
    "OperatorNotApplicable": "benchmark.tracks.roundtrip.operators",
    "ReadModel": "benchmark.tracks.roundtrip.reading.models",
    "RoundTripCase": "benchmark.tracks.roundtrip.study.manifest",
    "SQL": "benchmark.tracks.roundtrip.reading.models",
    "SQL_NS_URI": "benchmark.tracks.roundtrip.models.sqlmeta",
    "ScoreReport": "benchmark.tracks.roundtrip.scoring.scorer",
    "Stage": "benchmark.tracks.roundtrip.study.manifest",
    "Study": "benchmark.tracks.roundtrip.study.manifest",
    "ecore_lines": "benchmark.tracks.roundtrip.scoring.lines",
    "forward": "benchmark.tracks.roundtrip.models.forward",
    "load_study": "benchmark.tracks.roundtrip.study.manifest",
    "manifest_cases": "benchmark.tracks.roundtrip.study.manifest",
    "operator": "benchmark.tracks.roundtrip.operators",
    "read_ecore": "benchmark.tracks.roundtrip.models.ecore_io",
    "read_model": "benchmark.tracks.roundtrip.reading.models",
    "read_sql": "benchmark.tracks.roundtrip.models.sql_io",
    "score": "benchmark.tracks.roundtrip.scoring.scorer",
    "sql_lines": "benchmark.tracks.roundtrip.scoring.lines",
    "write_ecore": "benchmark.tracks.roundtrip.models.ecore_io",
    "write_sql": "benchmark.tracks.roundtrip.models.sql_io",
}

__all__ = sorted(_WHERE)


def __getattr__(name: str) -> object:
    if name not in _WHERE:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    import importlib

    value = getattr(importlib.import_module(_WHERE[name]), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_WHERE))
