"""Type spellings that mean the same thing, for comparing canonical lines.

An LLM may write ``TEXT`` where the reference wrote ``VARCHAR(255)``, or ``Integer`` where it wrote
``EInt``. These tables (documented in ``docs/ROUNDTRIP.md``) say which spellings are one type; a type
outside them compares by its own upper-cased (SQL) or case-folded (Ecore) spelling. Lengths and
precisions (``VARCHAR(64)``, ``DECIMAL(10,2)``) are ignored: the forward mapping's lengths are a
convention, not part of what a round trip must preserve.
"""

from __future__ import annotations

import re

SQL_TYPE_SYNONYMS: dict[str, tuple[str, ...]] = {
    "VARCHAR": (
        "VARCHAR",
        "CHARACTER VARYING",
        "CHAR VARYING",
        "VARCHAR2",
        "NVARCHAR",
        "NATIONAL CHARACTER VARYING",
        "TEXT",
        "STRING",
        "CLOB",
    ),
    "INTEGER": ("INTEGER", "INT", "INT4", "SMALLINT", "INT2"),
    "BIGINT": ("BIGINT", "INT8", "LONG"),
    "BOOLEAN": ("BOOLEAN", "BOOL", "BIT"),
    "DOUBLE": ("DOUBLE", "DOUBLE PRECISION", "FLOAT", "FLOAT8", "REAL"),
    "DATE": ("DATE", "DATETIME", "TIMESTAMP"),
}

ECORE_TYPE_SYNONYMS: dict[str, tuple[str, ...]] = {
    "EString": ("EString", "String", "java.lang.String"),
    "EInt": ("EInt", "EInteger", "EIntegerObject", "Integer", "int", "java.lang.Integer"),
    "EShort": ("EShort", "EShortObject", "Short", "short", "java.lang.Short"),
    "ELong": ("ELong", "ELongObject", "Long", "long", "java.lang.Long"),
    "EBoolean": ("EBoolean", "EBooleanObject", "Boolean", "boolean", "java.lang.Boolean"),
    "EDouble": ("EDouble", "EDoubleObject", "Double", "double", "Real", "java.lang.Double"),
    "EFloat": ("EFloat", "EFloatObject", "Float", "float", "java.lang.Float"),
    "EDate": ("EDate", "Date", "java.util.Date"),
}

_SQL_LOOKUP = {
    spelling: canonical for canonical, spellings in SQL_TYPE_SYNONYMS.items() for spelling in spellings
}
_ECORE_LOOKUP = {
    spelling.casefold(): canonical
    for canonical, spellings in ECORE_TYPE_SYNONYMS.items()
    for spelling in spellings
}
_PARAMETERS = re.compile(r"\([^)]*\)")


def normalize_sql_type(text: str) -> str:
    """``varchar( 64 )`` -> ``VARCHAR``, ``double precision`` -> ``DOUBLE``, ``int`` -> ``INTEGER``."""
    bare = " ".join(_PARAMETERS.sub(" ", text).upper().split())
    return _SQL_LOOKUP.get(bare, bare)


def normalize_ecore_type(name: str) -> str:
    """``Integer`` -> ``EInt``, ``string`` -> ``EString``; any other name is case-folded."""
    trimmed = name.strip()
    return _ECORE_LOOKUP.get(trimmed.casefold(), trimmed.casefold())


def canonical_ecore_type(name: str) -> str | None:
    """The canonical Ecore datatype for a spelling, or None when it is not one of the table's types."""
    return _ECORE_LOOKUP.get(name.strip().casefold())
