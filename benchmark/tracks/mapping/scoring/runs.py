"""Scoring one run of the mapping track: a suggestion file, or a baseline computed live.

A file is read (:mod:`.suggestions`) and compared with the ground truth (:mod:`.compare`); an unusable
answer is scored as a run with no suggestions, a file saying no answer was obtained gives an error row
marked missing, an unreadable file an error row with the parser's message (:mod:`.outcomes`). A baseline is
run on the transformation's two metamodels (cached on disk by their content) and scored like a file.
"""

from __future__ import annotations

from pathlib import Path

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
from benchmark.tracks.mapping.scoring.suggestions import load_suggestions, peek_provider


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
    result = compare(
        ground_truth,
        suggestions,
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
        confidence_filter=confidence_filter_name(parse_confidence_filter(confidence)),
    )


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
    ) -> None:
        self.truths = truths
        self.cache = cache
        self.confidence = confidence
        self.track = track

    def score(self, case: RunCase) -> RunRow:
        """The run's row, from the disk cache when nothing it is computed from has changed (see
        :meth:`_row_key`): a repeated session reads its rows instead of scoring every run again."""
        key = self._row_key(case)
        if key is None:
            return self._score(case)
        return self.cache.get_or_compute("rows", key, lambda: self._score(case))

    def _row_key(self, case: RunCase) -> str | None:
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
        from benchmark.tracks.mapping.baselines import run_baseline
        from benchmark.tracks.mapping.scoring.compare import compare
        from benchmark.tracks.mapping.scoring.suggestions import parse_suggestions

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
                case.task,  # the export document carries the name
                "source",
                *self.truths.content_key(source),
                "target",
                *self.truths.content_key(target),
                code_fingerprint("tracks.mapping.baselines", "lang.ecore", "tracks.mapping.jjodel"),
            )
            document = self.cache.get_or_compute(
                "baselines",
                key,
                lambda: run_baseline(
                    case.baseline,
                    self.truths.load_path(source),
                    self.truths.load_path(target),
                    transformation=case.task,
                ),
            )
            suggestions = parse_suggestions(document, source=label)
        except BenchmarkError as error:
            return self.error_row(case, str(error))
        result = compare(
            truth.document,
            suggestions,
            source_view=metamodels.source,
            target_view=metamodels.target,
            confidence=self.confidence,
        )
        return result.to_row(transformation=case.task, run=case.run, track=self.track, file=label)

    def error_row(self, case: RunCase, message: str) -> RunRow:
        """The row of a run that could not be scored: its identity, the session's options, the reason."""
        from benchmark.tracks.mapping.confidence import confidence_filter_name, parse_confidence_filter
        from benchmark.tracks.mapping.scoring.compare import error_row

        return error_row(
            message,
            provider=case.provider,
            model=case.model,
            transformation=case.task,
            run=case.run,
            file=case.label,
            track=self.track,
            confidence_filter=confidence_filter_name(parse_confidence_filter(self.confidence)),
        )
