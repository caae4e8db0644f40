"""``atlbench generate --track ocl --provider P [--ocl-mode MODE]``: one request per constraint and run.

Each prompt shows one variant of a dataset model as PlantUML (the original, or the model transformed by
``--ocl-mode``, with the session's transformation seed) and one constraint's specification in the
variant's words (identifiers replaced as the transformation renamed them), through the shipped templates
chosen with ``--template`` (``study``: ``prompt_template.md``, the default; ``terse``: ``prompt_terse.md``;
``stepwise``: ``prompt_stepwise.md``, the output format first; ``docs/TEMPLATES.md``) or a replacement given
with ``--prompt-template`` (placeholders ``{{modelName}}``, ``{{plantuml}}``, ``{{specification}}``,
``{{constraintId}}``; ``{{plantuml}}`` and ``{{specification}}`` are required). ``-k`` selects by ``model``
or ``model/constraint`` (substring match).

Answers are filed, raw, in the run file of (provider, template, answer format, run, mode) (:mod:`.runs`,
``runs/<provider>/runNN/<mode>.json``, ``runs/<provider>/<template>/runNN/<mode>.json`` for a template
other than the study's, ``.../<format>/runNN/<mode>.json`` for an answer format other than free, asked with
the JSON Schema of :mod:`.answer_schema`), one answer per constraint; each answer's provenance (cache
key, prompt hash, template hash, parameters, timestamp, and for a schema its record) sits in the file's
``generation`` block. The judge reads the raw text, so an
answer without a usable constraint is filed too (and reported as unusable here), and becomes a failure
in the tables. A request that got no answer (HTTP error, timeout, budget, rate limit, offline miss) is
filed as such in the ``generation`` block (``status: "no-answer"``, the engine's message and one-word
reason), never as an answer: the run is then *missing* until the next ``generate`` fills it in (the
cache keeps every answer that did arrive), and an earlier answer is never replaced by "no answer". A
run file that ``generate`` did not write is never overwritten. The raw logs are
``runs/.log/<provider>.jsonl``; they replay when the cache lacks an answer.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from benchmark.core.fileio import dumps_json, write_text_atomic
from benchmark.core.rows import FREE_FORMAT, STUDY_TEMPLATE
from benchmark.llm.answer_formats import (
    FORMATS,
    FREE,
    SCHEMA,
    AnswerSchema,
    RequestedSchema,
    answer_schema_record,
)
from benchmark.llm.ledger import ledger_entry
from benchmark.llm.naming import log_file_name
from benchmark.llm.prompt import PromptTemplate, load_template
from benchmark.llm.requests import Job, JobResult, LlmRequest
from benchmark.llm.task import FILED_NO_ANSWER, FILED_OK, FILED_REFUSED, FILED_UNUSABLE, Filed
from benchmark.llm.templates import STEPWISE, TERSE, TemplateCatalog, describe_templates, template_record
from benchmark.tracks.ocl.dataset import Dataset
from benchmark.tracks.ocl.runs import NO_ANSWER, RUN_FORMAT, RUN_VERSION, run_path
from benchmark.tracks.ocl.scoring.extract import extract_constraint
from benchmark.tracks.ocl.variants import ORIGINAL, Variant, Variants

PACKAGE = "benchmark.tracks.ocl"
PART = "prompt"
TEMPLATES = TemplateCatalog(
    PACKAGE,
    {
        STUDY_TEMPLATE: {PART: "prompt_template.md"},
        TERSE: {PART: "prompt_terse.md"},
        STEPWISE: {PART: "prompt_stepwise.md"},
    },
)
BUILTIN_TEMPLATE = (PACKAGE, TEMPLATES.files[STUDY_TEMPLATE][PART])
PLACEHOLDERS = frozenset({"modelName", "plantuml", "specification", "constraintId"})
REQUIRED = frozenset({"plantuml", "specification"})
GENERATOR = "atlbench generate"
LOG_DIR = ".log"


def ocl_template(path: str | Path | None = None, name: str = STUDY_TEMPLATE) -> PromptTemplate:
    """The template in ``path``, or the shipped template ``name``, checked."""
    template = load_template(path, builtin=(PACKAGE, TEMPLATES.files[name][PART]))
    template.check(PLACEHOLDERS, REQUIRED)
    return template


@dataclass(frozen=True)
class Request:
    model: str
    constraint: str
    variant: Variant

    @property
    def key(self) -> str:
        return f"{self.model}/{self.constraint}"


def _selected(key: str, selectors: Sequence[str]) -> bool:
    return not selectors or any(s.lower() in key.lower() for s in selectors)


@dataclass(frozen=True)
class OclJob:
    """What a job label stands for: a request, a template (by name), an answer format and a run index."""

    item: Request
    template: str
    run_index: int
    answer_format: str = FREE_FORMAT


def request_schema(item: Request, answer_format: str) -> AnswerSchema | None:
    """The answer schema of one constraint's request in a format (``None``: free); grounded on the classes
    of the model as the request's variant names them."""
    from benchmark.tracks.ocl.answer_schema import answer_schema, grounded_schema

    if answer_format == FREE:
        return None
    if answer_format == SCHEMA:
        return answer_schema()
    return grounded_schema(sorted(item.variant.model.classes), item.constraint)


class OclTask:
    """The jobs of one mode: every selected (model, constraint) times every template and run index."""

    def __init__(
        self,
        variants: Variants,
        dataset: Dataset,
        request: Any,
        templates: PromptTemplate | Mapping[str, PromptTemplate],
    ) -> None:
        from benchmark.core.errors import ConfigurationError

        self.root = dataset.root
        self.config = request.config
        self.runs = sorted(set(request.runs))
        self.redactor = request.redactor
        self.templates = (
            {STUDY_TEMPLATE: templates} if isinstance(templates, PromptTemplate) else dict(templates)
        )
        self.mode = request.options.get("ocl_mode") or ORIGINAL
        self.seed = variants.seed
        self.answer_formats = request.chosen_formats(FORMATS)
        self.requests: list[Request] = []
        for name, entry in dataset.models.items():
            chosen = [cid for cid in entry.constraints if _selected(f"{name}/{cid}", request.selectors)]
            if not chosen:
                continue
            variant = variants.variant(name, self.mode)
            self.requests += [Request(name, cid, variant) for cid in chosen]
        if not self.requests:
            raise ConfigurationError(f"no constraint matches {' '.join(request.selectors)}", field="-k")
        # Every schema is built, and checked against the provider's dialect, before anything is sent.
        self.schemas: dict[tuple[str, str], RequestedSchema | None] = {}
        for item in self.requests:
            for name in self.answer_formats:
                schema = request_schema(item, name)
                self.schemas[(item.key, name)] = (
                    None if schema is None else self.config.requested_schema(schema)
                )
        self._by_label: dict[str, OclJob] = {}

    @property
    def template(self) -> PromptTemplate:
        """The template of a task that asks with one (the study's, or its replacement)."""
        (only,) = self.templates.values()
        return only

    def prompt(self, item: Request, template: str = STUDY_TEMPLATE) -> str:
        return self.templates[template].render(
            {
                "modelName": item.variant.model.name,
                "plantuml": item.variant.puml.strip(),
                "specification": item.variant.texts[item.constraint],
                "constraintId": item.constraint,
            }
        )

    def run_name(self, index: int) -> str:
        return f"run{index:02d}"

    def output_path(self, run_index: int, template: str = STUDY_TEMPLATE, answer_format: str = FREE) -> Path:
        run = self.run_name(run_index)
        return run_path(self.root, self.config.name, run, self.mode, template, answer_format)

    def output_of(self, job: Job) -> Path:
        found = self._by_label[job.label]
        return self.output_path(job.request.run_index, found.template, found.answer_format)

    def log_path(self) -> Path:
        return self.root / "runs" / LOG_DIR / log_file_name(self.config.name)

    def jobs(self) -> list[Job]:
        jobs = []
        for item in self.requests:
            for template in self.templates:
                prompt = self.prompt(item, template)
                named = "" if template == STUDY_TEMPLATE else f" {template}"
                for answer_format in self.answer_formats:
                    named_format = "" if answer_format == FREE else f" {answer_format}"
                    schema = self.schemas[(item.key, answer_format)]
                    for index in self.runs:
                        label = f"{item.key} {self.mode}{named}{named_format} {self.run_name(index)}"
                        self._by_label[label] = OclJob(item, template, index, answer_format)
                        request = LlmRequest(
                            prompt=prompt,
                            parameters=self.config.parameters,
                            run_index=index,
                            answer_schema=schema,
                        )
                        jobs.append(Job(request=request, label=label, log_path=self.log_path()))
        return jobs

    def _document(
        self, path: Path, run_index: int, template: str, answer_format: str = FREE
    ) -> dict[str, Any] | None:
        """The run file to add an answer to (a new one when absent); ``None`` when it is not ours."""
        if not path.exists():
            document: dict[str, Any] = {
                "format": RUN_FORMAT,
                "version": RUN_VERSION,
                "provider": self.config.name,
                "model": self.config.model,
                "run": self.run_name(run_index),
                "mode": self.mode,
            }
            if template != STUDY_TEMPLATE:
                document["template"] = template
            if answer_format != FREE:
                document["answerFormat"] = answer_format
            return document | {
                "seed": self.seed,
                "answers": {},
                "generation": {"generator": GENERATOR, "answers": {}},
            }
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return None
        generation = data.get("generation") if isinstance(data, dict) else None
        if not isinstance(generation, dict) or generation.get("generator") != GENERATOR:
            return None
        return data

    def file(self, result: JobResult) -> Filed:
        label = result.job.label
        found = self._by_label[label]
        item, name, answer_format = found.item, found.template, found.answer_format
        index = result.job.request.run_index
        path = self.output_path(index, name, answer_format)
        document = self._document(path, index, name, answer_format)
        if document is None:
            return Filed(
                label,
                FILED_REFUSED if result.completion is not None else FILED_NO_ANSWER,
                path=path,
                message=f"{path} exists and was not written by atlbench generate; not overwritten"
                + ("" if result.completion is not None else f" ({result.error})"),
            )
        if result.completion is None:
            return self._file_no_answer(item, result, path, document)
        completion = result.completion
        request = result.job.request
        document["answers"].setdefault(item.model, {})[item.constraint] = completion.text
        document["generation"]["answers"][item.key] = {
            "providerKind": self.config.kind,
            "promptTemplate": template_record(self.templates[name]),
            "promptSha256": request.prompt_sha256,
            "parameters": request.parameters.to_json(index),
            "cacheKey": result.key,
            "timestamp": completion.created_at,
            "usage": {"inputTokens": completion.input_tokens, "outputTokens": completion.output_tokens},
            "responseModel": completion.response_model,
            "finishReason": completion.finish_reason,
            "transport": completion.transport,
            "ledger": ledger_entry(result, self.config),
        }
        checked = answer_schema_record(request.answer_schema, completion.text)
        if checked is not None:
            document["generation"]["answers"][item.key]["answerSchema"] = checked
        changed = self._write(path, document)
        if extract_constraint(completion.text).text is None:
            return Filed(
                label,
                FILED_UNUSABLE,
                path=path,
                message="answer unusable: no `context C inv: expr' in it (filed; judged a syntax error)",
                changed=changed,
            )
        return Filed(label, FILED_OK, path=path, changed=changed)

    def _file_no_answer(
        self, item: Request, result: JobResult, path: Path, document: dict[str, Any]
    ) -> Filed:
        """Record that the request got no answer (the run is missing until one arrives); an answer filed
        earlier is kept."""
        label = result.job.label
        reason = result.error or "no answer (no reason given)"
        if item.constraint in document["answers"].get(item.model, {}):
            return Filed(label, FILED_NO_ANSWER, path=path, message=f"{reason}; the earlier answer was kept")
        request = result.job.request
        document["generation"]["answers"][item.key] = {
            "status": NO_ANSWER,
            "error": reason,
            "missing": result.missing,
            "providerKind": self.config.kind,
            "promptSha256": request.prompt_sha256,
            "parameters": request.parameters.to_json(request.run_index),
            "cacheKey": result.key,
            "attempts": result.attempts,
            "ledger": ledger_entry(result, self.config),
        }
        checked = answer_schema_record(request.answer_schema, None)
        if checked is not None:
            document["generation"]["answers"][item.key]["answerSchema"] = checked
        changed = self._write(path, document)
        return Filed(
            label,
            FILED_NO_ANSWER,
            path=path,
            message=f"{reason}; filed as missing (run generate again to fill it in)",
            changed=changed,
        )

    def _write(self, path: Path, document: dict[str, Any]) -> bool:
        """Write the run file (redacted, in a stable order whatever order the answers arrive in) unless
        it already holds exactly that; whether it changed."""
        document["answers"] = {m: dict(sorted(a.items())) for m, a in sorted(document["answers"].items())}
        document["generation"]["answers"] = dict(sorted(document["generation"]["answers"].items()))
        text = dumps_json(self.redactor.data(document))
        changed = not path.exists() or path.read_text(encoding="utf-8") != text
        if changed:
            write_text_atomic(path, text)
        return changed


class OclTrackTask:
    """The OCL track's :class:`~benchmark.llm.task.TrackTask`: a single pass of :class:`OclTask`."""

    def __init__(self, variants: Variants, dataset: Dataset, request: Any) -> None:
        self.templates = {
            name: ocl_template(path, name) for name, path in request.chosen_templates(TEMPLATES)
        }
        self.task = OclTask(variants, dataset, request, self.templates)

    def passes(self) -> Iterator[OclTask]:
        yield self.task

    def describe(self) -> dict[str, Any]:
        described = {
            **describe_templates(self.templates),
            "oclMode": self.task.mode,
            "oclSeed": self.task.seed,
        }
        if self.task.answer_formats != (FREE,):  # said only when a schema is sent
            described["answerFormats"] = list(self.task.answer_formats)
        return described

    def log_files(self) -> list[Path]:
        return sorted((self.task.root / "runs" / LOG_DIR).glob("*.jsonl"))


__all__ = ["TEMPLATES", "OclTask", "OclTrackTask", "ocl_template"]
