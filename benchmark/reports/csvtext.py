"""The CSV files of every track's reports, in one dialect.

Comma-separated, quoted only where needed, ``\\n`` line ends on every platform: report files are compared
byte for byte (the fixtures of the bundled sessions, a session re-run elsewhere), so the dialect is fixed
here once rather than by each writer.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable, Mapping, Sequence
from typing import Any


def csv_text(header: Sequence[Any], lines: Iterable[Sequence[Any]]) -> str:
    """A CSV file's text: ``header``, then one line per item of ``lines`` (values written as ``str``)."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(header)
    writer.writerows(lines)
    return out.getvalue()


def records_csv(records: Iterable[Mapping[str, Any]], columns: Sequence[str]) -> str:
    """A CSV file's text with ``columns`` as its header and one line per record, its values in
    ``columns`` order (a record lacking a column leaves it empty; a key outside them is an error)."""
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=list(columns), lineterminator="\n")
    writer.writeheader()
    writer.writerows(records)
    return out.getvalue()


__all__ = ["csv_text", "records_csv"]
