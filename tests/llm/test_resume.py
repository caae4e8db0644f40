"""Resume: ``atlbench generate`` killed mid-study (``kill -9``, Ctrl-C) loses no answer it received and
never sends a request twice. A real process against the local fake server, which counts what it saw."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

import pytest

from benchmark.bench.support.fake_llm_server import FakeLLMServer
from benchmark.llm.generate import generate
from tests.llm.conftest import FAKE_OPENAI_KEY
from tests.llm.test_generate import Options

RUNS = 6  # 2 transformations x 6 runs = 12 requests


def request_identity(body: dict[str, object]) -> tuple[str, object]:
    """What tells two requests apart: the prompt and the seed (seed + run - 1)."""
    messages = body.get("messages") or []
    prompt = "\n".join(str(m.get("content")) for m in messages if isinstance(m, dict))  # type: ignore[union-attr]
    return prompt, body.get("seed")


def sent(server: FakeLLMServer) -> list[dict[str, object]]:
    """The bodies of the answer requests the server received whole (kill -9 can cut a request off while
    it is being sent: the server then records no body, and no model would have seen it)."""
    return [r.body for r in server.answer_requests() if isinstance(r.body, dict)]


def cached_identities(cache: Path, server: FakeLLMServer) -> set[tuple[str, object]]:
    """The requests whose answers are in the cache (matched through their key fields)."""
    entries = [json.loads(p.read_text()) for p in (cache / "responses").rglob("*.json")]
    keys = {(e["keyFields"]["promptSha256"], e["keyFields"]["parameters"]["requestSeed"]) for e in entries}
    from benchmark.llm.requests import GenerationParameters, LlmRequest

    found = set()
    for body in sent(server):
        prompt, seed = request_identity(body)
        sha = LlmRequest(prompt, GenerationParameters(max_tokens=1), 1).prompt_sha256
        if (sha, seed) in keys:
            found.add((prompt, seed))
    return found


def start_generate(options: Options, tmp_path: Path) -> subprocess.Popen[str]:
    made = options()
    command = [
        sys.executable, "-m", "benchmark", "generate", "--provider", "OpenAI", "--runs", str(RUNS),
        "--validation-root", str(made.validation_root), "--config", str(made.config_file),
        "--cache-dir", str(made.cache_dir), "--concurrency", "2", "--no-progress", "--timeout", "30",
    ]  # fmt: skip
    environment = {**os.environ, "FAKE_OPENAI_KEY": FAKE_OPENAI_KEY, "PYTHONDONTWRITEBYTECODE": "1"}
    environment.pop("ATLBENCH_CACHE_DIR", None)
    return subprocess.Popen(
        command, cwd=tmp_path, env=environment, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )


def wait_for_answers(cache: Path, count: int, process: subprocess.Popen[str], timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if len(list((cache / "responses").rglob("*.json"))) >= count:
            return
        if process.poll() is not None:
            raise AssertionError(f"generate ended before being interrupted: {process.communicate()}")
        time.sleep(0.02)
    raise AssertionError("no answers arrived")


def every_run_file_is_whole(root: Path) -> int:
    files = list(root.rglob("runs/*.json"))
    for path in files:
        json.loads(path.read_text(encoding="utf-8"))  # a half-written file would not parse
    assert not list(root.rglob("runs/.*.tmp")), "a temporary file was left behind"
    return len(files)


@pytest.mark.parametrize("sig", [signal.SIGKILL, signal.SIGINT], ids=["kill-9", "ctrl-c"])
def test_an_interrupted_study_resumes_without_losing_or_repeating_a_request(
    sig: signal.Signals,
    make_options: Options,
    llm_server: FakeLLMServer,
    validation_tree: Path,
    tmp_path: Path,
) -> None:
    # 4 answers go through; the next requests wait at the server until the signal is sent, so the study
    # is interrupted with requests in flight however loaded the machine is
    llm_server.hold_after(4)
    cache = tmp_path / "cache"
    process = start_generate(make_options, tmp_path)
    try:
        wait_for_answers(cache, 4, process)
        process.send_signal(sig)
        time.sleep(0.2)  # the signal is handled before the held answers arrive (Ctrl-C: they then finish)
        llm_server.release()
        _, stderr = process.communicate(timeout=60)
    finally:
        llm_server.release()
        if process.poll() is None:
            process.kill()
            process.wait()
    first = Counter(request_identity(body) for body in sent(llm_server))
    kept = cached_identities(cache, llm_server)
    assert 4 <= len(kept) < 2 * RUNS and max(first.values()) == 1
    every_run_file_is_whole(validation_tree)
    if sig == signal.SIGINT:
        # Ctrl-C: the requests in flight were finished and kept, so every request sent has its answer.
        assert process.returncode == 130, stderr
        assert "interrupted; every answer received is in the cache" in stderr
        assert set(first) == kept
    else:
        assert process.returncode == -signal.SIGKILL

    report = generate(make_options(runs=RUNS, concurrency=2))  # the next call
    assert report.ok, report.to_json()
    total = Counter(request_identity(body) for body in sent(llm_server))
    assert len(total) == 2 * RUNS  # every request was sent
    assert all(total[identity] == 1 for identity in kept)  # no paid answer was bought again
    assert sum(total.values()) - sum(first.values()) == 2 * RUNS - len(kept)  # only what was missing
    assert report.stats.cache_hits == len(kept) and report.stats.requests == 2 * RUNS - len(kept)
    assert every_run_file_is_whole(validation_tree) == 2 * RUNS
    # ... and the resumed study's files are what an offline replay of the cache writes, byte for byte.
    written = {p: p.read_bytes() for p in validation_tree.rglob("runs/*.json")}
    for path in written:
        path.unlink()
    assert generate(make_options(runs=RUNS, offline=True)).ok
    assert {p: p.read_bytes() for p in validation_tree.rglob("runs/*.json")} == written
