"""Run files of the OCL track: one JSON file per (provider, run, mode), below ``<root>/runs/``.

::

    {"format": "atlbench-ocl-run", "version": 1,
     "provider": "GPT-4o", "model": "gpt-4o-2024-08-06", "run": "run01", "mode": "rename", "seed": 0,
     "answers": {"library": {"maxLoansLimit": "raw answer text, as the LLM gave it", ...}, ...}}

``mode`` is ``original`` or one of the seven transformation modes; ``template`` (only when not the
study's, ``docs/TEMPLATES.md``) names the prompt template the answers were asked with, ``answerFormat``
(only when not free, ``docs/LLM_RUNS.md``) the answer format they were asked in; ``seed`` is the
transformation seed the prompts were built with (a transformed model of another seed has other names, so
a file whose seed is not the session's cannot be judged). ``answers`` maps a dataset model to its
constraints' raw answers. A request that got no answer (``atlbench generate``: HTTP error, timeout,
budget, rate limit) is recorded in the ``generation`` block, never in ``answers``::

    "generation": {"generator": "atlbench generate", "answers": {
        "library/barcodePrefix": {"status": "no-answer", "error": "HTTP 503 ...", "missing": "error", ...}}}

Those are :attr:`RunFile.unanswered`; a run case (a dataset model of the file) with an unanswered or
absent constraint is a *missing* run, never judged (``docs/OCL.md``, "Missing, unusable, excluded"). Where
a file sits below ``runs/`` does not matter (``atlbench generate`` writes
``runs/<provider>/<run>/<mode>.json``, ``runs/<provider>/<template>/<run>/<mode>.json`` for a template
other than the study's, and a ``<format>/`` folder before ``<run>`` for an answer format other than free);
what it says does. ``docs/OCL.md`` documents the format.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from benchmark.core.errors import InputFormatError
from benchmark.core.fileio import MAX_RUN_FILE_BYTES, read_json_capped
from benchmark.core.rows import ANSWER_FORMAT_NAME, FREE_FORMAT, STUDY_TEMPLATE, TEMPLATE_NAME

RUN_FORMAT = "atlbench-ocl-run"
RUN_VERSION = 1
ANSWERED = "ok"  # generation.answers[KEY].status of an answer (an answer's record may have no status)
NO_ANSWER = "no-answer"  # generation.answers[KEY].status of a request that got no answer


class RunFileError(InputFormatError):
    """A run file that does not have the documented shape."""


@dataclass(frozen=True)
class RunFile:
    path: Path
    provider: str
    model: str  # the LLM's model name
    run: str
    mode: str
    seed: int
    answers: dict[str, dict[str, str]]  # dataset model -> constraint id -> raw answer
    #: dataset model -> constraint id -> why its request got no answer (the file's generation block)
    unanswered: dict[str, dict[str, str]] = field(default_factory=dict)
    template: str = STUDY_TEMPLATE
    answer_format: str = FREE_FORMAT

    @property
    def models(self) -> list[str]:
        """The dataset models the file speaks of (answered or not), sorted."""
        return sorted(set(self.answers) | set(self.unanswered))

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "format": RUN_FORMAT,
            "version": RUN_VERSION,
            "provider": self.provider,
            "model": self.model,
            "run": self.run,
            "mode": self.mode,
        }
        if self.template != STUDY_TEMPLATE:
            data["template"] = self.template
        if self.answer_format != FREE_FORMAT:
            data["answerFormat"] = self.answer_format
        return data | {"seed": self.seed, "answers": self.answers}


def run_path(
    root: Path,
    provider: str,
    run: str,
    mode: str,
    template: str = STUDY_TEMPLATE,
    answer_format: str = FREE_FORMAT,
) -> Path:
    """Where ``atlbench generate`` and ``atlbench ocl synth`` file a run (``runs/PROVIDER/RUN/MODE.json``;
    ``runs/PROVIDER/TEMPLATE/RUN/MODE.json`` for a template other than the study's, and a ``FORMAT/``
    folder before ``RUN`` for an answer format other than free)."""
    folder = root / "runs" / provider
    folder = folder if template == STUDY_TEMPLATE else folder / template
    folder = folder if answer_format == FREE_FORMAT else folder / answer_format
    return folder / run / f"{mode}.json"


def run_files(root: Path) -> list[Path]:
    folder = root / "runs"
    if not folder.is_dir():
        return []
    return sorted(p for p in folder.rglob("*.json") if p.is_file() and not p.name.startswith("."))


def read_run(path: Path) -> RunFile:
    """Read and check a run file; errors name the file and the line and column, or the JSON field. A file
    over :data:`~benchmark.core.fileio.MAX_RUN_FILE_BYTES` is refused without being read."""
    data = read_json_capped(path, limit=MAX_RUN_FILE_BYTES, what="run file", error=RunFileError)
    if not isinstance(data, dict):
        raise RunFileError("expected a JSON object", file=path, field="$")
    if data.get("format") != RUN_FORMAT:
        raise RunFileError(f'expected "format": "{RUN_FORMAT}"', file=path, field="$.format")
    if data.get("version") != RUN_VERSION:
        raise RunFileError(
            f"unsupported version {data.get('version')!r} (expected {RUN_VERSION})",
            file=path,
            field="$.version",
        )
    texts = {}
    for key in ("provider", "model", "run", "mode"):
        value = data.get(key)
        if not isinstance(value, str) or not value.strip():
            raise RunFileError("expected a non-empty string", file=path, field=f"$.{key}")
        texts[key] = value
    seed = data.get("seed", 0)
    if not isinstance(seed, int) or isinstance(seed, bool) or seed < 0:
        raise RunFileError("expected a non-negative integer", file=path, field="$.seed")
    template = data.get("template", STUDY_TEMPLATE)
    if not isinstance(template, str) or not TEMPLATE_NAME.match(template):
        raise RunFileError(
            "expected a prompt template's name (lower-case letters, digits, _)", file=path, field="$.template"
        )
    answer_format = data.get("answerFormat", FREE_FORMAT)
    if not isinstance(answer_format, str) or not ANSWER_FORMAT_NAME.match(answer_format):
        raise RunFileError(
            "expected an answer format's name (lower-case letters, digits, _)",
            file=path,
            field="$.answerFormat",
        )
    answers = data.get("answers")
    if not isinstance(answers, dict):
        raise RunFileError("expected an object mapping models to answers", file=path, field="$.answers")
    for model, given in answers.items():
        field = f"$.answers.{model}"
        if not isinstance(given, dict):
            raise RunFileError(
                "expected an object mapping constraint ids to answer texts", file=path, field=field
            )
        for cid, text in given.items():
            if not isinstance(text, str):
                raise RunFileError("expected the answer's text (a string)", file=path, field=f"{field}.{cid}")
    unanswered = _unanswered(data.get("generation"), answers, path)
    return RunFile(
        path,
        texts["provider"],
        texts["model"],
        texts["run"],
        texts["mode"],
        seed,
        answers,
        unanswered,
        template,
        answer_format,
    )


def _unanswered(generation: Any, answers: dict[str, Any], path: Path) -> dict[str, dict[str, str]]:
    """The requests the ``generation`` block records as unanswered: model -> constraint id -> reason. A
    record that contradicts ``answers`` (an answer beside "no answer") or has an unknown status is an
    input error: guessing would judge a non-answer or drop an answer."""
    records = generation.get("answers") if isinstance(generation, dict) else None
    if not isinstance(records, dict):
        return {}
    found: dict[str, dict[str, str]] = {}
    for key, record in records.items():
        field = f"$.generation.answers[{json.dumps(key)}]"
        status = record.get("status", ANSWERED) if isinstance(record, dict) else ANSWERED
        if status == ANSWERED:
            continue
        if status != NO_ANSWER:
            raise RunFileError(
                f"unknown status {status!r}; expected {ANSWERED!r} or {NO_ANSWER!r}",
                file=path,
                field=f"{field}.status",
            )
        model, slash, cid = str(key).partition("/")
        if not (model and slash and cid):
            raise RunFileError("expected a key MODEL/CONSTRAINT", file=path, field=field)
        if cid in answers.get(model, {}):
            raise RunFileError(
                f"the request is recorded as unanswered, but $.answers.{model}.{cid} holds an answer: "
                "remove one or the other",
                file=path,
                field=f"{field}.status",
            )
        reason = record.get("error")
        text = str(reason).strip() if reason is not None else ""
        found.setdefault(model, {})[cid] = text or "no answer was obtained (the file records no reason)"
    return {model: dict(sorted(given.items())) for model, given in sorted(found.items())}


def peek_run(path: Path) -> RunFile | None:
    """The run file, or ``None`` when it cannot be read (its case then scores as an error row)."""
    try:
        return read_run(path)
    except RunFileError:
        return None


__all__ = [
    "ANSWERED",
    "NO_ANSWER",
    "RUN_FORMAT",
    "RUN_VERSION",
    "RunFile",
    "RunFileError",
    "peek_run",
    "read_run",
    "run_files",
    "run_path",
]
