"""The OCL track's LLM path against a real model behind a real OpenAI-compatible server.

One specification (library, maxLoansLimit) on the renamed model through ``atlbench generate --track
ocl``: the answer is filed raw in the run file whatever the model wrote; an ``--offline`` replay rewrites
the same bytes without a request; the pytest track judges the run (the constraints the model was not asked
about count as missing answers: nothing is dropped) without a traceback.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from real_llm_tools import TRACEBACK, atlbench, clean_environment, tree_bytes

pytestmark = pytest.mark.real_llm

REPO = Path(__file__).resolve().parents[2]
PROVIDER = "SmolLM2"


def test_an_answer_is_filed_replayed_and_judged(real_llm_server: Any, tmp_path: Path) -> None:
    validation = tmp_path / "validation"
    shutil.copytree(REPO / "validation" / "ocl", validation / "ocl", ignore=shutil.ignore_patterns("runs"))
    config = real_llm_server.write_config(tmp_path / "atlbench.toml", PROVIDER, max_tokens=128, seed=42)
    arguments = [
        "generate", "--track", "ocl", "--provider", PROVIDER, "--ocl-mode", "rename",
        "-k", "library/maxLoansLimit", "--validation-root", str(validation), "--config", str(config),
        "--cache-dir", str(tmp_path / "cache"), "--no-progress", "--json", str(tmp_path / "report.json"),
    ]  # fmt: skip
    before = real_llm_server.chat_requests()
    first = atlbench(*arguments, cwd=tmp_path)
    assert TRACEBACK not in first.stdout + first.stderr, first.stderr
    assert real_llm_server.chat_requests() - before == 1
    (run,) = json.loads((tmp_path / "report.json").read_text(encoding="utf-8"))["runs"]
    assert run["status"] in ("ok", "failed") and run["path"], run  # the model answered: filed
    runs = validation / "ocl" / "runs"
    assert sorted(p.name for p in runs.rglob("*.json")) == ["rename.json"]

    snapshot = tree_bytes(runs)
    replay = atlbench(*arguments, "--offline", cwd=tmp_path)
    assert TRACEBACK not in replay.stdout + replay.stderr
    assert real_llm_server.chat_requests() - before == 1  # the replay asked nothing
    assert tree_bytes(runs) == snapshot

    reports = tmp_path / "reports"
    command = [
        sys.executable, "-m", "pytest", str(REPO / "cases" / "test_ocl.py"), "-k", "library and rename",
        "--validation-root", str(validation), "--reports-dir", str(reports), "--provider", PROVIDER,
        "-p", "no:cacheprovider", "-q",
    ]  # fmt: skip
    judged = subprocess.run(
        command, cwd=REPO, env=clean_environment(), capture_output=True, text=True, timeout=900
    )
    output = judged.stdout + judged.stderr
    assert TRACEBACK not in output and "INTERNALERROR" not in output, output
    rows = json.loads((reports / "results.json").read_text(encoding="utf-8"))["tracks"]["ocl"]["rows"]
    assert [row["provider"] for row in rows] == [PROVIDER], rows  # the real run is a row of the table
