"""What a track implements to use the LLM machinery: jobs out, results filed.

The engine does not know what a prompt means or where answers go; a task does. The ATL mapping task
(:mod:`benchmark.tracks.mapping.llm_task`) builds one job per (transformation, run index) and files each
answer as a jJodel export; a round-trip or OCL track would build its own prompts and parse its own answers
with the same engine, cache, logs and statistics (see :func:`benchmark.llm.runner.run_task`).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

from benchmark.llm.requests import Job, JobResult

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
