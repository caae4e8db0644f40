"""Across the surveyed files: duplicates set aside, a folder name for every included transformation, and
the selection a build writes.

**Duplicates.** The Zoo holds the same transformation in several projects (``SpreadsheetMLSimplified2XML``
in two Excel projects, ``Ant2XML`` in two Ant projects). A copy whose ATL text (line ends aside) and both
metamodel files are identical to an included file's is the same task; counting it twice would weigh it
twice in every mean and interval. The first in path order stays; the others get the ``duplicate``
verdict naming it.

**Names.** A task folder is named after its ``.atl`` file's stem (``Book2Publication``) when no other
included file has that stem (ignoring case); files that share a stem are named ``stem__Project`` after the
Zoo folders that hold them, with as many leading folders as it takes to tell them apart
(``SVG2XML__Table2SVGBarChart``). Characters other than letters, digits, ``_``, ``-``, ``.`` and ``+``
become ``_``, so a name is a plain path component and a ``pytest -k`` word.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import replace
from pathlib import PurePosixPath

from benchmark.core.errors import ConfigurationError
from benchmark.tracks.mapping.zoo import verdicts as v
from benchmark.tracks.mapping.zoo.survey import Entry

#: The eight transformations of the published study, by task name (``atlbench zoo build --published``).
PUBLISHED_STUDY = (
    "Book2Publication",
    "Class2Relational",
    "Grafcet2PetriNet",
    "JavaSource2Table",
    "MySQL2KM3",
    "SpreadsheetMLSimplified2XML",
    "Table2SpreadsheetMLSimplified",
    "XML2Ant",
)

_UNSAFE = re.compile(r"[^A-Za-z0-9_.+-]")
QUALIFIER = "__"


def plan(entries: Sequence[Entry]) -> list[Entry]:
    """``entries`` with duplicates marked and every included entry's ``task`` set, in the same order."""
    deduplicated = _mark_duplicates(entries)
    names = task_names(e.path for e in deduplicated if e.verdict == v.INCLUDED)
    return [replace(e, task=names[e.path]) if e.path in names else e for e in deduplicated]


def _mark_duplicates(entries: Sequence[Entry]) -> list[Entry]:
    first: dict[tuple[str | None, str, str], Entry] = {}
    out: list[Entry] = []
    for entry in entries:
        if entry.verdict != v.INCLUDED or entry.source is None or entry.target is None:
            out.append(entry)
            continue
        key = (entry.text_sha256, entry.source.sha256, entry.target.sha256)
        kept = first.setdefault(key, entry)
        if kept is entry:
            out.append(entry)
        else:
            reason = f"same ATL text and metamodel files as {kept.path}"
            out.append(replace(entry, verdict=v.DUPLICATE, reason=reason))
    return out


def task_names(paths: Iterable[str]) -> dict[str, str]:
    """A distinct folder name for every Zoo path (``/``-separated, relative to the Zoo)."""
    paths = sorted(paths)
    by_stem: dict[str, list[str]] = {}
    for path in paths:
        by_stem.setdefault(_safe(PurePosixPath(path).stem).casefold(), []).append(path)
    names: dict[str, str] = {}
    for group in by_stem.values():
        names.update(_qualified(group) if len(group) > 1 else {group[0]: _safe(PurePosixPath(group[0]).stem)})
    taken: set[str] = set()
    for path in paths:  # a qualified name may meet another file's plain stem: number the later one
        name, number = names[path], 2
        while names[path].casefold() in taken:
            names[path] = f"{name}{QUALIFIER}{number}"
            number += 1
        taken.add(names[path].casefold())
    return names


def _qualified(group: list[str]) -> dict[str, str]:
    """Names for files sharing a stem: the stem and the fewest leading folders that tell them apart."""
    folders = {path: [_safe(part) for part in PurePosixPath(path).parent.parts] for path in group}
    deepest = max(len(parts) for parts in folders.values())
    for depth in range(1, deepest + 1):
        names = {
            path: QUALIFIER.join([_safe(PurePosixPath(path).stem), *parts[:depth]])
            for path, parts in folders.items()
        }
        if len({n.casefold() for n in names.values()}) == len(names):
            return names
    return names  # still the same (folders differing only in unsafe characters): numbered by the caller


def _safe(text: str) -> str:
    return _UNSAFE.sub("_", text)


def select(entries: Sequence[Entry], wanted: Sequence[str]) -> list[Entry]:
    """The included entries named in ``wanted`` (task names ignoring case, or Zoo paths), all of them
    when ``wanted`` is empty; a name that is not an included task is an error saying what it is."""
    included = [e for e in entries if e.verdict == v.INCLUDED]
    if not wanted:
        return included
    by_name = {e.task.casefold(): e for e in included if e.task}
    by_path = {e.path: e for e in entries}
    chosen: dict[str, Entry] = {}
    problems: list[str] = []
    for word in wanted:
        entry = by_name.get(word.casefold()) or by_path.get(word.strip("/"))
        if entry is None:
            problems.append(f"{word!r} is neither a task name nor the path of an .atl file of the Zoo")
        elif entry.verdict != v.INCLUDED:
            problems.append(f"{word!r} is not a task: {entry.verdict} ({entry.reason})")
        else:
            chosen.setdefault(entry.path, entry)
    if problems:
        raise ConfigurationError("; ".join(problems), field="--only")
    return sorted(chosen.values(), key=lambda e: e.path)
