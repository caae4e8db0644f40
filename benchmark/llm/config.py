"""Provider configuration: ``atlbench.toml`` or ``[tool.atlbench]`` in ``pyproject.toml``.

Example (``atlbench.toml``; in ``pyproject.toml`` prefix every table with ``tool.atlbench.``)::

    [providers.OpenAI]
    kind = "openai-compatible"
    model = "gpt-4o-2024-08-06"
    api_key_env = "OPENAI_API_KEY"
    temperature = 0.0
    seed = 1234

    [providers.Claude]
    kind = "anthropic"
    model = "claude-sonnet-4-20250514"
    max_tokens = 8192

    [cache]
    dir = ".atlbench-cache"      # relative to this file

Keys are never configured here: ``api_key_env`` names the environment variable that holds one, and a
literal ``api_key`` entry is rejected (without echoing it) so that a key cannot end up committed.
Unknown keys inside a provider table are errors (a typo such as ``temprature`` would otherwise silently
fall back to a default and change every result); other top-level tables belong to other commands and
are left alone.
"""

from __future__ import annotations

import os
import re
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from benchmark.core.errors import ConfigurationError
from benchmark.core.wording import word
from benchmark.llm.pricing import Price, parse_price
from benchmark.llm.requests import GenerationParameters

KIND_OPENAI = "openai-compatible"
KIND_ANTHROPIC = "anthropic"
KINDS = (KIND_OPENAI, KIND_ANTHROPIC)

CONFIG_FILE_NAME = "atlbench.toml"
PYPROJECT_FILE_NAME = "pyproject.toml"

DEFAULT_BASE_URLS = {KIND_OPENAI: "https://api.openai.com/v1", KIND_ANTHROPIC: "https://api.anthropic.com"}
DEFAULT_KEY_ENV = {KIND_OPENAI: "OPENAI_API_KEY", KIND_ANTHROPIC: "ANTHROPIC_API_KEY"}
DEFAULT_MAX_TOKENS = 8192
DEFAULT_TIMEOUT_SECONDS = 300.0
DEFAULT_MAX_ATTEMPTS = 5
DEFAULT_CONCURRENCY = 4
DEFAULT_MIN_CONCURRENCY = 1
DEFAULT_MAX_RETRY_AFTER = 120.0  # seconds; a server asking for a longer wait fails the request instead
DEFAULT_MAX_TOKENS_PARAMETER = "max_tokens"
MAX_TOKENS_PARAMETERS = (DEFAULT_MAX_TOKENS_PARAMETER, "max_completion_tokens")

_PROVIDER_KEYS = {
    "kind",
    "model",
    "label",
    "base_url",
    "api_key_env",
    "temperature",
    "top_p",
    "max_tokens",
    "max_tokens_parameter",
    "seed",
    "timeout",
    "max_attempts",
    "concurrency",
    "min_concurrency",
    "max_retry_after",
    "context_window",
    "tokenizer",
    "price",
    "batch",
    "structured_output",
}
_SECRET_LOOKING_KEYS = {"api_key", "apikey", "key", "token", "secret", "api_token", "auth_token"}


@dataclass(frozen=True)
class ProviderConfig:
    """One named provider. ``name`` is what runs are filed under (``analysis.provider``, file names)."""

    name: str
    kind: str
    model: str
    base_url: str
    api_key_env: str | None
    parameters: GenerationParameters
    label: str | None = None
    max_tokens_parameter: str = DEFAULT_MAX_TOKENS_PARAMETER
    timeout: float = DEFAULT_TIMEOUT_SECONDS
    max_attempts: int = DEFAULT_MAX_ATTEMPTS
    concurrency: int = DEFAULT_CONCURRENCY
    batch: bool = True
    source: str | None = None  # the configuration file, for error messages
    min_concurrency: int = DEFAULT_MIN_CONCURRENCY  # adaptive concurrency never goes below this
    max_retry_after: float = DEFAULT_MAX_RETRY_AFTER  # longest Retry-After obeyed; longer: no answer
    context_window: int | None = None  # tokens the model takes (prompt + answer); None: not checked
    tokenizer: str | None = None  # how prompts are counted (benchmark.llm.tokens); None: the default
    price: Price | None = None  # None: no price known, so no cost (blank, never 0)
    structured_output: str = "none"  # how a JSON Schema is sent (benchmark.llm.dialects); none: never

    def requested_schema(self, schema: Any) -> Any:
        """What a request carries to ask for an answer constrained by ``schema`` (an
        :class:`~benchmark.llm.answer_formats.AnswerSchema`) in this provider's dialect; a
        :class:`ConfigurationError` before any request when the provider sends no schema, or cannot
        express this one (naming the provider, the dialect and the keyword)."""
        from benchmark.llm.answer_formats import RequestedSchema
        from benchmark.llm.dialects import NONE, check_expressible

        if self.structured_output == NONE:
            raise ConfigurationError(
                f"provider {self.name} sends no answer schema (structured_output = 'none'), so it cannot"
                f" be asked for the answer format {schema.answer_format!r}; set structured_output to its"
                ' server\'s dialect (docs/LLM_RUNS.md, "Answer formats")',
                file=self.source,
                field=f"providers.{self.name}.structured_output",
            )
        check_expressible(self.name, self.structured_output, schema.schema, self.source)
        return RequestedSchema(schema, self.structured_output)

    @property
    def model_label(self) -> str:
        return self.label or self.model

    @property
    def endpoint(self) -> dict[str, str]:
        """What identifies the serving endpoint in cache keys: kind, normalised base URL and model, plus
        the name of the length parameter when it is not the default ``max_tokens``: a server that does
        not know ``max_completion_tokens`` ignores it, so the two names can give different answers. Left
        out for the default, so that the keys of existing caches and committed logs stay valid."""
        endpoint = {"kind": self.kind, "baseUrl": self.base_url.rstrip("/"), "model": self.model}
        if self.max_tokens_parameter != DEFAULT_MAX_TOKENS_PARAMETER:
            endpoint["maxTokensParameter"] = self.max_tokens_parameter
        return endpoint

    def api_key(self) -> str | None:
        """The key from the environment, or ``None`` when ``api_key_env`` is unset (local servers)."""
        if not self.api_key_env:
            return None
        value = os.environ.get(self.api_key_env)
        if not value:
            raise ConfigurationError(
                f"provider {self.name!r} needs an API key: set the environment variable {self.api_key_env}"
                f" (named by providers.{self.name}.api_key_env), or use --offline to replay the cache",
                file=self.source,
                field=f"providers.{self.name}.api_key_env",
            )
        return value

    def describe(self) -> dict[str, Any]:
        """The configuration as recorded in logs (the key's variable name, never its value)."""
        return {
            "name": self.name,
            **self.endpoint,
            "label": self.model_label,
            "apiKeyEnv": self.api_key_env,
            "maxTokensParameter": self.max_tokens_parameter,
            "timeout": self.timeout,
            "maxAttempts": self.max_attempts,
        }

    def manifest(self) -> dict[str, Any]:
        """Everything configured for this provider (the key's variable name, never its value), for the
        manifest of a ``generate`` call: what :meth:`describe` logs, plus sampling, limits and price."""
        return {
            **self.describe(),
            "parameters": self.parameters.to_json(1) | {"requestSeed": "seed + run - 1"},
            "concurrency": self.concurrency,
            "minConcurrency": self.min_concurrency,
            "maxRetryAfter": self.max_retry_after,
            "contextWindow": self.context_window,
            "tokenizer": self.tokenizer,
            "batch": self.batch,
            "structuredOutput": self.structured_output,
            "price": self.price.to_json() if self.price is not None else None,
            "source": self.source,
        }


@dataclass(frozen=True)
class LlmConfig:
    providers: dict[str, ProviderConfig]
    cache_dir: Path | None
    source: str | None

    def provider(self, name: str) -> ProviderConfig:
        found = self.providers.get(name)
        if found is not None:
            return found
        folded = {key.casefold(): value for key, value in self.providers.items()}
        if name.casefold() in folded:
            return folded[name.casefold()]
        known = ", ".join(sorted(self.providers)) or "none"
        where = self.source or f"no {CONFIG_FILE_NAME} or [tool.atlbench] in {PYPROJECT_FILE_NAME} found"
        raise ConfigurationError(
            f"unknown provider {name!r}; configured providers: {known}",
            file=where,
            field="providers",
        )


def find_config_file(start: Path) -> tuple[Path, bool] | None:
    """The nearest ``atlbench.toml`` (or a ``pyproject.toml`` with ``[tool.atlbench]``) at or above start.

    Returns the path and whether it is a pyproject. In one directory ``atlbench.toml`` wins.
    """
    for directory in [start.resolve(), *start.resolve().parents]:
        candidate = directory / CONFIG_FILE_NAME
        if candidate.is_file():
            return candidate, False
        pyproject = directory / PYPROJECT_FILE_NAME
        if pyproject.is_file():
            try:
                data = tomllib.loads(pyproject.read_text(encoding="utf-8"))
            except (OSError, tomllib.TOMLDecodeError):
                continue
            if isinstance(data.get("tool"), dict) and "atlbench" in data["tool"]:
                return pyproject, True
    return None


def load_config(path: str | Path | None = None, *, start: Path | None = None) -> LlmConfig:
    """Read the configuration from ``path``, or the nearest file found from ``start`` (default: cwd).

    No file at all is not an error here (an empty configuration); asking for a provider then is.
    """
    if path is not None:
        config_path = Path(path)
        if not config_path.is_file():
            raise ConfigurationError("configuration file not found", file=config_path)
        is_pyproject = config_path.name == PYPROJECT_FILE_NAME
    else:
        found = find_config_file(start or Path.cwd())
        if found is None:
            return LlmConfig(providers={}, cache_dir=None, source=None)
        config_path, is_pyproject = found
    data = _read_toml(config_path)
    prefix = ""
    if is_pyproject:
        data = data.get("tool", {}).get("atlbench", {})
        prefix = "tool.atlbench."
    return parse_config(data, source=config_path, prefix=prefix)


def _read_toml(path: Path) -> dict[str, Any]:
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as error:
        raise ConfigurationError(f"cannot read configuration: {error.strerror}", file=path) from error
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        message = str(error)
        position = re.search(r"\(at line (\d+), column (\d+)\)", message)
        line = int(position.group(1)) if position else None
        column = int(position.group(2)) if position else None
        clean = re.sub(r"\s*\(at line \d+, column \d+\)", "", message)
        raise ConfigurationError(f"invalid TOML: {clean}", file=path, line=line, column=column) from error


def parse_config(data: Mapping[str, Any], *, source: Path, prefix: str = "") -> LlmConfig:
    providers_data = data.get("providers", {})
    if not isinstance(providers_data, dict):
        raise ConfigurationError(
            "must be a table of named providers", file=source, field=f"{prefix}providers"
        )
    providers = {
        name: _parse_provider(name, entry, source=source, field=f"{prefix}providers.{name}")
        for name, entry in providers_data.items()
    }
    cache_dir: Path | None = None
    cache_data = data.get("cache", {})
    if not isinstance(cache_data, dict):
        raise ConfigurationError("must be a table", file=source, field=f"{prefix}cache")
    unknown = set(cache_data) - {"dir"}
    if unknown:
        raise ConfigurationError(
            f"unknown {word(len(unknown), 'key')} {', '.join(sorted(unknown))}; allowed: dir",
            file=source,
            field=f"{prefix}cache",
        )
    if "dir" in cache_data:
        raw = _typed(cache_data, "dir", str, source, f"{prefix}cache")
        cache_dir = (source.parent / Path(raw).expanduser()).resolve()
    return LlmConfig(providers=providers, cache_dir=cache_dir, source=str(source))


def _parse_provider(name: str, entry: Any, *, source: Path, field: str) -> ProviderConfig:
    if not isinstance(entry, dict):
        raise ConfigurationError("must be a table", file=source, field=field)
    secret_keys = {key for key in entry if key.casefold() in _SECRET_LOOKING_KEYS}
    if secret_keys:
        raise ConfigurationError(
            f"{', '.join(sorted(secret_keys))}: API keys are never read from files; put the key in an"
            " environment variable and name it with api_key_env",
            file=source,
            field=field,
        )
    unknown = set(entry) - _PROVIDER_KEYS
    if unknown:
        raise ConfigurationError(
            f"unknown {word(len(unknown), 'key')} {', '.join(sorted(unknown))}; "
            f"allowed: {', '.join(sorted(_PROVIDER_KEYS))}",
            file=source,
            field=field,
        )
    kind = _typed(entry, "kind", str, source, field, required=True)
    if kind not in KINDS:
        raise ConfigurationError(
            f"unknown kind {kind!r}; use one of: {', '.join(KINDS)}", file=source, field=f"{field}.kind"
        )
    model = _typed(entry, "model", str, source, field, required=True)
    if not model.strip():
        raise ConfigurationError("must not be empty", file=source, field=f"{field}.model")
    api_key_env = entry.get("api_key_env", DEFAULT_KEY_ENV[kind])
    if not isinstance(api_key_env, str):
        raise ConfigurationError(
            "must be a string (an environment variable name)", file=source, field=f"{field}.api_key_env"
        )
    if api_key_env and not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", api_key_env):
        # Someone pasted the key itself; say so without repeating it.
        raise ConfigurationError(
            "must be the *name* of an environment variable (letters, digits, _), not a key",
            file=source,
            field=f"{field}.api_key_env",
        )
    max_tokens = _typed(entry, "max_tokens", int, source, field, default=DEFAULT_MAX_TOKENS)
    if max_tokens < 1:
        raise ConfigurationError("must be at least 1", file=source, field=f"{field}.max_tokens")
    temperature = _number(entry, "temperature", source, field)
    if temperature is not None and not 0.0 <= temperature <= 2.0:
        raise ConfigurationError("must be between 0 and 2", file=source, field=f"{field}.temperature")
    top_p = _number(entry, "top_p", source, field)
    if top_p is not None and not 0.0 < top_p <= 1.0:
        raise ConfigurationError("must be in (0, 1]", file=source, field=f"{field}.top_p")
    seed = entry.get("seed")
    if seed is not None and (not isinstance(seed, int) or isinstance(seed, bool)):
        raise ConfigurationError("must be an integer", file=source, field=f"{field}.seed")
    max_tokens_parameter = _typed(
        entry, "max_tokens_parameter", str, source, field, default=DEFAULT_MAX_TOKENS_PARAMETER
    )
    if max_tokens_parameter not in MAX_TOKENS_PARAMETERS:
        raise ConfigurationError(
            f"must be one of: {', '.join(MAX_TOKENS_PARAMETERS)}",
            file=source,
            field=f"{field}.max_tokens_parameter",
        )
    timeout = _number(entry, "timeout", source, field)
    timeout = DEFAULT_TIMEOUT_SECONDS if timeout is None else timeout
    if timeout <= 0:
        raise ConfigurationError("must be positive (seconds)", file=source, field=f"{field}.timeout")
    max_attempts = _typed(entry, "max_attempts", int, source, field, default=DEFAULT_MAX_ATTEMPTS)
    concurrency = _typed(entry, "concurrency", int, source, field, default=DEFAULT_CONCURRENCY)
    min_concurrency = _typed(entry, "min_concurrency", int, source, field, default=DEFAULT_MIN_CONCURRENCY)
    for key, value in (
        ("max_attempts", max_attempts),
        ("concurrency", concurrency),
        ("min_concurrency", min_concurrency),
    ):
        if value < 1:
            raise ConfigurationError("must be at least 1", file=source, field=f"{field}.{key}")
    if min_concurrency > concurrency:
        raise ConfigurationError(
            f"must not exceed concurrency ({concurrency})", file=source, field=f"{field}.min_concurrency"
        )
    max_retry_after = _number(entry, "max_retry_after", source, field)
    max_retry_after = DEFAULT_MAX_RETRY_AFTER if max_retry_after is None else max_retry_after
    if max_retry_after < 0:
        raise ConfigurationError("must be >= 0 (seconds)", file=source, field=f"{field}.max_retry_after")
    context_window = _typed(entry, "context_window", int, source, field)
    if context_window is not None and context_window < 1:
        raise ConfigurationError("must be at least 1 (tokens)", file=source, field=f"{field}.context_window")
    tokenizer = _typed(entry, "tokenizer", str, source, field)
    if tokenizer is not None:
        from benchmark.llm.tokens import check_tokenizer_setting

        problem = check_tokenizer_setting(tokenizer)
        if problem is not None:
            raise ConfigurationError(problem, file=source, field=f"{field}.tokenizer")
        if tokenizer.startswith("gguf:"):
            tokenizer = "gguf:" + str((source.parent / Path(tokenizer[5:]).expanduser()).resolve())
    price = parse_price(entry["price"], source=source, field=f"{field}.price") if "price" in entry else None
    base_url = _typed(entry, "base_url", str, source, field, default=DEFAULT_BASE_URLS[kind])
    if not re.match(r"https?://", base_url):
        raise ConfigurationError("must be an http:// or https:// URL", file=source, field=f"{field}.base_url")
    label = entry.get("label")
    if label is not None and not isinstance(label, str):
        raise ConfigurationError("must be a string", file=source, field=f"{field}.label")
    from benchmark.llm.dialects import FOR_KIND, NONE

    structured_output = _typed(entry, "structured_output", str, source, field, default=NONE)
    if structured_output not in FOR_KIND[kind]:
        raise ConfigurationError(
            f"unknown dialect {structured_output!r} for kind {kind!r}; "
            f"use one of: {', '.join(FOR_KIND[kind])}",
            file=source,
            field=f"{field}.structured_output",
        )
    return ProviderConfig(
        name=name,
        kind=kind,
        model=model,
        base_url=base_url,
        api_key_env=api_key_env or None,
        parameters=GenerationParameters(
            max_tokens=max_tokens, temperature=temperature, top_p=top_p, seed=seed
        ),
        label=label,
        max_tokens_parameter=max_tokens_parameter,
        timeout=timeout,
        max_attempts=max_attempts,
        concurrency=concurrency,
        batch=_typed(entry, "batch", bool, source, field, default=True),
        source=str(source),
        min_concurrency=min_concurrency,
        max_retry_after=max_retry_after,
        context_window=context_window,
        tokenizer=tokenizer,
        price=price,
        structured_output=structured_output,
    )


def _typed(
    entry: Mapping[str, Any],
    key: str,
    kind: type,
    source: Path,
    field: str,
    *,
    required: bool = False,
    default: Any = None,
) -> Any:
    if key not in entry:
        if required:
            raise ConfigurationError("missing required key", file=source, field=f"{field}.{key}")
        return default
    value = entry[key]
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        raise ConfigurationError(f"must be {_describe(kind)}", file=source, field=f"{field}.{key}")
    return value


def _number(entry: Mapping[str, Any], key: str, source: Path, field: str) -> float | None:
    value = entry.get(key)
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise ConfigurationError("must be a number", file=source, field=f"{field}.{key}")
    return float(value)


def _describe(kind: type) -> str:
    return {str: "a string", int: "an integer", bool: "true or false"}.get(kind, kind.__name__)


def resolve_cache_dir(explicit: str | Path | None, config: LlmConfig | None = None) -> Path:
    """Where responses are cached: ``--cache-dir``, else ``$ATLBENCH_CACHE_DIR``, else ``[cache] dir``
    of the configuration file, else ``$XDG_CACHE_HOME/atlbench``, else ``~/.cache/atlbench``.

    The default is per user, outside the validation tree, so that cache files are never mistaken for
    suggestion files; point it into a repository (or share the directory) to let others replay.
    """
    if explicit is not None:
        return Path(explicit).expanduser()
    from_env = os.environ.get("ATLBENCH_CACHE_DIR")
    if from_env:
        return Path(from_env).expanduser()
    if config is not None and config.cache_dir is not None:
        return config.cache_dir
    xdg = os.environ.get("XDG_CACHE_HOME")
    base = Path(xdg).expanduser() if xdg else Path.home() / ".cache"
    return base / "atlbench"
