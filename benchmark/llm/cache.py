"""The response cache: a directory of JSON files, one per (endpoint, prompt, parameters, run index).

Keyed like inspect_ai's cache (model + base URL, messages, generation config, *epoch*): the run index is
part of the key, so five repetitions are five entries and never collapse into one sample, and replaying
them (``--offline``) returns each repetition's own answer. The key is a SHA-256 over a canonical JSON of
its fields; the fields themselves are stored beside the answer so an entry explains itself.

Entries never expire: a benchmark replays old answers on purpose. Only answers are cached, never errors
(a timeout or a 429 is retried next time). Writes are atomic, so concurrent workers and interrupted
sessions leave either a complete entry or none.

:class:`LogReplay` serves the same answers from committed raw logs (``runs/.log/*.jsonl``), so that a
fresh clone can reproduce its run files without the original cache directory and without a key.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from benchmark.core.fileio import sha256_text, write_json_atomic
from benchmark.llm.requests import Completion, LlmRequest

CACHE_FORMAT = 1


def cache_key_fields(endpoint: dict[str, str], request: LlmRequest) -> dict[str, Any]:
    """Everything that can change an answer, and the run index that keeps repetitions apart.

    ``endpoint`` is :attr:`ProviderConfig.endpoint <benchmark.llm.config.ProviderConfig.endpoint>`;
    every field of it is part of the key. A request that sends an answer schema adds its format, dialect
    and hash (``answerSchema``); a free request adds nothing, so that the keys of the answers stored before
    answer formats existed (caches, committed raw logs) stay what they were.
    """
    fields: dict[str, Any] = {
        "format": CACHE_FORMAT,
        **endpoint,
        "baseUrl": endpoint["baseUrl"].rstrip("/"),
        "promptSha256": request.prompt_sha256,
        "parameters": request.parameters.to_json(request.run_index),
        "run": request.run_index,
    }
    if request.answer_schema is not None:
        fields["answerSchema"] = request.answer_schema.key_fields()
    return fields


def cache_key(endpoint: dict[str, str], request: LlmRequest) -> str:
    return sha256_text(json.dumps(cache_key_fields(endpoint, request), sort_keys=True, separators=(",", ":")))


class ResponseCache:
    """``<root>/responses/<kk>/<key>.json``; ``<root>`` is resolved by the caller (see ``config``)."""

    def __init__(self, root: Path) -> None:
        self.root = Path(root)

    def _path(self, key: str) -> Path:
        return self.root / "responses" / key[:2] / f"{key}.json"

    def get(self, key: str) -> Completion | None:
        path = self._path(key)
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
            return Completion.from_json(data["completion"])
        except FileNotFoundError:
            return None
        except (OSError, ValueError, KeyError, TypeError):
            # A damaged entry is a miss, not a crash: the answer is requested again and rewritten.
            return None

    def put(self, key: str, fields: dict[str, Any] | None, completion: Completion) -> None:
        """Store an answer; ``fields`` may be ``None`` for a batch answer collected outside its session."""
        write_json_atomic(
            self._path(key),
            {"key": key, "keyFields": fields, "completion": completion.to_json()},
            durable=True,  # a paid answer must survive a reboot (docs/LLM_RUNS.md, "Resume")
        )


class LogReplay:
    """Read-only answers from raw logs: every ``response`` event, indexed by its cache key."""

    def __init__(self, log_files: Iterable[Path]) -> None:
        self._entries: dict[str, Completion] = {}
        for path in sorted(set(log_files)):
            self._read(path)

    def _read(self, path: Path) -> None:
        try:
            lines = path.read_text(encoding="utf-8").splitlines()
        except OSError:
            return
        for line in lines:
            try:
                event = json.loads(line)
            except ValueError:
                continue  # a line cut short by an interrupted session
            if not isinstance(event, dict) or event.get("event") != "response":
                continue
            key = event.get("key")
            completion = event.get("completion")
            if isinstance(key, str) and isinstance(completion, dict):
                try:
                    # The last answer logged for a key is the one the cache held last (--refresh).
                    self._entries[key] = Completion.from_json(completion)
                except ValueError:
                    continue

    def __len__(self) -> int:
        return len(self._entries)

    def get(self, key: str) -> Completion | None:
        return self._entries.get(key)
