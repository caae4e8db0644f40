"""RQ1, the ATL binding track: LLM-suggested class and feature mappings against ATL ground truth.

Cases come from :mod:`benchmark.tracks.mapping.corpus` (a folder with exactly one ``.atl`` file is a
transformation; its ``*.json`` files are runs) plus one live run per selected baseline. Parsing, metamodel
loading and baseline matching are memoised per process and cached on disk by content hash, so each xdist
worker does the work at most once and a repeated session almost none.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from benchmark.core.diskcache import code_fingerprint, make_key
from benchmark.core.errors import BenchmarkError
from benchmark.core.fileio import sha256_file
from benchmark.core.results import TransformationFacts
from benchmark.core.track import (
    Collection,
    GroundTruthCase,
    GroundTruthProblem,
    RunCase,
    SkippedInput,
    Track,
)
from benchmark.lang.ecore.view import MetamodelView
from benchmark.tracks.mapping.corpus import (
    Discovery,
    Metamodels,
    TransformationFolder,
    consistency_problems,
    discover,
    resolve_metamodels,
    score_file,
)
from benchmark.tracks.mapping.counts import RunRow
from benchmark.tracks.mapping.interchange import InterchangeDocument


@dataclass(frozen=True)
class GroundTruth:
    """A transformation's ground truth as the runs need it, or the reason it is unusable."""

    folder: TransformationFolder
    document: InterchangeDocument | None = None
    summary: dict[str, Any] = field(default_factory=dict)
    metamodels: Metamodels | None = None
    error: str | None = None


def run_case_id(transformation: str, provider: str, stem: str) -> str:
    """``Grafcet2Petrinet-Claude-run03``: the provider is added unless the file name already says it (or
    the file does not say who made it), so that ``-k Claude`` selects a provider's runs whatever their
    files are called."""
    from benchmark.tracks.mapping.suggestions import UNKNOWN

    known = provider != UNKNOWN and provider.lower() not in stem.lower()
    label = f"{provider}-{stem}" if known else stem
    return f"{transformation}-{label}"


class AtlTrack(Track):
    name = "atl"
    title = "RQ1: class and binding mappings against ATL ground truth"
    report_prefix = "rq1"

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._discovery: Discovery | None = None
        self._ground_truths: dict[str, GroundTruth] = {}
        self._views: dict[Path, MetamodelView] = {}
        self._dependencies: dict[Path, tuple[tuple[str, str], ...]] = {}

    # ------------------------------------------------------------------------------- collection

    @property
    def discovery(self) -> Discovery:
        if self._discovery is None:
            self._discovery = discover(self.options.validation_root)
        return self._discovery

    def _folder(self, transformation: str) -> TransformationFolder:
        for folder in self.discovery.transformations:
            if folder.name == transformation:
                return folder
        raise KeyError(transformation)

    def collect(self) -> Collection:
        from benchmark.tracks.mapping.suggestions import peek_provider

        ground_truths: list[GroundTruthCase] = []
        runs: list[RunCase] = []
        for folder in self.discovery.transformations:
            ground_truths.append(GroundTruthCase(self.name, folder.name, folder.atl_file))
            folder_runs = []
            for path in folder.suggestion_files:
                provider, model = peek_provider(path)
                run = folder.run_id(path)
                case_id = run_case_id(folder.name, provider, path.stem)
                folder_runs.append(
                    RunCase(self.name, folder.name, provider, run, case_id, file=path, model=model)
                )
            ids = [case.case_id for case in folder_runs]
            for index, case in enumerate(folder_runs):
                if ids.count(case.case_id) > 1:  # same file name in two sub-folders: use the relative path
                    unique = run_case_id(folder.name, case.provider, case.run.replace("/", "-"))
                    folder_runs[index] = replace(case, case_id=unique)
            runs.extend(folder_runs)
            for baseline in self.options.baselines:
                runs.append(
                    RunCase(
                        self.name,
                        folder.name,
                        provider=baseline,
                        run=baseline,
                        case_id=f"{folder.name}-{baseline}",
                        baseline=baseline,
                    )
                )
        skipped = [SkippedInput(s.path, s.reason) for s in self.discovery.skipped_folders]
        skipped += [SkippedInput(s.path, s.reason) for s in self.discovery.ignored_files]
        return Collection(
            tuple(sorted(ground_truths, key=lambda c: c.case_id)),
            tuple(sorted(runs, key=lambda c: c.case_id)),
            tuple(skipped),
        )

    # ----------------------------------------------------------------------------- ground truth

    def _view(self, path: Path) -> MetamodelView:
        """The view of a metamodel file, cached on disk with the files its references made the loader
        read (their hashes are checked on every hit). The path is part of the key because the view
        names its file, and messages quote it."""
        if path not in self._views:
            from benchmark.lang.ecore.loader import dependencies_unchanged

            def compute() -> tuple[MetamodelView, tuple[tuple[str, str], ...]]:
                from benchmark.lang.ecore import build_view, load_resource

                loaded = load_resource(path)
                return build_view(loaded), loaded.dependencies

            key = make_key(sha256_file(path), str(path), code_fingerprint("lang.ecore"))
            view, dependencies = self.cache.get_or_compute(
                "views", key, compute, valid=lambda entry: dependencies_unchanged(entry[1])
            )
            self._views[path] = view
            self._dependencies[path] = dependencies
        return self._views[path]

    def _content_key(self, path: Path) -> tuple[str, ...]:
        """What a value computed from the metamodel ``path`` depends on: its content and notation, and
        the content of every file its references read."""
        self._view(path)
        return (sha256_file(path), path.suffix, *(f"{f}={h}" for f, h in self._dependencies[path]))

    def _parse(self, path: Path) -> tuple[dict[str, Any], dict[str, Any]]:
        """(interchange JSON, parse summary) of an ATL file, parsed once per content and code version."""

        def compute() -> tuple[dict[str, Any], dict[str, Any]]:
            from benchmark.lang.atl import parse_file
            from benchmark.lang.atl.summary import summarize
            from benchmark.tracks.mapping.extractor import extract

            unit = parse_file(path)
            return extract(unit, file=str(path)).to_json(), dict(summarize(unit))

        key = make_key(
            sha256_file(path),
            str(path),
            code_fingerprint("lang.atl", "tracks.mapping.extractor", "tracks.mapping.interchange"),
        )
        return self.cache.get_or_compute("atl", key, compute)

    def ground_truth(self, transformation: str) -> GroundTruth:
        if transformation not in self._ground_truths:
            self._ground_truths[transformation] = self._load_ground_truth(self._folder(transformation))
        return self._ground_truths[transformation]

    def _load_ground_truth(self, folder: TransformationFolder) -> GroundTruth:
        try:
            data, summary = self._parse(folder.atl_file)
            document = InterchangeDocument.from_json(data, source=folder.atl_file)
        except BenchmarkError as error:
            return GroundTruth(folder, error=str(error))
        try:
            metamodels = resolve_metamodels(
                document, folder.metamodel_files, loader=self._view, folder=folder.path
            )
        except BenchmarkError as error:
            return GroundTruth(folder, document, summary, error=str(error))
        return GroundTruth(folder, document, summary, metamodels)

    def ground_truth_error(self, transformation: str) -> str | None:
        truth = self.ground_truth(transformation)
        return None if truth.error is None else f"ground truth of {transformation} is unusable: {truth.error}"

    def check_ground_truth(self, case: GroundTruthCase) -> TransformationFacts:
        truth = self.ground_truth(case.transformation)
        if truth.error is not None:
            raise GroundTruthProblem(truth.error)
        assert truth.document is not None and truth.metamodels is not None
        problems = consistency_problems(truth.document, truth.metamodels)
        if problems:
            listed = "\n".join(f"  - {p}" for p in problems)
            raise GroundTruthProblem(
                f"{case.file}: the extracted ground truth names {len(problems)} element(s) that the "
                f"metamodels do not define:\n{listed}"
            )
        return self.facts(case.transformation)

    def facts(self, transformation: str) -> TransformationFacts:
        truth = self.ground_truth(transformation)
        folder = truth.folder
        if truth.document is None:
            return TransformationFacts(name=transformation, file=str(folder.atl_file), error=truth.error)
        bindings = [f for m in truth.document.class_matches for f in m.feature_matches]
        summary = truth.summary
        metamodels = truth.metamodels
        return TransformationFacts(
            name=transformation,
            track=self.name,
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

    # ---------------------------------------------------------------------------------- scoring

    def score_run(self, case: RunCase) -> RunRow:
        problem = self.ground_truth_error(case.transformation)
        if problem is not None:
            return self.error_row(case, problem)
        truth = self.ground_truth(case.transformation)
        assert truth.document is not None
        if case.baseline is not None:
            return self._score_baseline(case, truth)
        assert case.file is not None
        return score_file(
            truth.document,
            case.file,
            transformation=case.transformation,
            run=case.run,
            metamodels=truth.metamodels,
            partial_weight=self.options.partial_weight,
            confidence=self.options.confidence,
            track=self.name,
        )

    def _score_baseline(self, case: RunCase, truth: GroundTruth) -> RunRow:
        from benchmark.tracks.mapping.baselines import run_baseline
        from benchmark.tracks.mapping.compare import compare
        from benchmark.tracks.mapping.suggestions import parse_suggestions

        assert case.baseline is not None and truth.document is not None
        metamodels = truth.metamodels
        if metamodels is None or not metamodels.source_files or not metamodels.target_files:
            notes = "; ".join(metamodels.notes) if metamodels else "no metamodels"
            return self.error_row(case, f"baseline {case.baseline} needs both metamodel files ({notes})")
        source, target = metamodels.source_files[0], metamodels.target_files[0]
        label = f"<baseline:{case.baseline}>"
        try:
            key = make_key(
                case.baseline,
                case.transformation,  # the export document carries the name
                "source",
                *self._content_key(source),
                "target",
                *self._content_key(target),
                code_fingerprint("tracks.mapping.baselines", "lang.ecore", "tracks.mapping.jjodel"),
            )
            document = self.cache.get_or_compute(
                "baselines",
                key,
                lambda: run_baseline(case.baseline, source, target, transformation=case.transformation),
            )
            suggestions = parse_suggestions(document, source=label)
        except BenchmarkError as error:
            return self.error_row(case, str(error))
        result = compare(
            truth.document,
            suggestions,
            partial_weight=self.options.partial_weight,
            source_view=metamodels.source,
            target_view=metamodels.target,
            confidence=self.options.confidence,
        )
        return result.to_row(transformation=case.transformation, run=case.run, track=self.name, file=label)

    # ----------------------------------------------------------------------------------- inputs

    def input_files(self) -> dict[str, str]:
        root = self.options.validation_root
        files: list[Path] = []
        for folder in self.discovery.transformations:
            files += [folder.atl_file, *folder.metamodel_files, *folder.suggestion_files]
        return {path.relative_to(root).as_posix(): sha256_file(path) for path in sorted(set(files))}
