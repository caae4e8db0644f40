"""How many pytest-xdist workers ``-n auto`` starts for a session of benchmark cases.

xdist's own answer is one worker per CPU. For benchmark cases that is right when the session has work to
spread (a cold disk cache: parsing, building variants, judging answers) and wrong when it has little. Each
worker pays its start-up and collection (about 1 s on 2 cores), and each case three test reports that the
worker serialises and the controller reads back: a warm ``pytest cases -n auto`` on the bundled data spent
9.9 s of CPU scoring 2,093 cases against 2.7 s in one process, 3.4 ms more per case, and took 8.1 s of wall
time against 4.3 s with ``-n 0`` (2 CPUs, 2026-12-02).

So each session of benchmark cases leaves a note for the next, ``auto-workers.json`` beside the disk cache:

- a stamp of what decides the work: the command line without its ``-n`` value and the options that only
  change what the terminal shows (``-q``, ``-v``, ``--tb``, ``-r``...), the working folder, the
  ``ATLBENCH_`` environment variables, the ini file, the benchmark package's code and the data roots' file
  names, sizes and modification times;
- the number of benchmark cases and the seconds of case work the session would have taken with every cached
  value already on disk: the cases' durations minus the time spent computing the values the disk cache did
  not hold (:func:`benchmark.core.diskcache.computed_seconds`), which the next session will read instead.

When the next ``-n auto`` session has the same stamp, :func:`choose` compares the two estimates

- in one process: ``W``;
- with ``n`` workers: ``STARTUP_SECONDS + (W + PER_CASE_SECONDS * cases) / n``;

and starts no worker when one process is faster. Without a note, or with a note for another stamp (the first
session, edited code or data, another selection, the cache deleted or ``--cache-clear``), a session whose
paths are all track modules (``pytest cases``, ``pytest cases/test_ocl.py``) runs in one process on a
machine of at most 2 CPUs: a cold one forks the helper that scores its cases ahead on the other CPU
(:mod:`benchmark.harness.ahead`), which xdist's workers cannot do, and was measured faster than two
workers; elsewhere xdist decides as usual. The choice changes how long the session takes, never what it
measures: the same cases run and the rows, reports and verdicts do not depend on the process that scored
them. The report header says what was chosen and why; ``-n N`` always starts ``N`` workers, and
``PYTEST_XDIST_AUTO_NUM_WORKERS`` still wins.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

NOTE_FILE = "auto-workers.json"
#: the folder of the note inside pytest's cache folder: what ``config.cache.mkdir("atlbench")`` returns, which
#: is also the disk cache's folder (``benchmark.harness.plugin``); found from the ini value before pytest
#: creates its cache object (``-n`` is resolved first)
NOTE_FOLDER = ("d", "atlbench")
#: a worker's start-up (interpreter, imports, plugins, collection) and the per-case cost of distributing (the
#: worker serialising three reports, the controller reading them), measured on this project's 2-CPU machine
#: (module docstring)
STARTUP_SECONDS = 1.0
PER_CASE_SECONDS = 0.0034
#: without a note, a session of benchmark cases runs in one process on this many CPUs or fewer
ONE_PROCESS_CPUS = 2
ONE_PROCESS_MEASURED = (
    "cold, pytest cases: 14.3 s against 18.7 s; the ATL Zoo's 1,890 cases: 17.4 s against 27.4 s; "
    "2026-12-02, python -m benchmark.bench session and zoo"
)
_NUMPROCESSES_FLAGS = ("-n", "--numprocesses")
#: options that change what the terminal shows, not the cases nor their work: (spelling, takes a value)
_DISPLAY_OPTIONS = {
    "--quiet": False,
    "--verbose": False,
    "--no-header": False,
    "--no-summary": False,
    "--tb": True,
    "--color": True,
    "--code-highlight": True,
    "--durations": True,
    "--durations-min": True,
    "-r": True,
}
_IGNORED_VARIABLES = ("ATLBENCH_PHASE_TIMES",)  # where the phase times go: no part of the work


@dataclass(frozen=True)
class Choice:
    """What ``-n auto`` starts: ``workers`` (``None``: xdist's count) and why, for the report header."""

    workers: int | None
    reason: str


def note_path(cache_folder: Path) -> Path:
    """The note in the folder ``config.cache.mkdir("atlbench")`` returned."""
    return cache_folder / NOTE_FILE


def pytest_cache_folder(config: pytest.Config) -> Path | None:
    """pytest's cache folder as its cache provider resolves the ``cache_dir`` ini value, or ``None`` when the
    provider is disabled (``-p no:cacheprovider``) or asked to clear the cache (``--cache-clear``)."""
    if config.pluginmanager.is_blocked("cacheprovider") or config.getoption("cacheclear", False):
        return None
    folder = Path(os.path.expanduser(os.path.expandvars(str(config.getini("cache_dir")))))
    return folder if folder.is_absolute() else config.rootpath / folder


def command_without_workers(args: Iterable[str]) -> list[str]:
    """The command line's arguments without the ``-n``/``--numprocesses`` value (in any spelling) and without
    the options that only change what the terminal shows (:data:`_DISPLAY_OPTIONS`, ``-q``, ``-vv``...):
    ``pytest cases -q`` after ``pytest cases`` has the same work."""
    kept: list[str] = []
    skip = False
    for arg in args:
        if skip:
            skip = False
        elif arg in _NUMPROCESSES_FLAGS:
            skip = True
        elif arg.startswith("--numprocesses=") or (arg.startswith("-n") and not arg.startswith("--")):
            continue
        elif _display_only(arg):
            skip = _DISPLAY_OPTIONS.get(arg, False)  # a value in the next argument: --tb short, -r fE
        else:
            kept.append(arg)
    return kept


def _display_only(arg: str) -> bool:
    """``-q``, ``-qq``, ``-v``, ``-vv`` and the options of :data:`_DISPLAY_OPTIONS`, with their value in
    the same argument (``--tb=short``, ``-rfE``) or, for a long option, in the next one."""
    if len(arg) > 1 and arg[0] == "-" and arg[1] != "-" and set(arg[1:]) in ({"q"}, {"v"}):
        return True
    if arg.startswith("-r") and not arg.startswith("--"):
        return True
    name = arg.split("=", 1)[0]
    return name in _DISPLAY_OPTIONS


def _files_stamp(roots: Iterable[Path]) -> list[list[Any]]:
    """Each file under ``roots``: its path, size and modification time (a change is a new stamp)."""
    found: list[list[Any]] = []
    for root in sorted({Path(r) for r in roots}):
        for folder, dirs, files in os.walk(root):
            dirs.sort()
            for name in sorted(files):
                path = os.path.join(folder, name)
                try:
                    status = os.stat(path)
                except OSError:
                    continue
                found.append([path, status.st_size, status.st_mtime_ns])
    return found


def _code_stamp(config: pytest.Config) -> str:
    """The benchmark package's code (every sub-package: the fingerprint the disk cache keys use) and the
    project's ``conftest.py`` and ini file."""
    import benchmark
    from benchmark.core.diskcache import code_fingerprint

    root = Path(benchmark.__file__).parent
    packages = sorted(p.name for p in root.iterdir() if p.is_dir() and p.name[0] != "_")
    digest = hashlib.sha256(code_fingerprint(*packages).encode())
    for path in (config.rootpath / "conftest.py", config.inipath):
        if path is not None and path.is_file():
            digest.update(path.read_bytes())
    return digest.hexdigest()


def data_roots(options: Any) -> list[Path]:
    """The folders a session reads its data from: the validation root and every track's root (a
    :class:`~benchmark.harness.options.SessionOptions`)."""
    return [options.validation_root, *options.roots.values()]


def stamp(config: pytest.Config, data_roots: Iterable[Path]) -> str:
    """What decides a session's work (module docstring), hashed."""
    variables = {
        k: v for k, v in os.environ.items() if k.startswith("ATLBENCH_") and k not in _IGNORED_VARIABLES
    }
    described = {
        "command": command_without_workers(config.invocation_params.args),
        "folder": str(config.invocation_params.dir),
        "addopts": os.environ.get("PYTEST_ADDOPTS", ""),
        "variables": sorted(variables.items()),
        "code": _code_stamp(config),
        "data": _files_stamp(data_roots),
    }
    return hashlib.sha256(json.dumps(described, sort_keys=True).encode()).hexdigest()


def choose(config: pytest.Config, data_roots: Iterable[Path], cpus: int) -> Choice | None:
    """The workers ``-n auto`` starts for this session (module docstring), or ``None`` when there is no note
    for it (xdist decides, and the header says nothing)."""
    if os.environ.get("PYTEST_XDIST_AUTO_NUM_WORKERS") or cpus < 2:
        return None
    if config.pluginmanager.is_blocked("cacheprovider"):
        return None  # no disk cache: nothing to read a note from, nor for a helper to fill
    folder = pytest_cache_folder(config)
    note = read_note(note_path(folder.joinpath(*NOTE_FOLDER))) if folder is not None else None
    if note is None or note.get("stamp") != stamp(config, data_roots):
        return _without_a_note(config, cpus)
    cases, work = int(note["cases"]), float(note["work_seconds"])
    distributed = STARTUP_SECONDS + (work + PER_CASE_SECONDS * cases) / cpus
    estimate = (
        f"the previous session of these {cases:,} cases, with the same code and data, did {work:.1f} s "
        f"of case work with its values in the disk cache; {cpus} workers would take about "
        f"{distributed:.1f} s "
        f"({STARTUP_SECONDS:.0f} s start-up and {PER_CASE_SECONDS * 1000:.1f} ms per case to distribute)"
    )
    if work <= distributed:
        return Choice(0, f"-n auto runs in this process: {estimate}; -n {cpus} starts them anyway")
    return Choice(None, f"-n auto starts {cpus} workers: {estimate}")


def _without_a_note(config: pytest.Config, cpus: int) -> Choice | None:
    """No note for this session. On at most :data:`ONE_PROCESS_CPUS` CPUs, a session whose paths are track
    modules only (:func:`~benchmark.harness.trackmodules.only_track_modules`) runs in one process: a cold
    one forks the helper that scores its cases ahead on the other CPU (:mod:`benchmark.harness.ahead`),
    which workers cannot (:data:`ONE_PROCESS_MEASURED`), and a warm one has little to distribute. Else
    xdist decides."""
    from benchmark.core.forked import can_fork
    from benchmark.harness.trackmodules import only_track_modules

    if cpus > ONE_PROCESS_CPUS or not can_fork():
        return None
    modules = only_track_modules(config.args, config.invocation_params.dir, config.getini("python_files"))
    if modules is None:
        return None
    return Choice(
        0,
        f"-n auto runs in this process: benchmark cases only ({len(modules)} track module"
        f"{'s' if len(modules) > 1 else ''}) and no note from an earlier session of them; on {cpus} CPUs "
        f"one process, whose helper scores a cold session's cases ahead on the other CPU, was faster than "
        f"{cpus} workers ({ONE_PROCESS_MEASURED}); -n {cpus} starts them anyway",
    )


def read_note(path: Path) -> dict[str, Any] | None:
    """The note a previous session left, or ``None`` when there is none or it cannot be read (a note only
    makes a session faster: a broken one is ignored, and the next session writes a new one)."""
    try:
        note = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    wanted = {"stamp": str, "cases": int, "work_seconds": float}
    if not isinstance(note, dict) or not all(isinstance(note.get(k), t) for k, t in wanted.items()):
        return None
    return note


def write_note(path: Path, stamp_: str, cases: int, work_seconds: float) -> None:
    from benchmark.core.fileio import write_json_atomic

    write_json_atomic(path, {"stamp": stamp_, "cases": cases, "work_seconds": round(float(work_seconds), 3)})


__all__ = [
    "Choice",
    "PER_CASE_SECONDS",
    "STARTUP_SECONDS",
    "choose",
    "command_without_workers",
    "data_roots",
    "note_path",
    "pytest_cache_folder",
    "read_note",
    "stamp",
    "write_note",
]
