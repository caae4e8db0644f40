from __future__ import annotations

from pathlib import Path

import pytest

from benchmark.core.errors import ConfigurationError
from benchmark.llm.config import LlmConfig, find_config_file, load_config, resolve_cache_dir


def write(path: Path, text: str) -> Path:
    path.write_text(text, encoding="utf-8")
    return path


def test_full_provider_entry(tmp_path: Path) -> None:
    config = load_config(
        write(
            tmp_path / "atlbench.toml",
            """
[providers.Local]
kind = "openai-compatible"
model = "llama3.1:8b"
base_url = "http://localhost:11434/v1"
api_key_env = ""
temperature = 0.7
top_p = 0.9
max_tokens = 2048
max_tokens_parameter = "max_completion_tokens"
seed = 42
timeout = 60
max_attempts = 2
concurrency = 8
batch = false
label = "Llama 3.1 8B"

[providers.Claude]
kind = "anthropic"
model = "claude-x"

[cache]
dir = "cache-here"
""",
        )
    )
    local = config.provider("Local")
    assert local.api_key_env is None and local.api_key() is None  # a local server needs no key
    assert local.parameters.temperature == 0.7 and local.parameters.top_p == 0.9
    assert local.parameters.seed == 42 and local.parameters.max_tokens == 2048
    assert (local.max_tokens_parameter, local.timeout, local.max_attempts, local.concurrency) == (
        "max_completion_tokens",
        60.0,
        2,
        8,
    )
    assert local.batch is False and local.model_label == "Llama 3.1 8B"
    claude = config.provider("claude")  # names are matched ignoring case when unambiguous
    assert claude.base_url == "https://api.anthropic.com" and claude.api_key_env == "ANTHROPIC_API_KEY"
    assert claude.parameters.temperature is None and claude.parameters.max_tokens == 8192
    assert config.cache_dir == (tmp_path / "cache-here").resolve()


def test_pyproject_table(tmp_path: Path) -> None:
    write(
        tmp_path / "pyproject.toml",
        '[project]\nname = "x"\n\n[tool.atlbench.providers.OpenAI]\n'
        'kind = "openai-compatible"\nmodel = "gpt-4o"\n',
    )
    nested = tmp_path / "a" / "b"
    nested.mkdir(parents=True)
    config = load_config(start=nested)
    assert config.source == str(tmp_path / "pyproject.toml")
    assert config.provider("OpenAI").base_url == "https://api.openai.com/v1"
    with pytest.raises(ConfigurationError) as raised:
        write(tmp_path / "pyproject.toml", '[tool.atlbench.providers.X]\nkind = "gemini"\nmodel = "m"\n')
        load_config(start=nested)
    assert raised.value.field == "tool.atlbench.providers.X.kind"
    assert "use one of: openai-compatible, anthropic" in raised.value.message


def test_atlbench_toml_wins_over_pyproject_in_the_same_directory(tmp_path: Path) -> None:
    write(tmp_path / "pyproject.toml", "[tool.atlbench]\n")
    write(tmp_path / "atlbench.toml", "")
    assert find_config_file(tmp_path) == (tmp_path / "atlbench.toml", False)


@pytest.mark.parametrize(
    ("body", "field", "message"),
    [
        ('kind = "anthropic"', "providers.P.model", "missing required key"),
        (
            'kind = "anthropic"\nmodel = "m"\ntemperature = "hot"',
            "providers.P.temperature",
            "must be a number",
        ),
        ('kind = "anthropic"\nmodel = "m"\ntemperature = 3', "providers.P.temperature", "between 0 and 2"),
        ('kind = "anthropic"\nmodel = "m"\nmax_tokens = 0', "providers.P.max_tokens", "at least 1"),
        ('kind = "anthropic"\nmodel = "m"\nseed = 1.5', "providers.P.seed", "must be an integer"),
        (
            'kind = "anthropic"\nmodel = "m"\nbase_url = "api.example"',
            "providers.P.base_url",
            "http:// or https://",
        ),
        ('kind = "anthropic"\nmodel = "m"\nbatch = "yes"', "providers.P.batch", "true or false"),
    ],
)
def test_errors_name_the_file_and_the_key(tmp_path: Path, body: str, field: str, message: str) -> None:
    path = write(tmp_path / "atlbench.toml", f"[providers.P]\n{body}\n")
    with pytest.raises(ConfigurationError) as raised:
        load_config(path)
    assert raised.value.file == str(path) and raised.value.field == field and message in raised.value.message


def test_a_key_in_the_file_is_rejected_without_being_repeated(tmp_path: Path) -> None:
    secret = "sk-live-abcdefghijklmnop"
    path = write(
        tmp_path / "atlbench.toml", f'[providers.P]\nkind = "anthropic"\nmodel = "m"\napi_key = "{secret}"\n'
    )
    with pytest.raises(ConfigurationError) as raised:
        load_config(path)
    assert "environment variable" in str(raised.value) and secret not in str(raised.value)
    path = write(
        tmp_path / "atlbench.toml",
        f'[providers.P]\nkind = "anthropic"\nmodel = "m"\napi_key_env = "{secret}"\n',
    )
    with pytest.raises(ConfigurationError) as raised:
        load_config(path)
    assert "name* of an environment variable" in str(raised.value) and secret not in str(raised.value)


def test_missing_key_says_which_variable(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("MY_KEY", raising=False)
    path = write(
        tmp_path / "atlbench.toml", '[providers.P]\nkind = "anthropic"\nmodel = "m"\napi_key_env = "MY_KEY"\n'
    )
    with pytest.raises(ConfigurationError, match="set the environment variable MY_KEY"):
        load_config(path).provider("P").api_key()


def test_toml_syntax_error_has_line_and_column(tmp_path: Path) -> None:
    path = write(tmp_path / "atlbench.toml", '[providers.P]\nkind = "anthropic\n')
    with pytest.raises(ConfigurationError) as raised:
        load_config(path)
    assert (
        raised.value.line == 2 and raised.value.column is not None and "invalid TOML" in raised.value.message
    )


def test_unknown_provider_lists_the_configured_ones(tmp_path: Path) -> None:
    path = write(tmp_path / "atlbench.toml", '[providers.A]\nkind = "anthropic"\nmodel = "m"\n')
    with pytest.raises(ConfigurationError, match="unknown provider 'B'; configured providers: A"):
        load_config(path).provider("B")
    empty = LlmConfig(providers={}, cache_dir=None, source=None)
    with pytest.raises(ConfigurationError, match="configured providers: none"):
        empty.provider("B")


def test_cache_directory_precedence(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    config = load_config(write(tmp_path / "atlbench.toml", '[cache]\ndir = "c"\n'))
    monkeypatch.delenv("ATLBENCH_CACHE_DIR", raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert resolve_cache_dir(None, None) == tmp_path / "xdg" / "atlbench"
    assert resolve_cache_dir(None, config) == (tmp_path / "c").resolve()
    monkeypatch.setenv("ATLBENCH_CACHE_DIR", str(tmp_path / "env"))
    assert resolve_cache_dir(None, config) == tmp_path / "env"
    assert resolve_cache_dir(tmp_path / "cli", config) == tmp_path / "cli"


def test_the_shipped_configuration_parses() -> None:
    shipped = Path(__file__).resolve().parents[2] / "atlbench.toml"
    config = load_config(shipped)
    assert set(config.providers) == {"OpenAI", "Claude", "Ollama", "LlamaCpp", "SmolLM2-135M"}
    for local in ("Ollama", "LlamaCpp", "SmolLM2-135M"):
        assert config.provider(local).api_key_env is None and config.provider(local).batch is False
    assert all(p.model for p in config.providers.values())
    assert all(config.provider(p).parameters.max_tokens == 8192 for p in ("OpenAI", "Claude", "Ollama"))
    assert config.provider("LlamaCpp").parameters.max_tokens == 4096  # small local models loop
    bundled = config.provider("SmolLM2-135M")  # the bundled real runs' entry (docs/LLM_RUNS.md)
    assert (bundled.model, bundled.base_url) == ("SmolLM2-135M-Instruct", "http://127.0.0.1:8000/v1")
    assert bundled.parameters.max_tokens == 1500 and bundled.parameters.temperature == 0.0
    dialects = {name: provider.structured_output for name, provider in config.providers.items()}
    assert dialects == {
        "OpenAI": "openai",
        "Claude": "anthropic-tool",
        "Ollama": "ollama",
        "LlamaCpp": "llama-cpp-python",
        "SmolLM2-135M": "llama-cpp-python",
    }
