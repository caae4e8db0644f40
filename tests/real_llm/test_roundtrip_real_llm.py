"""The round-trip track's LLM path against a real model behind a real OpenAI-compatible server.

One case (blog, add_attribute, k = 1) through ``atlbench generate --track roundtrip``: the inverse answer
is real, and the forward prompt is built from what the model itself wrote (or the forward stage is filed
as not run, with the reason, when the inverse answer holds no S'). Whatever the model says: both stages
are filed, nothing is dropped, no traceback; an ``--offline`` replay rewrites the same bytes without a
request; the pytest track scores both stages of the generated run.
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
CASE = "blog/add_attribute"
PROVIDER = "SmolLM2"


def test_both_stages_are_filed_replayed_and_scored(real_llm_server: Any, tmp_path: Path) -> None:
    validation = tmp_path / "validation"
    shutil.copytree(
        REPO / "validation" / "roundtrip", validation / "roundtrip", ignore=shutil.ignore_patterns("runs")
    )
    config = real_llm_server.write_config(tmp_path / "atlbench.toml", PROVIDER, max_tokens=256, seed=42)
    arguments = [
        "generate", "--track", "roundtrip", "--provider", PROVIDER, "--examples", "1", "-k", CASE,
        "--validation-root", str(validation), "--config", str(config), "--cache-dir", str(tmp_path / "cache"),
        "--no-progress", "--json", str(tmp_path / "report.json"),
    ]  # fmt: skip
    before = real_llm_server.chat_requests()
    first = atlbench(*arguments, cwd=tmp_path)
    assert TRACEBACK not in first.stdout + first.stderr, first.stderr
    sent = real_llm_server.chat_requests() - before
    runs = json.loads((tmp_path / "report.json").read_text(encoding="utf-8"))["runs"]
    stages = {run["label"].rsplit(" ", 1)[-1]: run for run in runs}
    inverse = stages["inverse"]
    assert inverse["status"] in ("ok", "failed"), inverse  # the model answered: usable or not
    files = sorted((validation / "roundtrip" / "runs").rglob(f"{PROVIDER}-*.json"))
    assert {p.name.rsplit("-", 1)[-1] for p in files} == {"inverse.json", "forward.json"}, files
    forward = json.loads(next(p for p in files if p.name.endswith("forward.json")).read_text("utf-8"))
    if inverse["status"] == "ok":
        assert sent == 2 and stages["forward"]["status"] in ("ok", "failed"), runs  # built from S'
    else:  # no S' to prompt with: the forward stage is filed as not run, with the reason, and counts
        assert sent == 1 and "forward stage not run" in inverse["message"], inverse
        assert "not-run" in json.dumps(forward), forward

    snapshot = tree_bytes(validation / "roundtrip" / "runs")
    replay = atlbench(*arguments, "--offline", cwd=tmp_path)
    assert TRACEBACK not in replay.stdout + replay.stderr
    assert real_llm_server.chat_requests() - before == sent  # the replay asked nothing
    assert tree_bytes(validation / "roundtrip" / "runs") == snapshot  # the same files, byte for byte

    reports = tmp_path / "reports"
    command = [
        sys.executable, "-m", "pytest", str(REPO / "cases" / "test_roundtrip.py"),
        "--validation-root", str(validation), "--reports-dir", str(reports), "--provider", PROVIDER,
        "-p", "no:cacheprovider", "-q",
    ]  # fmt: skip
    scored = subprocess.run(
        command, cwd=REPO, env=clean_environment(), capture_output=True, text=True, timeout=900
    )
    output = scored.stdout + scored.stderr
    assert TRACEBACK not in output and "INTERNALERROR" not in output, output
    rows = json.loads((reports / "results.json").read_text(encoding="utf-8"))["tracks"]["roundtrip"]["rows"]
    ours = [row for row in rows if row["provider"] == PROVIDER]
    assert len(ours) == 2, ours  # both stages of the real run are rows: scored, or failures that count
