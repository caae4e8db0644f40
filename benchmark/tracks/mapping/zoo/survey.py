"""Each ``.atl`` file of a Zoo checkout on its own: its verdict (:mod:`.verdicts`), the reason, and, for a
usable module, its two metamodel files.

A file's metamodels are looked for the way the track looks for them in a transformation folder
(:func:`benchmark.tracks.mapping.ground_truth.resolve_metamodels`: by file stem, then by main package name,
``.ecore`` before its ``.km3`` twin), among the ``.ecore`` and ``.km3`` files anywhere below the file's
*project folder*: the top-level folder of the Zoo it sits in (``Grafcet2PetriNet/`` for
``Grafcet2PetriNet/Transformations/Grafcet2PetriNet.atl``). A Zoo project keeps sample models with a
metamodel's suffix and the odd broken ``.km3`` beside its metamodels; those are passed over in the search
by package name, and named in the reason when a metamodel is not found.

Projects are surveyed side by side in forked processes; an :class:`Entry` is small and plain, so it
travels back cheaply and goes into the manifest as it is.
"""

from __future__ import annotations

import functools
import hashlib
import multiprocessing
from collections.abc import Callable, Iterator
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from benchmark.core.errors import BenchmarkError, ConfigurationError
from benchmark.core.fileio import sha256_file
from benchmark.core.forked import can_fork, usable_cpus
from benchmark.core.gcpause import collector_paused
from benchmark.core.wording import plural
from benchmark.lang.atl import ast
from benchmark.lang.atl.parser import parse, read_atl_text
from benchmark.lang.ecore.view import MetamodelView
from benchmark.tracks.mapping.discovery import METAMODEL_SUFFIXES, files_below
from benchmark.tracks.mapping.ground_truth import (
    consistency_problems,
    default_metamodel_loader,
    resolve_metamodels,
)
from benchmark.tracks.mapping.zoo import verdicts as v

ATL_SUFFIX = ".atl"


@dataclass(frozen=True)
class MetamodelFile:
    """One side's metamodel: its name in the module header (``IN : Book`` gives ``Book``), its file
    (relative to the Zoo, ``/``-separated) and the file's SHA-256."""

    name: str
    path: str
    sha256: str


@dataclass(frozen=True)
class Entry:
    """One ``.atl`` file of the Zoo: where it is (relative to the Zoo, ``/``-separated), its verdict
    and why, and what is known of it. ``text_sha256`` hashes the ATL text with line ends made LF (two
    copies that differ only in line ends are one transformation); ``class_pairs`` and ``bindings`` count
    the extracted ground truth's class matches and feature matches; ``task`` is the folder name of an
    included file (set by :mod:`.plan`)."""

    path: str
    verdict: str
    reason: str
    unit: str | None = None
    name: str | None = None
    text_sha256: str | None = None
    source: MetamodelFile | None = None
    target: MetamodelFile | None = None
    class_pairs: int = 0
    bindings: int = 0
    task: str | None = None

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Entry:
        sides = {k: MetamodelFile(**data[k]) if data.get(k) else None for k in ("source", "target")}
        return cls(**{**data, **sides})


def atl_files(root: Path) -> list[Path]:
    """Every ``.atl`` file below ``root`` outside hidden folders, in path order."""
    if not root.is_dir():
        raise ConfigurationError("the Zoo checkout is not a directory", file=root)
    found = [
        p
        for p in root.rglob("*")
        if p.suffix.lower() == ATL_SUFFIX
        and p.is_file()
        and not any(part.startswith(".") for part in p.relative_to(root).parts)
    ]
    if not found:
        raise ConfigurationError("no .atl file below this directory; is it an ATL Zoo checkout?", file=root)
    return sorted(found, key=lambda p: p.relative_to(root).as_posix())


def survey(
    root: str | Path,
    paths: list[Path] | None = None,
    *,
    jobs: int | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> list[Entry]:
    """The entry of every ``.atl`` file below ``root`` (or of ``paths``), in path order.

    The files of one project folder are surveyed in one process, so that its metamodels are loaded once;
    projects are shared among ``jobs`` forked processes (default: the usable CPUs), largest first.
    ``progress(done, total)`` is called as each project's files are done."""
    root = Path(root).resolve()
    paths = atl_files(root) if paths is None else [Path(p).resolve() for p in paths]
    groups: dict[Path, list[Path]] = {}
    for path in paths:
        groups.setdefault(_project(root, path.relative_to(root).as_posix()), []).append(path)
    work = sorted(groups.values(), key=lambda group: -_weight(root, group))
    found: dict[str, Entry] = {}
    for entries in _run(functools.partial(_survey_group, root), work, jobs):
        found.update((e.path, e) for e in entries)
        if progress is not None:
            progress(len(found), len(paths))
    return [found[path.relative_to(root).as_posix()] for path in paths]


def _run(
    work: Callable[[list[Path]], list[Entry]], groups: list[list[Path]], jobs: int | None
) -> Iterator[list[Entry]]:
    """``work(group)`` for every group, on forked processes when that is possible and pays."""
    count = min(len(groups), usable_cpus() if jobs is None else max(1, jobs))
    if count < 2 or not can_fork():
        yield from map(work, groups)
        return
    parse("module Warm; create OUT : B from IN : A;")  # compile the grammar once, before forking
    with multiprocessing.get_context("fork").Pool(count) as pool:
        yield from pool.imap_unordered(work, groups)


def _weight(root: Path, group: list[Path]) -> int:
    """A project's expected cost, for handing out the costly ones first: the bytes of its ATL files and
    of the metamodel files they may load."""
    project = _project(root, group[0].relative_to(root).as_posix())
    return sum(p.stat().st_size for p in (*group, *_project_metamodels(project)))


def _survey_group(root: Path, paths: list[Path]) -> list[Entry]:
    """The entries of some files of one project. The cyclic garbage collector is paused meanwhile: the
    parser and pyecore make many objects and few cycles, and its passes over them cost as much as the
    work itself."""
    with collector_paused():
        return [survey_file(root, path) for path in paths]


def survey_file(root: Path, path: str | Path) -> Entry:
    """The entry of one ``.atl`` file of the Zoo at ``root``."""
    path = Path(path)
    relative = path.relative_to(root).as_posix()
    return _Surveyor(root, path, relative).entry()


def _project(root: Path, relative: str) -> Path:
    """A file's project folder: the Zoo's top-level folder holding it (the Zoo itself for a file there)."""
    parts = Path(relative).parts
    return root / parts[0] if len(parts) > 1 else root


class _Surveyor:
    """The checks of :mod:`.verdicts`, in order, for one file."""

    def __init__(self, root: Path, path: Path, relative: str) -> None:
        self.root = root
        self.path = path
        self.relative = relative
        self.project = _project(root, relative)

    def entry(self) -> Entry:
        try:
            text = read_atl_text(self.path)
            unit = parse(text, file=str(self.path))
        except BenchmarkError as error:
            return Entry(self.relative, v.REJECTED, self._position(error))
        known: dict[str, Any] = {
            "unit": type(unit).__name__.lower(),
            "name": unit.name,
            "text_sha256": _text_hash(text),
        }
        if unit.leniencies:
            return Entry(self.relative, v.REJECTED, _leniencies(unit.leniencies), **known)
        if not isinstance(unit, ast.Module):
            reason = f"{known['unit']} {unit.name}: helpers only"
            return Entry(self.relative, v.LIBRARY_OR_QUERY, reason, **known)
        header = _header(unit)
        if len(unit.in_models) != 1 or len(unit.out_models) != 1:
            return Entry(self.relative, v.SEVERAL_MODELS, header, **known)
        if unit.refining:
            return Entry(self.relative, v.REFINING, header, **known)
        source_name, target_name = unit.in_models[0].metamodel, unit.out_models[0].metamodel
        if source_name.casefold() == target_name.casefold():
            return Entry(self.relative, v.ENDOGENOUS, header, **known)
        return self._module(unit, (source_name, target_name), known)

    def _module(self, unit: ast.Module, names: tuple[str, str], known: dict[str, Any]) -> Entry:
        from benchmark.tracks.mapping.extractor import ExtractionError, extract

        try:
            document = extract(unit, file=str(self.path))
        except ExtractionError as error:
            return Entry(
                self.relative, v.EMPTY_GROUND_TRUTH, f"cannot be extracted: {error.message}", **known
            )
        try:
            metamodels = resolve_metamodels(
                document,
                _project_metamodels(self.project),
                loader=_load_view,
                folder=self.project,
                skip_unloadable=True,
            )
        except BenchmarkError as error:
            return Entry(self.relative, v.METAMODEL_NOT_FOUND, self._relative_text(str(error)), **known)
        if metamodels.notes or not metamodels.source_files or not metamodels.target_files:
            below = f"below {self._relative_text(str(self.project))}/"
            reason = "; ".join(metamodels.notes) or "no metamodel files"
            return Entry(self.relative, v.METAMODEL_NOT_FOUND, f"{reason}, {below}", **known)
        source = self._side(names[0], metamodels.source_files)
        target = self._side(names[1], metamodels.target_files)
        known.update(
            source=source,
            target=target,
            class_pairs=len(document.class_matches),
            bindings=sum(len(m.feature_matches) for m in document.class_matches),
        )
        pair = f"{source.path} and {target.path}"
        if source.path == target.path or source.sha256 == target.sha256:
            reason = f"{source.name} and {target.name} are the same metamodel ({pair})"
            return Entry(self.relative, v.ENDOGENOUS, reason, **known)
        if Path(source.path).name.casefold() == Path(target.path).name.casefold():
            file_name = Path(source.path).name
            reason = f"both metamodel files are named {file_name} ({pair}): one task folder cannot hold both"
            return Entry(self.relative, v.METAMODEL_NOT_FOUND, reason, **known)
        if not document.class_matches:
            called = len(document.called_rules)
            reason = "no class pair" + (f" (only {plural(called, 'called rule')})" if called else "")
            return Entry(self.relative, v.EMPTY_GROUND_TRUTH, reason, **known)
        problems = consistency_problems(document, metamodels)
        if problems:
            shown = "; ".join(self._relative_text(p) for p in problems[:3])
            more = f"; {len(problems) - 3} more" if len(problems) > 3 else ""
            reason = f"{plural(len(problems), 'problem')}: {shown}{more}"
            return Entry(self.relative, v.METAMODEL_MISMATCH, reason, **known)
        reason = f"{source.name} → {target.name} ({pair})"
        return Entry(self.relative, v.INCLUDED, reason, **known)

    def _side(self, name: str, files: tuple[Path, ...]) -> MetamodelFile:
        (path,) = files  # one metamodel per side: several models were ruled out before
        return MetamodelFile(name, path.relative_to(self.root).as_posix(), sha256_file(path))

    def _position(self, error: BenchmarkError) -> str:
        where = f"line {error.line}, column {error.column}: " if error.line is not None else ""
        return where + self._relative_text(error.message)

    def _relative_text(self, text: str) -> str:
        """``text`` with the Zoo's own path left out of the file names it gives."""
        return text.replace(f"{self.root}/", "")


def _header(unit: ast.Module) -> str:
    def models(decls: tuple[ast.ModelDecl, ...]) -> str:
        return ", ".join(f"{m.name} : {m.metamodel}" for m in decls)

    mode = "refining" if unit.refining else "from"
    return f"create {models(unit.out_models)} {mode} {models(unit.in_models)}"


def _leniencies(leniencies: tuple[ast.Leniency, ...]) -> str:
    first: dict[str, ast.Leniency] = {}
    counts: dict[str, int] = {}
    for leniency in leniencies:
        first.setdefault(leniency.kind, leniency)
        counts[leniency.kind] = counts.get(leniency.kind, 0) + 1
    listed = "; ".join(
        f"{kind} at line {n.line}, column {n.column} ({counts[kind]} in the file)"
        for kind, n in first.items()
    )
    return f"accepted here only leniently: {listed}"


def _text_hash(text: str) -> str:
    normalised = text.replace("\r\n", "\n").replace("\r", "\n")
    return hashlib.sha256(normalised.encode("utf-8")).hexdigest()


# Per process: a project's metamodel files, and every metamodel view (or its load error), are looked up
# once, however many of the project's transformations need them.


@functools.cache
def _project_metamodels(project: Path) -> tuple[Path, ...]:
    visible, _hidden = files_below(project, METAMODEL_SUFFIXES)
    return tuple(visible)


_views: dict[Path, MetamodelView | BenchmarkError] = {}


def _load_view(path: Path) -> MetamodelView:
    found = _views.get(path)
    if found is None:
        try:
            found = default_metamodel_loader(path)
        except BenchmarkError as error:
            found = error
        _views[path] = found
    if isinstance(found, BenchmarkError):
        raise found
    return found
