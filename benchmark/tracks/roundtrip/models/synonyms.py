"""Type spellings that mean the same thing, for comparing canonical lines.

An LLM may write ``TEXT`` where the reference wrote ``VARCHAR(255)``, or ``Integer`` where it wrote
``EInt``. These tables (documented in ``docs/ROUNDTRIP.md``) say which spellings are one type; a type
outside them compares by its own upper-cased (SQL) or exact (Ecore: names are case-sensitive) spelling.

Lengths and precisions of character and decimal types are kept (``VARCHAR(64)`` is not ``VARCHAR(255)``):
the forward mapping stores enums as ``VARCHAR(64)`` and strings as ``VARCHAR(255)``, so the length is
what tells an enum-typed column from a string one. Parameters of the other types (``INT(11)``,
``TIMESTAMP(6)``) are display widths or precisions that no mapping rule produces, and are dropped.
:func:`sql_type_family` drops every parameter, for the operators that reason about families.
"""

from __future__ import annotations

import re
from functools import lru_cache

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
    spelling: canonical for canonical, spellings in ECORE_TYPE_SYNONYMS.items() for spelling in spellings
}
_PARAMETERS = re.compile(r"\([^)]*\)")
# Canonical types whose parameters are part of the type (a length, a precision and scale).
PARAMETERIZED_SQL_TYPES = frozenset({"VARCHAR", "CHAR", "CHARACTER", "NCHAR", "DECIMAL", "NUMERIC"})


def sql_type_family(text: str) -> str:
    """``varchar( 64 )`` -> ``VARCHAR``, ``double precision`` -> ``DOUBLE``, ``int`` -> ``INTEGER``:
    the canonical name without any parameter."""
    bare = " ".join(_PARAMETERS.sub(" ", text).upper().split())
    return _SQL_LOOKUP.get(bare, bare)


@lru_cache(maxsize=4096)  # every schema of a study spells the same few types
def normalize_sql_type(text: str) -> str:
    """The canonical spelling compared by the scorer: ``varchar( 64 )`` -> ``VARCHAR(64)``,
    ``CHARACTER VARYING(255)`` -> ``VARCHAR(255)``, ``TEXT`` -> ``VARCHAR``, ``int(11)`` -> ``INTEGER``,
    ``decimal(10, 2)`` -> ``DECIMAL(10,2)``."""
    family = sql_type_family(text)
    found = _PARAMETERS.search(text)
    if family not in PARAMETERIZED_SQL_TYPES or found is None:
        return family
    parameters = ",".join(part.strip() for part in found.group(0)[1:-1].split(","))
    return f"{family}({parameters})"


def normalize_ecore_type(name: str) -> str:
    """``Integer`` -> ``EInt``, ``java.lang.String`` -> ``EString``; any other name as written (trimmed):
    Ecore names, and so the names of the package's own classes, enums and datatypes, are case-sensitive."""
    trimmed = name.strip()
    return _ECORE_LOOKUP.get(trimmed, trimmed)


def canonical_ecore_type(name: str) -> str | None:
    """The canonical Ecore datatype for a spelling, or None when it is not one of the table's types."""
    return _ECORE_LOOKUP.get(name.strip())
