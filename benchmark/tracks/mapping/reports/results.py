"""The mapping track's view of a session: its facts and rows decoded from the harness's envelopes.

The harness stores every track alike (:mod:`benchmark.core.rows`, :mod:`benchmark.core.results`); the
mapping track's aggregation, statistics and reports read typed rows (:class:`~.counts.RunRow`) and
transformation facts. :class:`MappingResults` is that view; :func:`from_section` builds it from a session.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from benchmark.core.results import Results, ResultsHeader, TrackSection
from benchmark.tracks.mapping.counts import DEFAULT_PARTIAL_WEIGHT
from benchmark.tracks.mapping.payload import RunRow, TransformationFacts, saved_partial_weight


@dataclass(frozen=True)
class MappingResults:
    """The session as the mapping track's reports read it (the shape ``results.json`` had in version 1)."""

    header: ResultsHeader
    transformations: tuple[TransformationFacts, ...] = ()
    rows: tuple[RunRow, ...] = ()
    partial_weight: float = DEFAULT_PARTIAL_WEIGHT  # the session's (rows hold raw categories)

    def results(self, options: dict[str, Any] | None = None) -> Results:
        """As a whole session (what ``results.json`` stores): one section per track its rows name."""
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


def from_section(results: Results, section: TrackSection) -> MappingResults:
    return MappingResults(
        header=results.header,
        transformations=tuple(TransformationFacts.from_facts(f) for f in section.facts),
        rows=tuple(RunRow.from_envelope(r) for r in section.rows),
        partial_weight=saved_partial_weight(section.options, section.rows),
    )
