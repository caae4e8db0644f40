"""Structured-output dialects: how each kind of server is sent a JSON Schema, and what it can express.

A provider's ``structured_output`` setting (``atlbench.toml``, ``docs/LLM_RUNS.md``) names its dialect:

==================  ===============================================================================
``none``            no schema is ever sent (the default): ``--answer-format`` other than ``free`` is
                    refused for the provider
``openai``          OpenAI's strict Structured Outputs: ``response_format = {"type": "json_schema",
                    "json_schema": {"name", "schema", "strict": true}}``; the root is an object, every
                    object lists all its properties as required and has ``additionalProperties: false``
``anthropic-tool``  Claude: one tool whose ``input_schema`` is the schema, forced with ``tool_choice``;
                    the answer is the ``tool_use`` block's input (the root must be an object)
``llama-cpp-python`` llama-cpp-python's server: ``response_format = {"type": "json_object", "schema"}``
                    (its 0.3.36 refuses ``json_schema``: HTTP 500, a validation error on its type)
``llama-server``    llama.cpp's own server: ``response_format = {"type": "json_schema", "json_schema":
                    {"name", "schema"}}``
``ollama``          Ollama's OpenAI-compatible ``/v1``: the same ``json_schema`` form, turned into a grammar
``vllm``            vLLM: ``structured_outputs = {"json": schema}`` (``guided_json`` until vLLM 0.12)
==================  ===============================================================================

Each dialect's converter understands a subset of JSON Schema; a keyword outside it is not an error on
every server (llama-cpp-python drops what it cannot convert, or falls back to plain JSON, silently), so
:func:`check_expressible` refuses such a schema *before any request*, naming the provider, the dialect, the
keyword and where it is. The subsets are those the servers document (OpenAI's list of supported keywords;
llama.cpp's ``grammars/README.md``; vLLM's xgrammar backend), and for llama-cpp-python 0.3.36 what its
converter (``llama_cpp/llama_grammar.py``) reads: it does not take a list of types, so ``{"type":
["string", "null"]}`` is refused there (``anyOf`` says the same and converts).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from benchmark.core.errors import ConfigurationError

NONE = "none"
OPENAI = "openai"
ANTHROPIC_TOOL = "anthropic-tool"
LLAMA_CPP_PYTHON = "llama-cpp-python"
LLAMA_SERVER = "llama-server"
OLLAMA = "ollama"
VLLM = "vllm"
DIALECTS = (NONE, OPENAI, ANTHROPIC_TOOL, LLAMA_CPP_PYTHON, LLAMA_SERVER, OLLAMA, VLLM)
#: The dialects each provider kind can speak (its SDK sends the fields).
FOR_KIND = {
    "openai-compatible": (NONE, OPENAI, LLAMA_CPP_PYTHON, LLAMA_SERVER, OLLAMA, VLLM),
    "anthropic": (NONE, ANTHROPIC_TOOL),
}
#: The tool an ``anthropic-tool`` request forces; its input is the answer.
TOOL_NAME = "answer"

_ANNOTATIONS = frozenset({"$schema", "$id", "$comment", "title", "description", "examples", "default"})
_STRUCTURE = frozenset({"type", "properties", "required", "additionalProperties", "items", "enum", "const"})
_REFERENCES = frozenset({"$ref", "$defs", "definitions"})
_GRAMMAR = _ANNOTATIONS | _STRUCTURE | _REFERENCES | {
    "anyOf", "oneOf", "allOf", "prefixItems", "minItems", "maxItems", "pattern", "format",
    "minLength", "maxLength",
}  # fmt: skip
SUPPORTED: Mapping[str, frozenset[str]] = {
    OPENAI: _ANNOTATIONS
    | _STRUCTURE
    | _REFERENCES
    | {
        "anyOf",
        "pattern",
        "format",
        "minimum",
        "maximum",
        "exclusiveMinimum",
        "exclusiveMaximum",
        "multipleOf",
        "minItems",
        "maxItems",
    },  # fmt: skip
    # A forced tool is not grammar-constrained: the API takes any JSON Schema as input_schema; only its root
    # must be an object. Every answer is validated all the same.
    ANTHROPIC_TOOL: _GRAMMAR
    | {
        "not",
        "if",
        "then",
        "else",
        "minimum",
        "maximum",
        "exclusiveMinimum",
        "exclusiveMaximum",
        "multipleOf",
        "uniqueItems",
        "contains",
        "minProperties",
        "maxProperties",
        "patternProperties",
        "propertyNames",
        "dependentRequired",
        "dependentSchemas",
    },  # fmt: skip
    LLAMA_CPP_PYTHON: _GRAMMAR,
    LLAMA_SERVER: _GRAMMAR | {"minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"},
    OLLAMA: _GRAMMAR | {"minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"},
    VLLM: _GRAMMAR | {"minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf"},
}
# Keywords whose value is a schema, a list of schemas, or a map of schemas (walked into).
_SCHEMA_VALUED = frozenset({"items", "not", "if", "then", "else", "contains", "propertyNames"})
_SCHEMA_LISTS = frozenset({"anyOf", "oneOf", "allOf", "prefixItems"})
_SCHEMA_MAPS = frozenset({"properties", "$defs", "definitions", "patternProperties", "dependentSchemas"})


def _schemas(schema: Any, path: str) -> Iterator[tuple[str, dict[str, Any]]]:
    """Every (sub)schema of ``schema`` with its JSON path (``$.properties.mappings.items``)."""
    if not isinstance(schema, dict):
        return
    yield path, schema
    for key, value in schema.items():
        if key in _SCHEMA_VALUED or (key == "additionalProperties" and isinstance(value, dict)):
            yield from _schemas(value, f"{path}.{key}")
        elif key in _SCHEMA_LISTS and isinstance(value, list):
            for index, item in enumerate(value):
                yield from _schemas(item, f"{path}.{key}[{index}]")
        elif key in _SCHEMA_MAPS and isinstance(value, dict):
            for name, item in value.items():
                yield from _schemas(item, f"{path}.{key}.{name}")


def problem(dialect: str, schema: Mapping[str, Any]) -> tuple[str, str, str] | None:
    """(keyword, JSON path, why) of the first thing in ``schema`` that ``dialect`` cannot express, or
    ``None`` when it can express all of it."""
    supported = SUPPORTED[dialect]
    if dialect in (OPENAI, ANTHROPIC_TOOL) and schema.get("type") != "object":
        return "type", "$", 'the root must be an object ("type": "object")'
    for path, sub in _schemas(dict(schema), "$"):
        for keyword in sub:
            if keyword not in supported:
                return keyword, path, "not supported"
        if dialect == LLAMA_CPP_PYTHON and isinstance(sub.get("type"), list):
            return "type", path, "a list of types is not converted (write anyOf)"
        if dialect == OPENAI and (sub.get("type") == "object" or "properties" in sub):
            properties = set(sub.get("properties") or {})
            if sub.get("additionalProperties") is not False:
                return "additionalProperties", path, "strict mode needs additionalProperties: false"
            missing = sorted(properties - set(sub.get("required") or ()))
            if missing:
                return "required", path, f"strict mode needs every property required ({', '.join(missing)})"
    return None


def check_expressible(provider: str, dialect: str, schema: Mapping[str, Any], source: str | None) -> None:
    """Refuse, before any request, a schema the provider's dialect cannot express."""
    found = problem(dialect, schema)
    if found is None:
        return
    keyword, path, why = found
    raise ConfigurationError(
        f"provider {provider} (structured_output = {dialect!r}) cannot express the answer schema: "
        f"keyword {keyword!r} at {path}: {why}",
        file=source,
        field=f"providers.{provider}.structured_output",
    )


def openai_fields(dialect: str, name: str, schema: Mapping[str, Any]) -> dict[str, Any]:
    """The chat-completions body fields that send ``schema`` in an OpenAI-compatible dialect."""
    if dialect == OPENAI:
        return {
            "response_format": {
                "type": "json_schema",
                "json_schema": {"name": name, "schema": dict(schema), "strict": True},
            }
        }
    if dialect == LLAMA_CPP_PYTHON:
        return {"response_format": {"type": "json_object", "schema": dict(schema)}}
    if dialect in (LLAMA_SERVER, OLLAMA):
        return {
            "response_format": {"type": "json_schema", "json_schema": {"name": name, "schema": dict(schema)}}
        }
    if dialect == VLLM:
        return {"structured_outputs": {"json": dict(schema)}}
    raise ValueError(f"dialect {dialect!r} is not an OpenAI-compatible one")  # config validation prevents it


def anthropic_fields(name: str, schema: Mapping[str, Any]) -> dict[str, Any]:
    """The Messages API parameters that force the answer through one tool whose input is ``schema``."""
    return {
        "tools": [
            {"name": TOOL_NAME, "description": f"Give the answer ({name}).", "input_schema": dict(schema)}
        ],
        "tool_choice": {"type": "tool", "name": TOOL_NAME},
    }


__all__ = [
    "ANTHROPIC_TOOL",
    "DIALECTS",
    "FOR_KIND",
    "LLAMA_CPP_PYTHON",
    "LLAMA_SERVER",
    "NONE",
    "OLLAMA",
    "OPENAI",
    "SUPPORTED",
    "TOOL_NAME",
    "VLLM",
    "anthropic_fields",
    "check_expressible",
    "openai_fields",
    "problem",
]
