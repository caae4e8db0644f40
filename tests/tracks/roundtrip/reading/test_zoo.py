"""Optional: on real metamodels of the ATL Zoo (when present locally), the loadability check agrees with
the metamodel layer's loader. Skipped when the zoo is absent (CI)."""

from __future__ import annotations

from pathlib import Path

import pytest

from benchmark.core.errors import BenchmarkError
from benchmark.lang.ecore import load_resource
from benchmark.tracks.roundtrip.reading.models import ECORE, read_model

ZOO = Path("/work/ext/aymaneo+LLM-Agents-for-Model-Based-Engineering/atl-zoo")
SAMPLE = sorted(ZOO.rglob("*.ecore"))[::15] if ZOO.is_dir() else []


@pytest.mark.skipif(not SAMPLE, reason="ATL Zoo not present")
@pytest.mark.parametrize("path", SAMPLE, ids=[str(p.relative_to(ZOO)) for p in SAMPLE])
def test_loadable_agrees_with_the_metamodel_loader(path: Path) -> None:
    try:
        load_resource(path)
        loads = True
    except BenchmarkError:
        loads = False
    read = read_model(path, ECORE)
    if loads and not read.loadable:
        assert "points into another resource" in (read.load_error or ""), read.load_error
    else:
        assert read.loadable == loads, read.load_error
