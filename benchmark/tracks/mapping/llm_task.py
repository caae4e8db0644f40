"""The ATL mapping track's task: one prompt per transformation, N runs, answers filed as jJodel exports.

Prompt: the template filled with the folder's source and target metamodel views (which is which comes from the
ATL module header, through :mod:`benchmark.tracks.mapping.collection`); for a task variant
(``--variant``, ``docs/VARIANTS.md``), the views as the variant renames or reorders them, or, for
``name-only``, the transformation's and the metamodels' names in ``prompt_name_only.md``. A variant's runs
are filed in ``runs/<variant>/`` with a ``variant`` block recording the renaming. Answer: read by the one
answer decoder,
:func:`benchmark.tracks.mapping.scoring.answers.decode_answer` (the array bare, in a code fence, after prose,
or as the one array member of an object), and type-checked with
:func:`benchmark.tracks.mapping.scoring.suggestions.parse_suggestions`. Filing, in
``<folder>/runs/<provider>-<model>-runNN.json`` (``docs/LLM_RUNS.md``, "Failures"):

* a usable answer becomes a jJodel export whose ``mappings`` are the answer's entries converted one for
  one (names, confidence labels, duplicates and unusable entries kept as the model wrote them, so the
  comparator counts exactly what it would count on the raw answer), plus a ``generation`` block with
  ``status = "ok"`` and ``answerShape`` (how the array was found);
* an answer that holds no usable mapping list becomes an **unusable run**: the same file, with
  ``generation.status = "unusable"``, the decoder's message and the raw text, and *no* ``mappings`` key.
  The scorer scores it as a run with no suggestions and counts it as unusable: a model's failures are
  results, not dropped runs;
* no answer at all (timeout, HTTP error, offline cache miss) files a **missing run**: a stub with
  ``generation.status = "no-answer"`` and the reason, no ``mappings``, that the scorer lists as missing
  (never as zero) and that the next ``generate`` replaces. An earlier answer already on disk is kept.

Every template chosen (``--template``, :mod:`benchmark.llm.templates`) is asked in the same pass; a run
of a template other than the study's is filed as ``<provider>-<model>-<template>-runNN.json`` with
``analysis.template`` naming it. So is every answer format chosen (``--answer-format``,
:mod:`benchmark.tracks.mapping.answer_schema`): a run asked with a schema is filed as
``...-<format>-runNN.json`` with ``analysis.answerFormat`` naming it and ``generation.answerSchema``
recording the dialect, the schema's hash and whether the answer is an instance of it.

A file that ``generate`` did not write (a hand-exported jJodel file, an imported run) is never
overwritten; that run is reported as refused.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, cast

from benchmark.core.errors import BenchmarkError, ConfigurationError, InputFormatError
from benchmark.core.fileio import dumps_json, write_text_atomic
from benchmark.core.rows import FREE_FORMAT, STUDY_TEMPLATE
from benchmark.lang.ecore.view import MetamodelView
from benchmark.llm.answer_formats import (
    FORMATS,
    FREE,
    GROUNDED,
    SCHEMA,
    RequestedSchema,
    answer_schema_record,
)
from benchmark.llm.config import ProviderConfig
from benchmark.llm.ledger import ledger_entry
from benchmark.llm.naming import log_file_name, run_file_name
from benchmark.llm.prompt import PromptTemplate
from benchmark.llm.redact import Redactor
from benchmark.llm.requests import Job, JobResult, LlmRequest
from benchmark.llm.task import FILED_NO_ANSWER, FILED_OK, FILED_REFUSED, FILED_UNUSABLE, Filed
from benchmark.llm.templates import describe_templates, template_record
from benchmark.tracks.mapping.jjodel import KIND_ATTRIBUTE, KIND_CLASS, MappingEntry, export_document
from benchmark.tracks.mapping.prompt import mapping_prompt, name_only_prompt, name_only_template
from benchmark.tracks.mapping.scoring.answers import DecodedAnswer, decode_answer
from benchmark.tracks.mapping.scoring.run_status import RUN_NO_ANSWER, RUN_OK, RUN_UNUSABLE
from benchmark.tracks.mapping.variants.apply import renamed_views
from benchmark.tracks.mapping.variants.names import DEFAULT_SEED, NAME_ONLY, ORIGINAL
from benchmark.tracks.mapping.variants.renaming import Renaming
from benchmark.tracks.mapping.variants.rules import draw_renaming

GENERATOR = "atlbench generate"
STATUS_OK = RUN_OK
STATUS_UNUSABLE = RUN_UNUSABLE
STATUS_NO_ANSWER = RUN_NO_ANSWER
RUNS_DIR = "runs"
LOG_DIR = ".log"


@dataclass(frozen=True)
class MappingCase:
    """One transformation folder on one task variant, ready to prompt: names and metamodel views (as
    JSON, as the variant shows them), and the variant's renaming (``None`` for the original task)."""

    name: str
    folder: Path
    source_name: str
    target_name: str
    source_view: dict[str, Any]
    target_view: dict[str, Any]
    variant: str = ORIGINAL
    renaming: Renaming | None = None
    transformation: str = ""  # the ATL module's name, which the name-only prompt gives
    views: tuple[MetamodelView, MetamodelView] | None = None  # as the variant shows them (export)

    @property
    def runs_dir(self) -> Path:
        runs = self.folder / RUNS_DIR
        return runs if self.variant == ORIGINAL else runs / self.variant

    @property
    def label(self) -> str:
        """``book2publication`` (the original task) or ``book2publication synonym``."""
        return self.name if self.variant == ORIGINAL else f"{self.name} {self.variant}"


def _matches(name: str, selectors: Sequence[str]) -> bool:
    return not selectors or any(s.casefold() in name.casefold() for s in selectors)


def load_cases(
    root: str | Path,
    selectors: Sequence[str] = (),
    *,
    ground_truth_loader: Callable[[Path], Any] | None = None,
    variants: Sequence[str] = (ORIGINAL,),
    variant_seed: int = DEFAULT_SEED,
) -> list[MappingCase]:
    """The selected transformations of a validation tree (``-k``: case-insensitive substrings, any), on
    each of ``variants`` (their renamings drawn with ``variant_seed``).

    Raises :class:`ConfigurationError` when nothing is selected, and one error listing every selected
    folder whose metamodels cannot be resolved, before any token is spent.
    """
    from benchmark.core.diskcache import DiskCache
    from benchmark.tracks.mapping.discovery import discover
    from benchmark.tracks.mapping.ground_truth import GroundTruths, load_ground_truth, resolve_metamodels

    discovery = discover(root)
    # the track's loader: a metamodel with the same bytes as one already loaded reuses its view (the ATL
    # Zoo tree's 210 metamodel files hold 87 contents); no disk cache, generate keeps none of the track's
    views = GroundTruths(discovery, DiskCache(None)).view
    load = ground_truth_loader or load_ground_truth
    selected = [t for t in discovery.transformations if _matches(t.name, selectors)]
    if not selected:
        available = ", ".join(t.name for t in discovery.transformations) or "none"
        what = f"matches -k {' -k '.join(selectors)}" if selectors else "was found"
        raise ConfigurationError(f"no transformation {what}; available: {available}", file=str(root))
    cases: list[MappingCase] = []
    problems: list[str] = []
    for folder in selected:
        try:
            document = load(folder.atl_file)
            metamodels = resolve_metamodels(
                document, folder.metamodel_files, loader=views, folder=folder.path
            )
        except BenchmarkError as error:
            problems.append(f"{folder.name}: {error}")
            continue
        if metamodels.source is None or metamodels.target is None:
            problems.append(f"{folder.name}: " + ("; ".join(metamodels.notes) or "metamodels not found"))
            continue
        for variant in variants:
            renaming = draw_renaming(variant, metamodels.source, metamodels.target, variant_seed)
            source, target = renamed_views(renaming, metamodels.source, metamodels.target)
            assert source is not None and target is not None
            cases.append(
                MappingCase(
                    name=folder.name,
                    folder=folder.path,
                    source_name=source.name,
                    target_name=target.name,
                    source_view=source.to_json(),
                    target_view=target.to_json(),
                    variant=variant,
                    renaming=renaming,
                    transformation=document.transformation.name,
                    views=(source, target),
                )
            )
    if problems:
        raise ConfigurationError(
            "cannot build prompts for " + "; ".join(problems), file=str(root), field="transformations"
        )
    return cases


def case_prompt(case: MappingCase, template: PromptTemplate) -> str:
    """The prompt of one case: its metamodel views in ``template``, or, for ``name-only``, the names in
    the shipped name-only template."""
    if case.variant == NAME_ONLY:
        return name_only_prompt(
            name_only_template(),
            transformation=case.transformation or case.name,
            source_name=case.source_name,
            target_name=case.target_name,
        )
    return mapping_prompt(
        template,
        source_name=case.source_name,
        source_view_json=case.source_view,
        target_name=case.target_name,
        target_view_json=case.target_view,
    )


def parse_answer(text: str) -> DecodedAnswer:
    """The answer's mapping entries and their shape, or :class:`InputFormatError` saying why there are
    none (the one answer decoder, then the answer schema on every entry)."""
    from benchmark.tracks.mapping.scoring.suggestions import parse_suggestions

    decoded = decode_answer(text, source="response")
    parse_suggestions(decoded.entries, source="response")  # type-checks every entry against the schema
    return decoded


def answer_entry(entry: dict[str, Any]) -> MappingEntry:
    """One answer object as an export entry, values as written (the reader normalises both shapes alike).

    The kind follows the reader's rule for answers: a class mapping when neither attribute names a
    feature, else a feature mapping (``attribute`` in jJodel's vocabulary). Missing classes stay
    ``None``: the reader lists such entries as invalid, as it would for the raw answer.
    """
    from benchmark.tracks.mapping.scoring.suggestions import normalise_name

    source_feature = entry.get("sourceAttribute")
    target_feature = entry.get("targetAttribute")
    is_class = normalise_name(source_feature) is None and normalise_name(target_feature) is None
    return MappingEntry(
        kind=KIND_CLASS if is_class else KIND_ATTRIBUTE,
        source_class=cast(str, entry.get("sourceClass")),
        target_class=cast(str, entry.get("targetClass")),
        source_feature=source_feature,
        target_feature=target_feature,
        confidence=entry.get("confidence"),
        reason=entry.get("reason"),
        guard_hint=entry.get("guardHint"),
        conversion_hint=entry.get("conversionHint"),
    )


def _provenance(result: JobResult, config: ProviderConfig, template: PromptTemplate) -> dict[str, Any]:
    """What was asked, of whom: the part of the generation block that needs no answer."""
    request = result.job.request
    return {
        "generator": GENERATOR,
        "providerKind": config.kind,
        "baseUrl": config.endpoint["baseUrl"],
        "promptTemplate": template_record(template),
        "promptSha256": request.prompt_sha256,
        "parameters": request.parameters.to_json(request.run_index),
        "run": request.run_index,
        "cacheKey": result.key,
    }


def generation_block(
    result: JobResult, config: ProviderConfig, template: PromptTemplate, **extra: Any
) -> dict[str, Any]:
    """Provenance of one run. Everything in it is replayed from the cache, so offline runs write the
    same bytes; the tool version and the local template path live in the raw log's spec line instead."""
    completion = result.completion
    assert completion is not None
    block: dict[str, Any] = {"generator": GENERATOR, "status": STATUS_OK}
    block |= _provenance(result, config, template)
    block |= {
        "timestamp": completion.created_at,
        "usage": {"inputTokens": completion.input_tokens, "outputTokens": completion.output_tokens},
        "latencySeconds": completion.latency_seconds,
        "responseModel": completion.response_model,
        "finishReason": completion.finish_reason,
        "transport": completion.transport,
        "ledger": ledger_entry(result, config),
    }
    if completion.batch_id is not None:
        block["batchId"] = completion.batch_id
    block.update(extra)
    return block


def _export(
    case: MappingCase,
    config: ProviderConfig,
    entries: list[Any],
    generation: dict[str, Any],
    template_name: str = STUDY_TEMPLATE,
    answer_format: str = FREE_FORMAT,
) -> dict[str, Any]:
    extra: dict[str, Any] = {"generation": generation}
    if case.renaming is not None:  # a task variant: the renaming it was asked in, as a value
        extra["variant"] = case.renaming.to_json()
    return export_document(
        transformation=case.name,
        source=case.source_name,
        target=case.target_name,
        provider=config.name,
        model=config.model,
        model_label=config.model_label,
        mappings=[answer_entry(entry) for entry in entries],
        extra=extra,
        template=template_name,
        answer_format=answer_format,
    )


def _schema_record(result: JobResult) -> dict[str, Any]:
    """``answerSchema`` of the generation block, for a request that sent one (nothing for a free one)."""
    completion = result.completion
    record = answer_schema_record(result.job.request.answer_schema, completion.text if completion else None)
    return {} if record is None else {"answerSchema": record}


def run_document(
    case: MappingCase,
    config: ProviderConfig,
    template: PromptTemplate,
    result: JobResult,
    template_name: str = STUDY_TEMPLATE,
    answer_format: str = FREE_FORMAT,
) -> tuple[dict[str, Any], str | None]:
    """(document, decode error). A decode error gives the unusable-run document of the module doc."""
    assert result.completion is not None
    text = result.completion.text
    checked = _schema_record(result)
    try:
        decoded = parse_answer(text)
    except InputFormatError as error:
        message = str(error)
        outcome = {"status": STATUS_UNUSABLE, "error": message, "rawResponse": text, **checked}
        block = generation_block(result, config, template, **outcome)
        document = _export(case, config, [], block, template_name, answer_format)
        # No "mappings" at all: a reader must not mistake an unusable answer for an empty one.
        del document["mappings"]
        return document, message
    outcome = {"answerEntries": len(decoded.entries), **decoded.to_json(), **checked}
    block = generation_block(result, config, template, **outcome)
    return _export(case, config, decoded.entries, block, template_name, answer_format), None


def missing_document(
    case: MappingCase,
    config: ProviderConfig,
    template: PromptTemplate,
    result: JobResult,
    template_name: str = STUDY_TEMPLATE,
    answer_format: str = FREE_FORMAT,
) -> dict[str, Any]:
    """The stub of a run that got no answer: who was asked what, and why nothing came back."""
    assert result.completion is None
    block: dict[str, Any] = {"generator": GENERATOR, "status": STATUS_NO_ANSWER}
    block |= _provenance(result, config, template)
    block |= {
        "error": result.error or "no answer (no reason given)",
        "attempts": result.attempts,
        "ledger": ledger_entry(result, config),
        **_schema_record(result),
    }
    document = _export(case, config, [], block, template_name, answer_format)
    del document["mappings"]
    return document


def generated_status(path: Path) -> str | None:
    """``generation.status`` of a run file that ``atlbench generate`` wrote; ``None`` for any other file
    (absent, unreadable, or not written by ``generate``)."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    generation = data.get("generation") if isinstance(data, dict) else None
    if not isinstance(generation, dict) or generation.get("generator") != GENERATOR:
        return None
    return str(generation.get("status"))


def written_by_generate(path: Path) -> bool:
    """Whether an existing run file came from ``atlbench generate`` (and may therefore be replaced)."""
    return generated_status(path) is not None


@dataclass(frozen=True)
class MappingJob:
    """What a job label stands for: a case, a template (by name), an answer format and a run index."""

    case: MappingCase
    template: str
    run_index: int
    answer_format: str = FREE_FORMAT


def case_schema(case: MappingCase, answer_format: str) -> Any:
    """The :class:`~benchmark.llm.answer_formats.AnswerSchema` of a case in a format (``None``: free).
    A task that shows no metamodel has no grounded schema (it would show what the prompt withholds)."""
    from benchmark.tracks.mapping.answer_schema import answer_schema, grounded_schema

    if answer_format == FREE:
        return None
    if answer_format == SCHEMA:
        return answer_schema()
    if case.variant == NAME_ONLY or case.views is None:
        raise ConfigurationError(
            f"{case.label}: the {NAME_ONLY} variant shows no metamodel, so it has no {GROUNDED} answer"
            " schema (its enumerations would show the model what the prompt withholds)",
            field="--answer-format",
        )
    return grounded_schema(*case.views)


class MappingTask:
    """Jobs for every (case, template, run index); files each result as described in the module
    docstring. ``templates`` maps a template's name to its text (one template: the study's)."""

    def __init__(
        self,
        cases: Sequence[MappingCase],
        templates: PromptTemplate | Mapping[str, PromptTemplate],
        config: ProviderConfig,
        runs: Iterable[int],
        redactor: Redactor,
        answer_formats: Sequence[str] = (FREE,),
    ) -> None:
        self.cases = list(cases)
        self.templates = (
            {STUDY_TEMPLATE: templates} if isinstance(templates, PromptTemplate) else dict(templates)
        )
        self.config = config
        self.runs = sorted(set(runs))
        self.redactor = redactor
        self.answer_formats = tuple(answer_formats)
        # Every schema is built, and checked against the provider's dialect, before anything is sent.
        self.schemas: dict[tuple[str, str], RequestedSchema | None] = {}
        for case in self.cases:
            for name in self.answer_formats:
                schema = case_schema(case, name)
                self.schemas[(case.label, name)] = None if schema is None else config.requested_schema(schema)
        self._jobs: dict[str, MappingJob] = {}

    @property
    def template(self) -> PromptTemplate:
        """The template of a task that asks with one (the study's, or its replacement)."""
        (only,) = self.templates.values()
        return only

    def prompt(self, case: MappingCase, template: str = STUDY_TEMPLATE) -> str:
        return case_prompt(case, self.templates[template])

    def output_path(
        self, case: MappingCase, run_index: int, template: str = STUDY_TEMPLATE, answer_format: str = FREE
    ) -> Path:
        name = run_file_name(self.config.name, self.config.model, run_index, template, answer_format)
        return case.runs_dir / name

    def log_path(self, case: MappingCase) -> Path:
        return case.runs_dir / LOG_DIR / log_file_name(self.config.name)

    def case_of(self, job: Job) -> MappingCase:
        return self._jobs[job.label].case

    def output_of(self, job: Job) -> Path:
        found = self._jobs[job.label]
        return self.output_path(found.case, found.run_index, found.template, found.answer_format)

    def jobs(self) -> list[Job]:
        jobs: list[Job] = []
        for case in self.cases:
            for template in self.templates:
                prompt = self.prompt(case, template)
                named = "" if template == STUDY_TEMPLATE else f" {template}"
                for answer_format in self.answer_formats:
                    formatted = "" if answer_format == FREE else f" {answer_format}"
                    schema = self.schemas[(case.label, answer_format)]
                    for run_index in self.runs:
                        label = f"{case.label}{named}{formatted} run{run_index:02d}"
                        self._jobs[label] = MappingJob(case, template, run_index, answer_format)
                        request = LlmRequest(
                            prompt=prompt,
                            parameters=self.config.parameters,
                            run_index=run_index,
                            answer_schema=schema,
                        )
                        jobs.append(Job(request=request, label=label, log_path=self.log_path(case)))
        return jobs

    def file(self, result: JobResult) -> Filed:
        label = result.job.label
        found = self._jobs[label]
        case, name, answer_format = found.case, found.template, found.answer_format
        template = self.templates[name]
        path = self.output_path(case, result.job.request.run_index, name, answer_format)
        existing = generated_status(path) if path.exists() else None
        if path.exists() and existing is None:
            return Filed(
                label,
                FILED_REFUSED,
                path=path,
                message=f"{path} exists and was not written by atlbench generate; not overwritten"
                " (move it away or use another provider name)",
            )
        if result.completion is None:
            reason = result.error or "no answer (no reason given)"
            if existing not in (None, STATUS_NO_ANSWER):  # never replace an answer by "no answer"
                return Filed(
                    label,
                    FILED_NO_ANSWER,
                    path=path,
                    message=f"{reason}; the earlier answer in {path} was kept",
                )
            document = missing_document(case, self.config, template, result, name, answer_format)
            changed = self._write(path, document)
            return Filed(
                label,
                FILED_NO_ANSWER,
                path=path,
                message=f"{reason}; filed as a missing run (run generate again to fill it in)",
                changed=changed,
            )
        document, error = run_document(case, self.config, template, result, name, answer_format)
        changed = self._write(path, document)
        if error is not None:
            return Filed(
                label, FILED_UNUSABLE, path=path, message=f"answer unusable: {error}", changed=changed
            )
        return Filed(label, FILED_OK, path=path, changed=changed)

    def _write(self, path: Path, document: dict[str, Any]) -> bool:
        """Write ``document`` (redacted) unless the file already holds exactly it; whether it changed."""
        text = dumps_json(self.redactor.data(document))
        changed = not path.exists() or path.read_text(encoding="utf-8") != text
        if changed:
            write_text_atomic(path, text)
        return changed


class MappingTrackTask:
    """The mapping track's :class:`~benchmark.llm.task.TrackTask`: a single pass of :class:`MappingTask`,
    over every template chosen."""

    def __init__(self, root: Path, request: Any) -> None:
        from benchmark.tracks.mapping.prompt import TEMPLATES, mapping_template

        self.templates = {
            name: mapping_template(path, name) for name, path in request.chosen_templates(TEMPLATES)
        }
        self.variants = tuple(request.options.get("atl_variant") or (ORIGINAL,))
        self.variant_seed = request.options.get("atl_variant_seed", DEFAULT_SEED)
        self.cases = load_cases(
            root, request.selectors, variants=self.variants, variant_seed=self.variant_seed
        )
        self.answer_formats = request.chosen_formats(FORMATS)
        self.task = MappingTask(
            self.cases, self.templates, request.config, request.runs, request.redactor, self.answer_formats
        )

    def passes(self) -> Any:
        yield self.task

    def describe(self) -> dict[str, Any]:
        described: dict[str, Any] = describe_templates(self.templates)
        if self.variants != (ORIGINAL,):  # said only when a variant is asked for
            described["variants"] = list(self.variants)
            described["variantSeed"] = self.variant_seed
        if NAME_ONLY in self.variants:
            described["nameOnlyTemplate"] = name_only_template().describe()
        if self.answer_formats != (FREE,):  # said only when a schema is sent
            described["answerFormats"] = list(self.answer_formats)
        return described

    def log_files(self) -> list[Path]:
        return [path for case in self.cases for path in sorted((case.runs_dir / LOG_DIR).glob("*.jsonl"))]
