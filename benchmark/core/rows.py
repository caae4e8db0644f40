"""The row envelope: one scored run of any track, as the harness carries it.

The harness owns the envelope (which track, task, provider, model and run; the file; whether it could be
scored and why not; provenance); the track owns the **payload**, a JSON object that only the track reads
(each track's ``payload.py`` holds the one class that writes and reads it, ``docs/TRACKS.md``). So
the xdist-safe collector, the "one row per case that ran" guard and ``results.json`` carry any track's rows
unchanged, and a new track needs no edit here. Task facts (the validation-set table) get the same
treatment in :class:`Facts`.

Everything is builtins-only JSON: rows cross pytest-xdist workers as JSON strings.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Hashable, Iterable
from dataclasses import dataclass, field, replace
from typing import Any, TypeVar

T = TypeVar("T")
K = TypeVar("K", bound=Hashable)

ROW_FORMAT_VERSION = 2

STATUS_OK = "ok"
STATUS_ERROR = "error"

#: The template a run was prompted with when nothing says otherwise: the track's own, the one its study
#: used. Rows, run files and case ids name a template only when it is another (``docs/TEMPLATES.md``).
STUDY_TEMPLATE = "study"
#: What a template may be called: it becomes a segment of run-file names and case ids.
TEMPLATE_NAME = re.compile(r"^[a-z][a-z0-9_]*$")
#: How a run was asked to answer when nothing says otherwise: free text, as the prompt asks, no schema sent.
#: Rows, run files and case ids name an answer format only when it is another (``docs/LLM_RUNS.md``).
FREE_FORMAT = "free"
#: What an answer format may be called (a segment of run-file names and case ids, like a template).
ANSWER_FORMAT_NAME = TEMPLATE_NAME

# Envelope keys of a row; everything else a version-1 row held is the mapping track's payload.
ENVELOPE_KEYS = (
    "track",
    "provider",
    "model",
    "task",
    "run",
    "template",
    "answerFormat",
    "file",
    "status",
    "error",
    "provenance",
)


def series_name(provider: str, template: str, answer_format: str = FREE_FORMAT) -> str:
    """How a track's tables name the runs of one provider under one prompt template and answer format: the
    provider's name for the study's template and free answers, ``PROVIDER (TEMPLATE)`` for another
    template, ``PROVIDER [FORMAT]`` (``PROVIDER (TEMPLATE) [FORMAT]``) for another answer format, so that
    runs prompted or constrained differently are never averaged together and the study's figures keep
    their provider's name."""
    name = provider if template == STUDY_TEMPLATE else f"{provider} ({template})"
    return name if answer_format == FREE_FORMAT else f"{name} [{answer_format}]"


@dataclass(frozen=True)
class Row:
    """One scored run. Identity: (track, provider, model, task, run, template, answer format).

    ``status`` is ``ok`` or ``error``; an error row keeps its identity and ``error`` text so every report
    can say which runs were excluded and why. ``payload`` is the track's, opaque to the harness.
    ``template`` names the prompt template the run was asked with (the harness sets it from the run's
    case); it is written to JSON only when it is not the study's, so rows of the study's template keep
    their bytes. ``answer_format`` likewise names how the answer was constrained (``free``: not at all;
    ``schema``, ``grounded``: a JSON Schema was sent, ``docs/LLM_RUNS.md``), written only when not free.
    """

    track: str
    provider: str
    model: str
    task: str
    run: str
    file: str = ""
    status: str = STATUS_OK
    error: str | None = None
    provenance: dict[str, Any] = field(default_factory=dict)
    payload: dict[str, Any] = field(default_factory=dict)
    template: str = STUDY_TEMPLATE
    answer_format: str = FREE_FORMAT

    @property
    def key(self) -> tuple[str, str, str, str, str, str, str]:
        return (self.track, self.provider, self.model, self.task, self.run, self.template, self.answer_format)

    @property
    def series(self) -> str:
        """The provider as the track's tables name it (:func:`series_name`)."""
        return series_name(self.provider, self.template, self.answer_format)

    @property
    def ok(self) -> bool:
        return self.status == STATUS_OK

    def with_error(self, message: str) -> Row:
        return replace(self, status=STATUS_ERROR, error=message)

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "rowFormat": ROW_FORMAT_VERSION,
            "track": self.track,
            "provider": self.provider,
            "model": self.model,
            "task": self.task,
            "run": self.run,
        }
        if self.template != STUDY_TEMPLATE:
            data["template"] = self.template
        if self.answer_format != FREE_FORMAT:
            data["answerFormat"] = self.answer_format
        return data | {
            "file": self.file,
            "status": self.status,
            "error": self.error,
            "provenance": self.provenance,
            "payload": self.payload,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Row:
        """A version-2 row, or a version-1 row (``results.json`` version 1: every row was the mapping
        track's, its identity under ``transformation`` and its counts beside the identity)."""
        if "payload" not in data and "rowFormat" in data and data["rowFormat"] == 1:
            return cls.from_v1(data)
        return cls(
            track=str(data["track"]),
            provider=str(data["provider"]),
            model=str(data["model"]),
            task=str(data["task"]),
            run=str(data["run"]),
            file=str(data.get("file", "")),
            status=str(data.get("status", STATUS_OK)),
            error=data.get("error"),
            provenance=dict(data.get("provenance", {})),
            payload=dict(data.get("payload", {})),
            template=str(data.get("template", STUDY_TEMPLATE)),
            answer_format=str(data.get("answerFormat", FREE_FORMAT)),
        )

    @classmethod
    def from_v1(cls, data: dict[str, Any]) -> Row:
        identity = {"rowFormat", "track", "provider", "model", "transformation", "run", "file", "status"}
        payload = {k: v for k, v in data.items() if k not in identity | {"error"}}
        return cls(
            track=str(data.get("track", "atl")),
            provider=str(data["provider"]),
            model=str(data["model"]),
            task=str(data["transformation"]),
            run=str(data["run"]),
            file=str(data.get("file", "")),
            status=str(data.get("status", STATUS_OK)),
            error=data.get("error"),
            payload=payload,
        )

    def dumps(self) -> str:
        """Compact JSON string: the form the harness carries across xdist workers. Keys keep the order the
        track wrote them in (not sorted), so a row that crossed from a worker is saved in ``results.json``
        byte for byte as the same row scored in the controller's process."""
        return json.dumps(self.to_json(), separators=(",", ":"))

    @classmethod
    def loads(cls, text: str) -> Row:
        return cls.from_json(json.loads(text))


def run_name(provider: str, run: str) -> str:
    """A run as a list of runs names it: its id, with the provider in front when the id does not say it
    (a baseline's run is its name; a run file's id usually starts with its provider)."""
    return run if provider.lower() in run.lower() else f"{provider} {run}"


def group_by_cause(
    entries: Iterable[T], task: Callable[[T], K], cause: Callable[[T], str]
) -> list[tuple[K, str, list[T]]]:
    """(task, cause, entries) for entries with the same task and the same cause, in order of first
    appearance: one unusable ground truth excludes every run of its task with one message, which a list
    of excluded runs says once, not once per run."""
    groups: dict[tuple[K, str], list[T]] = {}
    for entry in entries:
        groups.setdefault((task(entry), cause(entry)), []).append(entry)
    return [(t, c, members) for (t, c), members in groups.items()]


@dataclass(frozen=True)
class Facts:
    """Characteristics of one task's ground truth (a transformation, a round-trip pair, an OCL model), for
    the validation-set table. ``error`` says why the ground truth is unusable; ``payload`` is the track's."""

    track: str
    task: str
    file: str = ""
    error: str | None = None
    payload: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {
            "track": self.track,
            "task": self.task,
            "file": self.file,
            "error": self.error,
            "payload": self.payload,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Facts:
        if "payload" not in data:  # results.json version 1: the mapping track's facts, flat
            payload = {k: v for k, v in data.items() if k not in ("name", "track", "file", "error")}
            return cls(
                str(data.get("track", "atl")),
                str(data["name"]),
                data.get("file", ""),
                data.get("error"),
                payload,
            )
        return cls(
            track=str(data["track"]),
            task=str(data["task"]),
            file=str(data.get("file", "")),
            error=data.get("error"),
            payload=dict(data.get("payload", {})),
        )
