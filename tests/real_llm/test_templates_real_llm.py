"""Every shipped prompt template of the mapping track against a real model (SmolLM2-135M behind
llama.cpp's server), through the command line as a user would run it (``docs/TEMPLATES.md``).

``atlbench generate --template all`` on the smallest bundled transformation sends one request per template
(three different prompts asking for the same answer) and files each answer under its template; an
``--offline`` replay rewrites the same bytes without a request; ``pytest cases/test_rq1.py`` scores the
three runs (whatever the model said: an unusable answer is a run with no suggestions) into rows that carry
their templates, and the session writes the prompt-sensitivity report with one line per template.
"""

from __future__ import annotations

import csv
import io
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
TRANSFORMATION = "book2publication"  # the smallest prompt: 1,824 SmolLM2 tokens with the study's template
PROVIDER = "SmolLM2"
TEMPLATES = {"study": "prompt_template.md", "terse": "prompt_terse.md", "stepwise": "prompt_stepwise.md"}


def test_one_request_per_template_filed_replayed_and_scored(real_llm_server: Any, tmp_path: Path) -> None:
    validation = tmp_path / "validation"
    shutil.copytree(
        REPO / "validation" / TRANSFORMATION,
        validation / TRANSFORMATION,
        ignore=shutil.ignore_patterns("runs"),
    )
    config = real_llm_server.write_config(tmp_path / "atlbench.toml", PROVIDER, max_tokens=128, seed=42)
    arguments = [
        "generate", "--provider", PROVIDER, "--template", "all", "--validation-root", str(validation),
        "--config", str(config), "--cache-dir", str(tmp_path / "cache"), "--no-progress",
        "--json", str(tmp_path / "report.json"),
    ]  # fmt: skip
    before = real_llm_server.chat_requests()
    first = atlbench(*arguments, cwd=tmp_path)
    output = first.stdout + first.stderr
    assert TRACEBACK not in output, output
    assert first.returncode in (0, 1), output  # 1: some answer was unusable (filed all the same)
    assert real_llm_server.chat_requests() - before == len(TEMPLATES)

    runs = validation / TRANSFORMATION / "runs"
    model = real_llm_server.model
    expected = {
        "study": f"{PROVIDER}-{model}-run01.json",
        "terse": f"{PROVIDER}-{model}-terse-run01.json",
        "stepwise": f"{PROVIDER}-{model}-stepwise-run01.json",
    }
    assert sorted(p.name for p in runs.glob("*.json")) == sorted(expected.values())
    prompts = set()
    for template, name in expected.items():
        document = json.loads((runs / name).read_text(encoding="utf-8"))
        generation = document["generation"]
        assert generation["promptTemplate"]["name"] == TEMPLATES[template]
        assert generation["promptTemplate"]["builtin"] is True
        assert generation["status"] in ("ok", "unusable"), generation  # the model answered
        assert document["analysis"].get("template", "study") == template
        prompts.add(generation["promptSha256"])
    assert len(prompts) == len(TEMPLATES)  # three wordings, three prompts
    report = json.loads((tmp_path / "report.json").read_text(encoding="utf-8"))
    assert sorted(run["label"] for run in report["runs"]) == [
        f"{TRANSFORMATION} run01",
        f"{TRANSFORMATION} stepwise run01",
        f"{TRANSFORMATION} terse run01",
    ]

    snapshot = tree_bytes(runs)
    for path in runs.glob("*.json"):
        path.unlink()
    replay = atlbench(*arguments, "--offline", cwd=tmp_path)
    assert TRACEBACK not in replay.stdout + replay.stderr
    assert real_llm_server.chat_requests() - before == len(TEMPLATES)  # the replay asked nothing
    assert tree_bytes(runs) == snapshot

    reports = tmp_path / "reports"
    command = [
        sys.executable, "-m", "pytest", str(REPO / "cases" / "test_rq1.py"),
        "--validation-root", str(validation), "--reports-dir", str(reports), "--provider", PROVIDER,
        "--atl-baselines", "none", "-p", "no:cacheprovider", "-q",
    ]  # fmt: skip
    scored = subprocess.run(
        command, cwd=REPO, env=clean_environment(), capture_output=True, text=True, timeout=900
    )
    output = scored.stdout + scored.stderr
    assert TRACEBACK not in output and "INTERNALERROR" not in output, output
    assert scored.returncode == 0, output
    assert "Prompt sensitivity, atl" in output  # the terminal table
    rows = json.loads((reports / "results.json").read_text(encoding="utf-8"))["tracks"]["atl"]["rows"]
    assert sorted(row.get("template", "study") for row in rows) == sorted(TEMPLATES)
    assert all(row["provider"] == PROVIDER and row["status"] == "ok" for row in rows), rows
    text = (reports / "prompt_sensitivity.csv").read_text("utf-8")
    statuses = {run["label"]: run["status"] for run in report["runs"]}
    print(f"\nreal_llm templates: answers {statuses}\n{text}")
    lines = list(csv.DictReader(io.StringIO(text)))
    assert sorted(line["template"] for line in lines) == sorted(TEMPLATES)
    for line in lines:
        assert line["track"] == "atl" and line["provider"] == PROVIDER and line["runs"] == "1"
        assert 0.0 <= float(line["headline"]) <= 1.0
        assert line["headline_low"] == line["headline_high"] == line["headline"]  # one run each
