from __future__ import annotations

import json
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from email.utils import format_datetime
from pathlib import Path

import pytest

from benchmark.core.errors import InputFormatError
from benchmark.lang.ecore.view import ClassView, FeatureView, MetamodelView
from benchmark.llm.cache import cache_key, cache_key_fields
from benchmark.llm.config import KIND_OPENAI, ProviderConfig
from benchmark.llm.naming import existing_run_indices, run_file_name, safe_component
from benchmark.llm.prompt import PromptTemplate
from benchmark.llm.redact import Redactor
from benchmark.llm.requests import GenerationParameters, LlmRequest
from benchmark.llm.retry import RetryPolicy, parse_retry_after
from benchmark.tracks.mapping.prompt import mapping_prompt, mapping_template


def view(name: str, *classes: ClassView) -> MetamodelView:
    return MetamodelView(name=name, file=f"{name}.ecore", classes=classes)


def test_builtin_template_asks_for_the_jjodel_answer_with_its_rules() -> None:
    template = mapping_template()
    assert template.placeholders() == {"sourceName", "sourceMetamodel", "targetName", "targetMetamodel"}
    text = template.text
    for required in (
        '"sourceClass"',
        '"sourceAttribute"',
        '"targetClass"',
        '"targetAttribute"',
        '"confidence"',
        '"reason"',
        '"guardHint"',
        '"conversionHint"',
        '"high" | "medium" | "low"',
        "bare JSON array",
        "abstract",
        "resolve(<sourceFeature>, <TargetType>)",
        '"sourceAttribute": "parent"',
        '"confidence": "low"',
        "Quality over quantity",
        "JjEL",
        "`==`",
        "`!=`",
        "`if <condition> then <value> else <value>`",
        "`implies`",
        "`?.`",
        "`??`",
        "`--`",
    ):
        assert required in text, required


def test_prompt_embeds_both_views_as_compact_json() -> None:
    title = FeatureView(name="title", owner="Book", kind="attribute", type_name="EString")
    source = view(
        "Library",
        ClassView(
            name="Book",
            qualified_name="Library::Book",
            package="Library",
            features=(title,),
            all_features=(title,),
        ),
    )
    target = view("Shop", ClassView(name="Item", qualified_name="Shop::Item", package="Shop", abstract=True))
    prompt = mapping_prompt(
        mapping_template(),
        source_name="Library",
        source_view_json=source.to_json(),
        target_name="Shop",
        target_view_json=target.to_json(),
    )
    assert json.dumps(source.to_json(), separators=(",", ":")) in prompt
    assert json.dumps(target.to_json(), separators=(",", ":")) in prompt
    assert "## Source metamodel: Library" in prompt and "{{" not in prompt


def test_template_problems_are_located() -> None:
    with pytest.raises(InputFormatError) as raised:
        PromptTemplate("a\nb {{ sourceMetamodel }} {{oops}}", "t.md").check(
            frozenset({"sourceMetamodel", "targetMetamodel"}), frozenset()
        )
    assert (raised.value.file, raised.value.line, raised.value.column) == ("t.md", 2, 25)
    with pytest.raises(InputFormatError, match=r"never uses \{\{targetMetamodel\}\}"):
        PromptTemplate("{{sourceMetamodel}}", "t.md").check(
            frozenset({"sourceMetamodel", "targetMetamodel"}),
            frozenset({"sourceMetamodel", "targetMetamodel"}),
        )


def test_substituted_values_are_not_expanded_again() -> None:
    template = PromptTemplate("{{a}}|{{b}}", "t")
    assert template.render({"a": "{{b}}", "b": "x"}) == "{{b}}|x"


def test_template_hash_follows_the_text() -> None:
    assert (
        PromptTemplate("x", "a").sha256 == PromptTemplate("x", "b").sha256 != PromptTemplate("y", "a").sha256
    )


def test_cache_key_separates_everything_that_changes_an_answer() -> None:
    endpoint = {"kind": "openai-compatible", "baseUrl": "https://api.example/v1", "model": "m"}
    parameters = GenerationParameters(max_tokens=10, temperature=0.0, seed=1)
    base = LlmRequest("p", parameters, 1)
    key = cache_key(endpoint, base)
    assert key == cache_key({**endpoint, "baseUrl": "https://api.example/v1/"}, base)  # trailing slash
    variants = [
        cache_key({**endpoint, "model": "m2"}, base),
        cache_key({**endpoint, "kind": "anthropic"}, base),
        cache_key({**endpoint, "baseUrl": "https://other/v1"}, base),
        cache_key(endpoint, LlmRequest("p2", parameters, 1)),
        cache_key(endpoint, LlmRequest("p", parameters, 2)),
        cache_key(endpoint, LlmRequest("p", GenerationParameters(max_tokens=10, temperature=0.5, seed=1), 1)),
        cache_key(endpoint, LlmRequest("p", parameters, 1, system="be brief")),
    ]
    assert len({key, *variants}) == len(variants) + 1


def test_the_length_parameter_name_is_part_of_the_key_without_moving_existing_keys() -> None:
    # A server that does not know max_completion_tokens ignores it and may answer at any length, so the
    # two spellings are different requests; the default spelling keeps the key it always had.
    parameters = GenerationParameters(max_tokens=64, temperature=0.0, seed=1)
    config = ProviderConfig(
        name="P",
        kind=KIND_OPENAI,
        model="m-1",
        base_url="http://x/v1",
        api_key_env=None,
        parameters=parameters,
    )
    request = LlmRequest("map these", parameters, 2)
    default = cache_key(config.endpoint, request)
    assert default == "3a82578c19fe25dea21131018841f22b8ca9c5adc4e4bb515cadac61f55c1ab8"  # as before
    renamed = replace(config, max_tokens_parameter="max_completion_tokens")
    assert cache_key(renamed.endpoint, request) != default
    assert cache_key_fields(renamed.endpoint, request)["maxTokensParameter"] == "max_completion_tokens"


@pytest.mark.parametrize(
    ("provider", "model", "expected"),
    [
        ("OpenRouter", "anthropic/claude-3.5-sonnet", "OpenRouter-anthropic_claude-3.5-sonnet-run03.json"),
        ("Ollama", "llama3.1:8b", "Ollama-llama3.1_8b-run03.json"),
        ("My Lab", "../../etc/passwd", "My_Lab-etc_passwd-run03.json"),
        ("..", "m", "unnamed-m-run03.json"),
    ],
)
def test_run_file_names_are_safe(provider: str, model: str, expected: str) -> None:
    assert run_file_name(provider, model, 3) == expected
    assert "/" not in safe_component(model) and "\\" not in safe_component("a\\b")


def test_existing_run_indices_ignore_other_models(tmp_path: Path) -> None:
    for name in ("P-m-run01.json", "P-m-run07.json", "P-m-large-run02.json", "P-m-run03.txt"):
        (tmp_path / name).write_text("{}")
    assert existing_run_indices(tmp_path, "P", "m") == {1, 7}
    assert run_file_name("P", "m", 123) == "P-m-run123.json"


def test_retry_after_forms() -> None:
    assert parse_retry_after({"Retry-After": "3"}) == 3.0
    assert parse_retry_after({"retry-after-ms": "250", "retry-after": "9"}) == 0.25
    later = format_datetime(datetime.now(UTC) + timedelta(seconds=30), usegmt=True)
    assert 25 <= (parse_retry_after({"retry-after": later}) or 0) <= 30
    assert parse_retry_after({"retry-after": "soon"}) is None and parse_retry_after({}) is None


def test_backoff_grows_and_is_capped() -> None:
    policy = RetryPolicy(base_delay=1.0, max_delay=10.0)
    for attempt, ceiling in ((1, 1.0), (2, 2.0), (3, 4.0), (6, 10.0)):
        delay = policy.delay(attempt, None)
        assert ceiling / 2 <= delay <= ceiling
    assert policy.delay(1, 999.0) == policy.max_retry_after


def test_redactor_masks_every_occurrence_in_nested_data() -> None:
    redactor = Redactor(["sk-abcdef123", None, "abc"])  # too short to be a key: ignored
    data = {"msg": "key sk-abcdef123 rejected", "list": ["sk-abcdef123sk-abcdef123"], "abc": 1}
    assert redactor.data(data) == {"msg": "key *** rejected", "list": ["******"], "abc": 1}
