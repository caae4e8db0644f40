"""A validation tree on disk: transformation folders, their metamodels and their suggestion files.

``atlbench validate`` and the pytest plugin read the same layout through this module: every direct
subfolder of the root that holds exactly one ``.atl`` file is a transformation (the ground truth); its
metamodels are the ``.ecore``/``.km3`` files anywhere below it, and its runs are the ``*.json`` files
anywhere below it. Folders without exactly one ``.atl`` file belong to other tracks and are skipped by
rule, but always reported, as are files under hidden directories and run or metamodel files lying
directly in the root (other than the manifest of a tree built from the ATL Zoo); a suggestion file of a
valid folder is never lost (a file that cannot be scored becomes an error row naming the reason).

Which metamodel is the source and which the target comes from the ground truth's module header
(``create OUT : Publication from IN : Book``): a file whose stem or main package is ``Book`` is the source.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from benchmark.core.errors import BenchmarkError
from benchmark.lang.ecore.view import MetamodelView
from benchmark.tracks.mapping.compare import compare, error_row
from benchmark.tracks.mapping.counts import RunRow
from benchmark.tracks.mapping.interchange import InterchangeDocument
from benchmark.tracks.mapping.metrics import DEFAULT_PARTIAL_WEIGHT
from benchmark.tracks.mapping.outcomes import mark_missing
from benchmark.tracks.mapping.suggestions import (
    MissingRunError,
    confidence_filter_name,
    load_suggestions,
    parse_confidence_filter,
    peek_provider,
)

METAMODEL_SUFFIXES = (".ecore", ".km3")  # in order of preference for twins of one metamodel
SUGGESTION_SUFFIX = ".json"
#: The manifest ``atlbench zoo build`` writes beside the task folders (:mod:`.zoo.manifest`): not a run.
TREE_MANIFEST = "zoo-manifest.json"

MetamodelLoader = Callable[[Path], MetamodelView]


class CorpusError(BenchmarkError):
    """A validation tree that cannot be read as documented (a missing root, ambiguous metamodels...)."""


# ------------------------------------------------------------------------------------- discovery


@dataclass(frozen=True)
class TransformationFolder:
    """One transformation: its folder, ATL file, metamodel files and suggestion files (sorted), and the
    metamodel or suggestion files left out because they sit under a hidden directory."""

    name: str
    path: Path
    atl_file: Path
    metamodel_files: tuple[Path, ...] = ()
    suggestion_files: tuple[Path, ...] = ()
    hidden_files: tuple[Path, ...] = ()

    def run_id(self, suggestion_file: Path) -> str:
        """The run's name: the file's path below the folder without ``.json`` (``runs/Claude-run03``)."""
        return suggestion_file.relative_to(self.path).with_suffix("").as_posix()


@dataclass(frozen=True)
class Skipped:
    """A folder or file left out by rule, with the rule."""

    path: Path
    reason: str

    def to_json(self) -> dict[str, str]:
        return {"path": str(self.path), "reason": self.reason}


@dataclass(frozen=True)
class Discovery:
    root: Path
    transformations: tuple[TransformationFolder, ...]
    skipped_folders: tuple[Skipped, ...] = ()
    ignored_files: tuple[Skipped, ...] = ()


def _hidden(path: Path, base: Path) -> bool:
    return any(part.startswith(".") for part in path.relative_to(base).parts)


def files_below(folder: Path, suffixes: Sequence[str]) -> tuple[list[Path], list[Path]]:
    """(visible, hidden) regular files below ``folder`` with one of ``suffixes``, sorted."""
    visible: list[Path] = []
    hidden: list[Path] = []
    for path in sorted(folder.rglob("*")):
        if path.is_file() and path.suffix.lower() in suffixes:
            (hidden if _hidden(path, folder) else visible).append(path)
    return visible, hidden


def _atl_files(folder: Path) -> list[Path]:
    return sorted(p for p in folder.iterdir() if p.is_file() and p.suffix.lower() == ".atl")


def inspect_folder(folder: Path) -> TransformationFolder | Skipped:
    """A transformation folder, or the reason ``folder`` is not one."""
    atl_files = _atl_files(folder)
    if len(atl_files) != 1:
        found = ", ".join(p.name for p in atl_files)
        reason = "no .atl file" if not atl_files else f"{len(atl_files)} .atl files ({found}); expected one"
        return Skipped(folder, reason)
    visible, hidden = files_below(folder, (*METAMODEL_SUFFIXES, SUGGESTION_SUFFIX))
    return TransformationFolder(
        name=folder.name,
        path=folder,
        atl_file=atl_files[0],
        metamodel_files=tuple(p for p in visible if p.suffix.lower() in METAMODEL_SUFFIXES),
        suggestion_files=tuple(p for p in visible if p.suffix.lower() == SUGGESTION_SUFFIX),
        hidden_files=tuple(hidden),
    )


def discover(root: str | Path) -> Discovery:
    """Every transformation folder of a validation tree (``root`` itself when it holds one ``.atl``)."""
    root = Path(root)
    if not root.is_dir():
        raise CorpusError("validation root is not a directory", file=root)
    candidates = [root] if len(_atl_files(root)) == 1 else None
    if candidates is None:
        candidates = sorted(p for p in root.iterdir() if p.is_dir() and not p.name.startswith("."))
    transformations: list[TransformationFolder] = []
    skipped: list[Skipped] = []
    ignored: list[Skipped] = []
    for folder in candidates:
        found = inspect_folder(folder)
        if isinstance(found, Skipped):
            skipped.append(found)
            continue
        transformations.append(found)
        ignored.extend(Skipped(p, "inside a hidden directory") for p in found.hidden_files)
    if candidates != [root]:
        entries = sorted(root.iterdir())
        skipped.extend(
            Skipped(p, "hidden directory") for p in entries if p.is_dir() and p.name.startswith(".")
        )
        ignored.extend(
            Skipped(p, "not inside a transformation folder")
            for p in entries
            if p.is_file()
            and p.suffix.lower() in (SUGGESTION_SUFFIX, *METAMODEL_SUFFIXES)
            and p.name != TREE_MANIFEST
        )
    return Discovery(root, tuple(transformations), tuple(skipped), tuple(ignored))


# --------------------------------------------------------------------------------- ground truth


def load_ground_truth(path: str | Path) -> InterchangeDocument:
    """An interchange document from ``.json``, or extracted from an ``.atl`` file."""
    path = Path(path)
    if path.suffix.lower() == ".atl":
        try:
            from benchmark.tracks.mapping.extractor import (
                extract_file,  # the ATL front-end is only needed for .atl input
            )
        except ImportError as error:
            raise CorpusError(f"cannot extract ATL ground truth: {error}", file=path) from error
        return extract_file(path)
    from benchmark.tracks.mapping import interchange

    try:
        return interchange.load(path)
    except OSError as error:
        raise CorpusError(f"cannot read ground truth: {error.strerror}", file=path) from error


def default_metamodel_loader(path: Path) -> MetamodelView:
    try:
        from benchmark.lang.ecore import load_metamodel  # pyecore and the KM3 grammar load lazily
    except ImportError as error:
        raise CorpusError(f"cannot load metamodels: {error}", file=path) from error
    return load_metamodel(path)


# ---------------------------------------------------------------------------------- metamodels


def metamodel_names(document: InterchangeDocument) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """(source names, target names) of the transformation's metamodels, from the module header, or from
    the class matches when the header lists none (a hand-written ground truth)."""
    info = document.transformation
    sources = [m.metamodel for m in info.in_models] or [m.source_metamodel for m in document.class_matches]
    targets = [m.metamodel for m in info.out_models] or [m.target_metamodel for m in document.class_matches]
    return _distinct(sources), _distinct(targets)


def _distinct(names: Iterable[str]) -> tuple[str, ...]:
    return tuple(dict.fromkeys(n for n in names if n))


@dataclass
class MetamodelResolver:
    """Finds the file of a metamodel by name among a folder's files, loading each file at most once."""

    files: Sequence[Path]
    loader: MetamodelLoader = default_metamodel_loader
    folder: Path | None = None
    #: When true, a file that cannot be loaded (a model saved as ``.ecore``, a broken ``.km3``) is passed
    #: over in the search by package name and recorded in ``passed_over`` with its error, instead of
    #: failing the search: an ATL Zoo project folder holds such files beside its metamodels. A file whose
    #: bytes do not hold the name (ignoring case) cannot declare that package and is not even loaded.
    skip_unloadable: bool = False
    passed_over: dict[Path, str] = field(default_factory=dict)
    _views: dict[Path, MetamodelView] = field(default_factory=dict)

    def view(self, path: Path) -> MetamodelView:
        if path not in self._views:
            self._views[path] = self.loader(path)
        return self._views[path]

    def find(self, name: str) -> Path | None:
        """The file for metamodel ``name``: by file stem, else by main package name (exact, then ignoring
        case). Twins in both notations resolve to the ``.ecore``; any other tie is an error."""
        stages: list[Callable[[Path], bool]] = [
            lambda p: p.stem == name,
            lambda p: p.stem.lower() == name.lower(),
        ]
        for matches in stages:
            found = [p for p in self.files if matches(p)]
            if found:
                return self._single(name, found, "file name")
        candidates = [p for p in self.files if not self.skip_unloadable or _may_declare(p, name)]
        by_package = [(p, pkg) for p in candidates if (pkg := self._package_name(p)) is not None]
        for exact in (True, False):
            found = [p for p, pkg in by_package if (pkg == name if exact else pkg.lower() == name.lower())]
            if found:
                return self._single(name, found, "main package")
        return None

    def _package_name(self, path: Path) -> str | None:
        if not self.skip_unloadable:
            return self.view(path).name
        try:
            return self.view(path).name
        except BenchmarkError as error:
            self.passed_over.setdefault(path, str(error))
            return None

    def _single(self, name: str, found: list[Path], how: str) -> Path:
        preferred = [p for p in found if p.suffix.lower() == METAMODEL_SUFFIXES[0]] or found
        if len(preferred) == 1:
            return preferred[0]
        listed = ", ".join(str(p) for p in preferred)
        raise CorpusError(
            f"metamodel {name!r} is ambiguous: several files match by {how} ({listed}); "
            "keep one, or one .ecore plus its .km3 twin",
            file=self.folder,
        )


def _may_declare(path: Path, name: str) -> bool:
    """Whether ``path`` could declare a package ``name``: its bytes hold the name, ignoring case (a name
    that is not ASCII is not looked for: the file may spell it in any encoding)."""
    if not name.isascii():
        return True
    try:
        return name.lower().encode("ascii") in path.read_bytes().lower()
    except OSError:
        return True  # loading it reports the error


def merge_views(views: Sequence[MetamodelView]) -> MetamodelView:
    """One view over several metamodels (a transformation with several input or output models)."""
    if len(views) == 1:
        return views[0]
    return MetamodelView(
        name="+".join(v.name for v in views),
        file=";".join(v.file for v in views),
        packages=tuple(p for v in views for p in v.packages),
        classes=tuple(c for v in views for c in v.classes),
        enums=tuple(e for v in views for e in v.enums),
        datatypes=tuple(d for v in views for d in v.datatypes),
    )


@dataclass(frozen=True)
class Metamodels:
    """The source and target views of a transformation (``None`` when not found), with notes saying what
    could not be resolved."""

    source: MetamodelView | None
    target: MetamodelView | None
    source_files: tuple[Path, ...] = ()
    target_files: tuple[Path, ...] = ()
    notes: tuple[str, ...] = ()


def resolve_metamodels(
    document: InterchangeDocument,
    files: Sequence[Path],
    *,
    loader: MetamodelLoader = default_metamodel_loader,
    folder: Path | None = None,
    skip_unloadable: bool = False,
) -> Metamodels:
    """Source and target views for ``document`` among ``files``; ambiguity raises :class:`CorpusError`,
    and so does a file that cannot be loaded, unless ``skip_unloadable`` (:class:`MetamodelResolver`) and
    it was only looked at for its package name."""
    resolver = MetamodelResolver(files, loader, folder, skip_unloadable)
    source_names, target_names = metamodel_names(document)
    notes: list[str] = []
    if not source_names or not target_names:
        notes.append("the ground truth names no source or target metamodel")

    def side(names: Iterable[str], role: str) -> tuple[MetamodelView | None, tuple[Path, ...]]:
        paths: list[Path] = []
        for name in names:
            found = resolver.find(name)
            if found is None:
                skipped = ", ".join(p.name for p in resolver.passed_over)
                notes.append(
                    f"no metamodel file for {role} metamodel {name!r}"
                    + (f" (passed over as not loadable: {skipped})" if skipped else "")
                )
                return None, ()
            paths.append(found)
        if not paths:
            return None, ()
        unique = list(dict.fromkeys(paths))
        return merge_views([resolver.view(p) for p in unique]), tuple(unique)

    source, source_files = side(source_names, "source")
    target, target_files = side(target_names, "target")
    return Metamodels(source, target, source_files, target_files, tuple(notes))


def consistency_problems(document: InterchangeDocument, metamodels: Metamodels) -> list[str]:
    """Every class and target feature the ground truth names that its metamodels do not define.

    Source *features* are not checked: a source path read after ``oclAsType`` or a ``oclIsKindOf`` filter
    legitimately names a feature of a subclass. A side whose metamodel file was not found is not checked
    (``metamodels.notes`` says so).
    """
    problems: list[str] = []
    source, target = metamodels.source, metamodels.target

    def missing_class(view: MetamodelView | None, name: str, role: str) -> bool:
        if view is None:
            return False  # already reported in the notes
        try:
            found = view.find_class(name)
        except BenchmarkError as error:
            problems.append(f"{role} class {name!r}: {error.message}")
            return True
        if found is None:
            problems.append(f"{role} class {name!r} is not defined in {view.name} ({view.file})")
            return True
        return False

    for match in document.class_matches:
        missing_class(source, match.source_class, "source")
        if missing_class(target, match.target_class, "target") or target is None:
            continue
        for feature in match.feature_matches:
            if target.find_feature(match.target_class, feature.target_feature) is None:
                rules = ", ".join(feature.rules)
                problems.append(
                    f"target feature {match.target_class}.{feature.target_feature} (rule {rules}) "
                    f"is not defined in {target.name}"
                )
    for rule in document.called_rules:
        for output in rule.outputs:
            if (
                missing_class(target, output.target_class, f"called rule {rule.name}: target")
                or target is None
            ):
                continue
            for name in output.target_features:
                if target.find_feature(output.target_class, name) is None:
                    problems.append(
                        f"called rule {rule.name}: target feature {output.target_class}.{name} "
                        f"is not defined in {target.name}"
                    )
    return list(dict.fromkeys(problems))


# ------------------------------------------------------------------------------------- scoring


def score_file(
    ground_truth: InterchangeDocument,
    path: Path,
    *,
    transformation: str,
    run: str,
    metamodels: Metamodels | None = None,
    partial_weight: float = DEFAULT_PARTIAL_WEIGHT,
    confidence: str | None = None,
    track: str = "atl",
) -> RunRow:
    """The row of one suggestion file (its outcome: :mod:`benchmark.tracks.mapping.outcomes`).

    An unusable answer is scored as a run with no suggestions (an ok row marked ``unusable``); a file
    saying no answer was obtained gives an error row marked ``missing``; an unreadable file gives an error
    row with the parser's message.
    """
    try:
        suggestions = load_suggestions(path)
    except MissingRunError as error:
        row = file_error_row(
            error,
            path,
            transformation=transformation,
            run=run,
            track=track,
            partial_weight=partial_weight,
            confidence=confidence,
        )
        return mark_missing(row, error.reason)
    except BenchmarkError as error:
        return file_error_row(
            error,
            path,
            transformation=transformation,
            run=run,
            track=track,
            partial_weight=partial_weight,
            confidence=confidence,
        )
    result = compare(
        ground_truth,
        suggestions,
        partial_weight=partial_weight,
        source_view=metamodels.source if metamodels else None,
        target_view=metamodels.target if metamodels else None,
        confidence=confidence,
    )
    return result.to_row(transformation=transformation, run=run, track=track, file=path)


def file_error_row(
    error: BaseException | str,
    path: Path,
    *,
    transformation: str,
    run: str,
    track: str = "atl",
    partial_weight: float = DEFAULT_PARTIAL_WEIGHT,
    confidence: str | None = None,
) -> RunRow:
    """The error row of a suggestion file that could not be scored, whatever the reason (its own content,
    or an unusable ground truth): it keeps the provider and model the file names, so an excluded run still
    counts in its provider's exclusions, in ``atlbench validate`` and the pytest suite alike."""
    provider, model = peek_provider(path)
    return error_row(
        error,
        provider=provider,
        model=model,
        transformation=transformation,
        run=run,
        file=path,
        track=track,
        partial_weight=partial_weight,
        confidence_filter=confidence_filter_name(parse_confidence_filter(confidence)),
    )
