"""What a track implements to use the LLM machinery: jobs out, results filed.

The engine does not know what a prompt means or where answers go; a task does. The ATL mapping task
(:mod:`benchmark.tracks.mapping.llm_task`) builds one job per (transformation, run index) and files each
answer as a jJodel export; a round-trip or OCL track would build its own prompts and parse its own answers
with the same engine, cache, logs and statistics (see :func:`benchmark.llm.runner.run_task`).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from benchmark.llm.requests import Job, JobResult

if TYPE_CHECKING:
    from benchmark.llm.config import ProviderConfig
    from benchmark.llm.redact import Redactor
    from benchmark.llm.templates import TemplateCatalog

# How one job ended, from the task's point of view.
FILED_OK = "ok"  # an answer was parsed and filed
FILED_UNUSABLE = "failed"  # an answer came back but could not be used; filed as an unusable run
FILED_NO_ANSWER = "no-answer"  # nothing came back (timeout, HTTP error, offline miss); the task may file a
# stub saying so (the mapping track files a missing run), but never an answer
FILED_REFUSED = "refused"  # filing was refused (e.g. it would overwrite a file the task did not write)


@dataclass(frozen=True)
class Filed:
    label: str
    status: str
    path: Path | None = None
    message: str | None = None
    changed: bool = False  # the file on disk is new or different

    @property
    def ok(self) -> bool:
        return self.status == FILED_OK


class Task(Protocol):
    def jobs(self) -> list[Job]:
        """Every request the task needs, in a stable order (the order of progress and reports)."""

    def file(self, result: JobResult) -> Filed:
        """Store one result (called in the main thread, as results arrive)."""


class PlannedTask(Task, Protocol):
    def output_of(self, job: Job) -> Path:
        """Where the job's answer is filed (``atlbench generate --dry-run`` lists it)."""


@dataclass(frozen=True)
class TaskRequest:
    """What ``atlbench generate --track NAME`` hands a track's :meth:`~benchmark.core.track.Track.llm_task`:
    the provider's configuration, the run indices, ``-k`` selectors, a replacement prompt template, the
    redactor, the values of the track's own generate options (by ``Option.dest``), the names of the
    prompt templates to ask with (``--template``; none: the study's) and the answer formats to ask in
    (``--answer-format``; none: free)."""

    config: ProviderConfig
    runs: Sequence[int]
    selectors: Sequence[str]
    prompt_template: Path | None
    redactor: Redactor
    options: Mapping[str, Any] = field(default_factory=dict)
    templates: Sequence[str] = ()
    answer_formats: Sequence[str] = ()

    def chosen_formats(self, offered: Sequence[str]) -> tuple[str, ...]:
        """The answer formats to ask in (``--answer-format``; none: ``free``), of those the track offers."""
        from benchmark.llm.answer_formats import parse_answer_formats

        return parse_answer_formats(self.answer_formats, offered)

    def chosen_templates(self, catalog: TemplateCatalog) -> list[tuple[str, Path | None]]:
        """(name, replacement file) of every template to ask with, from the track's catalog."""
        from benchmark.llm.templates import chosen_templates

        return chosen_templates(catalog, self.templates, self.prompt_template)


class TrackTask(Protocol):
    """A track's LLM work for one ``generate`` call: one or more passes through the engine (a chained
    study, such as the round-trip track's inverse then forward stage, builds each pass from the answers
    filed by the previous one), what to record about its prompts, and the raw logs it may replay."""

    def passes(self) -> Iterator[PlannedTask]:
        """The passes in order; the next is built only after the previous one has been run and filed."""

    def describe(self) -> dict[str, Any]:
        """Provenance of the prompts (template origins and hashes), recorded in every raw log."""

    def log_files(self) -> Iterable[Path]:
        """Committed raw logs (``*.jsonl``) whose answers replay when the cache lacks them."""
