"""Writing the task folders: one per selected transformation, holding its ``.atl`` file and its two
metamodel files under their Zoo names, nothing else; the track then finds them there by the same rules
that chose them (:mod:`.survey`).

Rerunning a build is safe. A file is rewritten only when its bytes differ; a file the previous build
wrote and this one does not (a metamodel that now resolves to another file) is removed. Runs and every
other file the build did not write are never touched: a folder that is no longer a task is removed only
when it holds nothing but files the build wrote, unchanged; otherwise it is kept, said so, and remembered
in the manifest so that a later build can still remove it once its runs are moved. Before anything is
written, every task folder is checked for ``.atl``, ``.ecore`` or ``.km3`` files the build did not write:
the track would read them as part of the task, so the build stops and names them.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from benchmark.core.errors import ConfigurationError
from benchmark.core.fileio import sha256_file, write_bytes_atomic
from benchmark.tracks.mapping.discovery import METAMODEL_SUFFIXES, files_below
from benchmark.tracks.mapping.zoo.manifest import WrittenTask
from benchmark.tracks.mapping.zoo.survey import ATL_SUFFIX, Entry


@dataclass
class TreeReport:
    """What a build did to the tree: task folders created, updated and unchanged; folders of earlier
    tasks removed, and those kept because they hold other files (folder -> why)."""

    created: list[str] = field(default_factory=list)
    updated: list[str] = field(default_factory=list)
    unchanged: list[str] = field(default_factory=list)
    removed: list[str] = field(default_factory=list)
    kept: dict[str, str] = field(default_factory=dict)
    written: dict[str, WrittenTask] = field(default_factory=dict)
    kept_tasks: dict[str, WrittenTask] = field(default_factory=dict)


def check_locations(zoo: Path, into: Path) -> None:
    """The tree and the Zoo must not hold each other: a build would then survey its own copies."""
    zoo, into = zoo.resolve(), into.resolve()
    if into == zoo or into.is_relative_to(zoo):
        raise ConfigurationError("the tree cannot be inside the Zoo checkout it is built from", file=into)
    if zoo.is_relative_to(into):
        raise ConfigurationError("the Zoo checkout cannot be inside the tree built from it", file=zoo)
    if into.exists() and not into.is_dir():
        raise ConfigurationError("exists and is not a directory", file=into)


def task_files(zoo: Path, entry: Entry) -> dict[str, Path]:
    """The files of a task folder: name in the folder -> the Zoo file it copies."""
    assert entry.source is not None and entry.target is not None
    sources = [zoo / entry.path, zoo / entry.source.path, zoo / entry.target.path]
    return {path.name: path for path in sources}


def write_tree(
    zoo: Path,
    into: Path,
    tasks: Sequence[Entry],
    earlier: dict[str, WrittenTask],
) -> TreeReport:
    """Write ``tasks`` (included entries with a ``task`` name) under ``into``; ``earlier``: what previous
    builds wrote, by folder (the manifest's ``tasks`` and ``kept``)."""
    plans = {entry.task: task_files(zoo, entry) for entry in tasks if entry.task}
    for name, files in plans.items():
        _check_foreign(into / name, set(files), earlier.get(name))
    report = TreeReport()
    for entry in tasks:
        assert entry.task is not None
        report.written[entry.task] = _write_task(into / entry.task, entry, plans[entry.task], earlier, report)
    for name, written in sorted(earlier.items()):
        if name not in plans:
            _retire(into / name, name, written, report)
    return report


def _check_foreign(folder: Path, names: set[str], earlier: WrittenTask | None) -> None:
    if not folder.exists():
        return
    if not folder.is_dir():
        raise ConfigurationError("a task folder's place is taken by a file", file=folder)
    ours = names | set(earlier.files if earlier else ())
    tops = [p for p in folder.iterdir() if p.is_file() and p.suffix.lower() == ATL_SUFFIX]
    metamodels, _hidden = files_below(folder, METAMODEL_SUFFIXES)
    for path in (*tops, *metamodels):
        if path.parent != folder or path.name not in ours:
            raise ConfigurationError(
                f"not written by atlbench zoo build, and the track would read it as part of task "
                f"{folder.name}; move it out of the folder (or build into another directory)",
                file=path,
            )


def _write_task(
    folder: Path, entry: Entry, files: dict[str, Path], earlier: dict[str, WrittenTask], report: TreeReport
) -> WrittenTask:
    existed = folder.is_dir()
    changed = False
    written: dict[str, str] = {}
    for name, source in files.items():
        data = source.read_bytes()
        target = folder / name
        if not (target.is_file() and target.read_bytes() == data):
            write_bytes_atomic(target, data)
            changed = True
        written[name] = sha256_file(target)
    before = earlier.get(folder.name)
    for name in sorted(set(before.files) - set(files)) if before else ():
        (folder / name).unlink(missing_ok=True)  # ours, and no longer part of the task
        changed = True
    bucket = report.unchanged if not changed else report.updated if existed else report.created
    bucket.append(folder.name)
    return WrittenTask(entry.path, written)


def _retire(folder: Path, name: str, written: WrittenTask, report: TreeReport) -> None:
    """A folder of an earlier build that is no task now: removed when it holds only our unchanged files."""
    if not folder.is_dir():
        return
    present = sorted(p for p in folder.rglob("*") if not p.is_dir())
    others = [p for p in present if p.parent != folder or written.files.get(p.name) != sha256_file(p)]
    if others:
        shown = ", ".join(p.relative_to(folder).as_posix() for p in others[:3])
        more = f" and {len(others) - 3} more" if len(others) > 3 else ""
        report.kept[name] = f"no longer a task, but holds files the build did not write ({shown}{more})"
        report.kept_tasks[name] = written
        return
    for path in present:
        path.unlink()
    for directory in sorted((p for p in folder.rglob("*") if p.is_dir()), key=lambda p: -len(p.parts)):
        os.rmdir(directory)
    folder.rmdir()
    report.removed.append(name)
