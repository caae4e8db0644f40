"""The record of one ``generate`` call, beside the runs it filed: a manifest and an append-only event log.

After LLM4MTL-2.0's ``manifest.json`` + ``events.jsonl``, in one JSON Lines file per call and per raw-log
folder, ``runs/.log/calls/<call id>.jsonl`` (the folder of the track's raw logs, so that it is committed,
copied and ignored by the scorers exactly like them):

* the first line of each (track, provider) session is its **manifest**, written before its first event in
  that folder and never changed: the call id, git commit of the code (and whether it had uncommitted
  changes), package versions, the command's options, the budget, the provider's configuration without
  secrets (:meth:`~benchmark.llm.config.ProviderConfig.manifest`: the key's variable name, never a key),
  the track's prompt provenance (template hashes, variant, seeds: ``TrackTask.describe``) and the SHA-256
  of every prompt of the pass that opened the folder;
* then **events**, one line each, appended as they happen and flushed: ``pass`` (a later pass's prompt
  hashes), ``request`` (an HTTP attempt sent), ``response`` (an answer received: tokens, seconds,
  attempts, cost), ``retry``, ``error`` (no answer, and why in one word: ``missing``), ``context`` (a
  prompt that does not fit the context window), ``concurrency`` (adaptive concurrency changed),
  ``budget-stop`` and ``end`` (the call's totals; absent when the call was killed).

Every run file's ledger names the call that paid for its answer (``ledger.call``), so a run leads to the
manifest it was generated under (:func:`call_files`), and ``results.json`` lists the calls of the runs it
scored. Everything is redacted like the raw logs.
"""

from __future__ import annotations

import json
import secrets
import threading
from collections.abc import Iterable, Mapping, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from benchmark.llm.redact import Redactor
from benchmark.llm.requests import Job, utc_timestamp

CALLS_DIR = "calls"
MANIFEST_FORMAT = "atlbench-generate-manifest"
MANIFEST_VERSION = 1


def new_call_id(moment: datetime | None = None) -> str:
    """``20250601T101500Z-3f2a9c1e``: sortable by time, unique without coordination."""
    moment = moment or datetime.now(UTC)
    return moment.astimezone(UTC).strftime("%Y%m%dT%H%M%SZ") + "-" + secrets.token_hex(4)


def call_file(log_dir: Path, call_id: str) -> Path:
    return log_dir / CALLS_DIR / f"{call_id}.jsonl"


class CallLog:
    """Writes one call's manifests and events into every raw-log folder its requests use (thread-safe).

    Nothing is written for a folder until something happens there (a request, an error): a call that only
    replays stored answers (``--offline``, everything cached) leaves the committed logs as they were."""

    def __init__(self, call_id: str, redactor: Redactor) -> None:
        self.call_id = call_id
        self._redactor = redactor
        self._lock = threading.Lock()
        self._written: set[Path] = set()

    @property
    def folders(self) -> list[Path]:
        """Every folder this call has written to."""
        with self._lock:
            return sorted(self._written)

    def session(self, key: str) -> SessionLog:
        """The log of one (track, provider) session of the call (``key``: ``"<track>/<provider>"``)."""
        return SessionLog(self, key)

    def broadcast(self, kind: str, **fields: Any) -> None:
        """A call-wide event (adaptive concurrency) in every folder written so far."""
        for folder in self.folders:
            self.append(folder, [{"event": kind, **_present(fields)}])

    def append(self, folder: Path, lines: Sequence[dict[str, Any]]) -> None:
        path = call_file(folder, self.call_id)
        stamp = utc_timestamp()
        text = "".join(
            json.dumps(self._redactor.data({**line, "time": stamp}), ensure_ascii=False) + "\n"
            for line in lines
        )
        with self._lock:
            self._written.add(folder)
            path.parent.mkdir(parents=True, exist_ok=True)
            with open(path, "a", encoding="utf-8") as handle:
                handle.write(text)
                handle.flush()


class SessionLog:
    """One session's view of the call log: its manifest goes first in each folder it writes to."""

    def __init__(self, log: CallLog, key: str) -> None:
        self.log = log
        self.key = key
        self._lock = threading.Lock()
        self._pending: dict[Path, dict[str, Any]] = {}  # folder -> the line to write before its next event
        self._manifested: set[Path] = set()
        self._written: set[Path] = set()

    @property
    def call_id(self) -> str:
        return self.log.call_id

    @property
    def folders(self) -> list[Path]:
        with self._lock:
            return sorted(self._written)

    def begin_pass(self, manifest: Mapping[str, Any], jobs: Sequence[Job], number: int) -> None:
        """Before a pass sends anything: in each folder of its jobs, the session's manifest (with the
        pass's prompt hashes there) or, where the manifest is already written, a ``pass`` event; both
        written with the folder's first event of the pass, if any."""
        by_folder: dict[Path, dict[str, str]] = {}
        for job in jobs:
            if job.log_path is not None:
                by_folder.setdefault(job.log_path.parent, {})[job.label] = job.request.prompt_sha256
        with self._lock:
            for folder, prompts in by_folder.items():
                if folder in self._manifested:
                    line = {"event": "pass", "session": self.key, "pass": number, "prompts": prompts}
                else:
                    line = {
                        "event": "manifest",
                        "format": MANIFEST_FORMAT,
                        "version": MANIFEST_VERSION,
                        "call": self.call_id,
                        "session": self.key,
                        **manifest,
                        "pass": number,
                        "prompts": prompts,
                    }
                self._pending[folder] = line

    def event(self, kind: str, folder: Path | None, **fields: Any) -> None:
        """One event in one folder (``None``: nowhere, for jobs without a log)."""
        if folder is None:
            return
        with self._lock:
            lines = []
            pending = self._pending.pop(folder, None)
            if pending is not None:
                lines.append(pending)
                if pending["event"] == "manifest":
                    self._manifested.add(folder)
            elif folder not in self._manifested:  # a folder no pass announced: still say whose it is
                lines.append({"event": "manifest", "call": self.call_id, "session": self.key})
                self._manifested.add(folder)
            lines.append({"event": kind, "session": self.key, **_present(fields)})
            self._written.add(folder)
            self.log.append(folder, lines)

    def broadcast(self, kind: str, **fields: Any) -> None:
        """One event in every folder this session has written to."""
        for folder in self.folders:
            self.event(kind, folder, **fields)


def _present(fields: Mapping[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in fields.items() if v is not None}


# ---------------------------------------------------------------------------------------------- finding


def find_call_file(run_file: Path, call_id: str) -> Path | None:
    """The event log of ``call_id`` for a run file: in a ``.log/calls/`` folder of the run file's
    folder or of one of its parents (every track keeps its raw logs in ``runs/.log``)."""
    for folder in Path(run_file).resolve().parents:
        for log_dir in (folder / ".log", folder):
            candidate = call_file(log_dir, call_id)
            if candidate.is_file():
                return candidate
    return None


def call_files(run_files: Iterable[str | Path], base: Path | None = None) -> dict[str, list[str]]:
    """Per call id named by the ledgers of ``run_files``: its event logs (paths relative to ``base``
    when below it), for ``results.json``. Files without a ledger name no call."""
    from benchmark.llm.ledger import run_ledger

    found: dict[str, set[str]] = {}
    for name in run_files:
        path = Path(name)
        try:
            text = path.read_text(encoding="utf-8")
        except (OSError, ValueError):
            continue
        if '"call"' not in text:  # cheap: most scored files (synthetic, imported) have no ledger
            continue
        try:
            calls = run_ledger(json.loads(text)).calls
        except ValueError:
            continue
        for call_id in calls:
            where = find_call_file(path, call_id)
            entry = found.setdefault(call_id, set())
            if where is not None:
                entry.add(_relative(where, base))
    return {call_id: sorted(paths) for call_id, paths in sorted(found.items())}


def linked_calls(rows: Iterable[Any], validation_root: str | Path) -> dict[str, list[str]]:
    """The ``generate`` calls behind a session's scored rows (``results.json``'s ``generateCalls``): the
    run files are the rows' ``file`` fields; baselines and files without a ledger link nothing."""
    files = {row.file for row in rows if row.file and not str(row.file).startswith("<")}
    return call_files(sorted(files), Path(validation_root))


def _relative(path: Path, base: Path | None) -> str:
    """``path`` relative to ``base``; a path below another copy of the validation root (a run file an
    xdist worker read from its machine's copy of the project, as ``--tx`` sessions do) relative to that
    copy, found as the nearest folder of ``base``'s name: the same file of the same tree reads the same."""
    if base is not None:
        resolved, root = path.resolve(), Path(base).resolve()
        try:
            return resolved.relative_to(root).as_posix()
        except ValueError:
            pass
        for folder in resolved.parents:
            if folder.name == root.name:
                return resolved.relative_to(folder).as_posix()
    return str(path)


__all__ = [
    "CALLS_DIR",
    "CallLog",
    "SessionLog",
    "call_file",
    "call_files",
    "find_call_file",
    "linked_calls",
    "new_call_id",
]
