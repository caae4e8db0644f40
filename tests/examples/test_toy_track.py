"""The toy track of ``examples/toy_track``, registered through the ``atlbench.tracks`` entry-point group
from a package of its own (its ``pyproject.toml``'s entry point, installed here as a ``*.dist-info`` on
``PYTHONPATH``), runs as its README says, and through pytest (``-n 2`` and ``-n 0``), ``atlbench validate``,
``results.json``, ``atlbench report`` and ``index.html`` with no edit in ``core/``, ``harness/`` or
``reports/`` (issue 13's proof of genericity), alone and in one session with the mapping track."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
EXAMPLE = REPO / "examples" / "toy_track"
MAPPING_TREE = REPO / "tests" / "harness" / "data" / "tree"


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    """A site folder holding the toy track as a package with its entry point, on PYTHONPATH."""
    site = tmp_path_factory.mktemp("site")
    shutil.copy(EXAMPLE / "toy_track.py", site / "toy_track.py")
    info = site / "atlbench_toy_track-0.1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: atlbench-toy-track\nVersion: 0.1.0\n")
    project = tomllib.loads((EXAMPLE / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    entry_points = project["entry-points"]["atlbench.tracks"]
    lines = ["[atlbench.tracks]", *(f"{name} = {target}" for name, target in entry_points.items())]
    (info / "entry_points.txt").write_text("\n".join(lines) + "\n")
    path = os.pathsep.join([str(site), str(REPO), os.environ.get("PYTHONPATH", "")])
    return {**os.environ, "PYTHONPATH": path}


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    """A validation root with the toy track's data in toy/ and two mapping transformations beside it."""
    root = tmp_path / "validation"
    shutil.copytree(EXAMPLE / "validation" / "toy", root / "toy")
    (root / "toy" / "t2" / "runs" / "Gamma-1.json").write_text("{not json")
    for name in ("Library2Catalog", "Shapes2Figures"):
        shutil.copytree(MAPPING_TREE / name, root / name)
    cases = tmp_path / "cases"
    cases.mkdir()
    shutil.copy(EXAMPLE / "cases" / "test_toy.py", cases / "test_toy.py")
    shutil.copy(REPO / "cases" / "test_rq1.py", cases / "test_rq1.py")
    (tmp_path / "pytest.ini").write_text(
        "[pytest]\naddopts = -p benchmark.harness.plugin -p no:cacheprovider\n"
    )
    return root


def _run(env: dict[str, str], cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(args, cwd=cwd, env=env, capture_output=True, text=True, timeout=300)


def _rows(results: Path, track: str) -> list[dict]:
    section = json.loads(results.read_text())["tracks"][track]
    return [{k: v for k, v in row.items() if k != "file"} for row in section["rows"]]


def test_the_example_runs_as_its_readme_says(installed, tmp_path):
    """``cd examples/toy_track && pytest``: its own pytest.ini, test module and data; every case passes."""
    work = tmp_path / "toy_track"
    shutil.copytree(EXAMPLE, work, ignore=shutil.ignore_patterns("reports", "__pycache__", ".pytest_cache"))
    done = _run(installed, work, sys.executable, "-m", "pytest", "-n", "0", "-p", "no:cacheprovider")
    assert done.returncode == 0, done.stdout
    assert "6 passed" in done.stdout and "Alpha: accuracy 1.000" in done.stdout, done.stdout
    assert (work / "reports" / "toy_scores.csv").read_text() == "provider,accuracy\nAlpha,1.000\nBeta,0.500\n"
    validated = _run(
        installed, work, sys.executable, "-m", "benchmark", "validate", "validation", "--track", "toy"
    )
    assert validated.returncode == 0, validated.stderr
    assert "Beta: accuracy 0.500" in validated.stdout


def test_the_toy_track_runs_through_pytest_validate_and_report(installed, tree, tmp_path):
    work = tree.parent
    outcomes = {}
    for workers in ("2", "0"):
        done = _run(
            installed,
            work,
            sys.executable,
            "-m",
            "pytest",
            "cases/test_toy.py",
            "-n",
            workers,
            "--reports-dir",
            f"reports-{workers}",
            "--junitxml",
            f"junit-{workers}.xml",
        )
        outcomes[workers] = done
        assert "Traceback" not in done.stdout, done.stdout
        assert done.returncode == 1, done.stdout  # Gamma's file is broken: its case fails, the rest pass
        assert "1 failed, 6 passed" in done.stdout, done.stdout
        assert "Alpha: accuracy 1.000" in done.stdout and "Beta: accuracy 0.500" in done.stdout
    assert _rows(work / "reports-2" / "results.json", "toy") == _rows(
        work / "reports-0" / "results.json", "toy"
    )
    assert (
        work / "reports-0" / "toy_scores.csv"
    ).read_text() == "provider,accuracy\nAlpha,1.000\nBeta,0.500\n"
    assert 'name="correct" value="True"' in (work / "junit-0.xml").read_text()

    validated = _run(
        installed,
        work,
        sys.executable,
        "-m",
        "benchmark",
        "validate",
        str(tree),
        "--track",
        "toy",
        "-o",
        "validated.json",
    )
    assert validated.returncode == 1, validated.stderr  # the same failure as pytest's
    assert "Gamma" in validated.stderr and "not a toy answer" in validated.stderr
    assert "Beta: accuracy 0.500" in validated.stdout
    assert _rows(work / "validated.json", "toy") == _rows(work / "reports-0" / "results.json", "toy")

    reported = _run(
        installed, work, sys.executable, "-m", "benchmark", "report", "validated.json", "-o", "again"
    )
    assert reported.returncode == 0, reported.stderr
    assert sorted(p.name for p in (work / "again").iterdir()) == ["index.html", "toy_scores.csv"]
    assert "Toy scores" in (work / "again" / "index.html").read_text()


def test_a_session_of_two_tracks_writes_one_page_with_a_section_each(installed, tree, tmp_path):
    work = tree.parent
    done = _run(
        installed,
        work,
        sys.executable,
        "-m",
        "pytest",
        "cases",
        "-n",
        "0",
        "--baseline",
        "none",
        "--reports-dir",
        "both",
        "--min-score",
        "toy:Alpha=0.9",
        "--min-f1",
        "Synthetic-Oracle=0.5",
    )
    assert done.returncode == 1, done.stdout  # Gamma's broken file fails its case; nothing else fails
    assert "1 failed" in done.stdout.splitlines()[-1] and "Traceback" not in done.stdout
    assert "atlbench Toy: answer the number" in done.stdout and "atlbench RQ1" in done.stdout
    saved = json.loads((work / "both" / "results.json").read_text())
    assert saved["version"] == 2 and sorted(saved["tracks"]) == ["atl", "toy"]
    page = (work / "both" / "index.html").read_text()
    assert 'id="toy-scores"' in page and 'id="atl-results"' in page
    assert {"rq1_per_run.csv", "toy_scores.csv", "tables.tex"} <= {p.name for p in (work / "both").iterdir()}
    assert "--min-score toy:Alpha=0.9" not in done.stdout  # both gates pass
