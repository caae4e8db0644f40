"""A transformation's ground truth: its ATL file parsed and extracted, its metamodels found and loaded,
checked against each other, and its facts for the validation-set table.

Which metamodel is the source and which the target comes from the ground truth's module header
(``create OUT : Publication from IN : Book``): a file whose stem or main package is ``Book`` is the source.
:class:`GroundTruths` keeps, per process, what a session reads of its transformations: the parse, the
metamodel views and the ground truths, each cached on disk by content hash (and code version), so each
xdist worker does the work at most once and a repeated session almost none. A metamodel file with the same
bytes as one already loaded (a Zoo tree holds one metamodel in many task folders) reuses its view.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from benchmark.core.diskcache import DiskCache, code_fingerprint, make_key
from benchmark.core.errors import BenchmarkError
from benchmark.core.fileio import sha256_file
from benchmark.core.track import GroundTruthCase, GroundTruthProblem
from benchmark.core.wording import plural
from benchmark.lang.ecore.view import MetamodelView
from benchmark.tracks.mapping.discovery import (
    METAMODEL_SUFFIXES,
    CorpusError,
    Discovery,
    TransformationFolder,
)
from benchmark.tracks.mapping.interchange import InterchangeDocument
from benchmark.tracks.mapping.payload import TransformationFacts

MetamodelLoader = Callable[[Path], MetamodelView]


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


@dataclass(frozen=True)
class GroundTruth:
    """A transformation's ground truth as the runs need it, or the reason it is unusable."""

    folder: TransformationFolder
    document: InterchangeDocument | None = None
    summary: dict[str, Any] = field(default_factory=dict)
    metamodels: Metamodels | None = None
    error: str | None = None


class GroundTruths:
    """The ground truths of one discovery, read once per process (and cached on disk across sessions)."""

    def __init__(self, discovery: Discovery, cache: DiskCache, track: str = "atl") -> None:
        self.discovery = discovery
        self.cache = cache
        self.track = track
        self._ground_truths: dict[str, GroundTruth] = {}
        self._views: dict[Path, MetamodelView] = {}
        self._dependencies: dict[Path, tuple[tuple[str, str], ...]] = {}
        self._content_keys: dict[Path, tuple[str, ...]] = {}
        self._views_by_content: dict[tuple[str, str], MetamodelView] = {}
        self._first_paths: dict[tuple[str, str], Path] = {}
        # Where to load a metamodel from for a baseline: the first file of the same bytes (and no
        # references) this process met, whose load the loader keeps (a baseline document names no file).
        self._load_paths: dict[Path, Path] = {}

    def _folder(self, transformation: str) -> TransformationFolder:
        for folder in self.discovery.transformations:
            if folder.name == transformation:
                return folder
        raise KeyError(transformation)

    def view(self, path: Path) -> MetamodelView:
        """The view of a metamodel file, cached on disk with the files its references made the loader
        read (their hashes are checked on every hit). The path is part of the key because the view
        names its file, and messages quote it. A file with the same bytes and notation as one already
        loaded in this process, and referencing no other file, gets that view under its own name (a Zoo
        tree holds the same XML or KM3 metamodel in many task folders)."""
        if path not in self._views:
            from benchmark.lang.ecore.loader import dependencies_unchanged

            def compute() -> tuple[MetamodelView, tuple[tuple[str, str], ...]]:
                from benchmark.lang.ecore import build_view, load_resource

                loaded = load_resource(path)
                return build_view(loaded), loaded.dependencies

            digest = sha256_file(path)
            twin = self._views_by_content.get((digest, path.suffix))
            if twin is not None:
                view, dependencies = replace(twin, file=str(path)), ()
            else:
                key = make_key(digest, str(path), code_fingerprint("lang.ecore"))
                view, dependencies = self.cache.get_or_compute(
                    "views", key, compute, valid=lambda entry: dependencies_unchanged(entry[1])
                )
                if not dependencies:
                    self._views_by_content[(digest, path.suffix)] = view
                    self._first_paths[(digest, path.suffix)] = path
            if not dependencies:
                self._load_paths[path] = self._first_paths.get((digest, path.suffix), path)
            self._views[path] = view
            self._dependencies[path] = dependencies
        return self._views[path]

    def load_path(self, path: Path) -> Path:
        """The file to load the metamodel ``path`` from: the first file of the same bytes this process
        met (its load is kept by the loader), or ``path`` itself."""
        return self._load_paths.get(path, path)

    def atl_hash(self, path: Path) -> str:
        """The SHA-256 of a ground truth's ATL file, once per process (every run's row key has it)."""
        if path not in self._content_keys:
            self._content_keys[path] = (sha256_file(path),)
        return self._content_keys[path][0]

    def content_key(self, path: Path) -> tuple[str, ...]:
        """What a value computed from the metamodel ``path`` depends on: its content and notation, and
        the content of every file its references read (once per process: every run's row key has it)."""
        if path not in self._content_keys:
            self.view(path)
            dependencies = (f"{f}={h}" for f, h in self._dependencies[path])
            self._content_keys[path] = (sha256_file(path), path.suffix, *dependencies)
        return self._content_keys[path]

    def _parse(self, path: Path) -> tuple[InterchangeDocument, dict[str, Any]]:
        """(interchange document, parse summary) of an ATL file, parsed once per content and code version.
        The document is the extraction's JSON read back (validated against the interchange schema,
        normalised as every reader of the format sees it) when it is computed, not at every hit."""

        def compute() -> tuple[InterchangeDocument, dict[str, Any]]:
            from benchmark.lang.atl import parse_file
            from benchmark.lang.atl.summary import summarize
            from benchmark.tracks.mapping.extractor import extract

            unit = parse_file(path)
            data = extract(unit, file=str(path)).to_json()
            return InterchangeDocument.from_json(data, source=path), dict(summarize(unit))

        key = make_key(
            "document",  # the value is the document (formerly its JSON, under the same other parts)
            sha256_file(path),
            str(path),
            code_fingerprint("lang.atl", "tracks.mapping.extractor", "tracks.mapping.interchange"),
        )
        return self.cache.get_or_compute("atl", key, compute)

    def get(self, transformation: str) -> GroundTruth:
        if transformation not in self._ground_truths:
            self._ground_truths[transformation] = self._load_ground_truth(self._folder(transformation))
        return self._ground_truths[transformation]

    def _load_ground_truth(self, folder: TransformationFolder) -> GroundTruth:
        try:
            document, summary = self._parse(folder.atl_file)
        except BenchmarkError as error:
            return GroundTruth(folder, error=str(error))
        try:
            metamodels = resolve_metamodels(
                document, folder.metamodel_files, loader=self.view, folder=folder.path
            )
        except BenchmarkError as error:
            return GroundTruth(folder, document, summary, error=str(error))
        return GroundTruth(folder, document, summary, metamodels)

    def error(self, transformation: str) -> str | None:
        truth = self.get(transformation)
        return None if truth.error is None else f"ground truth of {transformation} is unusable: {truth.error}"

    def check(self, case: GroundTruthCase) -> TransformationFacts:
        truth = self.get(case.task)
        if truth.error is not None:
            raise GroundTruthProblem(truth.error)
        assert truth.document is not None and truth.metamodels is not None
        messages = [
            f"{case.file}: {note}; the ground truth cannot be checked against that metamodel, and its runs "
            "get no attribute/reference split and no made-up-name count (metamodel files are the .ecore "
            f"and .km3 files below {truth.folder.path}, found by file stem or main package name)"
            for note in truth.metamodels.notes
        ]
        problems = consistency_problems(truth.document, truth.metamodels)
        if problems:
            listed = "\n".join(f"  - {p}" for p in problems)
            messages.append(
                f"{case.file}: the extracted ground truth names {plural(len(problems), 'element')} that the "
                f"metamodels do not define:\n{listed}"
            )
        if messages:
            raise GroundTruthProblem("\n".join(messages))
        return self.facts(case.task)

    def facts(self, transformation: str) -> TransformationFacts:
        truth = self.get(transformation)
        folder = truth.folder
        if truth.document is None:
            return TransformationFacts(name=transformation, file=str(folder.atl_file), error=truth.error)
        bindings = [f for m in truth.document.class_matches for f in m.feature_matches]
        summary = truth.summary
        metamodels = truth.metamodels
        return TransformationFacts(
            name=transformation,
            track=self.track,
            file=str(folder.atl_file),
            matched_rules=int(summary.get("matchedRules", 0)),
            lazy_rules=int(summary.get("lazyRules", 0)),
            called_rules=int(summary.get("calledRules", 0)),
            helpers=int(summary.get("helpers", 0)),
            class_pairs=len(truth.document.class_matches),
            bindings=len(bindings),
            partial_bindings=sum(len(f.source_features) > 1 for f in bindings),
            target_only_bindings=sum(f.target_only for f in bindings),
            source_metamodel=";".join(str(p) for p in metamodels.source_files) if metamodels else "",
            target_metamodel=";".join(str(p) for p in metamodels.target_files) if metamodels else "",
            error=truth.error,
        )
