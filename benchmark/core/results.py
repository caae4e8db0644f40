"""``results.json``: a whole benchmark session in one self-describing file.

The pytest suite and ``atlbench validate`` write it at session end; ``atlbench report`` rebuilds every
track's tables, plots and pages from it with no other input. So it carries, besides the rows, what a
reader needs to trust and reproduce them: package versions, git commit (or, outside a git checkout, why
there is none: :mod:`benchmark.core.provenance`), the options used, the validation root, a content hash of
every input file, and per track its options, ground-truth facts (the validation-set table) and rows
(:mod:`benchmark.core.rows`: envelope + track payload). Version 2 holds one section per track; version 1
files (the mapping track alone) are still read.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

from benchmark.core.errors import InputFormatError
from benchmark.core.fileio import dumps_json, write_text_atomic
from benchmark.core.provenance import PACKAGE, source_words
from benchmark.core.rows import Facts, Row

T = TypeVar("T")

RESULTS_FORMAT = "atlbench-results"
RESULTS_VERSION = 2
READABLE_VERSIONS = (1, 2)


@dataclass(frozen=True)
class ResultsHeader:
    """Provenance of a session. ``git_commit`` is the commit of the project the session ran in; when
    there is none, ``git_commit_missing`` says why (``not a git checkout``: a source archive, for one).
    ``inputs`` maps each input file (relative to the validation root) to its SHA-256, so two results files
    can be checked to have scored the same data. ``generate_calls`` links the ``atlbench generate`` calls
    that paid for the scored runs (call id -> its manifest and event log files, ``docs/LLM_RUNS.md``,
    "Manifest"); written only when there is one."""

    created: str = ""
    versions: dict[str, str] = field(default_factory=dict)
    git_commit: str | None = None
    git_commit_missing: str | None = None
    options: dict[str, Any] = field(default_factory=dict)
    validation_root: str = ""
    inputs: dict[str, str] = field(default_factory=dict)
    generate_calls: dict[str, list[str]] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        data = {
            "created": self.created,
            "versions": dict(sorted(self.versions.items())),
            "gitCommit": self.git_commit,
            **({"gitCommitMissing": self.git_commit_missing} if self.git_commit_missing else {}),
            "options": self.options,
            "validationRoot": self.validation_root,
            "inputs": dict(sorted(self.inputs.items())),
        }
        if self.generate_calls:
            data["generateCalls"] = {k: list(v) for k, v in sorted(self.generate_calls.items())}
        return data

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> ResultsHeader:
        return cls(
            created=data.get("created", ""),
            versions=dict(data.get("versions", {})),
            git_commit=data.get("gitCommit"),
            git_commit_missing=data.get("gitCommitMissing"),
            options=dict(data.get("options", {})),
            validation_root=data.get("validationRoot", ""),
            inputs=dict(data.get("inputs", {})),
            generate_calls={str(k): list(v) for k, v in dict(data.get("generateCalls", {})).items()},
        )

    def source_words(self) -> str:
        """The code the session ran, for a report's header: the package version, and the commit or why
        there is none (:func:`~benchmark.core.provenance.source_words`)."""
        return source_words(self.git_commit, self.git_commit_missing, self.versions.get(PACKAGE))


@dataclass(frozen=True)
class TrackSection:
    """One track's part of a session: its options, its ground-truth facts and its rows."""

    track: str
    options: dict[str, Any] = field(default_factory=dict)
    facts: tuple[Facts, ...] = ()
    rows: tuple[Row, ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {
            "options": self.options,
            "facts": [f.to_json() for f in sorted(self.facts, key=lambda f: f.task)],
            "rows": [r.to_json() for r in sorted(self.rows, key=lambda r: r.key)],
        }


@dataclass(frozen=True)
class Results:
    """A session: the provenance header and one section per track that scored something."""

    header: ResultsHeader
    sections: tuple[TrackSection, ...] = ()

    @property
    def rows(self) -> tuple[Row, ...]:
        return tuple(row for section in self.sections for row in section.rows)

    @property
    def tracks(self) -> tuple[str, ...]:
        return tuple(section.track for section in self.sections)

    def section(self, track: str) -> TrackSection | None:
        return next((s for s in self.sections if s.track == track), None)

    def to_json(self) -> dict[str, Any]:
        return {
            "format": RESULTS_FORMAT,
            "version": RESULTS_VERSION,
            "header": self.header.to_json(),
            "tracks": {s.track: s.to_json() for s in sorted(self.sections, key=lambda s: s.track)},
        }

    @classmethod
    def from_json(cls, data: Any, *, source: str | Path | None = None) -> Results:
        """Version 2 (one section per track) or version 1 (the mapping track alone, as ``atl``)."""
        if not isinstance(data, dict) or data.get("format") != RESULTS_FORMAT:
            raise InputFormatError(f"not an {RESULTS_FORMAT} file", file=source, field="$.format")
        version = data.get("version")
        if version not in READABLE_VERSIONS:
            raise InputFormatError(
                f"unsupported results version {version!r} (this build reads "
                f"{', '.join(map(str, READABLE_VERSIONS))})",
                file=source,
                field="$.version",
            )

        def parsed(parse: Callable[[Any], T], value: Any, what: str, field: str) -> T:
            try:
                return parse(value)
            except (KeyError, TypeError, ValueError, AttributeError) as error:
                raise InputFormatError(f"malformed {what}: {error!r}", file=source, field=field) from error

        def each(items: Any, parse: Callable[[Any], T], what: str, where: str) -> tuple[T, ...]:
            if not isinstance(items, list):
                raise InputFormatError(f"{what}s must be a list", file=source, field=where)
            return tuple(parsed(parse, item, what, f"{where}[{i}]") for i, item in enumerate(items))

        header = parsed(ResultsHeader.from_json, data.get("header", {}), "header", "$.header")
        if version == 1:
            rows = each(data.get("rows", []), Row.from_v1, "row", "$.rows")
            facts = each(
                data.get("transformations", []), Facts.from_json, "transformation", "$.transformations"
            )
            names = sorted({r.track for r in rows} | {f.track for f in facts}) or ["atl"]
            sections = tuple(
                TrackSection(
                    name,
                    dict(header.options),
                    tuple(f for f in facts if f.track == name),
                    tuple(r for r in rows if r.track == name),
                )
                for name in names
            )
            return cls(header=header, sections=sections)
        tracks = data.get("tracks", {})
        if not isinstance(tracks, dict):
            raise InputFormatError(
                "tracks must be an object (track name -> section)", file=source, field="$.tracks"
            )
        sections = []
        for name, body in sorted(tracks.items()):
            where = f"$.tracks.{name}"
            if not isinstance(body, dict):
                raise InputFormatError("a track section must be an object", file=source, field=where)
            options = body.get("options", {})
            if not isinstance(options, dict):
                raise InputFormatError("options must be an object", file=source, field=f"{where}.options")
            sections.append(
                TrackSection(
                    name,
                    dict(options),
                    each(body.get("facts", []), Facts.from_json, "fact", f"{where}.facts"),
                    each(body.get("rows", []), Row.from_json, "row", f"{where}.rows"),
                )
            )
        return cls(header=header, sections=tuple(sections))

    def dumps(self) -> str:
        """The text of ``results.json``: the header and each track's options indented as the project's
        JSON is (:func:`~benchmark.core.fileio.dumps_json`), and **one fact and one row per line**. A
        session of the ATL Zoo holds tens of megabytes of rows: indenting them would take Python's
        pure-Python encoder (the C one does not indent) seconds and double the file, while one line each
        is encoded by the C encoder and still reads, greps and diffs row by row. Any JSON reader reads it
        (the same object as :meth:`to_json`)."""
        data = self.to_json()
        tracks = data.pop("tracks")
        head = dumps_json(data).rstrip()
        if not tracks:
            return head[:-1].rstrip() + ',\n  "tracks": {}\n}\n'
        parts = []
        for name, body in tracks.items():
            options = dumps_json(body["options"]).rstrip().replace("\n", "\n      ")
            parts.append(
                f"    {json.dumps(name, ensure_ascii=False)}: {{\n"
                f'      "options": {options},\n'
                f'      "facts": {_one_per_line(body["facts"])},\n'
                f'      "rows": {_one_per_line(body["rows"])}\n'
                "    }"
            )
        return head[:-1].rstrip() + ',\n  "tracks": {\n' + ",\n".join(parts) + "\n  }\n}\n"

    def save(self, path: str | Path) -> Path:
        return write_text_atomic(path, self.dumps())

    @classmethod
    def load(cls, path: str | Path) -> Results:
        path = Path(path)
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except OSError as error:
            raise InputFormatError(f"cannot read results: {error.strerror}", file=path) from error
        except json.JSONDecodeError as error:
            raise InputFormatError(
                f"not valid JSON: {error.msg}", file=path, line=error.lineno, column=error.colno
            ) from error
        return cls.from_json(data, source=path)


def _one_per_line(items: list[Any]) -> str:
    """A JSON list with one compact item per line (indented under a track's section)."""
    if not items:
        return "[]"
    lines = ",\n".join("        " + json.dumps(item, ensure_ascii=False) for item in items)
    return "[\n" + lines + "\n      ]"
