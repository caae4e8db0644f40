"""A small study against the real local model at ``--concurrency 8``: dry run, ledger, manifest, events.

``atlbench generate --track ocl`` for the library model's constraints (one request each) through the
command line, as a user would run it, against llama.cpp's server (SmolLM2-135M-Instruct), with the
provider declared free (``reason = "local"``), its context window, and the GGUF file's own tokenizer:

* ``--dry-run`` counts the prompts with that tokenizer (exact), and its total is what the server then
  reports as prompt tokens, request by request;
* eight requests in parallel: every one is answered and filed once (the server's access log counts
  them), each run file's ledger holds the server's token counts, the wall seconds and a 0 cost with its
  reason, and the call's event log holds its manifest and a request and a response per constraint.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest
from real_llm_tools import TRACEBACK, atlbench

from benchmark.llm.ledger import ledger_entries

pytestmark = pytest.mark.real_llm

REPO = Path(__file__).resolve().parents[2]
PROVIDER = "SmolLM2"


def test_a_parallel_study_is_counted_costed_and_logged(real_llm_server: Any, tmp_path: Path) -> None:
    validation = tmp_path / "validation"
    shutil.copytree(REPO / "validation" / "ocl", validation / "ocl", ignore=shutil.ignore_patterns("runs"))
    config = real_llm_server.write_config(
        tmp_path / "atlbench.toml",
        PROVIDER,
        max_tokens=24,  # short answers: the point is the accounting, not the constraints
        concurrency=8,
        context_window=real_llm_server.n_ctx,
        tokenizer=f"gguf:{real_llm_server.model_path}",
    )
    config.write_text(
        config.read_text() + "\n[providers.SmolLM2.price]\ninput_per_million = 0\noutput_per_million = 0\n"
        'reason = "local"\n',
        encoding="utf-8",
    )
    arguments = [
        "generate", "--track", "ocl", "--provider", PROVIDER, "-k", "library", "--validation-root",
        str(validation), "--config", str(config), "--cache-dir", str(tmp_path / "cache"), "--no-progress",
    ]  # fmt: skip
    dry = atlbench(*arguments, "--dry-run", cwd=tmp_path)
    assert dry.returncode == 0 and TRACEBACK not in dry.stdout + dry.stderr, dry.stderr
    [summary] = [line for line in dry.stdout.splitlines() if line.startswith("ocl / SmolLM2")]
    requests = int(summary.split("; ")[-1].split()[0])
    assert requests >= 8, summary  # enough to fill eight parallel slots
    [tokens_line] = [line for line in dry.stdout.splitlines() if "prompt tokens:" in line]
    assert "(GGUF tokenizer and chat template of" in tokens_line and "estimated" not in tokens_line
    counted = int(tokens_line.split("prompt tokens: ")[1].split(" ")[0].replace(",", ""))
    assert "cost: 0 USD (local)" in dry.stdout

    before = real_llm_server.chat_requests()
    run = atlbench(*arguments, "--concurrency", "8", "--json", str(tmp_path / "report.json"), cwd=tmp_path)
    assert TRACEBACK not in run.stdout + run.stderr, run.stderr
    assert real_llm_server.chat_requests() - before == requests  # each request once, none lost
    report = json.loads((tmp_path / "report.json").read_text(encoding="utf-8"))
    assert report["stats"]["answered"] == requests and report["stats"]["failures"] == 0
    assert report["stats"]["rate_limited"] == 0 and report["stats"]["cost_usd"] == 0
    assert "cost 0.000000 USD" in run.stdout

    [run_file] = (validation / "ocl" / "runs").rglob("*.json")
    entries = list(ledger_entries(json.loads(run_file.read_text(encoding="utf-8"))))
    assert len(entries) == requests
    assert sum(entry["inputTokens"] for entry in entries) == counted  # our count is the server's
    assert all(entry["costUsd"] == 0 and entry["costNote"] == "local" for entry in entries)
    assert all(entry["seconds"] > 0 and entry["attempts"] == 1 for entry in entries)
    assert all(0 < entry["outputTokens"] <= 24 for entry in entries)

    [call_log] = (validation / "ocl" / "runs" / ".log" / "calls").glob("*.jsonl")
    lines = [json.loads(line) for line in call_log.read_text(encoding="utf-8").splitlines()]
    assert lines[0]["event"] == "manifest" and lines[0]["options"]["concurrency"] == 8
    assert lines[0]["provider"]["contextWindow"] == real_llm_server.n_ctx
    kinds = [line["event"] for line in lines]
    assert kinds.count("request") == kinds.count("response") == requests and kinds[-1] == "end"
    assert {entry["call"] for entry in entries} == {call_log.stem}
