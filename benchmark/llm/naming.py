"""File names for runs and logs, safe on every file system.

Provider and model names come from users and vendors (``anthropic/claude-3.5-sonnet`` on OpenRouter,
``llama3.1:8b`` on Ollama) and may contain separators, colons or spaces that Windows, macOS or a shell
would choke on; they are reduced to a conservative alphabet here, once, so that ``generate`` and
``import`` agree on the name of a run.
"""

from __future__ import annotations

import re
from pathlib import Path

from benchmark.core.rows import FREE_FORMAT, STUDY_TEMPLATE

_UNSAFE = re.compile(r"[^A-Za-z0-9._+-]+")
_RUN_SUFFIX = re.compile(r"-run(\d+)$")


def safe_component(text: str) -> str:
    """``text`` with every run of unsafe characters replaced by ``_``; never empty, never hidden."""
    cleaned = _UNSAFE.sub("_", text.strip()).strip("._")
    return cleaned or "unnamed"


def run_stem(provider: str, model: str) -> str:
    """``<provider>-<model>``, the part of a run's file name shared by all its repetitions."""
    return f"{safe_component(provider)}-{safe_component(model)}"


def template_suffix(template: str) -> str:
    """``-<template>`` for a prompt template other than the study's, which file names leave unsaid."""
    return "" if template == STUDY_TEMPLATE else f"-{safe_component(template)}"


def format_suffix(answer_format: str) -> str:
    """``-<format>`` for an answer format other than free, which file names leave unsaid."""
    return "" if answer_format == FREE_FORMAT else f"-{safe_component(answer_format)}"


def run_file_name(
    provider: str,
    model: str,
    run_index: int,
    template: str = STUDY_TEMPLATE,
    answer_format: str = FREE_FORMAT,
) -> str:
    """``<provider>-<model>-runNN.json`` (two digits at least, so that run10 sorts after run09);
    ``<provider>-<model>-<template>-runNN.json`` for a template other than the study's, and
    ``...-<format>-runNN.json`` for an answer format other than free."""
    if run_index < 1:
        raise ValueError(f"run indices start at 1, got {run_index}")
    suffixes = f"{template_suffix(template)}{format_suffix(answer_format)}"
    return f"{run_stem(provider, model)}{suffixes}-run{run_index:02d}.json"


def run_stem_of(file_stem: str) -> str | None:
    """The ``<provider>-<model>`` part of a run file's stem (``OpenAI-gpt-4o-run03`` gives
    ``OpenAI-gpt-4o``); ``None`` when the stem does not end in ``-runNN``."""
    match = _RUN_SUFFIX.search(file_stem)
    if match is None or match.start() == 0:
        return None
    return file_stem[: match.start()]


def log_file_name(provider: str) -> str:
    return f"{safe_component(provider)}.jsonl"


def existing_run_indices(runs_dir: Path, provider: str, model: str) -> set[int]:
    """Run indices already used in ``runs_dir`` by this provider and model."""
    stem = run_stem(provider, model)
    found: set[int] = set()
    if not runs_dir.is_dir():
        return found
    for path in runs_dir.glob(f"{stem}-run*.json"):
        match = _RUN_SUFFIX.search(path.stem)
        if match and run_stem_of(path.stem) == stem:
            found.add(int(match.group(1)))
    return found
