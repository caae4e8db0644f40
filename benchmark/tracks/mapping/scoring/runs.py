"""Scoring one run of the mapping track: a suggestion file, or a baseline computed live.

A file is read (:mod:`.suggestions`) and compared with the ground truth (:mod:`.compare`); an unusable
answer is scored as a run with no suggestions, a file saying no answer was obtained gives an error row
marked missing, an unreadable file an error row with the parser's message (:mod:`.outcomes`). A baseline is
run on the transformation's two metamodels (cached on disk by their content) and scored like a file.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from benchmark.core.diskcache import DiskCache, code_fingerprint, make_key
from benchmark.core.errors import BenchmarkError
from benchmark.core.fileio import sha256_file
from benchmark.core.track import RunCase
from benchmark.tracks.mapping.confidence import confidence_filter_name, parse_confidence_filter
from benchmark.tracks.mapping.ground_truth import GroundTruth, GroundTruths, Metamodels
from benchmark.tracks.mapping.interchange import InterchangeDocument
from benchmark.tracks.mapping.payload import RunRow
from benchmark.tracks.mapping.scoring.compare import compare, error_row
from benchmark.tracks.mapping.scoring.outcomes import mark_missing
from benchmark.tracks.mapping.scoring.run_status import MissingRunError
from benchmark.tracks.mapping.scoring.suggestions import load_suggestions, peek_run
from benchmark.tracks.mapping.variants.apply import rename_document, renamed_views
from benchmark.tracks.mapping.variants.names import DEFAULT_SEED, ORIGINAL, variant_of_baseline_run
from benchmark.tracks.mapping.variants.renaming import Renaming, read_recorded


def score_file(
    ground_truth: InterchangeDocument,
    path: Path,
    *,
    transformation: str,
    run: str,
    metamodels: Metamodels | None = None,
    confidence: str | None = None,
    track: str = "atl",
) -> RunRow:
    """The row of one suggestion file (its outcome: :mod:`benchmark.tracks.mapping.scoring.outcomes`).

    An unusable answer is scored as a run with no suggestions (an ok row marked ``unusable``); a file
    saying no answer was obtained gives an error row marked ``missing``; an unreadable file gives an error
    row with the parser's message. A run of a task variant (its file's ``variant`` block,
    ``docs/VARIANTS.md``) is scored against the ground truth and metamodels renamed as the block records.
    """
    source = metamodels.source if metamodels else None
    target = metamodels.target if metamodels else None
    try:
        suggestions = load_suggestions(path)
        renaming = read_recorded(suggestions.variant, source, target, file=path)
    except MissingRunError as error:
        row = file_error_row(
            error,
            path,
            transformation=transformation,
            run=run,
            track=track,
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
            confidence=confidence,
        )
    if renaming is not None:
        ground_truth = rename_document(ground_truth, renaming)
        source, target = renamed_views(renaming, source, target)
    result = compare(ground_truth, suggestions, source_view=source, target_view=target, confidence=confidence)
    row = result.to_row(transformation=transformation, run=run, track=track, file=path)
    return with_variant(row, renaming)


def with_variant(row: RunRow, renaming: Renaming | None) -> RunRow:
    """The row of a variant's run carries the variant and what its file records of it."""
    if renaming is None:
        return row
    detail = {k: v for k, v in renaming.to_json().items() if k != "name"}
    return row.replaced(variant=renaming.variant, variant_detail=detail)


def file_error_row(
    error: BaseException | str,
    path: Path,
    *,
    transformation: str,
    run: str,
    track: str = "atl",
    confidence: str | None = None,
) -> RunRow:
    """The error row of a suggestion file that could not be scored, whatever the reason (its own content,
    or an unusable ground truth): it keeps the provider, model and variant the file names, so an
    excluded run still counts in its provider's exclusions (and its variant's), in ``atlbench validate``
    and the pytest suite alike."""
    provider, model, variant, *_ = peek_run(path)
    row = error_row(
        error,
        provider=provider,
        model=model,
        transformation=transformation,
        run=run,
        file=path,
        track=track,
        confidence_filter=confidence_filter_name(parse_confidence_filter(confidence)),
    )
    return row if variant == ORIGINAL else row.replaced(variant=variant)


class RunScorer:
    """Scores the run cases of one session with its confidence filter (rows hold raw categories: the
    partial weight is applied where scores are read)."""

    def __init__(
        self,
        truths: GroundTruths,
        cache: DiskCache,
        *,
        confidence: str | None,
        track: str = "atl",
        variant_seed: int = DEFAULT_SEED,
    ) -> None:
        self.truths = truths
        self.cache = cache
        self.confidence = confidence
        self.track = track
        self.variant_seed = variant_seed  # the seed of the baselines' renamings (docs/VARIANTS.md)

    def score(self, case: RunCase) -> RunRow:
        """The run's row, from the disk cache when nothing it is computed from has changed (see
        :meth:`row_key`): a repeated session reads its rows instead of scoring every run again."""
        key = self.row_key(case)
        if key is None:
            return self._score(case)
        return self.cache.get_or_compute("rows", key, lambda: self._score(case))

    def row_key(self, case: RunCase) -> str | None:
        """Everything a run's row is computed from: the run (its file's path and content, or the
        baseline), the ground truth's files (the ATL file's content, each metamodel's content key), the
        confidence filter and the track's code. None when the ground truth is unusable (its error row
        is not worth keeping)."""
        if self.truths.error(case.task) is not None:
            return None
        truth = self.truths.get(case.task)
        metamodels = truth.metamodels
        if metamodels is None:
            return None
        try:
            run = [str(case.file), sha256_file(case.file)] if case.file else [f"baseline {case.baseline}"]
            sides = [
                part
                for role, files in (("source", metamodels.source_files), ("target", metamodels.target_files))
                for part in (role, *(key for path in files for key in self.truths.content_key(path)))
            ]
        except (OSError, BenchmarkError):
            return None  # scoring reports it
        return make_key(
            "row",
            self.track,
            case.task,
            case.provider,
            case.model,
            case.run,
            *run,
            self.truths.atl_hash(truth.folder.atl_file),
            *sides,
            repr(self.confidence),
            f"variant seed {self.variant_seed}",
            code_fingerprint("tracks.mapping", "lang", "core"),
        )

    def _score(self, case: RunCase) -> RunRow:
        problem = self.truths.error(case.task)
        if problem is not None:
            return self.error_row(case, problem)
        truth = self.truths.get(case.task)
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
            confidence=self.confidence,
            track=self.track,
        )

    def _score_baseline(self, case: RunCase, truth: GroundTruth) -> RunRow:
        """A baseline run live on the transformation's metamodels, or on a variant's renamed (or
        reordered) metamodels, drawn with the session's variant seed (``docs/VARIANTS.md``)."""
        from benchmark.tracks.mapping.baselines import run_baseline, run_baseline_on_views
        from benchmark.tracks.mapping.scoring.compare import compare
        from benchmark.tracks.mapping.scoring.suggestions import parse_suggestions
        from benchmark.tracks.mapping.variants.rules import draw_renaming

        assert case.baseline is not None and truth.document is not None
        metamodels = truth.metamodels
        if metamodels is None or not metamodels.source_files or not metamodels.target_files:
            notes = "; ".join(metamodels.notes) if metamodels else "no metamodels"
            return self.error_row(case, f"baseline {case.baseline} needs both metamodel files ({notes})")
        source, target = metamodels.source_files[0], metamodels.target_files[0]
        label = f"<baseline:{case.baseline}>"
        variant, _ = variant_of_baseline_run(case.run)
        document, source_view, target_view = truth.document, metamodels.source, metamodels.target
        renaming = None
        if variant != ORIGINAL:
            assert source_view is not None and target_view is not None
            renaming = draw_renaming(variant, source_view, target_view, self.variant_seed)
            assert renaming is not None
            document = rename_document(document, renaming)
            source_view, target_view = renamed_views(renaming, source_view, target_view)
            assert source_view is not None and target_view is not None
        try:
            parts = [
                case.baseline,
                case.task,  # the export document carries the name
                "source",
                *self.truths.content_key(source),
                "target",
                *self.truths.content_key(target),
                code_fingerprint("tracks.mapping.baselines", "lang.ecore", "tracks.mapping.jjodel"),
            ]
            if renaming is not None:
                variant_code = code_fingerprint("tracks.mapping.variants", "lang.words")
                parts += [variant, str(self.variant_seed), variant_code]
            renamed = (source_view, target_view)

            def run() -> dict[str, Any]:
                if renaming is None:
                    loads = (self.truths.load_path(source), self.truths.load_path(target))
                    return run_baseline(case.baseline, *loads, transformation=case.task)
                assert renamed[0] is not None and renamed[1] is not None
                return run_baseline_on_views(case.baseline, *renamed, transformation=case.task)

            result_document = self.cache.get_or_compute("baselines", make_key(*parts), run)
            suggestions = parse_suggestions(result_document, source=label)
        except BenchmarkError as error:
            return self.error_row(case, str(error))
        result = compare(
            document,
            suggestions,
            source_view=source_view,
            target_view=target_view,
            confidence=self.confidence,
        )
        row = result.to_row(transformation=case.task, run=case.run, track=self.track, file=label)
        return with_variant(row, renaming)

    def error_row(self, case: RunCase, message: str) -> RunRow:
        """The row of a run that could not be scored: its identity, the session's options, the reason."""
        from benchmark.tracks.mapping.confidence import confidence_filter_name, parse_confidence_filter
        from benchmark.tracks.mapping.scoring.compare import error_row

        row = error_row(
            message,
            provider=case.provider,
            model=case.model,
            transformation=case.task,
            run=case.run,
            file=case.label,
            track=self.track,
            confidence_filter=confidence_filter_name(parse_confidence_filter(self.confidence)),
        )
        if case.baseline is not None:
            variant = variant_of_baseline_run(case.run)[0]
        else:
            variant = peek_run(case.file).variant if case.file is not None else ORIGINAL
        return row if variant == ORIGINAL else row.replaced(variant=variant)
