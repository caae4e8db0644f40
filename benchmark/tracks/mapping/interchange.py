"""The interchange document: the ground truth read out of one ATL file, in a versioned JSON shape.

It is the contract between the ATL front-end (which writes it) and everything downstream (comparator,
synthetic-run generator, pytest suite), so the comparator never needs the ATL AST and a ground truth can be
hand-edited or produced by another tool. The semantics of every field are written down in
``docs/INTERCHANGE_FORMAT.md``; the JSON Schema ships as
``benchmark/tracks/mapping/schemas/interchange.schema.json``.

Serialisation is byte-stable: every list is sorted and :func:`dumps` uses fixed separators and key order,
so regenerating a document from the same ATL text gives the same bytes.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

from benchmark.core.errors import InputFormatError
from benchmark.core.fileio import dumps_json
from benchmark.core.wording import plural

FORMAT_NAME = "atl-binding-interchange"
FORMAT_VERSION = 1


@dataclass(frozen=True, order=True)
class ModelDecl:
    """One ``NAME : METAMODEL`` declaration of a module header (``IN : Book``)."""

    name: str
    metamodel: str

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "metamodel": self.metamodel}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> ModelDecl:
        return cls(name=data["name"], metamodel=data["metamodel"])


@dataclass(frozen=True, order=True)
class Annotation:
    """A header tag (``-- @path MM=/p/MM.ecore``) as ATL's own line scanner reads it.

    ``key`` is the part before ``=`` (``MM``), or ``None`` for tags without one (``@atlcompiler``).
    """

    tag: str
    key: str | None
    value: str
    line: int

    def to_json(self) -> dict[str, Any]:
        return {"tag": self.tag, "key": self.key, "value": self.value, "line": self.line}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Annotation:
        return cls(tag=data["tag"], key=data.get("key"), value=data["value"], line=data["line"])


@dataclass(frozen=True)
class TransformationInfo:
    """Header facts of the unit; ``name`` is the module/query/library name, ``file`` as given."""

    name: str
    file: str
    unit: str = "module"
    in_models: tuple[ModelDecl, ...] = ()
    out_models: tuple[ModelDecl, ...] = ()
    refining: bool = False
    annotations: tuple[Annotation, ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "file": self.file,
            "unit": self.unit,
            "inModels": [m.to_json() for m in self.in_models],
            "outModels": [m.to_json() for m in self.out_models],
            "refining": self.refining,
            "annotations": [a.to_json() for a in sorted(self.annotations, key=lambda a: (a.line, a.tag))],
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> TransformationInfo:
        return cls(
            name=data["name"],
            file=data["file"],
            unit=data.get("unit", "module"),
            in_models=tuple(ModelDecl.from_json(m) for m in data.get("inModels", [])),
            out_models=tuple(ModelDecl.from_json(m) for m in data.get("outModels", [])),
            refining=bool(data.get("refining", False)),
            annotations=tuple(Annotation.from_json(a) for a in data.get("annotations", [])),
        )


@dataclass(frozen=True)
class FeatureMatch:
    """One binding of the ground truth: a target feature and the source paths it reads.

    ``source_paths`` are dotted navigation paths from the rule's input element (``chapters.nbPages``);
    ``source_features`` their distinct first segments. Empty paths make the binding *target-only*
    (a constant, ``allInstances()``, an output variable...).
    """

    target_feature: str
    source_paths: tuple[str, ...] = ()
    source_features: tuple[str, ...] = ()
    helpers: tuple[str, ...] = ()
    rules: tuple[str, ...] = ()

    @property
    def target_only(self) -> bool:
        return not self.source_features

    def to_json(self) -> dict[str, Any]:
        return {
            "targetFeature": self.target_feature,
            "sourcePaths": sorted(set(self.source_paths)),
            "sourceFeatures": sorted(set(self.source_features)),
            "helpers": sorted(set(self.helpers)),
            "rules": sorted(set(self.rules)),
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> FeatureMatch:
        paths = tuple(data.get("sourcePaths", []))
        features = data.get("sourceFeatures")
        if features is None:  # derivable, so hand-written documents may omit it
            features = sorted({p.split(".", 1)[0] for p in paths})
        return cls(
            target_feature=data["targetFeature"],
            source_paths=paths,
            source_features=tuple(features),
            helpers=tuple(data.get("helpers", [])),
            rules=tuple(data.get("rules", [])),
        )


@dataclass(frozen=True)
class ClassMatch:
    """A (source class, target class) pair with every binding of every rule that maps it.

    Class names are simple names; ``source_qualified``/``target_qualified`` keep the names as written
    (``"uml::Class"``) when they differ, as metadata.
    """

    source_class: str
    target_class: str
    source_metamodel: str = ""
    target_metamodel: str = ""
    rules: tuple[str, ...] = ()
    feature_matches: tuple[FeatureMatch, ...] = ()
    source_qualified: tuple[str, ...] = ()
    target_qualified: tuple[str, ...] = ()

    @property
    def key(self) -> tuple[str, str]:
        return (self.source_class, self.target_class)

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "sourceClass": self.source_class,
            "sourceMetamodel": self.source_metamodel,
            "targetClass": self.target_class,
            "targetMetamodel": self.target_metamodel,
            "rules": sorted(set(self.rules)),
            "featureMatches": [
                f.to_json() for f in sorted(self.feature_matches, key=lambda f: f.target_feature)
            ],
        }
        if self.source_qualified:
            data["sourceQualifiedNames"] = sorted(set(self.source_qualified))
        if self.target_qualified:
            data["targetQualifiedNames"] = sorted(set(self.target_qualified))
        return data

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> ClassMatch:
        return cls(
            source_class=data["sourceClass"],
            target_class=data["targetClass"],
            source_metamodel=data.get("sourceMetamodel", ""),
            target_metamodel=data.get("targetMetamodel", ""),
            rules=tuple(data.get("rules", [])),
            feature_matches=tuple(FeatureMatch.from_json(f) for f in data.get("featureMatches", [])),
            source_qualified=tuple(data.get("sourceQualifiedNames", [])),
            target_qualified=tuple(data.get("targetQualifiedNames", [])),
        )


@dataclass(frozen=True)
class CalledRuleOutput:
    """An output element of a called rule: it creates ``target_class`` but has no source class."""

    variable: str
    target_class: str
    target_metamodel: str = ""
    target_features: tuple[str, ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {
            "variable": self.variable,
            "targetClass": self.target_class,
            "targetMetamodel": self.target_metamodel,
            "targetFeatures": sorted(set(self.target_features)),
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> CalledRuleOutput:
        return cls(
            variable=data["variable"],
            target_class=data["targetClass"],
            target_metamodel=data.get("targetMetamodel", ""),
            target_features=tuple(data.get("targetFeatures", [])),
        )


@dataclass(frozen=True)
class CalledRule:
    """A called rule (``rule R(p : T) { ... }``), listed apart because it has no source pattern."""

    name: str
    parameters: tuple[tuple[str, str], ...] = ()
    outputs: tuple[CalledRuleOutput, ...] = ()
    entrypoint: bool = False
    endpoint: bool = False

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "parameters": [{"name": n, "type": t} for n, t in self.parameters],
            "outputs": [o.to_json() for o in sorted(self.outputs, key=lambda o: o.variable)],
            "entrypoint": self.entrypoint,
            "endpoint": self.endpoint,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> CalledRule:
        return cls(
            name=data["name"],
            parameters=tuple((p["name"], p["type"]) for p in data.get("parameters", [])),
            outputs=tuple(CalledRuleOutput.from_json(o) for o in data.get("outputs", [])),
            entrypoint=bool(data.get("entrypoint", False)),
            endpoint=bool(data.get("endpoint", False)),
        )


@dataclass(frozen=True, order=True)
class Diagnostic:
    """Something the extractor noticed and could not resolve, e.g. an operation from a missing library.

    ``code`` is a stable identifier (``unknown-operation``, ``unknown-variable``, ...; the list is
    ``benchmark.tracks.mapping.extractor.DIAGNOSTIC_CODES``) that tests and reports can rely on; ``message``
    is for people.
    """

    line: int
    column: int
    code: str
    message: str
    severity: str = "warning"
    rule: str | None = None

    def to_json(self) -> dict[str, Any]:
        return {
            "severity": self.severity,
            "code": self.code,
            "message": self.message,
            "line": self.line,
            "column": self.column,
            "rule": self.rule,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Diagnostic:
        return cls(
            line=data.get("line", 0),
            column=data.get("column", 0),
            code=data["code"],
            message=data["message"],
            severity=data.get("severity", "warning"),
            rule=data.get("rule"),
        )


@dataclass(frozen=True)
class InterchangeDocument:
    transformation: TransformationInfo
    class_matches: tuple[ClassMatch, ...] = ()
    called_rules: tuple[CalledRule, ...] = ()
    diagnostics: tuple[Diagnostic, ...] = field(default=())

    def class_match(self, source_class: str, target_class: str) -> ClassMatch | None:
        for match in self.class_matches:
            if match.key == (source_class, target_class):
                return match
        return None

    def binding_keys(self) -> dict[tuple[str, str, str], FeatureMatch]:
        """Every binding keyed as the comparator aligns them: (sourceClass, targetClass, targetFeature)."""
        return {
            (m.source_class, m.target_class, f.target_feature): f
            for m in self.class_matches
            for f in m.feature_matches
        }

    def to_json(self) -> dict[str, Any]:
        return {
            "format": FORMAT_NAME,
            "version": FORMAT_VERSION,
            "transformation": self.transformation.to_json(),
            "classMatches": [
                m.to_json()
                for m in sorted(self.class_matches, key=lambda m: (m.source_class, m.target_class))
            ],
            "calledRules": [r.to_json() for r in sorted(self.called_rules, key=lambda r: r.name)],
            "diagnostics": [d.to_json() for d in sorted(set(self.diagnostics))],
        }

    @classmethod
    def from_json(cls, data: Any, *, source: str | Path | None = None) -> InterchangeDocument:
        """Build from parsed JSON after validating it against the shipped schema."""
        validate(data, source=source)
        return cls(
            transformation=TransformationInfo.from_json(data["transformation"]),
            class_matches=tuple(ClassMatch.from_json(m) for m in data.get("classMatches", [])),
            called_rules=tuple(CalledRule.from_json(r) for r in data.get("calledRules", [])),
            diagnostics=tuple(Diagnostic.from_json(d) for d in data.get("diagnostics", [])),
        )


def dumps(document: InterchangeDocument) -> str:
    """Byte-stable JSON text (the project's JSON style, see :func:`benchmark.core.fileio.dumps_json`)."""
    return dumps_json(document.to_json())


def loads(text: str, *, source: str | Path | None = None) -> InterchangeDocument:
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        raise InputFormatError(
            f"not valid JSON: {error.msg}", file=source, line=error.lineno, column=error.colno
        ) from error
    return InterchangeDocument.from_json(data, source=source)


def load(path: str | Path) -> InterchangeDocument:
    """Read and validate a document; raises ``OSError`` when the file cannot be read and
    :class:`InputFormatError` (naming the file) for anything else wrong with it."""
    path = Path(path)
    data = path.read_bytes()
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as error:
        raise InputFormatError(
            f"not UTF-8 text (byte {error.start}: {data[error.start : error.start + 1]!r})", file=path
        ) from error
    return loads(text, source=path)


@cache
def schema() -> dict[str, Any]:
    """The JSON Schema of the interchange format, as shipped in the package."""
    text = (
        resources.files("benchmark.tracks.mapping.schemas")
        .joinpath("interchange.schema.json")
        .read_text("utf-8")
    )
    return json.loads(text)


@cache
def _validator() -> Any:
    """The validator of the schema, built once per process, on the schema with its references inlined
    (:func:`~benchmark.tracks.mapping.schemas.inline_refs`: the same verdicts and messages, faster)."""
    import jsonschema  # imported here: validation is the only user

    from benchmark.tracks.mapping.schemas import inline_refs

    full = schema()
    return jsonschema.Draft202012Validator(inline_refs(full, full["$defs"]))


def validate(data: Any, *, source: str | Path | None = None) -> None:
    """Raise :class:`InputFormatError` naming the JSON path of the first schema violation."""
    errors = sorted(_validator().iter_errors(data), key=lambda e: list(e.absolute_path))
    if errors:
        first = errors[0]
        path = "$" + "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in first.absolute_path)
        more = f" (and {plural(len(errors) - 1, 'more problem')})" if len(errors) > 1 else ""
        raise InputFormatError(f"{first.message}{more}", file=source, field=path)
