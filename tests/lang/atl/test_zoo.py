"""The public ATL Zoo, when present (CI does not have it): every file the official parser accepts
parses, with the official parser's counts; the three it rejects fail or are accepted leniently.

Set ATLBENCH_ZOO to a local copy of the Zoo (as `atlbench zoo build` reads it)."""

from __future__ import annotations

import os
from collections import Counter
from pathlib import Path

import pytest

from benchmark.lang.atl import parse, parse_file
from benchmark.lang.atl.batch import parse_files
from benchmark.lang.atl.printer import to_atl

ZOO = Path(os.environ.get("ATLBENCH_ZOO") or "/nonexistent-atl-zoo")

pytestmark = pytest.mark.skipif(not ZOO.is_dir(), reason="no local ATL Zoo (set ATLBENCH_ZOO to a checkout)")

REJECTED_BY_ATL = {
    "KM32DOT/KM32DOT/Transformations/KM32DOT.atl",
    "DSLBridge/MetamodelBridge/Transfo/DSL2XML.atl",
    "UML2OWL/UML2OWL.atl",
}

# Totals of the official ATL parser's models of the 205 files it accepts (measured with the ANTLR3 parser
# of eclipse-atl; see docs/ATL_PARSER.md, differential test).
OFFICIAL_TOTALS = {
    "matchedRules": 2181,
    "lazyRules": 251,
    "uniqueLazyRules": 118,
    "calledRules": 86,
    "helpers": 1021,
    "contextHelpers": 700,
    "inElements": 2486,
    "outElements": 4799,
    "bindings": 14288,
}


@pytest.fixture(scope="module")
def results():
    files = sorted(str(path) for path in ZOO.rglob("*.atl"))
    return {str(Path(r.file).relative_to(ZOO)): r for r in parse_files(files)}


def test_corpus_size(results):
    assert len(results) == 208


def test_only_the_unbalanced_file_fails_at_the_official_position(results):
    failures = {name: (r.line, r.column) for name, r in results.items() if not r.ok}
    assert failures == {"KM32DOT/KM32DOT/Transformations/KM32DOT.atl": (262, 1)}


def test_counts_equal_the_official_parser_totals(results):
    totals: Counter[str] = Counter()
    units: Counter[str] = Counter()
    for name, result in results.items():
        if name in REJECTED_BY_ATL:
            continue
        assert result.summary is not None, name
        units[result.summary["unit"]] += 1
        for key in OFFICIAL_TOTALS:
            totals[key] += result.summary[key]  # type: ignore[literal-required]
    assert dict(totals) == OFFICIAL_TOTALS
    assert sum(units.values()) == 205


def test_leniencies_are_recorded():
    super_file = parse_file(ZOO / "DSLBridge/MetamodelBridge/Transfo/DSL2XML.atl")
    assert {n.kind for n in super_file.leniencies} == {"super-as-name"}
    qualified = parse_file(ZOO / "UML2OWL/UML2OWL.atl")
    assert {n.kind for n in qualified.leniencies} == {"unquoted-qualified-name"}


def test_printer_round_trip_on_real_files(results):
    for name, result in results.items():
        if result.ok:
            unit = parse_file(ZOO / name)
            assert parse(to_atl(unit)) == unit, name
