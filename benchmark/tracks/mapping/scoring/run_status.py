"""What a run file says about its run, before any mapping is read: its ``generation.status``.

``ok`` (or no ``generation`` block: a hand export, a baseline): the model answered, score the mappings;
``unusable`` (``failed`` in files written before it had that name): the model answered with nothing usable,
scored as a run with no suggestions; ``no-answer``: no answer was obtained, never scored
(:class:`MissingRunError`, ``docs/METRICS.md`` "Runs that are not scored as usual"). A block that
contradicts itself is an input error.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from benchmark.core.errors import BenchmarkError, InputFormatError

# How ``generation.status`` classifies a run (``docs/METRICS.md``): the model answered with something
# usable, answered with nothing usable (``failed``: what ``atlbench generate`` wrote before 0.x), or no
# answer was obtained at all.
RUN_OK = "ok"
RUN_UNUSABLE = "unusable"
RUN_NO_ANSWER = "no-answer"
_LEGACY_UNUSABLE = "failed"


class MissingRunError(BenchmarkError):
    """A run file saying that no answer was obtained (``generation.status = "no-answer"``): it says
    nothing about the model, so it is never scored, not even as zero; it is listed as missing with
    ``reason``. ``provider`` and ``model`` are the file's, so the missing run stays with its provider."""

    def __init__(self, reason: str, *, provider: str, model: str, file: str | Path | None = None) -> None:
        super().__init__(f"no answer was obtained for this run: {reason}", file=file, field="$.generation")
        self.reason = reason
        self.provider = provider
        self.model = model


def run_status(data: Any, *, source: str | Path | None = None) -> tuple[str, str | None]:
    """(``ok`` | ``unusable`` | ``no-answer``, reason) from an export's ``generation`` block.

    A file without the block is ``ok`` (a hand export, a baseline). A block that contradicts itself (an
    ``error`` with status ``ok`` or without status, an unknown status, ``mappings`` beside a status that
    says there are none) is an input error: guessing would either score a non-answer as zero or drop a
    real one.
    """
    generation = data.get("generation") if isinstance(data, dict) else None
    if not isinstance(generation, dict):
        return RUN_OK, None
    status, error = generation.get("status"), generation.get("error")
    error = _text(error)
    if status == _LEGACY_UNUSABLE:
        status = RUN_UNUSABLE
    if status in (None, RUN_OK):
        if error is not None:
            raise InputFormatError(
                f"generation.error is set ({error}) but generation.status is {status or 'absent'}: cannot "
                f"tell whether the model answered; set status to {RUN_UNUSABLE!r} (it answered, nothing "
                f"usable) or {RUN_NO_ANSWER!r} (no answer obtained)",
                file=source,
                field="$.generation.status",
            )
        return RUN_OK, None
    if status not in (RUN_UNUSABLE, RUN_NO_ANSWER):
        raise InputFormatError(
            f"unknown generation.status {status!r}; expected {RUN_OK!r}, {RUN_UNUSABLE!r} or "
            f"{RUN_NO_ANSWER!r}",
            file=source,
            field="$.generation.status",
        )
    if "mappings" in data:
        raise InputFormatError(
            f"generation.status {generation.get('status')!r} says the run has no mappings, but the file "
            "has a 'mappings' key: remove one or the other",
            file=source,
            field="$.mappings",
        )
    if status == RUN_UNUSABLE:
        return status, error or "the model's answer was unusable (the file records no reason)"
    return status, error or "no answer was obtained (the file records no reason)"


def _text(value: Any) -> str | None:
    if value is None:
        return None
    text = str(value).strip()
    return text or None


__all__ = ["MissingRunError", "RUN_NO_ANSWER", "RUN_OK", "RUN_UNUSABLE", "run_status"]
