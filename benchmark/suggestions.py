"""Reading suggestion files: jJodel exports and raw LLM answers, normalised into one :class:`SuggestionSet`.

Every run the suite scores arrives in one of two shapes: the jJodel ``suggested-mappings`` export (what the
editor, the baselines and the LLM runner write) or the bare JSON array an LLM answers with, often wrapped
in a markdown code fence. Both are reduced here to the same normalised mappings so that the comparator
never sees a file format. Nothing is dropped silently: structural errors (wrong types, not JSON) raise
:class:`~benchmark.errors.InputFormatError` naming the file and the JSON path; well-formed entries that
cannot be scored are kept as :class:`InvalidEntry` with a reason; exact duplicates are scored once and
listed as :class:`Duplicate`; odd but usable values (an unrecognised confidence label) become
:class:`Notice` entries. An export marked as a failed run (``generation.status = "failed"`` or a
``generation.error``: how the LLM runner files an answer it could not parse) is refused rather than
scored as an empty run.

Normalisation (``docs/METRICS.md``): names are trimmed and a qualified name ``MM!C`` or ``pkg::C`` is
reduced to ``C``; confidence becomes ``high``/``medium``/``low`` (any case, ``med`` accepted) or ``unknown``
when absent; the provider is ``analysis.provider``, else the mappings' ``provider``, else ``unknown``.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from dataclasses import dataclass, replace
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

from benchmark.errors import ConfigurationError, InputFormatError
from benchmark.jjodel import KIND_ATTRIBUTE, KIND_CLASS, MappingEntry

SHAPE_EXPORT = "jjodel-export"
SHAPE_LLM_ANSWER = "llm-answer"

UNKNOWN = "unknown"
CONFIDENCE_ORDER = ("high", "medium", "low", UNKNOWN)  # most to least confident
_CONFIDENCE_ALIASES = {"high": "high", "medium": "medium", "med": "medium", "low": "low", UNKNOWN: UNKNOWN}
CONFIDENCE_ALL = "all"


# --------------------------------------------------------------------------------------------- data


@dataclass(frozen=True)
class Suggestion:
    """One usable, normalised mapping.

    ``kind`` is ``class`` (no features) or ``attribute`` (jJodel's name for any feature mapping; the
    target feature is always set, the source feature may be ``None`` when the answer named none).
    ``path`` is the JSON path of the entry in its file, so every verdict can be traced back.
    """

    kind: str
    source_class: str
    target_class: str
    source_feature: str | None
    target_feature: str | None
    confidence: str
    path: str
    reason: str | None = None
    guard_hint: str | None = None
    conversion_hint: str | None = None

    @property
    def is_class(self) -> bool:
        return self.kind == KIND_CLASS

    @property
    def identity(self) -> tuple[str, str, str | None, str, str | None]:
        """What the mapping says, without commentary: (kind, sourceClass, sourceFeature, targetClass,
        targetFeature)."""
        return (self.kind, self.source_class, self.source_feature, self.target_class, self.target_feature)

    def to_entry(self) -> MappingEntry:
        """The jJodel export entry for this mapping (how the LLM runner turns an answer into a file)."""
        return MappingEntry(
            kind=self.kind,
            source_class=self.source_class,
            target_class=self.target_class,
            source_feature=self.source_feature,
            target_feature=self.target_feature,
            confidence=None if self.confidence == UNKNOWN else self.confidence,
            reason=self.reason,
            guard_hint=self.guard_hint,
            conversion_hint=self.conversion_hint,
        )

    def to_json(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "sourceClass": self.source_class,
            "sourceFeature": self.source_feature,
            "targetClass": self.target_class,
            "targetFeature": self.target_feature,
            "confidence": self.confidence,
            "path": self.path,
        }


@dataclass(frozen=True)
class InvalidEntry:
    """A well-formed entry that cannot be scored; counted and listed, never silently dropped."""

    path: str
    reason: str
    entry: Any = None

    def to_json(self) -> dict[str, Any]:
        return {"path": self.path, "reason": self.reason, "entry": self.entry}


@dataclass(frozen=True)
class Duplicate:
    """An entry saying exactly what an earlier one said (same mapping, same confidence): scored once."""

    path: str
    first_path: str

    def to_json(self) -> dict[str, str]:
        return {"path": self.path, "duplicateOf": self.first_path}


@dataclass(frozen=True)
class Notice:
    """Something odd but harmless, e.g. an unrecognised confidence label read as ``unknown``."""

    path: str
    message: str

    def to_json(self) -> dict[str, str]:
        return {"path": self.path, "message": self.message}


@dataclass(frozen=True)
class SuggestedTransformation:
    """The export's ``transformation`` block: what the run claims to be about (metadata only)."""

    name: str | None
    source: str | None
    target: str | None

    def to_json(self) -> dict[str, str | None]:
        return {"name": self.name, "source": self.source, "target": self.target}


@dataclass(frozen=True)
class SuggestionSet:
    """The usable mappings of one run plus everything that was not usable, with where it came from.

    ``confidence_filter`` records the filter that produced this set (``all`` when unfiltered);
    ``invalid``, ``duplicates`` and ``notices`` always describe the whole file.
    """

    file: str | None
    shape: str
    provider: str
    model: str
    model_label: str
    mappings: tuple[Suggestion, ...] = ()
    invalid: tuple[InvalidEntry, ...] = ()
    duplicates: tuple[Duplicate, ...] = ()
    notices: tuple[Notice, ...] = ()
    transformation: SuggestedTransformation | None = None
    confidence_filter: str = CONFIDENCE_ALL

    @property
    def class_mappings(self) -> tuple[Suggestion, ...]:
        return tuple(m for m in self.mappings if m.is_class)

    @property
    def feature_mappings(self) -> tuple[Suggestion, ...]:
        return tuple(m for m in self.mappings if not m.is_class)

    @property
    def duplicate_count(self) -> int:
        return len(self.duplicates)


# ------------------------------------------------------------------------------------ normalisation


def normalise_name(value: str | None) -> str | None:
    """Trim, reduce ``MM!C`` / ``pkg::C`` (and ``MM!pkg::C``) to ``C``; ``None`` for a missing or blank name.

    Dots are kept: a source "feature" may be a navigation path (``chapters.nbPages``), which the
    comparator matches against the ground truth's source paths.
    """
    if value is None:
        return None
    name = value.strip()
    if "!" in name:
        name = name.rsplit("!", 1)[1]
    if "::" in name:
        name = name.rsplit("::", 1)[1]
    name = name.strip()
    return name or None


def normalise_confidence(value: str | None) -> tuple[str, bool]:
    """(label, recognised). Absent or blank gives ``unknown`` (recognised); an unknown word gives
    ``unknown`` and ``False`` so the caller can leave a notice."""
    if value is None or not value.strip():
        return UNKNOWN, True
    label = _CONFIDENCE_ALIASES.get(value.strip().lower())
    return (label, True) if label is not None else (UNKNOWN, False)


def _text(value: Any) -> str | None:
    if value is None:
        return None
    text = str(value).strip()
    return text or None


# ------------------------------------------------------------------------------ confidence filtering


def parse_confidence_filter(spec: str | Iterable[str] | None) -> frozenset[str] | None:
    """``all`` (or ``None``/empty) gives ``None`` (keep everything); otherwise the set of labels.

    Accepts ``high``, ``high,medium``, ``med``, any case, and ``unknown`` for entries without a label.
    """
    if spec is None:
        return None
    parts = [p.strip() for p in (spec.split(",") if isinstance(spec, str) else spec)]
    parts = [p for p in parts if p]
    if not parts or (len(parts) == 1 and parts[0].lower() == CONFIDENCE_ALL):
        return None
    labels: set[str] = set()
    for part in parts:
        label = _CONFIDENCE_ALIASES.get(part.lower())
        if label is None:
            raise ConfigurationError(
                f"unknown confidence label {part!r}; use 'all' or a comma-separated list of "
                "high, medium (or med), low, unknown",
                field="--confidence",
            )
        labels.add(label)
    return frozenset(labels)


def confidence_filter_name(labels: frozenset[str] | None) -> str:
    """Canonical spelling of a filter: ``all`` or labels in confidence order joined by ``,``."""
    if labels is None or set(labels) >= set(CONFIDENCE_ORDER):
        return CONFIDENCE_ALL
    return ",".join(label for label in CONFIDENCE_ORDER if label in labels)


def filter_confidence(suggestions: SuggestionSet, spec: str | Iterable[str] | None) -> SuggestionSet:
    """Keep the mappings whose confidence label is selected; invalid entries and duplicates stay listed."""
    labels = parse_confidence_filter(spec)
    if labels is None:
        return suggestions
    kept = tuple(m for m in suggestions.mappings if m.confidence in labels)
    if suggestions.confidence_filter != CONFIDENCE_ALL:
        previous = parse_confidence_filter(suggestions.confidence_filter)
        labels = labels & previous if previous is not None else labels
    return replace(suggestions, mappings=kept, confidence_filter=confidence_filter_name(frozenset(labels)))


# --------------------------------------------------------------------------------------- JSON text

_FENCE = re.compile(r"```[^\n`]*\n(.*?)(?:```|\Z)", re.DOTALL)
_ARRAY_START = re.compile(r"\[\s*[\{\]]")


def _line_column(text: str, offset: int) -> tuple[int, int]:
    line = text.count("\n", 0, offset) + 1
    column = offset - (text.rfind("\n", 0, offset) + 1) + 1
    return line, column


def _payload(text: str) -> tuple[str, int]:
    """The content of the first markdown code fence (to the end when the fence is never closed, as in a
    truncated answer) and its offset in ``text``; the whole text when there is no fence."""
    match = _FENCE.search(text)
    if match is None:
        return text, 0
    return match.group(1), match.start(1)


def _decode_at(text: str, offset: int, *, what: str, source: str | Path | None) -> tuple[Any, int]:
    """(value, end offset) of the JSON value starting at ``offset``; errors carry line and column."""
    try:
        return json.JSONDecoder().raw_decode(text, offset)
    except json.JSONDecodeError as error:
        line, column = _line_column(text, error.pos)
        raise InputFormatError(
            f"{what} is not valid JSON: {error.msg}", file=source, line=line, column=column
        ) from error


def extract_json_array(text: str, *, source: str | Path | None = None) -> list[Any]:
    """The JSON array in an LLM answer: inside the first code fence if there is one, else in the text.

    The array starts at the first ``[`` when the payload begins with one, otherwise at the first ``[``
    followed by ``{`` or ``]`` (prose around it is ignored). Only that one candidate is decoded: a broken
    array raises :class:`InputFormatError` with the line and column of the problem rather than falling
    back to some inner array, so content is never invented.
    """
    text = text.removeprefix("\ufeff")
    payload, base = _payload(text)
    stripped = payload.lstrip()
    if stripped.startswith("["):
        start = base + len(payload) - len(stripped)
    else:
        # An answer that is a JSON object is not searched: an array inside it (even an empty one, as
        # in an object cut off at max_tokens) is not the answer.
        match = None if stripped.startswith("{") else _ARRAY_START.search(payload)
        if match is None:
            found = "a JSON object" if stripped.startswith("{") else "no JSON array"
            raise InputFormatError(
                f"expected a JSON array of mappings, found {found}", file=source, line=1, column=1
            )
        start = base + match.start()
    value, _end = _decode_at(text, start, what="the answer's JSON array", source=source)
    assert isinstance(value, list)  # decoding starts at '['
    return value


def _decode_text(text: str, *, source: str | Path | None) -> Any:
    """A document from text: a JSON object (an export, possibly fenced) or an answer's JSON array."""
    text = text.removeprefix("\ufeff")
    # A text that is a JSON object is not fenced: a fence in it is inside a string (the raw answer of a
    # failed run), and taking that for the document's fence would misread the file.
    payload, base = (text, 0) if text.lstrip().startswith("{") else _payload(text)
    stripped = payload.lstrip()
    if stripped.startswith("{"):
        start = base + len(payload) - len(stripped)
        value, end = _decode_at(text, start, what="the file", source=source)
        trailing = text[end : base + len(payload)]
        if trailing.strip():
            line, column = _line_column(text, end + len(trailing) - len(trailing.lstrip()))
            raise InputFormatError("extra data after the JSON object", file=source, line=line, column=column)
        return value
    return extract_json_array(text, source=source)


# -------------------------------------------------------------------------------------- validation


@cache
def schema() -> dict[str, Any]:
    """The JSON Schema of the jJodel export, as shipped in the package (``$defs.llmAnswer``: raw shape)."""
    text = resources.files("benchmark.schemas").joinpath("suggested-mappings.schema.json").read_text("utf-8")
    return json.loads(text)


def _json_path(parts: Iterable[str | int]) -> str:
    return "$" + "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in parts)


def _inline(node: Any, definitions: dict[str, Any]) -> Any:
    """The schema with its local ``$ref``s replaced by their definitions (it has no cycles): jsonschema
    validates the inlined form about three times faster, which matters when scoring many runs."""
    if isinstance(node, dict):
        if "$ref" in node:
            return _inline(definitions[node["$ref"].rsplit("/", 1)[1]], definitions)
        return {key: _inline(value, definitions) for key, value in node.items() if key != "$defs"}
    if isinstance(node, list):
        return [_inline(value, definitions) for value in node]
    return node


@cache
def _validator(definition: str | None) -> Any:
    import jsonschema  # imported here: validation is the only user

    full = schema()
    root = full if definition is None else full["$defs"][definition]
    return jsonschema.Draft202012Validator(_inline(root, full["$defs"]))


def _validate(data: Any, definition: str | None, *, source: str | Path | None) -> None:
    errors = sorted(
        _validator(definition).iter_errors(data),
        key=lambda e: [(0, p, "") if isinstance(p, int) else (1, 0, p) for p in e.absolute_path],
    )
    if errors:
        first = errors[0]
        more = f" (and {len(errors) - 1} more problems)" if len(errors) > 1 else ""
        raise InputFormatError(f"{first.message}{more}", file=source, field=_json_path(first.absolute_path))


def validate(data: Any, *, source: str | Path | None = None) -> None:
    """Raise :class:`InputFormatError` naming the JSON path of the first problem of an export or answer."""
    if isinstance(data, list):
        _validate(data, "llmAnswer", source=source)
    elif isinstance(data, dict):
        _validate(data, None, source=source)
    else:
        raise InputFormatError(
            f"expected a jJodel export (a JSON object) or an LLM answer (a JSON array), got "
            f"{type(data).__name__}",
            file=source,
            field="$",
        )


# ------------------------------------------------------------------------------------------ reading


class _Builder:
    """Collects entries in file order, applying the invalid / duplicate / notice rules in one place."""

    def __init__(self) -> None:
        self.mappings: list[Suggestion] = []
        self.invalid: list[InvalidEntry] = []
        self.duplicates: list[Duplicate] = []
        self.notices: list[Notice] = []
        self._seen: dict[tuple[Any, ...], str] = {}

    def add(
        self,
        *,
        path: str,
        raw: Any,
        kind: str,
        source_class: str | None,
        target_class: str | None,
        source_feature: str | None,
        target_feature: str | None,
        confidence: str | None,
        reason: str | None,
        guard_hint: str | None,
        conversion_hint: str | None,
        field_names: dict[str, str],
    ) -> None:
        problem = None
        if kind not in (KIND_CLASS, KIND_ATTRIBUTE):
            problem = f"unknown kind {kind!r} (expected 'class' or 'attribute')"
        elif source_class is None:
            problem = f"{field_names['sourceClass']} is missing or empty"
        elif target_class is None:
            problem = f"{field_names['targetClass']} is missing or empty"
        elif kind == KIND_CLASS and (source_feature is not None or target_feature is not None):
            problem = "a class mapping must not name features (use kind 'attribute' for a feature mapping)"
        elif kind == KIND_ATTRIBUTE and target_feature is None:
            problem = f"feature mapping without target feature ({field_names['targetFeature']} is empty)"
        if problem is not None:
            self.invalid.append(InvalidEntry(path=path, reason=problem, entry=raw))
            return
        assert source_class is not None and target_class is not None
        label, recognised = normalise_confidence(confidence)
        if not recognised:
            self.notices.append(
                Notice(path, f"unrecognised confidence {confidence!r} read as 'unknown' (high/medium/low)")
            )
        suggestion = Suggestion(
            kind=kind,
            source_class=source_class,
            target_class=target_class,
            source_feature=source_feature,
            target_feature=target_feature,
            confidence=label,
            path=path,
            reason=_text(reason),
            guard_hint=_text(guard_hint),
            conversion_hint=_text(conversion_hint),
        )
        key = (*suggestion.identity, label)
        first = self._seen.get(key)
        if first is not None:
            self.duplicates.append(Duplicate(path=path, first_path=first))
            return
        self._seen[key] = path
        self.mappings.append(suggestion)


_EXPORT_FIELDS = {
    "sourceClass": "source.class",
    "targetClass": "target.class",
    "targetFeature": "target.feature",
}
_ANSWER_FIELDS = {
    "sourceClass": "sourceClass",
    "targetClass": "targetClass",
    "targetFeature": "targetAttribute",
}


def _read_export(data: dict[str, Any], builder: _Builder) -> tuple[str | None, list[str]]:
    mapping_providers: list[str] = []
    for index, entry in enumerate(data["mappings"]):
        source, target = entry["source"], entry["target"]
        provider = _text(entry.get("provider"))
        if provider is not None:
            mapping_providers.append(provider)
        builder.add(
            path=f"$.mappings[{index}]",
            raw=entry,
            kind=str(entry["kind"]).strip().lower(),
            source_class=normalise_name(source.get("class")),
            target_class=normalise_name(target.get("class")),
            source_feature=normalise_name(source.get("feature")),
            target_feature=normalise_name(target.get("feature")),
            confidence=entry.get("confidence"),
            reason=entry.get("reason"),
            guard_hint=entry.get("guardHint"),
            conversion_hint=entry.get("conversionHint"),
            field_names=_EXPORT_FIELDS,
        )
    analysis_provider = _text((data.get("analysis") or {}).get("provider"))
    return analysis_provider, mapping_providers


def _read_answer(data: list[Any], builder: _Builder) -> None:
    for index, entry in enumerate(data):
        source_feature = normalise_name(entry.get("sourceAttribute"))
        target_feature = normalise_name(entry.get("targetAttribute"))
        kind = KIND_CLASS if source_feature is None and target_feature is None else KIND_ATTRIBUTE
        builder.add(
            path=f"$[{index}]",
            raw=entry,
            kind=kind,
            source_class=normalise_name(entry.get("sourceClass")),
            target_class=normalise_name(entry.get("targetClass")),
            source_feature=source_feature,
            target_feature=target_feature,
            confidence=entry.get("confidence"),
            reason=entry.get("reason"),
            guard_hint=entry.get("guardHint"),
            conversion_hint=entry.get("conversionHint"),
            field_names=_ANSWER_FIELDS,
        )


def _refuse_failed_run(data: Any, *, source: str | Path | None) -> None:
    """The LLM runner files an answer it could not parse as ``generation.status = "failed"`` with the
    parser's message in ``generation.error`` and no ``mappings``: say so, rather than a schema error."""
    generation = data.get("generation") if isinstance(data, dict) else None
    if not isinstance(generation, dict):
        return
    status, error = generation.get("status"), generation.get("error")
    if status == "failed" or error:
        reason = f": {error}" if error else ""
        raise InputFormatError(
            f"the run failed, no mappings to score{reason}", file=source, field="$.generation.status"
        )


def parse_suggestions(
    data_or_text: Any,
    *,
    source: str | Path | None = None,
    provider: str | None = None,
    model: str | None = None,
) -> SuggestionSet:
    """A :class:`SuggestionSet` from parsed JSON (export object or answer array) or from text.

    Text may be a whole export, or an LLM answer whose JSON array sits in a code fence or in prose.
    ``provider``/``model`` override what the file says (an LLM answer carries neither; the runner knows).
    """
    data = _decode_text(data_or_text, source=source) if isinstance(data_or_text, str) else data_or_text
    _refuse_failed_run(data, source=source)
    validate(data, source=source)
    builder = _Builder()
    notices: list[Notice] = []
    transformation = None
    if isinstance(data, dict):
        shape = SHAPE_EXPORT
        analysis_provider, mapping_providers = _read_export(data, builder)
        distinct = sorted(set(mapping_providers))
        found_provider = analysis_provider or (mapping_providers[0] if mapping_providers else None)
        if len(distinct) > 1 or (analysis_provider and distinct and distinct != [analysis_provider]):
            notices.append(
                Notice(
                    "$.mappings", f"mappings name providers {', '.join(distinct)}; using {found_provider!r}"
                )
            )
        analysis = data.get("analysis") or {}
        found_model = _text(analysis.get("model"))
        found_label = _text(analysis.get("modelLabel"))
        block = data.get("transformation")
        if block is not None:
            transformation = SuggestedTransformation(
                _text(block.get("name")), _text(block.get("source")), _text(block.get("target"))
            )
    else:
        shape = SHAPE_LLM_ANSWER
        _read_answer(data, builder)
        found_provider = found_model = found_label = None
    chosen_provider = _text(provider) or found_provider or UNKNOWN
    chosen_model = _text(model) or found_model or UNKNOWN
    return SuggestionSet(
        file=str(source) if source is not None else None,
        shape=shape,
        provider=chosen_provider,
        model=chosen_model,
        model_label=found_label if found_label and not _text(model) else chosen_model,
        mappings=tuple(builder.mappings),
        invalid=tuple(builder.invalid),
        duplicates=tuple(builder.duplicates),
        notices=tuple(notices + builder.notices),
        transformation=transformation,
    )


def peek_provider(path: str | Path) -> tuple[str, str]:
    """(provider, model) of a suggestion file, cheaply and without validation, for naming test cases.

    Reads the text as :func:`load_suggestions` does (an export may sit in a code fence) and applies the
    same precedence as :func:`parse_suggestions` (``analysis.provider``, else the first mapping's
    ``provider``, else ``unknown``), so that a case is named, selected and filtered by the provider its
    row will carry; any unreadable file gives ``("unknown", "unknown")`` here and its real error when it
    is scored.
    """
    try:
        data = _decode_text(Path(path).read_bytes().decode("utf-8"), source=path)
    except (OSError, UnicodeDecodeError, InputFormatError):
        return UNKNOWN, UNKNOWN
    if not isinstance(data, dict):
        return UNKNOWN, UNKNOWN
    analysis = data.get("analysis") if isinstance(data.get("analysis"), dict) else {}
    provider = _text(analysis.get("provider"))
    if provider is None and isinstance(data.get("mappings"), list):
        provider = next(
            (
                _text(m.get("provider"))
                for m in data["mappings"]
                if isinstance(m, dict) and _text(m.get("provider"))
            ),
            None,
        )
    return provider or UNKNOWN, _text(analysis.get("model")) or UNKNOWN


def load_suggestions(path: str | Path) -> SuggestionSet:
    """Read a suggestion file of either shape (UTF-8, a byte-order mark tolerated)."""
    path = Path(path)
    try:
        text = path.read_bytes().decode("utf-8")
    except OSError as error:
        raise InputFormatError(f"cannot read suggestion file: {error.strerror}", file=path) from error
    except UnicodeDecodeError as error:
        raise InputFormatError(f"not UTF-8 text (byte {error.start})", file=path) from error
    return parse_suggestions(text, source=path)


__all__ = [
    "CONFIDENCE_ALL",
    "CONFIDENCE_ORDER",
    "Duplicate",
    "InvalidEntry",
    "Notice",
    "SHAPE_EXPORT",
    "SHAPE_LLM_ANSWER",
    "SuggestedTransformation",
    "Suggestion",
    "SuggestionSet",
    "confidence_filter_name",
    "extract_json_array",
    "peek_provider",
    "filter_confidence",
    "load_suggestions",
    "normalise_confidence",
    "normalise_name",
    "parse_confidence_filter",
    "parse_suggestions",
    "schema",
    "validate",
]
