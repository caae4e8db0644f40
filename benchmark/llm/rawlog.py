"""Raw JSONL logs (``runs/.log/<provider>.jsonl``): what was asked, what came back, what went wrong.

After openai/evals' recorder and lm-eval's ``--log_samples``: each invocation that has something to record
appends a ``spec`` line (tool version, provider configuration without the key, prompt template hash,
options), then one line per event: ``response`` (a fresh answer, in full, with usage, latency and cache
key; also what :class:`~benchmark.llm.cache.LogReplay` replays), ``retry`` (status, error, delay) and
``error`` (no answer: timeout, HTTP status, offline cache miss). Replayed answers are not logged, so an
``--offline`` check leaves committed logs as they were. Lines are appended whole under a lock, and every
line is redacted, so a log can be committed and shared.
"""

from __future__ import annotations

import json
import os
import threading
from pathlib import Path
from typing import Any

from benchmark.llm.redact import Redactor
from benchmark.llm.requests import utc_timestamp


class RawLog:
    """All log files written by one invocation; ``spec`` is written once per file, before its first event."""

    def __init__(self, spec: dict[str, Any], redactor: Redactor) -> None:
        self._spec = spec
        self._redactor = redactor
        self._lock = threading.Lock()
        self._started: set[Path] = set()

    def write(self, path: Path | None, event: dict[str, Any], *, durable: bool = False) -> None:
        """Append ``event`` (after the spec line, the first time). ``durable``: flushed to the disk before
        returning (a paid answer survives a reboot, not only a killed process)."""
        if path is None:
            return
        with self._lock:
            path.parent.mkdir(parents=True, exist_ok=True)
            lines = []
            if path not in self._started:
                self._started.add(path)
                lines.append({"event": "spec", "time": utc_timestamp(), **self._spec})
            lines.append({**event, "time": utc_timestamp()})
            text = "".join(
                json.dumps(self._redactor.data(line), ensure_ascii=False, sort_keys=False) + "\n"
                for line in lines
            )
            with open(path, "a", encoding="utf-8") as handle:
                handle.write(text)
                handle.flush()
                if durable:
                    os.fsync(handle.fileno())
