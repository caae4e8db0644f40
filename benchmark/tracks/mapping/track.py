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
from benchmark.core.rows import Facts, Row
from benchmark.core.track import (
    Collection,
    GroundTruthCase,
    GroundTruthProblem,
    RunCase,
    SkippedInput,
    Track,
)
from benchmark.core.wording import plural
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
from benchmark.tracks.mapping.options import REPORT_OPTIONS, TRACK_OPTIONS
from benchmark.tracks.mapping.results import TransformationFacts


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
    data_dir = ""  # the transformation folders sit directly in the validation root
    options = TRACK_OPTIONS
    report_options = REPORT_OPTIONS
    headline_name = "micro overall F1"
    min_score_alias = "--min-f1"

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._discovery: Discovery | None = None
        self._ground_truths: dict[str, GroundTruth] = {}
        self._views: dict[Path, MetamodelView] = {}
        self._dependencies: dict[Path, tuple[tuple[str, str], ...]] = {}
        self._content_keys: dict[Path, tuple[str, ...]] = {}
        self._views_by_content: dict[tuple[str, str], MetamodelView] = {}
        self._first_paths: dict[tuple[str, str], Path] = {}
        # Where to load a metamodel from for a baseline: the first file of the same bytes (and no
        # references) this process met, whose load the loader keeps (a baseline document names no file).
        self._load_paths: dict[Path, Path] = {}

    # ------------------------------------------------------------------------------- collection

    @property
    def discovery(self) -> Discovery:
        if self._discovery is None:
            self._discovery = discover(self.data_root)
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
            for baseline in self.option("baseline"):
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

    def _atl_hash(self, path: Path) -> str:
        """The SHA-256 of a ground truth's ATL file, once per process (every run's row key has it)."""
        if path not in self._content_keys:
            self._content_keys[path] = (sha256_file(path),)
        return self._content_keys[path][0]

    def _content_key(self, path: Path) -> tuple[str, ...]:
        """What a value computed from the metamodel ``path`` depends on: its content and notation, and
        the content of every file its references read (once per process: every run's row key has it)."""
        if path not in self._content_keys:
            self._view(path)
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

    def ground_truth(self, transformation: str) -> GroundTruth:
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
                document, folder.metamodel_files, loader=self._view, folder=folder.path
            )
        except BenchmarkError as error:
            return GroundTruth(folder, document, summary, error=str(error))
        return GroundTruth(folder, document, summary, metamodels)

    def ground_truth_error(self, transformation: str) -> str | None:
        truth = self.ground_truth(transformation)
        return None if truth.error is None else f"ground truth of {transformation} is unusable: {truth.error}"

    def check_ground_truth(self, case: GroundTruthCase) -> Facts:
        truth = self.ground_truth(case.task)
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

    def facts(self, task: str) -> Facts:
        return self.transformation_facts(task).to_facts()

    def transformation_facts(self, transformation: str) -> TransformationFacts:
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

    def score_run(self, case: RunCase) -> Row:
        """The run's row, from the disk cache when nothing it is computed from has changed (see
        :meth:`_row_key`): a repeated session reads its rows instead of scoring every run again."""
        key = self._row_key(case)
        if key is None:
            return self.score_mapping_run(case).to_envelope()
        return self.cache.get_or_compute("rows", key, lambda: self.score_mapping_run(case).to_envelope())

    def _row_key(self, case: RunCase) -> str | None:
        """Everything a run's row is computed from: the run (its file's path and content, or the
        baseline), the ground truth's files (the ATL file's content, each metamodel's content key), the
        options that score it and the track's code. None when the ground truth is unusable (its error row
        is not worth keeping)."""
        truth = self.ground_truth(case.task)
        if truth.error is not None or truth.metamodels is None:
            return None
        metamodels = truth.metamodels
        try:
            run = [str(case.file), sha256_file(case.file)] if case.file else [f"baseline {case.baseline}"]
            sides = [
                part
                for role, files in (("source", metamodels.source_files), ("target", metamodels.target_files))
                for part in (role, *(key for path in files for key in self._content_key(path)))
            ]
        except (OSError, BenchmarkError):
            return None  # scoring reports it
        return make_key(
            "row",
            self.name,
            case.task,
            case.provider,
            case.model,
            case.run,
            *run,
            self._atl_hash(truth.folder.atl_file),
            *sides,
            repr(self.option("partial_weight")),
            repr(self.option("confidence")),
            code_fingerprint("tracks.mapping", "lang", "core"),
        )

    def score_mapping_run(self, case: RunCase) -> RunRow:
        problem = self.ground_truth_error(case.task)
        if problem is not None:
            return self.mapping_error_row(case, problem)
        truth = self.ground_truth(case.task)
        assert truth.document is not None
        if case.baseline is not None:
            return self._score_baseline(case, truth)
        assert case.file is not None
        return score_file(
            truth.document,
            case.file,
            transformation=case.task,
            run=case.run,
            metamodels=truth.metamodels,
            partial_weight=self.option("partial_weight"),
            confidence=self.option("confidence"),
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
            return self.mapping_error_row(
                case, f"baseline {case.baseline} needs both metamodel files ({notes})"
            )
        source, target = metamodels.source_files[0], metamodels.target_files[0]
        label = f"<baseline:{case.baseline}>"
        try:
            key = make_key(
                case.baseline,
                case.task,  # the export document carries the name
                "source",
                *self._content_key(source),
                "target",
                *self._content_key(target),
                code_fingerprint("tracks.mapping.baselines", "lang.ecore", "tracks.mapping.jjodel"),
            )
            document = self.cache.get_or_compute(
                "baselines",
                key,
                lambda: run_baseline(
                    case.baseline,
                    self._load_paths.get(source, source),
                    self._load_paths.get(target, target),
                    transformation=case.task,
                ),
            )
            suggestions = parse_suggestions(document, source=label)
        except BenchmarkError as error:
            return self.mapping_error_row(case, str(error))
        result = compare(
            truth.document,
            suggestions,
            partial_weight=self.option("partial_weight"),
            source_view=metamodels.source,
            target_view=metamodels.target,
            confidence=self.option("confidence"),
        )
        return result.to_row(transformation=case.task, run=case.run, track=self.name, file=label)

    # ----------------------------------------------------------------------------------- inputs

    def input_files(self) -> dict[str, str]:
        root = self.data_root
        files: list[Path] = []
        for folder in self.discovery.transformations:
            files += [folder.atl_file, *folder.metamodel_files, *folder.suggestion_files]
        return {path.relative_to(root).as_posix(): sha256_file(path) for path in sorted(set(files))}

    # ----------------------------------------------------------------------------- error rows

    def mapping_error_row(self, case: RunCase, message: str) -> RunRow:
        """The row of a run that could not be scored: its identity, the session's options, the reason."""
        from benchmark.tracks.mapping.compare import error_row
        from benchmark.tracks.mapping.suggestions import confidence_filter_name, parse_confidence_filter

        return error_row(
            message,
            provider=case.provider,
            model=case.model,
            transformation=case.task,
            run=case.run,
            file=case.label,
            track=self.name,
            partial_weight=self.option("partial_weight"),
            confidence_filter=confidence_filter_name(parse_confidence_filter(self.option("confidence"))),
        )

    def error_row(self, case: RunCase, message: str) -> Row:
        return self.mapping_error_row(case, message).to_envelope()

    def missing_reason(self, row: Row) -> str | None:
        """The reason a run file records for getting no answer (``generation.status = "no-answer"``)."""
        from benchmark.tracks.mapping.outcomes import OUTCOME_MISSING, outcome_reason, run_outcome

        mapping_row = RunRow.from_envelope(row)
        return outcome_reason(mapping_row) if run_outcome(mapping_row) == OUTCOME_MISSING else None

    def options_json(self) -> dict[str, Any]:
        return {
            "partialWeight": self.option("partial_weight"),
            "confidence": self.option("confidence") or "all",
            "baselines": list(self.option("baseline")),
        }

    # -------------------------------------------------------------------------------- reading

    def incomparable(self, now: Any, before: Any) -> str | None:
        """Sessions with different confidence filters scored different subsets of the answers; another
        partial weight is fine (the saved counts are re-scored at this session's weight)."""
        if now.get("confidence", "all") != before.get("confidence", "all"):
            return (
                f"the confidence filters differ ({before.get('confidence', 'all')!r} then "
                f"{now.get('confidence', 'all')!r}): the sessions scored different subsets of the answers"
            )
        return None

    @staticmethod
    def decode(rows: Any) -> list[RunRow]:
        return [RunRow.from_envelope(row) for row in rows]

    def headline(self, rows: Any, partial_weight: float | None = None) -> dict[str, float]:
        """Micro overall F1 per provider, at this session's partial weight (a saved session's counts are
        re-scored with it, so sessions are compared on one formula)."""
        from benchmark.tracks.mapping.aggregate import aggregate

        weight = self.option("partial_weight") if partial_weight is None else partial_weight
        aggregation = aggregate(self.decode(rows), partial_weight=weight)
        return {group.provider: group.micro.overall.f1 for group in aggregation.totals()}

    def junit_properties(self, row: Row) -> list[tuple[str, str]]:
        """The transformation, why an unusable answer could not be used, and P/R/F1/accuracy per level."""
        from benchmark.tracks.mapping.outcomes import OUTCOME_UNUSABLE, outcome_reason, run_outcome

        properties = [("transformation", row.task)]
        if not row.ok:
            return properties
        mapping_row = RunRow.from_envelope(row, items=False)  # every case: the counts only
        if run_outcome(mapping_row) == OUTCOME_UNUSABLE:
            properties.append(("unusable", str(outcome_reason(mapping_row))))
        levels = mapping_row.scores()
        for level, scores in (
            ("class", levels.classes),
            ("binding", levels.bindings),
            ("overall", levels.overall),
        ):
            properties += [
                (f"{level}_{metric}", f"{value:.6f}") for metric, value in scores.to_json().items()
            ]
        return properties

    def junit_suite_properties(self, rows: Any) -> list[tuple[str, str]]:
        """Each provider's micro overall precision, recall and F1."""
        from benchmark.tracks.mapping.aggregate import aggregate

        aggregation = aggregate(self.decode(rows), partial_weight=self.option("partial_weight"))
        properties = []
        for group in aggregation.totals():
            for metric, value in group.micro.overall.to_json().items():
                if metric != "accuracy":
                    properties.append((f"{group.provider}_overall_{metric}", f"{value:.6f}"))
        return properties

    def summary_lines(self, results: Any, section: Any, verbose: bool) -> list[str]:
        from benchmark.tracks.mapping.aggregate import aggregate, name_key
        from benchmark.tracks.mapping.tables import format_tables, unusable_lines

        rows = self.decode(section.rows)
        weight = self.option("partial_weight")
        lines = [
            f"{scored_line(rows)}, partial weight {weight:g}, confidence {self.option('confidence') or 'all'}"
        ]
        lines += format_tables(aggregate(rows, partial_weight=weight)).splitlines()
        unusable = unusable_lines(sorted(rows, key=lambda r: (name_key(r.transformation), r.file)))
        return lines + ([""] if unusable else []) + unusable

    def write_reports(self, results: Any, section: Any, out_dir: Path, options: Any) -> Any:
        from benchmark.tracks.mapping.reports import track_report
        from benchmark.tracks.mapping.results import from_section
        from benchmark.tracks.mapping.stats import BASELINE_PROVIDER, DEFAULT_DRAWS, DEFAULT_SEED

        return track_report(
            from_section(results, section),
            out_dir,
            level=options.get("level") or "overall",
            draws=options.get("draws") or DEFAULT_DRAWS,
            seed=DEFAULT_SEED if options.get("seed") is None else options["seed"],
            partial_weight=options.get("partial_weight"),
            baseline=options.get("baseline") or BASELINE_PROVIDER,
            cache=self.cache,
        )

    # ------------------------------------------------------------------------------------ LLM

    def llm_task(self, request: Any) -> Any:
        """One pass: a prompt per selected transformation and run index (``docs/LLM_RUNS.md``)."""
        return MappingTrackTask(self.data_root, request)


def scored_line(rows: list[RunRow]) -> str:
    """What the session scored, not what it collected: the runs that were scored (unusable ones among
    them) and the transformations they cover, then the runs excluded (missing ones among them), so a
    session narrowed by ``-k`` or ``--provider`` says what its tables are made of."""
    from benchmark.tracks.mapping.outcomes import OUTCOME_MISSING, OUTCOME_UNUSABLE, run_outcome

    outcomes = [run_outcome(row) for row in rows]
    scored = [row for row in rows if row.ok]
    transformations = len({row.transformation for row in scored})
    excluded = len(rows) - len(scored)
    return (
        f"{plural(len(scored), 'run')} scored ({outcomes.count(OUTCOME_UNUSABLE)} unusable) on "
        f"{plural(transformations, 'transformation')}, {excluded} excluded "
        f"({outcomes.count(OUTCOME_MISSING)} missing)"
    )


class MappingTrackTask:
    """The mapping track's :class:`~benchmark.llm.task.TrackTask`: a single pass of :class:`MappingTask`."""

    def __init__(self, root: Path, request: Any) -> None:
        from benchmark.tracks.mapping.llm_task import MappingTask, load_cases
        from benchmark.tracks.mapping.prompt import mapping_template

        self.template = mapping_template(request.prompt_template)
        self.cases = load_cases(root, request.selectors)
        self.task = MappingTask(self.cases, self.template, request.config, request.runs, request.redactor)

    def passes(self) -> Any:
        yield self.task

    def describe(self) -> dict[str, Any]:
        return {"promptTemplate": self.template.describe()}

    def log_files(self) -> list[Path]:
        from benchmark.tracks.mapping.llm_task import LOG_DIR

        return [path for case in self.cases for path in sorted((case.runs_dir / LOG_DIR).glob("*.jsonl"))]
