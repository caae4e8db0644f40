"""Schema-constrained decoding through the real server (llama-cpp-python 0.3.36, SmolLM2-135M-Instruct).

``atlbench generate --answer-format schema,grounded`` on the smallest bundled transformation with the
``llama-cpp-python`` dialect: the server takes ``response_format = {"type": "json_object", "schema": S}``,
every answer is filed with the record of the schema it was asked with (valid or not: the server's grammar
is not trusted), a grounded answer that is an instance of its schema names no class or feature the
metamodels lack, and an ``--offline`` replay rewrites the same bytes without a request. The OpenAI form
(``llama-server`` dialect: ``{"type": "json_schema", ...}``) is refused by this server (0.3.36: HTTP 500, a
validation error on ``response_format.type``) and filed as a missing run: the reason the dialect is a
setting.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest
from real_llm_tools import TRACEBACK, atlbench, tree_bytes

from benchmark.tracks.mapping.llm_task import load_cases
from benchmark.tracks.mapping.scoring.compare import find_hallucinations
from benchmark.tracks.mapping.scoring.suggestions import load_suggestions

pytestmark = pytest.mark.real_llm

REPO = Path(__file__).resolve().parents[2]
TRANSFORMATION = "book2publication"  # the smallest prompt: 1,824 tokens
PROVIDER = "SmolLM2"


def copy_tree(root: Path) -> Path:
    validation = root / "validation"
    shutil.copytree(
        REPO / "validation" / TRANSFORMATION,
        validation / TRANSFORMATION,
        ignore=shutil.ignore_patterns("SmolLM2-135M-*", ".log"),
    )
    return validation


def test_schema_and_grounded_answers_through_llama_cpp_python(real_llm_server: Any, tmp_path: Path) -> None:
    validation = copy_tree(tmp_path)
    config = real_llm_server.write_config(
        tmp_path / "atlbench.toml", PROVIDER, max_tokens=512, structured_output="llama-cpp-python"
    )
    arguments = [
        "generate", "--provider", PROVIDER, "-k", TRANSFORMATION, "--answer-format", "schema,grounded",
        "--validation-root", str(validation), "--config", str(config), "--cache-dir", str(tmp_path / "cache"),
        "--no-progress", "--json", str(tmp_path / "report.json"),
    ]  # fmt: skip
    before = real_llm_server.chat_requests()
    first = atlbench(*arguments, cwd=tmp_path)
    assert TRACEBACK not in first.stdout + first.stderr, first.stderr
    assert real_llm_server.chat_requests() - before == 2
    runs = validation / TRANSFORMATION / "runs"
    files = sorted(path.name for path in runs.glob(f"{PROVIDER}-*.json"))
    assert files == [
        "SmolLM2-SmolLM2-135M-Instruct-grounded-run01.json",
        "SmolLM2-SmolLM2-135M-Instruct-schema-run01.json",
    ]
    (case,) = load_cases(validation, [TRANSFORMATION])
    assert case.views is not None
    for name in files:
        document = json.loads((runs / name).read_text(encoding="utf-8"))
        record = document["generation"]["answerSchema"]
        assert record["dialect"] == "llama-cpp-python" and isinstance(record["valid"], bool), record
        assert document["generation"]["ledger"]["schemaValid"] is record["valid"]
        assert record["valid"] or record["violation"]  # a violation says what it is
        if record["format"] == "grounded" and record["valid"]:
            suggestions = load_suggestions(runs / name)
            assert find_hallucinations(suggestions.mappings, *case.views) == ((), ())

    snapshot = tree_bytes(runs)
    for name in files:
        (runs / name).unlink()
    replay = atlbench(*arguments, "--offline", cwd=tmp_path)
    assert TRACEBACK not in replay.stdout + replay.stderr, replay.stderr
    assert real_llm_server.chat_requests() - before == 2  # the replay asked nothing
    assert tree_bytes(runs) == snapshot


def test_the_openai_json_schema_form_is_refused_by_llama_cpp_python(
    real_llm_server: Any, tmp_path: Path
) -> None:
    validation = copy_tree(tmp_path)
    config = real_llm_server.write_config(
        tmp_path / "atlbench.toml", PROVIDER, max_tokens=64, structured_output="llama-server", max_attempts=1
    )
    result = atlbench(
        "generate", "--provider", PROVIDER, "-k", TRANSFORMATION, "--answer-format", "schema",
        "--validation-root", str(validation), "--config", str(config), "--cache-dir", str(tmp_path / "cache"),
        "--no-progress", "--json", str(tmp_path / "report.json"), cwd=tmp_path,
    )  # fmt: skip
    assert TRACEBACK not in result.stdout + result.stderr, result.stderr
    assert result.returncode == 1
    (run,) = json.loads((tmp_path / "report.json").read_text(encoding="utf-8"))["runs"]
    assert run["status"] == "no-answer", run
    assert "response_format" in run["message"] and "literal_error" in run["message"], run
