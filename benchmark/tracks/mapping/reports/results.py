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
from benchmark.core.rows import Facts
from benchmark.tracks.mapping.payload import RunRow


@dataclass(frozen=True)
class TransformationFacts:
    """Size and shape of one ground truth, for the validation-set characteristics table."""

    name: str
    track: str = "atl"
    file: str = ""
    matched_rules: int = 0
    lazy_rules: int = 0
    called_rules: int = 0
    helpers: int = 0
    class_pairs: int = 0
    bindings: int = 0
    partial_bindings: int = 0  # bindings whose ground truth reads more than one source feature
    target_only_bindings: int = 0
    source_metamodel: str = ""
    target_metamodel: str = ""
    error: str | None = None  # the ground truth could not be read (syntax error, missing metamodel...)

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "track": self.track,
            "file": self.file,
            "matchedRules": self.matched_rules,
            "lazyRules": self.lazy_rules,
            "calledRules": self.called_rules,
            "helpers": self.helpers,
            "classPairs": self.class_pairs,
            "bindings": self.bindings,
            "partialBindings": self.partial_bindings,
            "targetOnlyBindings": self.target_only_bindings,
            "sourceMetamodel": self.source_metamodel,
            "targetMetamodel": self.target_metamodel,
            "error": self.error,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> TransformationFacts:
        return cls(
            name=data["name"],
            track=data.get("track", "atl"),
            file=data.get("file", ""),
            matched_rules=int(data.get("matchedRules", 0)),
            lazy_rules=int(data.get("lazyRules", 0)),
            called_rules=int(data.get("calledRules", 0)),
            helpers=int(data.get("helpers", 0)),
            class_pairs=int(data.get("classPairs", 0)),
            bindings=int(data.get("bindings", 0)),
            partial_bindings=int(data.get("partialBindings", 0)),
            target_only_bindings=int(data.get("targetOnlyBindings", 0)),
            source_metamodel=data.get("sourceMetamodel", ""),
            target_metamodel=data.get("targetMetamodel", ""),
            error=data.get("error"),
        )

    def to_facts(self) -> Facts:
        data = self.to_json()
        payload = {k: v for k, v in data.items() if k not in ("name", "track", "file", "error")}
        return Facts(track=self.track, task=self.name, file=self.file, error=self.error, payload=payload)

    @classmethod
    def from_facts(cls, facts: Facts) -> TransformationFacts:
        return cls.from_json(
            {
                **facts.payload,
                "name": facts.task,
                "track": facts.track,
                "file": facts.file,
                "error": facts.error,
            }
        )


@dataclass(frozen=True)
class MappingResults:
    """The session as the mapping track's reports read it (the shape ``results.json`` had in version 1)."""

    header: ResultsHeader
    transformations: tuple[TransformationFacts, ...] = ()
    rows: tuple[RunRow, ...] = ()

    def results(self, options: dict[str, Any] | None = None) -> Results:
        """As a whole session (what ``results.json`` stores): one section per track its rows name."""
        tracks = sorted({r.track for r in self.rows} | {t.track for t in self.transformations}) or ["atl"]
        sections = tuple(
            TrackSection(
                track,
                dict(options if options is not None else self.header.options),
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
    )
