"""One benchmark session, without pytest: tracks, their cases, rows in, results and reports out.

The pytest plugin (one case per run, rows carried across xdist workers) and ``atlbench validate`` (a loop
in one process) both drive a :class:`Harness`, so they build the same tracks with the same options, score
with the same track code, write the same ``results.json`` and reports, and fail on the same problems.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from benchmark.core.errors import BenchmarkError
from benchmark.core.provenance import GitSource, git_source, now, versions
from benchmark.core.results import Results, ResultsHeader, TrackSection
from benchmark.core.rows import Facts, Row
from benchmark.core.track import Collection, SkippedInput, Track, TrackContext, with_template
from benchmark.core.wording import plural
from benchmark.harness.gates import compare_with, min_score_failures
from benchmark.harness.ledger import with_ledger
from benchmark.harness.options import SessionOptions


@dataclass(eq=False)
class Harness:
    options: SessionOptions
    classes: dict[str, type[Track]]
    cache_dir: Path | None = None
    source_dir: Path | None = None  # where the git commit is read (the project the session runs in)
    _tracks: dict[str, Track] = field(default_factory=dict)
    _collections: dict[str, Collection] = field(default_factory=dict)
    # each track's terminal tables, computed with its report files: (results, verbose) they are for
    _summaries: tuple[Results, bool, dict[str, list[str]]] | None = None

    def track(self, name: str) -> Track:
        if name not in self._tracks:
            from benchmark.core.registry import track_class

            cls = self.classes.get(name) or track_class(name)
            context = TrackContext(
                data_root=self.options.roots[name],
                options=self.options.values.get(name, {}),
                cache_dir=self.cache_dir,
            )
            self._tracks[name] = cls(context)
        return self._tracks[name]

    def collection(self, name: str) -> Collection:
        """The track's cases, collected once per process however often they are asked for; none when the
        validation tree holds no data for the track (its module's tests are then skipped, not errors)."""
        if name not in self._collections:
            root = self.options.roots[name]
            if root.is_dir():
                self._collections[name] = self.track(name).collect()
            else:  # a tree without this track's data: no case, said once (a given root is checked earlier)
                self._collections[name] = Collection(skipped=(SkippedInput(root, f"no {name} data here"),))
        return self._collections[name]

    def scoring_done(self) -> None:
        """Tell each track this process used that its cases have all run (:meth:`Track.scoring_done`)."""
        for track in self._tracks.values():
            track.scoring_done()

    @property
    def tracks(self) -> dict[str, Track]:
        return {name: self.track(name) for name in self.classes}

    def build_results(
        self,
        rows: Sequence[Row],
        tracks: Sequence[str] = (),
        known: Mapping[tuple[str, str], Facts] | None = None,
    ) -> Results:
        """``results.json``: provenance header, and per track (those with rows, and ``tracks``) its
        options, the facts of the tasks its rows belong to, and the rows. ``known`` are facts the
        ground-truth cases found, by (track, task): those tasks' facts are not stated again."""
        known = known or {}
        names = sorted({row.track for row in rows} | set(tracks))
        sections = []
        inputs: dict[str, str] = {}
        for name in names:
            track = self.track(name)
            own = tuple(sorted((r for r in rows if r.track == name), key=lambda r: r.key))
            tasks = sorted({r.task for r in own})
            sections.append(
                TrackSection(
                    name,
                    track.options_json(),
                    tuple(known.get((name, t)) or track.facts(t) for t in tasks),
                    own,
                )
            )
            inputs.update(track.input_files())
        from benchmark.llm.calllog import linked_calls  # the LLM layer only when results are built

        source = (
            git_source(self.source_dir) if self.source_dir else GitSource(missing="no project folder given")
        )
        header = ResultsHeader(
            created=now(),
            versions=versions(),
            git_commit=source.commit,
            git_commit_missing=source.missing,
            options=self.options.to_json(),
            validation_root=str(self.options.validation_root),
            inputs=inputs,
            generate_calls=linked_calls(rows, self.options.validation_root),
        )
        return Results(header=header, sections=tuple(sections))

    def write_reports(
        self,
        results: Results,
        directory: Path | None = None,
        verbose: bool | None = None,
        computed: bool = False,
    ) -> list[Path]:
        """The report files; with ``verbose`` given, each track's terminal tables too, computed in the
        process that wrote its files (they may be written side by side) and kept for
        :meth:`summary_lines`. ``computed``: the session computed values its disk cache did not hold
        (:func:`~benchmark.reports.write_session_reports`)."""
        from benchmark.reports import write_session_reports

        summaries: dict[str, list[str]] | None = None if verbose is None else {}
        written = write_session_reports(
            results,
            directory or self.options.reports_dir,
            self.tracks,
            summaries=summaries,
            verbose=bool(verbose),
            computed=computed,
        )
        if summaries is not None:
            self._summaries = (results, bool(verbose), summaries)
        return written

    def gates(self, results: Results) -> tuple[list[str], list[str]]:
        """(messages, failures) of ``--min-score`` / ``--min-f1`` and ``--compare``."""
        failures = min_score_failures(results, self.options.gates, self.tracks)
        messages: list[str] = []
        if self.options.compare is not None:
            lines, dropped = compare_with(
                results, Results.load(self.options.compare), self.options.max_drop, self.tracks
            )
            messages += [f"against {self.options.compare}:", *lines]
            failures += dropped
        return messages, failures

    def lost_rows(self, lost: Mapping[str, str]) -> list[Row]:
        """The error rows of run cases whose row was lost (a worker that died), from case id -> reason:
        each track's error row of the case, so the tables list it as excluded and ``results.json`` keeps
        it. A case id no track collects (it cannot be, the collection being the same everywhere) gets no
        row; the session fails on it all the same."""
        if not lost:
            return []
        rows = []
        for name in sorted(self.classes):
            if not self.options.roots[name].is_dir():
                continue
            try:
                runs = self.collection(name).runs
            except BenchmarkError:
                continue
            for case in runs:
                for key in (case.case_id, _escaped(case.case_id)):
                    if key in lost:
                        rows.append(self.track(name).error_row(case, lost[key]))
                        break
        return rows

    def missing_runs(self, rows: Sequence[Row]) -> list[tuple[Row, str]]:
        """The error rows of runs that got no answer, each with the reason its track gives."""
        missing = []
        for row in rows:
            reason = None if row.ok else self.track(row.track).missing_reason(row)
            if reason is not None:
                missing.append((row, reason))
        return missing

    def missing_check(self, rows: Sequence[Row]) -> tuple[list[str], list[str]]:
        """(messages, failures) about missing runs: one line listing them with their reasons, a failure
        unless ``--allow-missing-runs`` accepts them (the tables would compare providers on different
        runs)."""
        missing = self.missing_runs(rows)
        if not missing:
            return [], []
        listed = "; ".join(f"{r.track} {r.task} {r.provider} {r.run}: {reason}" for r, reason in missing)
        head = f"{plural(len(missing), 'run')} got no answer (missing, not scored): {listed}"
        if self.options.allow_missing_runs:
            return [f"{head}; accepted by --allow-missing-runs"], []
        them = "it" if len(missing) == 1 else "them"
        return [], [
            f"{head}; fill {them} in with `atlbench generate` (cached answers are replayed) or accept "
            f"{them} with --allow-missing-runs"
        ]

    def nothing_scored(self, rows: Sequence[Row]) -> list[str]:
        """A failure when the session has rows but scored none of them (every run missing or excluded,
        ``--allow-missing-runs`` or not): a session that measures nothing fails."""
        if not rows or any(row.ok for row in rows):
            return []
        missing = len(self.missing_runs(rows))
        return [
            f"no run was scored: every one of the session's {plural(len(rows), 'run')} was excluded "
            f"({missing} missing); a session that measures nothing fails"
        ]

    def track_checks(self, rows: Sequence[Row]) -> tuple[list[str], list[str]]:
        """(messages, failures) of every track that has rows about the session as a whole."""
        messages: list[str] = []
        failures: list[str] = []
        for name in sorted({row.track for row in rows}):
            said, failed = self.track(name).session_check(rows)
            messages += said
            failures += failed
        return messages, failures

    def summary_lines(self, results: Results, verbose: bool) -> list[tuple[str, list[str]]]:
        """Per track that has rows: (heading, lines) of its terminal tables, and what was skipped."""
        from benchmark.reports import answer_formats
        from benchmark.reports.sensitivity import sensitivity, terminal_lines

        out = []
        for section in results.sections:
            track = self.track(section.track)
            kept = self._summaries
            if kept is not None and kept[0] is results and kept[1] == verbose and track.name in kept[2]:
                lines = list(kept[2][track.name])  # with its "Read this first", prompt sensitivity, formats
            else:
                lines = track.summary_lines(results, section, verbose)
                found = sensitivity(track, section.rows)
                lines += terminal_lines(found) if found is not None else []
                formats = answer_formats.answer_formats(track, section.rows)
                lines += answer_formats.terminal_lines(formats) if formats is not None else []
            skipped = self.collection(section.track).skipped
            if verbose:
                lines += [f"skipped {item.path}: {item.reason}" for item in skipped]
            elif skipped:  # never silent: say how many
                what = plural(len(skipped), "folder or file", "folders or files")
                lines.append(f"{what} skipped by rule (-v lists them)")
            out.append((f"atlbench {track.title}", lines))
        return out

    def score_all(self, names: Sequence[str], progress: bool = False) -> tuple[list[Row], list[str]]:
        """Every case of the named tracks, in one process (``atlbench validate``): the rows, and the
        ground-truth problems (each a failure, as in the pytest session)."""
        import sys

        rows: list[Row] = []
        problems: list[str] = []
        for name in names:
            track = self.track(name)
            collection = self.collection(name)
            for case in collection.ground_truths:
                try:
                    track.check_ground_truth(case)
                except (AssertionError, BenchmarkError) as error:
                    problems.append(f"{case.case_id}: {error}")
            wanted = {p.lower() for p in self.options.providers}
            runs = [c for c in collection.runs if not wanted or c.provider.lower() in wanted]
            for index, case in enumerate(runs, 1):
                if progress:
                    print(f"[{index}/{len(runs)}] {name} {case.case_id}", file=sys.stderr)
                problem = track.ground_truth_error(case.task)
                row = track.error_row(case, problem) if problem else track.score_run(case)
                rows.append(with_ledger(with_template(row, case), case))
        return rows, problems


def _escaped(case_id: str) -> str:
    """A case id as pytest spells it in a node id (non-ASCII characters escaped)."""
    return case_id.encode("unicode_escape").decode("ascii")
