"""Schema-constrained decoding through the real server (llama-cpp-python 0.3.36, SmolLM2-135M-Instruct).

``atlbench generate --answer-format schema,grounded`` on the smallest bundled transformation with the
``llama-cpp-python`` dialect: the server takes ``response_format = {"type": "json_object", "schema": S}``,
every answer is filed with the record of the schema it was asked with (valid or not: the server's grammar
is not trusted), a grounded answer that is an instance of its schema names no class or feature the
metamodels lack, and an ``--offline`` replay rewrites the same bytes without a request. The OpenAI form
(``llama-server`` dialect: ``{"type": "json_schema", ...}``) is refused by this server (0.3.36: HTTP 500, a
validation error on ``response_format.type``) and filed as a missing run: the reason the dialect is a
setting. The server's converter keeps the bound of every free text of the published schemas (no free string
rule is left in their grammars), and the server stops a bounded text at its bound.
"""

from __future__ import annotations

import json
import re
import shutil
import urllib.request
from pathlib import Path
from typing import Any

import pytest
from real_llm_tools import TRACEBACK, atlbench, tree_bytes

from benchmark.llm.answer_formats import MAX_TEXT_CHARACTERS, TEXT_CHARACTER, AnswerSchema, bounded_text
from benchmark.tracks.mapping.answer_schema import answer_schema as mapping_schema
from benchmark.tracks.mapping.answer_schema import grounded_schema as mapping_grounded
from benchmark.tracks.mapping.llm_task import load_cases
from benchmark.tracks.mapping.scoring.compare import find_hallucinations
from benchmark.tracks.mapping.scoring.suggestions import load_suggestions
from benchmark.tracks.ocl.answer_schema import answer_schema as ocl_schema
from benchmark.tracks.ocl.answer_schema import grounded_schema as ocl_grounded

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


# The rules llama-cpp-python's converter writes for a string with no bound: one char, repeated at will.
FREE_STRING_RULE = re.compile(r"^(char|string) ::=", re.MULTILINE)


def _parses(grammar: str, model: Path) -> bool:
    """Whether llama.cpp (the one llama-cpp-python was built with) builds its grammar sampler from
    ``grammar``, as the server does for every constrained request."""
    import llama_cpp

    vocabulary = llama_cpp.Llama(str(model), vocab_only=True, verbose=False)
    sampler = llama_cpp.llama_sampler_init_grammar(vocabulary._model.vocab, grammar.encode(), b"root")
    if not sampler:
        return False
    llama_cpp.llama_sampler_free(sampler)
    return True


def test_the_servers_converter_keeps_every_bound_of_the_published_schemas(real_llm_server: Any) -> None:
    """llama-cpp-python drops what its converter cannot read without a word; a bound it dropped would leave
    a free string rule in the grammar (the round-trip envelope keeps one on purpose: a document is as long
    as it is). Every grammar must also parse: the converter writes a bound as nested optional groups, which
    llama.cpp refuses above MAX_TEXT_CHARACTERS, the largest bound ``bounded_text`` takes."""
    from llama_cpp.llama_grammar import json_schema_to_gbnf

    (case,) = load_cases(REPO / "validation", ["mysql2km3"])  # the most class pairs of a prompt that fits
    assert case.views is not None
    for published in (
        mapping_schema(),
        mapping_grounded(*case.views),
        ocl_schema(),
        ocl_grounded(["Library", "Loan"], "maxLoansLimit"),
    ):
        grammar = json_schema_to_gbnf(published.text)
        assert FREE_STRING_RULE.findall(grammar) == [], published.answer_format
        assert TEXT_CHARACTER in grammar and _parses(grammar, real_llm_server.model_path)
    text = {"type": "string", "pattern": f"^{TEXT_CHARACTER}{{0,{MAX_TEXT_CHARACTERS + 1}}}$"}
    assert not _parses(json_schema_to_gbnf(json.dumps(text)), real_llm_server.model_path)


def test_the_server_closes_a_bounded_text_at_its_bound(real_llm_server: Any) -> None:
    """Asked for a long story in a string of at most 12 characters, the model is made to close the string
    and the object: the answer stops (not cut at ``max_tokens``) and is an instance of the schema."""
    schema = AnswerSchema.of(
        "schema",
        "story",
        {
            "type": "object",
            "properties": {"story": bounded_text(12)},
            "required": ["story"],
            "additionalProperties": False,
        },
    )
    body = {
        "model": real_llm_server.model,
        "messages": [{"role": "user", "content": "Write a very long story about a library, in JSON."}],
        "temperature": 0.0,
        "seed": 42,
        "max_tokens": 200,
        "response_format": {"type": "json_object", "schema": schema.schema},
    }
    request = urllib.request.Request(
        f"{real_llm_server.base_url}/chat/completions",
        data=json.dumps(body).encode("utf-8"),
        headers={"Content-Type": "application/json"},
    )
    with urllib.request.urlopen(request, timeout=600) as response:
        answer = json.loads(response.read())
    (choice,) = answer["choices"]
    text = choice["message"]["content"]
    assert choice["finish_reason"] == "stop", text
    assert schema.check(text) is None, text
    assert len(json.loads(text)["story"]) <= 12
