"""The mapping track's view of a session: its facts and rows decoded from the harness's envelopes.

The harness stores every track alike (:mod:`benchmark.core.rows`, :mod:`benchmark.core.results`); the
mapping track's aggregation, statistics and reports read typed rows (:class:`~.counts.RunRow`) and
transformation facts. :class:`MappingResults` is that view; :func:`from_section` builds it from a session.

At the ATL Zoo's size (1,785 rows) decoding every row's per-item verdicts takes most of a second, and only
the statistics and the drill-down read them, both kept in the report cache: :func:`from_section` decodes
the counts only and keeps the stored rows, from which :meth:`MappingResults.with_items` decodes the
verdicts when a report must compute them.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from benchmark.core.results import Results, ResultsHeader, TrackSection
from benchmark.core.rows import Row
from benchmark.tracks.mapping.counts import DEFAULT_PARTIAL_WEIGHT
from benchmark.tracks.mapping.payload import RunRow, TransformationFacts, saved_partial_weight


@dataclass(frozen=True)
class MappingResults:
    """The session as the mapping track's reports read it (the shape ``results.json`` had in version 1)."""

    header: ResultsHeader
    transformations: tuple[TransformationFacts, ...] = ()
    rows: tuple[RunRow, ...] = ()
    partial_weight: float = DEFAULT_PARTIAL_WEIGHT  # the session's (rows hold raw categories)
    #: the rows as the session stores them, one for each of ``rows`` in the same order, when ``rows`` were
    #: decoded from them without their per-item verdicts (:func:`from_section`); None: ``rows`` hold them
    stored: tuple[Row, ...] | None = None

    def with_items(self) -> MappingResults:
        """These results with every row's per-item verdicts (what the statistics and the drill-down read)."""
        if self.stored is None:
            return self
        return replace(self, rows=tuple(RunRow.from_envelope(row) for row in self.stored), stored=None)

    def only(self, keep: Callable[[RunRow], bool]) -> MappingResults:
        """These results with the rows ``keep`` accepts (and their stored rows)."""
        if self.stored is None:
            return replace(self, rows=tuple(row for row in self.rows if keep(row)))
        kept = [(row, stored) for row, stored in zip(self.rows, self.stored, strict=True) if keep(row)]
        return replace(self, rows=tuple(row for row, _ in kept), stored=tuple(stored for _, stored in kept))

    def results(self, options: dict[str, Any] | None = None) -> Results:
        """As a whole session (what ``results.json`` stores): one section per track its rows name."""
        if self.stored is not None:
            return self.with_items().results(options)
        tracks = sorted({r.track for r in self.rows} | {t.track for t in self.transformations}) or ["atl"]
        options = dict(options if options is not None else self.header.options)
        options.setdefault("partialWeight", self.partial_weight)  # rows hold raw categories only
        sections = tuple(
            TrackSection(
                track,
                dict(options),
                tuple(t.to_facts() for t in self.transformations if t.track == track),
                tuple(r.to_envelope() for r in self.rows if r.track == track),
            )
            for track in tracks
        )
        return Results(self.header, sections)

    def save(self, path: str | Path) -> Path:
        return self.results().save(path)


def from_section(
    results: Results, section: TrackSection, decoded: Sequence[RunRow] | None = None
) -> MappingResults:
    """The mapping track's view of its section, its rows with their counts only (:attr:`~MappingResults.
    stored` keeps the rest); ``decoded``: the section's rows already decoded so, in the same order (the
    track decodes them once per session, for the reports and the terminal tables alike)."""
    rows = [RunRow.from_envelope(r, items=False) for r in section.rows] if decoded is None else decoded
    return MappingResults(
        header=results.header,
        transformations=tuple(TransformationFacts.from_facts(f) for f in section.facts),
        rows=tuple(rows),
        partial_weight=saved_partial_weight(section.options, section.rows),
        stored=tuple(section.rows),
    )
