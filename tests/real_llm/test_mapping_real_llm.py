"""The ATL mapping track against a real model behind a real server (llama.cpp, SmolLM2-135M-Instruct).

Everything goes through the command line, as a user would run it: ``atlbench generate`` for two bundled
transformations (copied to a temporary tree, so ``validation/`` is never touched) against a provider
entry for the local server, a second ``atlbench generate --offline`` that must write the same bytes
without a request (the server's own access log counts the requests), and ``pytest cases`` on the
generated runs. Nothing here depends on what the model says: its answers are usually unusable as
mappings (a JSON object instead of an array, placeholders, invalid JSON, a loop cut off at max_tokens),
and the assertions hold for any answer: each is filed, scored or recorded as unusable with its reason,
and nothing crashes.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from real_llm_tools import TRACEBACK, atlbench, clean_environment, tree_bytes

pytestmark = pytest.mark.real_llm

REPO = Path(__file__).resolve().parents[2]
VALIDATION = REPO / "validation"
TRANSFORMATIONS = ("book2publication", "Java2Table")  # the two smallest prompts: 1,824 and 2,596 tokens
RUNS = 2  # two run indices: two seeds, two cache entries per prompt
PROVIDER = "SmolLM2"
BUNDLED_PROVIDER = "SmolLM2-135M"  # the provider of the bundled real runs, left out of the copies
MAX_TOKENS = 256
SEED = 42
GENERATOR = "atlbench generate"
SHA256 = re.compile(r"[0-9a-f]{64}")


def our_run_files(validation: Path) -> list[Path]:
    return sorted(validation.glob(f"*/runs/{PROVIDER}-*.json"))


def read_jsonl(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


@dataclass
class Generation:
    """One ``atlbench generate`` session against the real server, and what it left behind."""

    root: Path
    validation: Path
    config: Path
    cache: Path
    result: subprocess.CompletedProcess[str]
    report: dict[str, Any] | None
    seconds: float
    server_requests: int  # chat requests the server's access log shows for this session
    untouched: bool  # validation/ itself is as it was

    def generate_args(self, validation: Path, cache: Path, *extra: str) -> list[str]:
        selectors = [arg for name in TRANSFORMATIONS for arg in ("-k", name)]
        return [
            "generate",
            "--provider", PROVIDER,
            "--runs", str(RUNS),
            "--validation-root", str(validation),
            *selectors,
            "--config", str(self.config),
            "--cache-dir", str(cache),
            "--no-progress",
            *extra,
        ]  # fmt: skip

    def documents(self) -> dict[Path, dict[str, Any]]:
        return {path: json.loads(path.read_text(encoding="utf-8")) for path in our_run_files(self.validation)}

    @property
    def output(self) -> str:
        return self.result.stdout + self.result.stderr


@pytest.fixture(scope="module")
def generated(real_llm_server: Any, tmp_path_factory: pytest.TempPathFactory) -> Generation:
    root = tmp_path_factory.mktemp("real-llm-mapping")
    validation = root / "validation"
    before_source = {name: tree_bytes(VALIDATION / name) for name in TRANSFORMATIONS}
    # without the bundled real runs of the same model (docs/LLM_RUNS.md): this test's runs are its own
    bundled = shutil.ignore_patterns(f"{BUNDLED_PROVIDER}-*", ".log")
    for name in TRANSFORMATIONS:
        shutil.copytree(VALIDATION / name, validation / name, ignore=bundled)
    config = real_llm_server.write_config(root / "atlbench.toml", PROVIDER, max_tokens=MAX_TOKENS, seed=SEED)
    generation = Generation(
        root=root,
        validation=validation,
        config=config,
        cache=root / "cache",
        result=subprocess.CompletedProcess([], 0),
        report=None,
        seconds=0.0,
        server_requests=0,
        untouched=True,
    )
    counted = real_llm_server.chat_requests()
    started = time.monotonic()
    arguments = generation.generate_args(validation, generation.cache, "--json", str(root / "generate.json"))
    generation.result = atlbench(*arguments, cwd=root)
    generation.seconds = round(time.monotonic() - started, 1)
    generation.server_requests = real_llm_server.chat_requests() - counted
    report = root / "generate.json"
    generation.report = json.loads(report.read_text(encoding="utf-8")) if report.exists() else None
    generation.untouched = before_source == {name: tree_bytes(VALIDATION / name) for name in TRANSFORMATIONS}
    print(
        f"\nreal_llm mapping: {generation.server_requests} requests in {generation.seconds} s;"
        f" exit {generation.result.returncode}\n{generation.output}"
    )
    return generation


def test_every_answer_is_filed_and_scored_or_unusable_with_its_reason(
    generated: Generation, real_llm_server: Any
) -> None:
    assert TRACEBACK not in generated.output, generated.output
    assert generated.result.returncode in (0, 1), generated.output
    assert generated.report is not None, generated.output
    runs = generated.report["runs"]
    assert len(runs) == len(TRANSFORMATIONS) * RUNS
    # The server answered every request: each run is an answer, usable ("ok") or not ("failed").
    assert {run["status"] for run in runs} <= {"ok", "failed"}, runs
    assert generated.result.returncode == (0 if all(run["status"] == "ok" for run in runs) else 1)
    documents = generated.documents()
    assert sorted(map(str, documents)) == sorted(run["path"] for run in runs)
    for run in runs:
        document = documents[Path(run["path"])]
        folder = Path(run["path"]).parent.parent.name
        assert document["jjodel"] == {"exportType": "suggested-mappings", "schemaVersion": 1}
        assert document["transformation"]["name"] == folder
        assert document["analysis"]["provider"] == PROVIDER
        assert document["analysis"]["model"] == real_llm_server.model
        generation = document["generation"]
        assert generation["generator"] == GENERATOR
        if run["status"] == "ok":
            assert generation["status"] == "ok" and "error" not in generation
            assert isinstance(document["mappings"], list)
            assert len(document["mappings"]) == generation["answerEntries"]
            for mapping in document["mappings"]:
                assert mapping["kind"] in {"class", "attribute"} and mapping["provider"] == PROVIDER
        else:
            # Unusable: the reason and the full answer are kept; no invented (empty) mappings.
            assert generation["status"] == "unusable" and "mappings" not in document
            assert isinstance(generation["error"], str) and generation["error"].strip()
            assert isinstance(generation["rawResponse"], str)
            assert run["message"] == f"answer unusable: {generation['error']}"
            assert f"{run['label']}: failed: answer unusable: " in generated.result.stderr
    assert generated.untouched, "validation/ was modified"


def test_usage_latency_and_parameters_are_recorded(generated: Generation) -> None:
    assert generated.report is not None, generated.output
    documents = generated.documents()
    assert len(documents) == len(TRANSFORMATIONS) * RUNS
    prompts: dict[str, set[str]] = {}
    inputs = outputs = 0
    for path, document in documents.items():
        generation = document["generation"]
        run = generation["run"]
        assert generation["parameters"] == {
            "temperature": 0.0,
            "topP": None,
            "maxTokens": MAX_TOKENS,
            "seed": SEED,
            "requestSeed": SEED + run - 1,
        }
        usage = generation["usage"]
        assert isinstance(usage["inputTokens"], int) and usage["inputTokens"] > 1000  # the whole prompt
        assert isinstance(usage["outputTokens"], int) and 0 < usage["outputTokens"] <= MAX_TOKENS
        if generation["finishReason"] == "length":  # the server honoured the cap sent as max_tokens
            assert usage["outputTokens"] == MAX_TOKENS
        else:
            assert generation["finishReason"] == "stop", generation
        assert isinstance(generation["latencySeconds"], float) and generation["latencySeconds"] > 0
        assert isinstance(generation["responseModel"], str) and generation["responseModel"]
        assert generation["transport"] == "direct" and generation["providerKind"] == "openai-compatible"
        assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ", generation["timestamp"])
        assert SHA256.fullmatch(generation["promptSha256"]) and SHA256.fullmatch(generation["cacheKey"])
        prompts.setdefault(path.parent.parent.name, set()).add(generation["promptSha256"])
        inputs += usage["inputTokens"]
        outputs += usage["outputTokens"]
    # One prompt per transformation, the same for both runs; different transformations, different prompts.
    assert all(len(hashes) == 1 for hashes in prompts.values()) and len(set.union(*prompts.values())) == 2
    stats = generated.report["stats"]
    expected = len(TRANSFORMATIONS) * RUNS
    # A retry (a timeout on a loaded machine) is an extra request, never an extra or a lost answer.
    assert stats["answered"] == expected and stats["requests"] == expected + stats["retries"]
    assert stats["cache_hits"] == stats["log_hits"] == stats["failures"] == 0
    assert (stats["input_tokens"], stats["output_tokens"]) == (inputs, outputs)
    # What the server itself saw: one access-log line per answered request (not for an abandoned one).
    assert expected <= generated.server_requests <= stats["requests"]
    last = generated.result.stdout.strip().splitlines()[-1]
    retries = f" ({stats['retries']} retries)" if stats["retries"] else ""
    sent = f"{stats['requests']} requests sent{retries}"
    assert last.startswith(f"atlbench generate: {expected} runs; {sent}; 0 cache hits;"), last
    assert f"tokens {inputs} in / {outputs} out; {expected} files written" in last


def test_raw_logs_and_cache_entries_are_well_formed(generated: Generation, real_llm_server: Any) -> None:
    documents = generated.documents()
    cache_files = sorted((generated.cache / "responses").rglob("*.json"))
    assert len(cache_files) == len(documents)
    for name in TRANSFORMATIONS:
        log = generated.validation / name / "runs" / ".log" / f"{PROVIDER}.jsonl"
        events = read_jsonl(log)  # every line is JSON
        assert events[0]["event"] == "spec"
        assert {e["event"] for e in events[1:]} <= {"response", "retry"}, events
        assert [e["event"] for e in events].count("spec") == 1
        events = [e for e in events if e["event"] != "retry"]  # a timeout on a loaded machine
        assert [e["event"] for e in events[1:]] == ["response"] * RUNS, events
        assert json.dumps(events[0]).count(real_llm_server.base_url) >= 1
        for event in events[1:]:
            document = next(d for d in documents.values() if d["generation"]["cacheKey"] == event["key"])
            generation = document["generation"]
            completion = event["completion"]
            assert event["run"] == generation["run"] and event["promptSha256"] == generation["promptSha256"]
            assert completion["inputTokens"] == generation["usage"]["inputTokens"]
            assert completion["outputTokens"] == generation["usage"]["outputTokens"]
            assert completion["latencySeconds"] == generation["latencySeconds"]
            assert completion["finishReason"] == generation["finishReason"]
            if generation["status"] == "unusable":
                assert completion["text"] == generation["rawResponse"]
            entry_path = generated.cache / "responses" / event["key"][:2] / f"{event['key']}.json"
            entry = json.loads(entry_path.read_text(encoding="utf-8"))
            assert entry["key"] == event["key"] and entry["completion"] == completion
            fields = entry["keyFields"]
            assert fields["baseUrl"] == real_llm_server.base_url and fields["model"] == real_llm_server.model
            assert fields["run"] == generation["run"] and fields["parameters"] == generation["parameters"]


@pytest.mark.parametrize("source", ["cache", "log"])
def test_offline_replay_writes_the_same_bytes_without_a_request(
    generated: Generation, real_llm_server: Any, tmp_path: Path, source: str
) -> None:
    """From the cache directory, then from the committed raw logs alone (a fresh cache directory)."""
    assert generated.report is not None, generated.output
    validation = tmp_path / "validation"
    shutil.copytree(generated.validation, validation)
    expected = tree_bytes(validation)
    for path in our_run_files(validation):
        path.unlink()
    cache = generated.cache if source == "cache" else tmp_path / "fresh-cache"
    counted = real_llm_server.chat_requests()
    result = atlbench(*generated.generate_args(validation, cache, "--offline"), cwd=tmp_path)
    assert real_llm_server.chat_requests() == counted  # the server saw nothing
    assert TRACEBACK not in result.stdout + result.stderr
    assert result.returncode == generated.result.returncode, result.stderr
    n = len(TRANSFORMATIONS) * RUNS
    hits = f"{n} cache hits" + (f" (0 cache, {n} log)" if source == "log" else "")
    assert f"; 0 requests sent; {hits}; " in result.stdout
    assert f"tokens 0 in / 0 out; {n} files written" in result.stdout
    assert tree_bytes(validation) == expected  # run files byte for byte, logs untouched


def test_pytest_track_scores_the_generated_runs_without_a_traceback(
    generated: Generation, tmp_path: Path
) -> None:
    assert generated.report is not None, generated.output
    validation = tmp_path / "validation"
    shutil.copytree(generated.validation, validation)
    reports = tmp_path / "reports"
    command = [
        sys.executable, "-m", "pytest", str(REPO / "cases"),
        "--validation-root", str(validation),
        "--reports-dir", str(reports),
        "--provider", PROVIDER,
        "--baseline", "none",
        "-p", "no:cacheprovider",
        "-q",
    ]  # fmt: skip
    result = subprocess.run(
        command, cwd=REPO, env=clean_environment(), capture_output=True, text=True, timeout=900
    )
    output = result.stdout + result.stderr
    assert TRACEBACK not in output and "INTERNALERROR" not in output, output
    assert result.returncode in (0, 1), output
    rows = json.loads((reports / "results.json").read_text(encoding="utf-8"))["tracks"]["atl"]["rows"]
    by_file = {Path(row["file"]).resolve(): row for row in rows if row.get("file")}
    for path in our_run_files(validation):
        generation = json.loads(path.read_text(encoding="utf-8"))["generation"]
        row = by_file[path.resolve()]  # every run has its row: none is dropped
        assert row["provider"] == PROVIDER
        assert row["status"] == "ok" and row["error"] is None, row  # scored, unusable or not
        if generation["status"] == "unusable":
            # every answer counts: scored as a run with no suggestions, the reason kept with the row
            assert row["payload"]["suggestions"] == 0
            assert generation["error"] in row["payload"]["extra"]["unusable"]
        else:
            assert generation["status"] == "ok" and "unusable" not in row["payload"]["extra"]
    assert "FAILED" not in result.stdout, result.stdout
    assert result.returncode == 0, output


def test_a_prompt_beyond_the_context_is_an_error_with_the_servers_reason(
    real_llm_server: Any, tmp_path: Path
) -> None:
    """xml2ant's prompt is 9,259 SmolLM2 tokens, more than the server's n_ctx of 8192: llama-cpp-python
    answers HTTP 400 (context_length_exceeded) at once. That is no answer: reported with the server's
    message, logged, not retried, not cached; a missing-run stub is filed (no mappings), which the next
    generate replaces. (A prompt that fits is never refused: the server cuts max_tokens down to what is
    left of the context.)"""
    validation = tmp_path / "validation"
    shutil.copytree(VALIDATION / "xml2ant", validation / "xml2ant")
    config = real_llm_server.write_config(
        tmp_path / "atlbench.toml", PROVIDER, max_tokens=16, timeout=120, seed=SEED
    )  # small limits, in case a server answers after all
    counted = real_llm_server.chat_requests()
    result = atlbench(
        "generate", "--provider", PROVIDER, "--validation-root", str(validation), "--config", str(config),
        "--cache-dir", str(tmp_path / "cache"), "--no-progress", "--json", str(tmp_path / "report.json"),
        cwd=tmp_path,
    )  # fmt: skip
    assert TRACEBACK not in result.stdout + result.stderr
    assert result.returncode == 1, result.stdout + result.stderr
    assert real_llm_server.chat_requests() == counted + 1  # a 400 is not retried
    [run] = json.loads((tmp_path / "report.json").read_text(encoding="utf-8"))["runs"]
    assert run["status"] == "no-answer"
    assert "HTTP 400" in run["message"] and "maximum context length is 8192" in run["message"], run
    assert f"{run['label']}: no-answer: HTTP 400" in result.stderr
    [stub] = our_run_files(validation)  # a missing run is listed, nothing invented
    document = json.loads(stub.read_text(encoding="utf-8"))
    assert document["generation"]["status"] == "no-answer" and "mappings" not in document
    assert "HTTP 400" in document["generation"]["error"]
    events = read_jsonl(validation / "xml2ant" / "runs" / ".log" / f"{PROVIDER}.jsonl")
    assert [e["event"] for e in events] == ["spec", "error"]
    assert events[1]["status"] == 400 and events[1]["attempts"] == 1
    assert not (tmp_path / "cache" / "responses").exists()  # errors are never cached
