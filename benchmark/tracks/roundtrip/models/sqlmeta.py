"""The track's SQL metamodel (``sql.ecore``, shipped in this package) and its identity."""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Any

SQL_NS_URI = "http://atl-binding-bench.org/roundtrip/sql/1.0"
SQL_NS_PREFIX = "sql"
SQL_ROOT_CLASS = "Schema"
SQL_METAMODEL_FILE = Path(__file__).with_name("sql.ecore")


@cache
def sql_package() -> Any:
    """The pyecore EPackage of ``sql.ecore`` (loaded once; instances only read it)."""
    from benchmark.tracks.roundtrip.models.ecore_io import load_ecore_roots

    (package,) = load_ecore_roots(SQL_METAMODEL_FILE)
    if package.nsURI != SQL_NS_URI:  # the constant and the file must not drift apart
        raise RuntimeError(f"{SQL_METAMODEL_FILE} declares nsURI {package.nsURI!r}, expected {SQL_NS_URI!r}")
    return package
