"""What a scored run cost, carried in its row: the harness reads the run file's ledger into the envelope.

``atlbench generate`` writes a ledger into every run file it files (:mod:`benchmark.llm.ledger`: tokens,
seconds, attempts and cost per request), wherever the track keeps it in the file. Rather than each track
reading it back in its own way, the harness does it once for every run case with a file, whatever the
track: the totals go under ``ledger`` in the row's ``provenance`` (the envelope the harness owns), so that
``results.json`` holds them and ``atlbench report`` rebuilds the cost columns (:mod:`benchmark.reports.cost`)
from it alone. A row whose run has no ledger (a baseline, a synthetic or imported run) is left as it is,
byte for byte.
"""

from __future__ import annotations

from dataclasses import replace

from benchmark.core.rows import Row
from benchmark.core.track import RunCase
from benchmark.llm.ledger import LEDGER_KEY, file_ledger


def with_ledger(row: Row, case: RunCase) -> Row:
    """``row`` with its run file's ledger totals in its provenance, when the file has a ledger."""
    if case.file is None:
        return row
    ledger = file_ledger(case.file, case.ledger_scope)  # a shared file: only the case's part
    if ledger is None:
        return row
    return replace(row, provenance={**row.provenance, LEDGER_KEY: ledger.row_json()})


__all__ = ["with_ledger"]
