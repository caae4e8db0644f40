"""Answer schemas on the wire (against the fake server): each dialect's request body, the answer read back
(a tool_use block for Anthropic), every answer checked against the schema it was asked with, refusals
before any request, the cache key (unchanged for free requests), batches, and the format in file names,
case ids and rows."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from benchmark.bench.support.fake_llm_server import FakeLLMServer
from benchmark.cli import main
from benchmark.core.errors import ConfigurationError
from benchmark.llm.cache import cache_key, cache_key_fields
from benchmark.llm.config import load_config
from benchmark.llm.dialects import DIALECTS, FOR_KIND, check_expressible
from benchmark.llm.generate import GenerateOptions, generate
from benchmark.llm.ledger import file_ledger
from benchmark.llm.requests import GenerationParameters, LlmRequest
from benchmark.tracks.mapping.answer_schema import answer_schema
from benchmark.tracks.mapping.collection import collect
from benchmark.tracks.mapping.discovery import discover

from .conftest import BOOK_ANSWER, FAMILY_ANSWER, write_config

Options = Callable[..., GenerateOptions]
REPO = Path(__file__).resolve().parents[2]
NULLS = {"sourceAttribute": None, "targetAttribute": None, "guardHint": None, "conversionHint": None}


def schema_answer(prompt: str) -> str:
    """The fake model under a schema: the test answers as the object the schema asks for."""
    entries = FAMILY_ANSWER if '"name":"Families"' in prompt else BOOK_ANSWER
    return json.dumps({"mappings": [NULLS | entry | {"confidence": "high"} for entry in entries]})


def configured(tmp_path: Path, url: str, dialects: dict[str, str]) -> Path:
    config = write_config(tmp_path, url)
    text = config.read_text(encoding="utf-8")
    for provider, dialect in dialects.items():
        text = text.replace(
            f"[providers.{provider}]\n", f'[providers.{provider}]\nstructured_output = "{dialect}"\n'
        )
    config.write_text(text, encoding="utf-8")
    return config


@pytest.mark.parametrize(
    ("dialect", "expected"),
    [
        ("openai", {"response_format": {"type": "json_schema", "json_schema": {"name": "mapping_answer"}}}),
        ("llama-cpp-python", {"response_format": {"type": "json_object"}}),
        (
            "llama-server",
            {"response_format": {"type": "json_schema", "json_schema": {"name": "mapping_answer"}}},
        ),
        ("ollama", {"response_format": {"type": "json_schema", "json_schema": {"name": "mapping_answer"}}}),
        ("vllm", {"structured_outputs": {}}),
    ],
)
def test_each_openai_compatible_dialect_sends_the_schema_its_way(
    dialect: str, expected: dict[str, Any], make_options: Options, llm_server: FakeLLMServer, tmp_path: Path
) -> None:
    llm_server.responder = schema_answer
    config = configured(tmp_path, llm_server.url, {"OpenAI": dialect})
    report = generate(make_options(config_file=config, selectors=["book"], answer_formats=["schema"]))
    assert report.ok, [f.message for f in report.filed]
    (sent,) = llm_server.answer_requests()
    schema = answer_schema().schema
    body = sent.body
    for key, value in expected.items():  # the dialect's own fields, and the schema where it puts it
        assert key in body and all(body[key][k] == v or isinstance(v, dict) for k, v in value.items())
    placed = {
        "openai": lambda b: b["response_format"]["json_schema"]["schema"],
        "llama-cpp-python": lambda b: b["response_format"]["schema"],
        "llama-server": lambda b: b["response_format"]["json_schema"]["schema"],
        "ollama": lambda b: b["response_format"]["json_schema"]["schema"],
        "vllm": lambda b: b["structured_outputs"]["json"],
    }[dialect]
    assert placed(body) == schema
    assert ("strict" in json.dumps(body.get("response_format", {}))) == (dialect == "openai")
    run = next((tmp_path / "validation" / "Book2Publication" / "runs").glob("*.json"))
    assert run.name == "OpenAI-gpt-test-1-schema-run01.json"
    document = json.loads(run.read_text(encoding="utf-8"))
    assert document["analysis"]["answerFormat"] == "schema"
    record = document["generation"]["answerSchema"]
    assert record == {
        "format": "schema",
        "dialect": dialect,
        "schemaSha256": answer_schema().sha256,
        "valid": True,
    }
    assert len(document["mappings"]) == len(BOOK_ANSWER)


def test_anthropic_forces_the_answer_tool_and_reads_the_tool_use_block(
    make_options: Options, llm_server: FakeLLMServer, tmp_path: Path
) -> None:
    llm_server.responder = schema_answer
    config = configured(tmp_path, llm_server.url, {"Claude": "anthropic-tool"})
    report = generate(
        make_options("Claude", config_file=config, selectors=["book"], answer_formats=["grounded"])
    )
    assert report.ok, [f.message for f in report.filed]
    (sent,) = llm_server.answer_requests()
    (tool,) = sent.body["tools"]
    assert sent.body["tool_choice"] == {"type": "tool", "name": "answer"} and tool["name"] == "answer"
    assert tool["input_schema"]["properties"]["mappings"]["items"]["anyOf"]  # the grounded pairs
    run = next((tmp_path / "validation" / "Book2Publication" / "runs").glob("*.json"))
    assert run.name == "Claude-claude-test-1-grounded-run01.json"
    document = json.loads(run.read_text(encoding="utf-8"))
    assert document["generation"]["answerSchema"]["valid"] is True
    assert [m["source"]["class"] for m in document["mappings"]] == ["Book"] * len(BOOK_ANSWER)


def test_an_answer_that_breaks_its_schema_is_filed_with_the_violation(
    make_options: Options, llm_server: FakeLLMServer, tmp_path: Path
) -> None:
    """A server that ignores the schema (llama-cpp-python's silent fallback) is caught: the answer is
    scored as the reader reads it, and its file says it broke the schema it was asked with."""
    config = configured(tmp_path, llm_server.url, {"OpenAI": "llama-cpp-python"})
    report = generate(make_options(config_file=config, selectors=["book"], answer_formats=["schema"]))
    (filed,) = report.filed
    assert filed.ok  # the bare array of the free answer reads, so the run is usable...
    document = json.loads(Path(filed.path).read_text(encoding="utf-8"))  # type: ignore[arg-type]
    record = document["generation"]["answerSchema"]
    assert record["valid"] is False and record["violation"].startswith("$: [")  # ...but not constrained
    assert document["generation"]["ledger"]["schemaValid"] is False  # counted where the tables read it
    found = file_ledger(Path(filed.path))  # type: ignore[arg-type]
    assert found is not None and (found.schema_checked, found.schema_violations) == (1, 1)
    assert found.row_json()["schemaViolations"] == 1


def test_a_schema_the_dialect_cannot_express_is_refused_before_any_request(
    make_options: Options, llm_server: FakeLLMServer, tmp_path: Path
) -> None:
    config = configured(tmp_path, llm_server.url, {})  # structured_output unset: none
    with pytest.raises(
        ConfigurationError, match=r"provider OpenAI sends no answer schema \(structured_output"
    ):
        generate(make_options(config_file=config, selectors=["book"], answer_formats=["schema"]))
    assert llm_server.answer_requests() == []
    schema = {"type": "object", "properties": {"a": {"type": "string"}}, "patternProperties": {"^x": {}}}
    for dialect in ("openai", "llama-cpp-python", "vllm"):
        with pytest.raises(ConfigurationError) as raised:
            check_expressible("Local", dialect, schema, "atlbench.toml")
        message = str(raised.value)
        assert "provider Local" in message and f"'{dialect}'" in message and "'patternProperties'" in message
    strict = {"type": "object", "properties": {"a": {"type": "string"}}, "additionalProperties": False}
    with pytest.raises(
        ConfigurationError, match=r"keyword 'required' at \$: strict mode needs every property"
    ):
        check_expressible("OpenAI", "openai", strict, None)
    listed = {"type": "object", "properties": {"a": {"type": ["string", "null"]}}}
    with pytest.raises(ConfigurationError, match=r"keyword 'type' at \$\.properties\.a: a list of types"):
        check_expressible("Local", "llama-cpp-python", listed, None)
    with pytest.raises(ConfigurationError, match=r"keyword 'type' at \$: the root must be an object"):
        check_expressible("Claude", "anthropic-tool", {"type": "array"}, None)


def test_the_cli_refuses_an_unoffered_format_with_exit_2(
    llm_server: FakeLLMServer, tmp_path: Path, fake_keys: dict[str, str], capsys: pytest.CaptureFixture[str]
) -> None:
    config = configured(tmp_path, llm_server.url, {"OpenAI": "openai"})
    arguments = ["generate", "--provider", "OpenAI", "--config", str(config), "--no-progress"]
    # the repository's own tree: the refusal comes before anything is read for a prompt or written
    arguments += ["--validation-root", str(REPO / "validation"), "--cache-dir", str(tmp_path / "cache")]
    assert main([*arguments, "--track", "roundtrip", "--answer-format", "grounded"]) == 2
    assert "does not offer the answer format grounded; it offers free, schema" in capsys.readouterr().err
    assert llm_server.answer_requests() == []


def test_dialects_are_checked_against_the_provider_kind(tmp_path: Path) -> None:
    assert set(FOR_KIND["openai-compatible"]) | set(FOR_KIND["anthropic"]) == set(DIALECTS)
    config = tmp_path / "atlbench.toml"
    config.write_text(
        '[providers.C]\nkind = "anthropic"\nmodel = "m"\nstructured_output = "openai"\n', encoding="utf-8"
    )
    with pytest.raises(ConfigurationError, match="unknown dialect 'openai' for kind 'anthropic'"):
        load_config(config)


def test_the_schema_is_part_of_the_cache_key_only_when_sent(tmp_path: Path) -> None:
    config = tmp_path / "atlbench.toml"
    config.write_text(
        '[providers.L]\nkind = "openai-compatible"\nmodel = "m"\nstructured_output = "llama-server"\n',
        encoding="utf-8",
    )
    provider = load_config(config).provider("L")
    free = LlmRequest("p", GenerationParameters(max_tokens=10), 1)
    constrained = LlmRequest("p", GenerationParameters(max_tokens=10), 1, answer_schema=None)
    assert cache_key_fields(provider.endpoint, free) == {
        "format": 1,
        "kind": "openai-compatible",
        "baseUrl": "https://api.openai.com/v1",
        "model": "m",
        "promptSha256": free.prompt_sha256,
        "parameters": free.parameters.to_json(1),
        "run": 1,
    }  # the fields of a free request are those of every answer stored before answer formats existed
    constrained = LlmRequest(
        "p", GenerationParameters(max_tokens=10), 1, answer_schema=provider.requested_schema(answer_schema())
    )
    fields = cache_key_fields(provider.endpoint, constrained)
    assert fields["answerSchema"] == {
        "format": "schema",
        "dialect": "llama-server",
        "sha256": answer_schema().sha256,
    }
    assert cache_key(provider.endpoint, constrained) != cache_key(provider.endpoint, free)


def test_formats_in_one_pass_replayed_offline_and_named_in_case_ids(
    make_options: Options, llm_server: FakeLLMServer, tmp_path: Path
) -> None:
    llm_server.responder = schema_answer
    config = configured(tmp_path, llm_server.url, {"OpenAI": "openai"})
    options = make_options(config_file=config, selectors=["book"], answer_formats=["free,schema,grounded"])
    assert generate(options).ok
    assert len(llm_server.answer_requests()) == 3
    runs = tmp_path / "validation" / "Book2Publication" / "runs"
    files = {p.name: p.read_bytes() for p in runs.glob("*.json")}
    assert sorted(files) == [
        "OpenAI-gpt-test-1-grounded-run01.json",
        "OpenAI-gpt-test-1-run01.json",
        "OpenAI-gpt-test-1-schema-run01.json",
    ]
    free = json.loads(files["OpenAI-gpt-test-1-run01.json"])
    assert "answerFormat" not in free["analysis"] and "answerSchema" not in free["generation"]
    assert "schemaValid" not in free["generation"]["ledger"]
    for path in runs.glob("*.json"):
        path.unlink()
    replay = make_options(
        config_file=config, selectors=["book"], answer_formats=["free,schema,grounded"], offline=True
    )
    assert generate(replay).ok
    assert {p.name: p.read_bytes() for p in runs.glob("*.json")} == files
    assert len(llm_server.answer_requests()) == 3  # the replay asked nothing
    cases = collect(discover(tmp_path / "validation"), baselines=[]).runs
    named = {case.case_id: case.answer_format for case in cases}
    assert named == {
        "Book2Publication-OpenAI-gpt-test-1-grounded-run01": "grounded",
        "Book2Publication-OpenAI-gpt-test-1-run01": "free",
        "Book2Publication-OpenAI-gpt-test-1-schema-run01": "schema",
    }


def test_batches_carry_the_schema(make_options: Options, llm_server: FakeLLMServer, tmp_path: Path) -> None:
    llm_server.responder = schema_answer
    config = configured(tmp_path, llm_server.url, {"OpenAI": "openai", "Claude": "anthropic-tool"})
    assert generate(make_options(config_file=config, answer_formats=["schema"], batch=True)).ok
    upload = next(iter(llm_server.files.values()))  # the batch's input file (its output comes after)
    lines = [json.loads(line) for line in upload.decode().splitlines()][:2]
    assert all(line["body"]["response_format"]["json_schema"]["strict"] is True for line in lines)
    assert generate(make_options("Claude", config_file=config, answer_formats=["schema"], batch=True)).ok
    (batch,) = llm_server.anthropic_batches.values()
    assert all(item["params"]["tool_choice"]["name"] == "answer" for item in batch["requests"])
    claude = tmp_path / "validation" / "Book2Publication" / "runs" / "Claude-claude-test-1-schema-run01.json"
    assert json.loads(claude.read_text(encoding="utf-8"))["generation"]["answerSchema"]["valid"] is True
