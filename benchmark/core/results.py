"""``results.json``: a whole benchmark session in one self-describing file.

The pytest suite writes it at session end; ``atlbench report`` rebuilds every table, plot and page from it
with no other input. So it carries, besides the count-table rows, what a reader needs to trust and
reproduce them: package versions, git commit, the options used, the validation root, a content hash of every
input file, and per-transformation facts (the validation-set characteristics table is printed from those).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

from benchmark.core.errors import InputFormatError
from benchmark.core.fileio import write_json_atomic
from benchmark.tracks.mapping.counts import RunRow

T = TypeVar("T")

RESULTS_FORMAT = "atlbench-results"
RESULTS_VERSION = 1


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


@dataclass(frozen=True)
class ResultsHeader:
    """Provenance of a session. ``inputs`` maps each input file (relative to the validation root) to its
    SHA-256, so two results files can be checked to have scored the same data."""

    created: str = ""
    versions: dict[str, str] = field(default_factory=dict)
    git_commit: str | None = None
    options: dict[str, Any] = field(default_factory=dict)
    validation_root: str = ""
    inputs: dict[str, str] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {
            "created": self.created,
            "versions": dict(sorted(self.versions.items())),
            "gitCommit": self.git_commit,
            "options": self.options,
            "validationRoot": self.validation_root,
            "inputs": dict(sorted(self.inputs.items())),
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> ResultsHeader:
        return cls(
            created=data.get("created", ""),
            versions=dict(data.get("versions", {})),
            git_commit=data.get("gitCommit"),
            options=dict(data.get("options", {})),
            validation_root=data.get("validationRoot", ""),
            inputs=dict(data.get("inputs", {})),
        )


@dataclass(frozen=True)
class Results:
    header: ResultsHeader
    transformations: tuple[TransformationFacts, ...] = ()
    rows: tuple[RunRow, ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {
            "format": RESULTS_FORMAT,
            "version": RESULTS_VERSION,
            "header": self.header.to_json(),
            "transformations": [t.to_json() for t in sorted(self.transformations, key=lambda t: t.name)],
            "rows": [r.to_json() for r in sorted(self.rows, key=lambda r: r.key)],
        }

    @classmethod
    def from_json(cls, data: Any, *, source: str | Path | None = None) -> Results:
        if not isinstance(data, dict) or data.get("format") != RESULTS_FORMAT:
            raise InputFormatError(f"not an {RESULTS_FORMAT} file", file=source, field="$.format")
        if data.get("version") != RESULTS_VERSION:
            raise InputFormatError(
                f"unsupported results version {data.get('version')!r} (this build reads {RESULTS_VERSION})",
                file=source,
                field="$.version",
            )

        def parsed(parse: Callable[[Any], T], value: Any, what: str, field: str) -> T:
            try:
                return parse(value)
            except (KeyError, TypeError, ValueError, AttributeError) as error:
                raise InputFormatError(f"malformed {what}: {error!r}", file=source, field=field) from error

        def each(key: str, parse: Callable[[Any], T], what: str) -> tuple[T, ...]:
            items = data.get(key, [])
            if not isinstance(items, list):
                raise InputFormatError(f"{key} must be a list", file=source, field=f"$.{key}")
            return tuple(parsed(parse, item, what, f"$.{key}[{i}]") for i, item in enumerate(items))

        return cls(
            header=parsed(ResultsHeader.from_json, data.get("header", {}), "header", "$.header"),
            transformations=each("transformations", TransformationFacts.from_json, "transformation"),
            rows=each("rows", RunRow.from_json, "row"),
        )

    def save(self, path: str | Path) -> Path:
        return write_json_atomic(path, self.to_json())

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
