"""The benchmark spread over two machines through SSH gateways gives what one process gives.

A real OpenSSH server on 127.0.0.1 (``sshd_server``) stands for two remote machines: each ``--tx`` spec
logs in over SSH and starts its worker in a copy of the project tree of its own (``tree1``, ``tree2``),
as docs/PERFORMANCE.md says a multi-machine study is run; the controller runs in a third copy (``tree0``). The
same selection then runs with ``-n 0`` in ``tree0``. The printed tables, ``results.json`` and every report
file must be equal, except for what must differ, normalised here and nowhere else:

* the time stamp of the session (``created`` in ``results.json``, and where ``summary.md`` and
  ``index.html`` print it);
* the path of the tree a worker read a run file from (each row's ``file``, which ``rq1_per_run.csv`` and
  ``index.html`` show): ``tree1`` or ``tree2`` for the remote workers, ``tree0`` for ``-n 0``.

The mapping track's cases (``cases/test_rq1.py``: 141 cases, 8 transformations, live baselines) keep the
test under a minute on two cores; rows cross the SSH channel as JSON text whatever their track
(:mod:`benchmark.core.collector`). Skipped in one line where no sshd can run; ``.ci/run`` installs
Debian's ``openssh-server`` and sets ``ATLBENCH_REQUIRE_SSHD=1``, which turns the skip into a failure.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from sshd_server import SshServer, Unavailable, running_sshd

REPO = Path(__file__).resolve().parents[2]
TREE = ("benchmark", "cases", "validation", "conftest.py", "pytest.ini", "pyproject.toml")
# a remote session takes no path argument (docs/PERFORMANCE.md, "Several machines")
SELECTION = ("-o", "testpaths=cases/test_rq1.py")
SESSION_SECONDS = 300


@pytest.fixture(scope="module")
def sshd(tmp_path_factory: pytest.TempPathFactory) -> Iterator[SshServer]:
    try:
        with running_sshd(tmp_path_factory.mktemp("sshd")) as server:
            yield server
    except Unavailable as why:
        if os.environ.get("ATLBENCH_REQUIRE_SSHD") == "1":
            pytest.fail(f"ATLBENCH_REQUIRE_SSHD=1 but {why}")
        pytest.skip(str(why))


def copy_tree(destination: Path) -> Path:
    """The project as a machine of the study holds it: code, cases, data and pytest settings."""
    destination.mkdir()
    ignore = shutil.ignore_patterns("__pycache__", ".pytest_cache")
    for name in TREE:
        source = REPO / name
        if source.is_dir():
            shutil.copytree(source, destination / name, ignore=ignore)
        else:
            shutil.copy(source, destination / name)
    return destination


def session(tree: Path, reports: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """``python -m pytest`` in ``tree`` with a cold cache (no report reused from another session)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTEST_", "ATLBENCH_PHASE"))}
    command = [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "--reports-dir", str(reports)]
    return subprocess.run(
        [*command, *SELECTION, *args],
        cwd=tree,
        env=env,
        capture_output=True,
        text=True,
        timeout=SESSION_SECONDS,
    )


def tables(output: str) -> list[str]:
    """The benchmark's tables as printed: from its first heading to the line naming the reports folder."""
    lines = output.splitlines()
    start = next(i for i, line in enumerate(lines) if re.match(r"=+ atlbench ", line))
    end = next(i for i, line in enumerate(lines) if line.startswith("reports written to"))
    return lines[start:end]


def test_two_ssh_gateways_give_the_single_process_session(sshd: SshServer, tmp_path: Path) -> None:
    here, far = copy_tree(tmp_path / "tree0"), [copy_tree(tmp_path / f"tree{i}") for i in (1, 2)]
    local = session(here, tmp_path / "local", "-n", "0")
    assert local.returncode == 0, local.stdout[-3000:] + local.stderr[-3000:]
    specs = [arg for tree in far for arg in ("--tx", sshd.tx(sys.executable, tree))]
    remote = session(here, tmp_path / "remote", "-d", *specs)
    assert remote.returncode == 0, remote.stdout[-3000:] + remote.stderr[-3000:]
    assert "141 passed" in local.stdout and "141 passed" in remote.stdout

    local_results = json.loads((tmp_path / "local" / "results.json").read_text())
    remote_results = json.loads((tmp_path / "remote" / "results.json").read_text())
    files = [r["file"] for s in remote_results["tracks"].values() for r in s["rows"] if r["file"][0] != "<"]
    read_from = {tree for tree in far for file in files if file.startswith(f"{tree}/")}
    assert len(files) == 101 and read_from == set(far)  # every run file read remotely, on both machines

    def normalised(text: str) -> str:
        for tree in far:
            text = text.replace(str(tree), str(here))
        return text.replace(remote_results["header"]["created"], local_results["header"]["created"])

    assert [normalised(line) for line in tables(remote.stdout)] == tables(local.stdout)
    assert json.loads(normalised(json.dumps(remote_results))) == local_results
    names = sorted(p.name for p in (tmp_path / "local").iterdir())
    assert names == sorted(p.name for p in (tmp_path / "remote").iterdir())
    for name in names:
        produced = (tmp_path / "remote" / name).read_bytes()
        expected = (tmp_path / "local" / name).read_bytes()
        if name.endswith(".png"):
            assert produced == expected, name
        else:
            assert normalised(produced.decode()) == expected.decode(), name
