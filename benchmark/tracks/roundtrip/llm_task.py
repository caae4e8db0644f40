"""The round-trip track's LLM task: two chained passes through the shared engine (``docs/ROUNDTRIP.md`` §12).

For every selected case (pair, operator), every k of ``--examples`` and every run index:

1. **inverse pass**: the prompt is the example pairs E, then Δ(T), then the inverse task; the answer is
   filed as a run file (:mod:`.runfile`) with status ``ok`` when a model of Ecore can be extracted from it
   (:mod:`.answer`), ``unusable`` otherwise. An unusable answer also files the forward stage as
   ``not-run``, with the reason: there is no S' to prompt with, and both stages count as failures;
2. **forward pass**, built from the answers the inverse pass filed: the prompt is the same E (same pairs,
   same order), then the S' *extracted from the model's own inverse answer*, then the forward task.

Both passes go through the engine (cache, raw logs, batches, retries), so a replay (``--offline``, the
cache, committed logs) reproduces the inverse answers, hence the same S', hence the same forward prompts
and answers. A job without any answer (HTTP error, timeout, budget, rate limit, offline miss) files its
stage as ``no-answer`` with the engine's reason: a *missing* stage, listed and never scored; an inverse
stage without answer also files its forward stage so (it was never asked: there is no S'). The next
``generate`` fills both in (the cache keeps every answer that did arrive); an earlier answer on disk is
never replaced by "no answer".

Every template chosen with ``--template`` (``docs/TEMPLATES.md``) is asked in the same passes; each run's
forward stage uses the template (and system message) of its inverse stage. So is every answer format
chosen with ``--answer-format`` (``free``, or ``schema``: the JSON envelope of :mod:`.answer_schema`, for both
stages of a run), filed as ``<provider>-<model>[-<template>]-<format>-k<k>-...`` with an ``answerFormat``
field and the envelope's record in ``generation.answerSchema``.

Files that ``atlbench generate`` did not write (synthetic runs, a study's imported answers) are never
overwritten: that stage is reported as refused.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from benchmark.core.errors import BenchmarkError, ConfigurationError
from benchmark.core.fileio import dumps_json, sha256_file, sha256_text, write_text_atomic
from benchmark.core.rows import FREE_FORMAT, STUDY_TEMPLATE
from benchmark.llm.answer_formats import RequestedSchema, answer_schema_record
from benchmark.llm.ledger import ledger_entry
from benchmark.llm.naming import log_file_name
from benchmark.llm.requests import Job, JobResult, LlmRequest
from benchmark.llm.task import FILED_NO_ANSWER, FILED_OK, FILED_REFUSED, FILED_UNUSABLE, Filed
from benchmark.tracks.roundtrip.names import FORWARD, INVERSE
from benchmark.tracks.roundtrip.prompt import (
    EXAMPLE_RULE,
    TEMPLATES,
    RoundTripTemplates,
    example_pairs,
    load_templates,
    model_text,
    render_examples,
    stage_prompt,
)
from benchmark.tracks.roundtrip.reading.runfile import (
    LOG_DIR,
    RUNS_DIR,
    STATUS_NO_ANSWER,
    STATUS_NOT_RUN,
    STATUS_OK,
    StageRun,
    answer_status,
    generator_of,
    read_run,
    run_path,
)
from benchmark.tracks.roundtrip.study.cases import RoundTripCase, Study

GENERATOR = "atlbench generate"


@dataclass(frozen=True)
class StageItem:
    """One stage evaluation to ask for: its case, k, run, examples, prompt and where its answer goes."""

    case: RoundTripCase
    k: int
    run: int
    stage: str
    examples: tuple[str, ...]
    prompt: str
    path: Path
    input: dict[str, Any]
    template: str = STUDY_TEMPLATE
    answer_format: str = FREE_FORMAT

    @property
    def label(self) -> str:
        named = "" if self.template == STUDY_TEMPLATE else f" {self.template}"
        named += "" if self.answer_format == FREE_FORMAT else f" {self.answer_format}"
        return f"{self.case.case_id} k{self.k}{named} run{self.run:02d} {self.stage}"


def select_cases(study: Study, selectors: Sequence[str]) -> list[RoundTripCase]:
    """The cases whose ``<pair>/<operator>`` contains one of the selectors (any case), all without any."""
    chosen = [
        case
        for case in study.cases
        if not selectors or any(s.casefold() in case.case_id.casefold() for s in selectors)
    ]
    if not chosen:
        available = ", ".join(c.case_id for c in study.cases[:12]) + (
            ", ..." if len(study.cases) > 12 else ""
        )
        raise ConfigurationError(
            f"no round-trip case matches -k {' -k '.join(selectors)}; cases: {available}"
        )
    return chosen


class StagePass:
    """One pass (one stage) as a :class:`~benchmark.llm.task.PlannedTask` of the shared engine."""

    def __init__(self, owner: RoundTripLlmTask, stage: str, items: Sequence[StageItem]) -> None:
        self.owner = owner
        self.stage = stage
        self.items = {item.label: item for item in items}

    def jobs(self) -> list[Job]:
        config = self.owner.config
        return [
            Job(
                request=LlmRequest(
                    prompt=item.prompt,
                    parameters=config.parameters,
                    run_index=item.run,
                    system=self.owner.template_sets[item.template].system_text,
                    answer_schema=self.owner.schemas[item.answer_format],
                ),
                label=item.label,
                log_path=self.owner.log_path,
            )
            for item in self.items.values()
        ]

    def output_of(self, job: Job) -> Path:
        return self.items[job.label].path

    def file(self, result: JobResult) -> Filed:
        return self.owner.file(self.items[result.job.label], result)


class RoundTripLlmTask:
    """The track's :class:`~benchmark.llm.task.TrackTask` (module docstring)."""

    def __init__(
        self,
        study: Study,
        *,
        config: Any,
        runs: Sequence[int],
        selectors: Sequence[str] = (),
        prompt_template: Path | None = None,
        redactor: Any,
        examples: Sequence[int] = (1,),
        example_seed: int = 0,
        templates: Sequence[str] = (),
        answer_formats: Sequence[str] = (FREE_FORMAT,),
    ) -> None:
        from benchmark.llm.templates import chosen_templates
        from benchmark.tracks.roundtrip.answer_schema import envelope_schema

        self.study = study
        self.config = config
        self.runs = sorted(set(runs))
        self.redactor = redactor
        self.ks = sorted(set(examples))
        self.example_seed = example_seed
        self.template_sets: dict[str, RoundTripTemplates] = {
            name: load_templates(path, name)
            for name, path in chosen_templates(TEMPLATES, templates, prompt_template)
        }
        self.cases = select_cases(study, selectors)
        self.answer_formats = tuple(answer_formats)
        # The envelope is checked against the provider's dialect before anything is sent.
        self.schemas: dict[str, RequestedSchema | None] = {
            name: None if name == FREE_FORMAT else config.requested_schema(envelope_schema())
            for name in self.answer_formats
        }
        names = [pair.name for pair in study.pairs]
        for k in self.ks:
            example_pairs(names, self.cases[0].domain, k, example_seed)  # a k the study cannot give fails now
        self._forward_inputs: list[tuple[StageItem, str, Path]] = []  # (inverse item, S' text, its file)

    # -- the TrackTask protocol ------------------------------------------------------------------------
    def passes(self) -> Iterator[StagePass]:
        self._forward_inputs = []
        yield StagePass(self, INVERSE, self.inverse_items())
        yield StagePass(self, FORWARD, [self.forward_item(*entry) for entry in self._forward_inputs])

    @property
    def templates(self) -> RoundTripTemplates:
        """The template of a task that asks with one (the study's, or its replacement)."""
        (only,) = self.template_sets.values()
        return only

    def describe(self) -> dict[str, Any]:
        if list(self.template_sets) == [STUDY_TEMPLATE]:
            templates = self.templates.describe()
        else:
            templates = {
                "templates": {
                    name: found.describe()["promptTemplates"] for name, found in self.template_sets.items()
                }
            }
        described = {
            **templates,
            "examples": {"k": self.ks, "rule": EXAMPLE_RULE, "seed": self.example_seed},
        }
        if self.answer_formats != (FREE_FORMAT,):  # said only when a schema is sent
            described["answerFormats"] = list(self.answer_formats)
        return described

    def log_files(self) -> list[Path]:
        return sorted((self.study.root / RUNS_DIR / LOG_DIR).glob("*.jsonl"))

    # -- items -----------------------------------------------------------------------------------------
    @property
    def log_path(self) -> Path:
        return self.study.root / RUNS_DIR / LOG_DIR / log_file_name(self.config.name)

    def path(
        self,
        case: RoundTripCase,
        k: int,
        run: int,
        stage: str,
        template: str = STUDY_TEMPLATE,
        answer_format: str = FREE_FORMAT,
    ) -> Path:
        config, root = self.config, self.study.root
        return run_path(
            root,
            case.domain,
            case.operator,
            config.name,
            config.model,
            k,
            run,
            stage,
            template,
            answer_format,
        )

    def examples(self, case: RoundTripCase, k: int) -> tuple[str, ...]:
        return example_pairs([p.name for p in self.study.pairs], case.domain, k, self.example_seed)

    def _examples_text(self, examples: Sequence[str]) -> str:
        return render_examples([self.study.pair(name) for name in examples])

    def inverse_items(self) -> list[StageItem]:
        items = []
        for case in self.cases:
            given = case.delta_target
            for k in self.ks:
                examples = self.examples(case, k)
                for name, templates in self.template_sets.items():
                    prompt = stage_prompt(
                        templates, INVERSE, self._examples_text(examples), model_text(given), k
                    )
                    source = {"file": given.name, "sha256": sha256_file(given)}
                    for answer_format in self.answer_formats:
                        for run in self.runs:
                            path = self.path(case, k, run, INVERSE, name, answer_format)
                            items.append(
                                StageItem(
                                    case, k, run, INVERSE, examples, prompt, path, source, name, answer_format
                                )
                            )
        return items

    def forward_item(self, inverse: StageItem, s_prime: str, inverse_file: Path) -> StageItem:
        templates = self.template_sets[inverse.template]
        prompt = stage_prompt(
            templates, FORWARD, self._examples_text(inverse.examples), s_prime.rstrip("\n"), inverse.k
        )
        source = {"from": inverse_file.name, "sha256": sha256_text(s_prime)}
        path = self.path(
            inverse.case, inverse.k, inverse.run, FORWARD, inverse.template, inverse.answer_format
        )
        return StageItem(
            inverse.case,
            inverse.k,
            inverse.run,
            FORWARD,
            inverse.examples,
            prompt,
            path,
            source,
            inverse.template,
            inverse.answer_format,
        )

    # -- filing ----------------------------------------------------------------------------------------
    def _generation(self, item: StageItem, result: JobResult) -> dict[str, Any]:
        completion = result.completion
        assert completion is not None
        request = result.job.request
        block: dict[str, Any] = {
            "generator": GENERATOR,
            "providerKind": self.config.kind,
            "baseUrl": self.config.endpoint["baseUrl"],
            "promptTemplates": self.template_sets[item.template].record(),
            "promptSha256": request.prompt_sha256,
            "parameters": request.parameters.to_json(request.run_index),
            "cacheKey": result.key,
            "timestamp": completion.created_at,
            "usage": {"inputTokens": completion.input_tokens, "outputTokens": completion.output_tokens},
            "latencySeconds": completion.latency_seconds,
            "responseModel": completion.response_model,
            "finishReason": completion.finish_reason,
            "transport": completion.transport,
            "ledger": ledger_entry(result, self.config),
        }
        if completion.batch_id is not None:
            block["batchId"] = completion.batch_id
        checked = answer_schema_record(request.answer_schema, completion.text)
        if checked is not None:
            block["answerSchema"] = checked
        return block

    def _document(self, item: StageItem, status: str, **fields: Any) -> StageRun:
        extra = {"examples": {"rule": EXAMPLE_RULE, "seed": self.example_seed}, "input": item.input}
        extra.update({key: value for key, value in fields.items() if key in ("extraction", "generation")})
        return StageRun(
            pair=item.case.domain,
            operator=item.case.operator,
            k=item.k,
            run=item.run,
            stage=item.stage,
            provider=self.config.name,
            model=self.config.model,
            model_label=self.config.model_label,
            status=status,
            answer=fields.get("answer"),
            reason=fields.get("reason"),
            examples=item.examples,
            extra=extra,
            template=item.template,
            answer_format=item.answer_format,
        )

    def _write(self, path: Path, run: StageRun) -> bool:
        """Write a run file (redacted); True when the bytes on disk changed."""
        text = dumps_json(self.redactor.data(run.to_json()))
        changed = not path.exists() or path.read_text(encoding="utf-8") != text
        if changed:
            write_text_atomic(path, text)
        return changed

    @staticmethod
    def _foreign(path: Path) -> bool:
        return path.exists() and generator_of(path) != GENERATOR

    def file(self, item: StageItem, result: JobResult) -> Filed:
        if result.completion is None:
            return self._file_no_answer(item, result)
        if self._foreign(item.path):
            return Filed(
                item.label,
                FILED_REFUSED,
                path=item.path,
                message=f"{item.path} exists and was not written by atlbench generate; not overwritten"
                " (move it away or use another provider name)",
            )
        text = result.completion.text
        found = answer_status(text, item.case.stage(item.stage).kind)
        status, reason = found.status, found.reason
        run = self._document(
            item,
            status,
            answer=text,
            reason=reason,
            extraction=found.extraction,
            generation=self._generation(item, result),
        )
        changed = self._write(item.path, run)
        if item.stage == INVERSE and status == STATUS_OK:
            assert found.model_text is not None
            self._forward_inputs.append((item, found.model_text, item.path))
        if status == STATUS_OK:
            return Filed(item.label, FILED_OK, path=item.path, changed=changed)
        message = f"answer unusable: {reason}"
        if item.stage == INVERSE:
            changed = self._file_not_run(item, reason or "") or changed
            message += "; forward stage not run"
        return Filed(item.label, FILED_UNUSABLE, path=item.path, message=message, changed=changed)

    def _file_not_run(self, inverse: StageItem, why: str) -> bool:
        path = self.path(
            inverse.case, inverse.k, inverse.run, FORWARD, inverse.template, inverse.answer_format
        )
        if self._foreign(path):
            return False
        source = {"from": inverse.path.name}
        forward = StageItem(
            inverse.case,
            inverse.k,
            inverse.run,
            FORWARD,
            inverse.examples,
            "",
            path,
            source,
            inverse.template,
            inverse.answer_format,
        )
        reason = f"not run: the inverse answer is unusable ({why})"
        return self._write(
            path, self._document(forward, STATUS_NOT_RUN, reason=reason, generation={"generator": GENERATOR})
        )

    def _answered(self, path: Path) -> bool:
        """Whether ``path`` holds a stage that ``generate`` filed with an answer (or as not run)."""
        if not path.exists() or self._foreign(path):
            return False
        try:
            return read_run(path).status != STATUS_NO_ANSWER
        except BenchmarkError:
            return False

    def _file_no_answer(self, item: StageItem, result: JobResult) -> Filed:
        """File the stage as missing (and, for an inverse stage, its forward stage, never asked); a file
        that ``generate`` did not write, or an earlier answer, is kept."""
        reason = result.error or "no answer (no reason given)"
        if self._foreign(item.path):
            return Filed(
                item.label,
                FILED_NO_ANSWER,
                path=item.path,
                message=f"{reason}; {item.path} was not written by atlbench generate: not overwritten",
            )
        if self._answered(item.path):
            return Filed(
                item.label, FILED_NO_ANSWER, path=item.path, message=f"{reason}; the earlier answer was kept"
            )
        request = result.job.request
        generation = {
            "generator": GENERATOR,
            "providerKind": self.config.kind,
            "promptTemplates": self.template_sets[item.template].record(),
            "promptSha256": request.prompt_sha256,
            "parameters": request.parameters.to_json(request.run_index),
            "cacheKey": result.key,
            "missing": result.missing,
            "attempts": result.attempts,
            "ledger": ledger_entry(result, self.config),
        }
        checked = answer_schema_record(request.answer_schema, None)
        if checked is not None:
            generation["answerSchema"] = checked
        run = self._document(item, STATUS_NO_ANSWER, reason=reason, generation=generation)
        changed = self._write(item.path, run)
        message = f"{reason}; filed as missing (run generate again to fill it in)"
        if item.stage == INVERSE:
            forward = self.path(item.case, item.k, item.run, FORWARD, item.template, item.answer_format)
            if not self._foreign(forward) and not self._answered(forward):
                source = {"from": item.path.name}
                stub = StageItem(
                    item.case,
                    item.k,
                    item.run,
                    FORWARD,
                    item.examples,
                    "",
                    forward,
                    source,
                    item.template,
                    item.answer_format,
                )
                why = f"not asked: its inverse stage got no answer ({reason})"
                changed = (
                    self._write(
                        forward,
                        self._document(
                            stub, STATUS_NO_ANSWER, reason=why, generation={"generator": GENERATOR}
                        ),
                    )
                    or changed
                )
                message += "; forward stage filed as missing too"
        return Filed(item.label, FILED_NO_ANSWER, path=item.path, message=message, changed=changed)
