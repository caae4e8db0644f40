"""Run files of the round-trip track: one JSON file per stage evaluation.

``<data root>/runs/<pair>/<operator>/<provider>-<model>-k<k>-run<NN>-<stage>.json``::

    {"format": "atlbench-roundtrip-run", "version": 1,
     "pair": "library", "operator": "to_many", "k": 2, "run": 1, "stage": "inverse",
     "provider": "OpenAI", "model": "gpt-4o", "modelLabel": null,
     "status": "ok" | "unusable" | "not-run",
     "examples": {"pairs": ["library", "shop"], "rule": "...", "seed": 0},
     "input": {"file": "Delta_to_many_T_library.sql.xmi", "sha256": "..."},
     "answer": "the model's raw answer",
     "extraction": {"source": "the fenced block", "usable": true, "notes": []},
     "reason": null,
     "generation": {"generator": "atlbench generate", "promptTemplates": {...}, "promptSha256": "...", ...}}

A run asked with a prompt template other than the study's (``docs/TEMPLATES.md``) says so in a
``"template"`` field after ``modelLabel`` and has it in its file name
(``<provider>-<model>-<template>-k<k>-run<NN>-<stage>.json``).

``status`` says what the answer gave the chain: ``ok`` (a model of the stage's metamodel was found),
``unusable`` (none was), or, for a forward stage only, ``not-run`` (its inverse answer was unusable, so
there was no S' to prompt with; ``answer`` is absent and ``reason`` says why). Those are scored: an
unusable or not-run stage is a failure in the tables, never a dropped row. ``no-answer`` says that no
answer was obtained (an HTTP error, a timeout, the budget, a rate limit: ``reason`` holds the engine's
message, ``generation.missing`` its one word; for a forward stage, also "its inverse stage got no
answer"): the stage is *missing*, never scored, and the next ``atlbench generate`` fills it in. The
forward stage's ``input`` names the inverse run file its S' came from and the SHA-256 of that S'.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from benchmark.core.errors import InputFormatError
from benchmark.core.fileio import MAX_RUN_FILE_BYTES, read_json_capped
from benchmark.core.rows import ANSWER_FORMAT_NAME, FREE_FORMAT, STUDY_TEMPLATE, TEMPLATE_NAME
from benchmark.llm.naming import format_suffix, run_stem, template_suffix
from benchmark.tracks.roundtrip.names import STAGES
from benchmark.tracks.roundtrip.reading.answer import extract_model
from benchmark.tracks.roundtrip.reading.models import ModelKind

RUN_FORMAT = "atlbench-roundtrip-run"
RUN_FORMAT_VERSION = 1
RUNS_DIR = "runs"
LOG_DIR = ".log"
STATUS_OK = "ok"
STATUS_UNUSABLE = "unusable"
STATUS_NOT_RUN = "not-run"
STATUS_NO_ANSWER = "no-answer"  # no answer was obtained: a missing stage, never scored
STATUSES = (STATUS_OK, STATUS_UNUSABLE, STATUS_NOT_RUN, STATUS_NO_ANSWER)


def run_path(
    root: Path,
    pair: str,
    operator: str,
    provider: str,
    model: str,
    k: int,
    run: int,
    stage: str,
    template: str = STUDY_TEMPLATE,
    answer_format: str = FREE_FORMAT,
) -> Path:
    stem = f"{run_stem(provider, model)}{template_suffix(template)}{format_suffix(answer_format)}"
    return root / RUNS_DIR / pair / operator / f"{stem}-k{k}-run{run:02d}-{stage}.json"


@dataclass(frozen=True)
class StageRun:
    """A run file's content (module docstring)."""

    pair: str
    operator: str
    k: int
    run: int
    stage: str
    provider: str
    model: str
    status: str
    answer: str | None = None
    reason: str | None = None
    examples: tuple[str, ...] = ()
    model_label: str | None = None
    extra: dict[str, Any] = field(default_factory=dict)  # examples rule, input, extraction, generation
    template: str = STUDY_TEMPLATE
    answer_format: str = FREE_FORMAT

    @property
    def case_id(self) -> str:
        return f"{self.pair}/{self.operator}"

    def to_json(self) -> dict[str, Any]:
        document: dict[str, Any] = {
            "format": RUN_FORMAT,
            "version": RUN_FORMAT_VERSION,
            "pair": self.pair,
            "operator": self.operator,
            "k": self.k,
            "run": self.run,
            "stage": self.stage,
            "provider": self.provider,
            "model": self.model,
            "modelLabel": self.model_label,
            **({"template": self.template} if self.template != STUDY_TEMPLATE else {}),
            **({"answerFormat": self.answer_format} if self.answer_format != FREE_FORMAT else {}),
            "status": self.status,
            "examples": {"pairs": list(self.examples), **self.extra.get("examples", {})},
        }
        if self.answer is not None:
            document["answer"] = self.answer
        document["reason"] = self.reason
        for key in ("input", "extraction", "generation"):
            if key in self.extra:
                document[key] = self.extra[key]
        return document


def _field(data: dict[str, Any], key: str, kind: type, path: Path) -> Any:
    value = data.get(key)
    if not isinstance(value, kind) or isinstance(value, bool) and kind is int:
        raise InputFormatError(
            f"expected {kind.__name__}, got {type(value).__name__}", file=path, field=f"$.{key}"
        )
    return value


def read_run(path: Path) -> StageRun:
    """A run file, checked field by field (the error names the file and its line and column, or the
    field). A file over :data:`~benchmark.core.fileio.MAX_RUN_FILE_BYTES` is refused without being read."""
    data = read_json_capped(path, limit=MAX_RUN_FILE_BYTES, what="run file")
    if not isinstance(data, dict) or data.get("format") != RUN_FORMAT:
        raise InputFormatError(f"not a round-trip run file (format {RUN_FORMAT!r} expected)", file=path)
    if data.get("version") != RUN_FORMAT_VERSION:
        raise InputFormatError(
            f"unknown run file version {data.get('version')!r}", file=path, field="$.version"
        )
    stage = _field(data, "stage", str, path)
    if stage not in STAGES:
        raise InputFormatError(
            f"stage must be one of {', '.join(STAGES)}, got {stage!r}", file=path, field="$.stage"
        )
    status = _field(data, "status", str, path)
    if status not in STATUSES or (status == STATUS_NOT_RUN and stage != "forward"):
        raise InputFormatError(f"invalid status {status!r} for a {stage} stage", file=path, field="$.status")
    answer = data.get("answer")
    if status == STATUS_NO_ANSWER and "answer" in data:
        raise InputFormatError(
            f"status {STATUS_NO_ANSWER!r} says no answer was obtained, but the file has one: remove one "
            "or the other",
            file=path,
            field="$.answer",
        )
    if status not in (STATUS_NOT_RUN, STATUS_NO_ANSWER) and not isinstance(answer, str):
        raise InputFormatError("a stage that ran needs its answer text", file=path, field="$.answer")
    examples = data.get("examples") or {}
    pairs = examples.get("pairs", []) if isinstance(examples, dict) else None
    if not isinstance(pairs, list) or not all(isinstance(p, str) for p in pairs):
        raise InputFormatError("expected a list of pair names", file=path, field="$.examples.pairs")
    k = _field(data, "k", int, path)
    run = _field(data, "run", int, path)
    if k < 1 or run < 1:
        raise InputFormatError("k and run start at 1", file=path, field="$.k" if k < 1 else "$.run")
    template = data.get("template", STUDY_TEMPLATE)
    if not isinstance(template, str) or not TEMPLATE_NAME.match(template):
        raise InputFormatError(
            "expected a prompt template's name (lower-case letters, digits, _)", file=path, field="$.template"
        )
    answer_format = data.get("answerFormat", FREE_FORMAT)
    if not isinstance(answer_format, str) or not ANSWER_FORMAT_NAME.match(answer_format):
        raise InputFormatError(
            "expected an answer format's name (lower-case letters, digits, _)",
            file=path,
            field="$.answerFormat",
        )
    extra = {key: data[key] for key in ("input", "extraction", "generation") if key in data}
    extra["examples"] = {key: value for key, value in examples.items() if key != "pairs"}
    return StageRun(
        pair=_field(data, "pair", str, path),
        operator=_field(data, "operator", str, path),
        k=k,
        run=run,
        stage=stage,
        provider=_field(data, "provider", str, path),
        model=_field(data, "model", str, path),
        status=status,
        answer=answer if isinstance(answer, str) else None,
        reason=_reason(data.get("reason"), status),
        examples=tuple(pairs),
        model_label=data.get("modelLabel") if isinstance(data.get("modelLabel"), str) else None,
        extra=extra,
        template=template,
        answer_format=answer_format,
    )


def _reason(given: Any, status: str) -> str | None:
    if isinstance(given, str) and given.strip():
        return given
    return "no answer was obtained (the file records no reason)" if status == STATUS_NO_ANSWER else None


def generator_of(path: Path) -> str | None:
    """The ``generation.generator`` of an existing run file (None when it is not one of ours)."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    generation = data.get("generation") if isinstance(data, dict) else None
    return generation.get("generator") if isinstance(generation, dict) else None


@dataclass(frozen=True)
class AnswerStatus:
    """What an answer gives the chain: its run-file status, why it is unusable, the extraction summary, and
    the extracted model's text (S' for the forward prompt)."""

    status: str
    reason: str | None
    extraction: dict[str, Any]
    model_text: str | None


def answer_status(answer: str, kind: ModelKind) -> AnswerStatus:
    """``ok`` when a model of the stage's metamodel can be extracted from the answer, else ``unusable``."""
    extracted = extract_model(answer.encode("utf-8"), kind.ns_uri, kind.root_classes)
    usable = extracted.usable and extracted.text is not None
    reason = None if usable else "; ".join(extracted.notes) or "no model of the stage's metamodel"
    extraction = {"source": extracted.source, "usable": extracted.usable, "notes": list(extracted.notes)}
    return AnswerStatus(STATUS_OK if usable else STATUS_UNUSABLE, reason, extraction, extracted.text)
