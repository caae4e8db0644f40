"""``DIR/zoo-manifest.json`` and the table ``atlbench zoo build`` prints: every ``.atl`` file of the Zoo
with its verdict and reason, and the task folders the build wrote.

The manifest is also the build's memory: its ``tasks`` (and ``kept``) sections say which files of which
folder the build wrote, with their SHA-256, so that a later build updates or removes exactly those and
nothing else (:mod:`.tree`). A JSON file that the build did not write is never read as a manifest.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from benchmark.core.errors import InputFormatError
from benchmark.core.fileio import write_json_atomic
from benchmark.tracks.mapping.discovery import TREE_MANIFEST
from benchmark.tracks.mapping.zoo import verdicts as v
from benchmark.tracks.mapping.zoo.survey import Entry

MANIFEST_NAME = TREE_MANIFEST
KIND = "atlbench zoo build"
VERSION = 1


@dataclass(frozen=True)
class WrittenTask:
    """A task folder the build wrote: the Zoo path of its ``.atl`` file, and each file it wrote there
    (name -> SHA-256)."""

    atl: str
    files: dict[str, str]

    def to_json(self) -> dict[str, Any]:
        return {"atl": self.atl, "files": dict(sorted(self.files.items()))}


@dataclass
class Manifest:
    zoo: str
    entries: list[Entry]
    #: The names given to ``--only`` (empty: every included task was written).
    selection: list[str] = field(default_factory=list)
    tasks: dict[str, WrittenTask] = field(default_factory=dict)
    #: Folders of earlier builds that are no task any more but hold files the build did not write
    #: (runs), left in place: folder -> what the build had written there.
    kept: dict[str, WrittenTask] = field(default_factory=dict)

    def counts(self) -> dict[str, int]:
        found = Counter(e.verdict for e in self.entries)
        return {verdict: found[verdict] for verdict in v.ORDER if found[verdict]}

    def to_json(self) -> dict[str, Any]:
        return {
            "manifest": KIND,
            "version": VERSION,
            "zoo": self.zoo,
            "selection": list(self.selection),
            "counts": {"atl files": len(self.entries), **self.counts(), "tasks written": len(self.tasks)},
            "verdicts": dict(v.DESCRIPTIONS),
            "tasks": {name: task.to_json() for name, task in sorted(self.tasks.items())},
            "kept": {name: task.to_json() for name, task in sorted(self.kept.items())},
            "files": [e.to_json() for e in self.entries],
        }

    def write(self, directory: Path) -> Path:
        return write_json_atomic(directory / MANIFEST_NAME, self.to_json())


def read_manifest(directory: Path) -> Manifest | None:
    """The manifest an earlier build left in ``directory``, or None when there is none."""
    path = directory / MANIFEST_NAME
    if not path.is_file():
        return None
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as error:
        raise InputFormatError(f"cannot read the manifest of an earlier build: {error}", file=path) from None
    if not isinstance(data, dict) or data.get("manifest") != KIND:
        raise InputFormatError(
            f'not a manifest written by {KIND} (no "manifest": "{KIND}"); move it away to build here',
            file=path,
        )
    if data.get("version") != VERSION:
        raise InputFormatError(
            f"manifest version {data.get('version')!r}; this build reads {VERSION}", file=path
        )
    try:
        return Manifest(
            zoo=str(data["zoo"]),
            entries=[Entry.from_json(e) for e in data["files"]],
            selection=list(data.get("selection", [])),
            tasks={name: WrittenTask(t["atl"], dict(t["files"])) for name, t in data["tasks"].items()},
            kept={name: WrittenTask(t["atl"], dict(t["files"])) for name, t in data.get("kept", {}).items()},
        )
    except (KeyError, TypeError, AttributeError) as error:
        raise InputFormatError(f"malformed manifest: {error!r}", file=path) from None


def table(entries: Sequence[Entry], *, width: int = 90) -> str:
    """Every file with its verdict, grouped by verdict in rule order, then the count of each verdict."""
    from benchmark.reports.table import terminal_lines

    rows = []
    for verdict in v.ORDER:
        for entry in (e for e in entries if e.verdict == verdict):
            detail = entry.task if verdict == v.INCLUDED else entry.reason
            rows.append((verdict, entry.path, _shorten(detail or "", width)))
    listing = terminal_lines(("verdict", "Zoo file", "task (included) or reason"), rows)
    counts = Counter(e.verdict for e in entries)
    summary = terminal_lines(
        ("files", "verdict", "meaning"),
        [(str(counts[verdict]), verdict, v.DESCRIPTIONS[verdict]) for verdict in v.ORDER if counts[verdict]]
        + [(str(len(entries)), "", "every .atl file")],
    )
    return "\n".join(listing) + "\n\n" + "\n".join(summary)


def _shorten(text: str, width: int) -> str:
    return text if len(text) <= width else text[: width - 1] + "…"
