"""Every report file of a session, from its ``results.json`` alone.

:func:`write_session_reports` is the one entry point: the pytest plugin, ``atlbench validate`` and
``atlbench report`` call it. It writes ``results.json``, lets each track write its own files
(:meth:`~benchmark.core.track.Track.write_reports`: CSV, Markdown, LaTeX, figures, under the names the track
declares) and lays out one ``index.html`` with each track's part (:mod:`benchmark.reports.page`). A session
of one track writes exactly what that track writes alone. When some provider was measured under two prompt
templates or more, the prompt-sensitivity report of every track (:mod:`benchmark.reports.sensitivity`) adds
``prompt_sensitivity.csv``, ``.md`` and ``.tex``, a section to each track's part of the page and lines to
what ``atlbench report`` prints; likewise the answer-format table (:mod:`benchmark.reports.answer_formats`,
``answer_formats.csv``...) when some run was asked in an answer format other than free. Output is
deterministic: the same results and options give byte-identical files.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

from benchmark.core import phases
from benchmark.core.diskcache import NotStored, stored_only
from benchmark.core.errors import ConfigurationError
from benchmark.core.fileio import write_text_atomic
from benchmark.core.forked import run_forked
from benchmark.core.results import Results
from benchmark.core.track import Track, TrackReport

RESULTS_JSON = "results.json"
INDEX_HTML = "index.html"


def write_session_reports(
    results: Results,
    out_dir: str | Path,
    tracks: Mapping[str, Track],
    report_options: Mapping[str, Mapping[str, Any]] | None = None,
    *,
    save_results: bool = True,
    only: str | None = None,
    on_report: Callable[[str, TrackReport], None] | None = None,
    summaries: dict[str, list[str]] | None = None,
    verbose: bool = False,
    computed: bool = False,
) -> list[Path]:
    """Write the session's files into ``out_dir``; returns the paths written, in a fixed order.

    ``report_options`` maps a track to its :attr:`~Track.report_options` values (defaults otherwise);
    ``only`` rebuilds one track's files (``atlbench report --track NAME``); ``index.html`` then holds that
    track alone. ``on_report`` receives each track's :class:`~benchmark.core.track.TrackReport`.
    ``summaries``, when given, receives each track's terminal tables (:meth:`~Track.summary_lines` with
    ``verbose``) by track name, computed in the process that wrote the track's files, with what that
    process computed for them at hand. ``computed`` says that the session computed values its disk cache did
    not hold (a cold session): its reports' values are then taken to be missing too, and no track is first
    tried from the cache (trying costs a cold session about 0.4 s, reading its rows to find out).
    """
    from benchmark.reports import answer_formats, sensitivity
    from benchmark.reports.page import PagePart, render_page

    out = Path(out_dir)
    paths: list[Path] = []
    if save_results:
        with phases.phase(f"report {RESULTS_JSON}"):
            paths.append(results.save(out / RESULTS_JSON))
    sections = [section for section in results.sections if only is None or section.track == only]
    for section in sections:
        if section.track not in tracks:
            raise ConfigurationError(
                f"the results hold rows of track {section.track!r}, which is not installed "
                f"(installed: {', '.join(sorted(tracks)) or 'none'})"
            )

    def track_files(
        track: Track, section: Any, label: str
    ) -> Callable[[], tuple[TrackReport, Any, list[str] | None]]:
        def write() -> tuple[TrackReport, Any, list[str] | None]:
            options = dict((report_options or {}).get(track.name) or _defaults(track))
            with phases.phase(f"reports of track {track.name}{label}"):
                report = track.write_reports(results, section, out, options)
            with phases.phase(f"prompt sensitivity of track {track.name}"):
                found = sensitivity.sensitivity(track, section.rows)
            with phases.phase(f"answer formats of track {track.name}"):
                formats = answer_formats.answer_formats(track, section.rows)
            if summaries is None:
                return report, (found, formats), None
            with phases.phase(f"terminal tables of track {track.name}"):
                return report, (found, formats), track.summary_lines(results, section, verbose)

        return write

    # A track whose report values are all in the disk cache is written here (a warm session: forking would
    # cost more than it saves); the others, whose statistics and figures must be computed, side by side on
    # the usable CPUs (forked processes, benchmark.core.forked; a track's own forks, its figures, then run
    # in its process). Their results are taken in section order.
    # With one track there is nothing to write beside it: no need to learn whether its values are stored;
    # nor after a session that computed what its cache did not hold (``computed``).
    done: dict[int, tuple[TrackReport, Any, list[str] | None]] = {}
    for index, section in enumerate(sections if len(sections) > 1 and not computed else ()):
        try:
            with stored_only():
                done[index] = track_files(tracks[section.track], section, " (from the cache)")()
        except NotStored:
            continue
    pending = [index for index in range(len(sections)) if index not in done]
    if len(pending) > 1 and computed:  # the report processes will draw: import that once, here
        from benchmark.reports.figures import import_drawing

        with phases.phase("report drawing imported"):
            import_drawing()
    calls = [track_files(tracks[sections[index].track], sections[index], "") for index in pending]
    done.update(zip(pending, run_forked(calls), strict=True))
    parts = []
    owners: dict[str, str] = {}
    sensitive = []
    formatted = []
    for index, section in enumerate(sections):
        report, (found, formats), summary = done[index]
        track = tracks[section.track]
        if found is not None:
            sensitive.append(found)
            lines = (*report.lines, *sensitivity.terminal_lines(found))
            report = replace(report, html=sensitivity.with_section(report.html, found), lines=lines)
        if formats is not None:
            formatted.append(formats)
            lines = (*report.lines, *answer_formats.terminal_lines(formats))
            report = replace(report, html=answer_formats.with_section(report.html, formats), lines=lines)
        if summaries is not None and summary is not None:
            read_first = read_first_lines(report.html.notes if report.html else ())
            summaries[track.name] = [
                *read_first,
                *summary,
                *(sensitivity.terminal_lines(found) if found is not None else []),
                *(answer_formats.terminal_lines(formats) if formats is not None else []),
            ]
        harness_files = (RESULTS_JSON, INDEX_HTML, *sensitivity.FILE_NAMES, *answer_formats.FILE_NAMES)
        for path in report.paths:
            if path.name in owners or path.name in harness_files:
                other = owners.get(path.name, "the harness")
                raise ConfigurationError(f"track {track.name!r} writes {path.name}, which {other} writes too")
            owners[path.name] = track.name
        paths += report.paths
        if on_report is not None:
            on_report(track.name, report)
        if report.html is not None:
            parts.append(PagePart(track.name, track.label or track.name, track.title, report.html))
    paths += sensitivity.write_files(sensitive, out)
    paths += answer_formats.write_files(formatted, out)
    if parts:
        with phases.phase(f"report {INDEX_HTML}"):
            paths.append(write_text_atomic(out / INDEX_HTML, render_page(results.header, parts)))
    return paths


def read_first_lines(notes: Sequence[str]) -> list[str]:
    """The notes of a track's "Read this first" (what its comparisons can detect, what its figures cannot
    show) at the head of its terminal tables, as on the page."""
    if not notes:
        return []
    return ["Read this first:", *(f"  - {note}" for note in notes), ""]


def _defaults(track: Track) -> dict[str, Any]:
    return {option.dest: option.convert(option.default, Path.cwd()) for option in track.report_options}


__all__ = ["INDEX_HTML", "RESULTS_JSON", "read_first_lines", "write_session_reports"]
