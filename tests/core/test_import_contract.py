"""The architecture holds: the core imports no track, the generic harness imports no track, the languages
import no study, no track imports another, the package imports nothing from its tests, and each track's
rooms are layered with no import circle inside a track (the contracts in pyproject.toml, run by
import-linter). A copy of the package with three forbidden imports added shows that the last three
contracts do break."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
CONTRACTS = 7


def _lint_imports(cwd: Path) -> subprocess.CompletedProcess[str]:
    linter = shutil.which("lint-imports", path=str(Path(sys.executable).parent)) or shutil.which(
        "lint-imports"
    )
    if linter is None:
        pytest.fail("lint-imports is not installed: pip install -e '.[dev]' brings import-linter")
    return subprocess.run([linter, "--no-cache"], cwd=cwd, capture_output=True, text=True, timeout=300)


def test_the_import_contracts_are_kept() -> None:
    done = _lint_imports(REPO)
    assert done.returncode == 0, done.stdout + done.stderr
    assert f"{CONTRACTS} kept, 0 broken" in done.stdout, done.stdout


def test_the_new_contracts_see_an_import_of_the_tests_a_layer_upside_down_and_a_circle(
    tmp_path: Path,
) -> None:
    copy = tmp_path / "copy"
    shutil.copytree(REPO / "benchmark", copy / "benchmark", ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(REPO / "pyproject.toml", copy / "pyproject.toml")
    probes = {  # the package imports its tests; a layer upside down; a circle
        "benchmark/bench/support/__init__.py": "import tests.support",
        "benchmark/tracks/ocl/payload.py": "from benchmark.tracks.ocl.scoring import runs",
        "benchmark/tracks/roundtrip/models/lines.py": "from benchmark.tracks.roundtrip import operators",
    }
    for name, line in probes.items():
        with (copy / name).open("a", encoding="utf-8") as module:
            module.write(f"\n{line}  # probe\n")
    done = _lint_imports(copy)
    assert done.returncode == 1
    assert f"{CONTRACTS - 3} kept, 3 broken" in done.stdout, done.stdout
    assert "benchmark.bench.support -> tests" in done.stdout
    assert "benchmark.tracks.ocl.payload -> benchmark.tracks.ocl.scoring.runs" in done.stdout
