"""Reading suggestion files: jJodel exports and raw LLM answers, normalised into one :class:`SuggestionSet`.

Every run the suite scores arrives in one of two shapes: the jJodel ``suggested-mappings`` export (what the
editor, the baselines and the LLM runner write) or a raw LLM answer, read by the one answer decoder
(:mod:`benchmark.tracks.mapping.scoring.answers`: the array bare, fenced, in prose, or the one array of an
object). Both are reduced here to the same normalised mappings so that the comparator never sees a file
format. Nothing is dropped silently: structural errors (wrong types, not JSON) raise
:class:`~benchmark.core.errors.InputFormatError` naming the file and the JSON path; well-formed entries that
cannot be scored are kept as :class:`InvalidEntry` with a reason; exact duplicates are scored once and
listed as :class:`Duplicate`; odd but usable values (an unrecognised confidence label) become
:class:`Notice` entries.

The ``generation`` block of a run file decides how a run that is not an ordinary answer reads
(:func:`run_status`, ``docs/METRICS.md`` "Runs that are not scored as usual"): ``status = "unusable"``
(``"failed"`` in older files) gives a set with no mappings and :attr:`SuggestionSet.unusable_reason`, to be
scored as a run with no suggestions; ``status = "no-answer"`` raises :class:`MissingRunError`, never a
score; a block that contradicts itself is an input error.

Normalisation (``docs/METRICS.md``): names are trimmed and a qualified name ``MM!C`` or ``pkg::C`` is
reduced to ``C``; confidence becomes ``high``/``medium``/``low`` (any case, ``med`` accepted) or ``unknown``
when absent; the provider is ``analysis.provider``, else the mappings' ``provider``, else ``unknown``.
"""

from __future__ import annotations

import glob
import json
from collections.abc import Iterable
from dataclasses import dataclass, replace
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any, NamedTuple

from benchmark.core.errors import InputFormatError
from benchmark.core.rows import ANSWER_FORMAT_NAME, FREE_FORMAT, STUDY_TEMPLATE, TEMPLATE_NAME
from benchmark.core.wording import plural
from benchmark.tracks.mapping.confidence import (
    CONFIDENCE_ALL,
    confidence_filter_name,
    normalise_confidence,
    parse_confidence_filter,
)
from benchmark.tracks.mapping.jjodel import KIND_ATTRIBUTE, KIND_CLASS, MappingEntry
from benchmark.tracks.mapping.scoring.answers import (
    DecodedAnswer,
    decode_answer,
    decode_at,
    line_column,
    payload,
)
from benchmark.tracks.mapping.scoring.run_status import (
    RUN_NO_ANSWER,
    RUN_UNUSABLE,
    MissingRunError,
    run_status,
)
from benchmark.tracks.mapping.variants.names import ORIGINAL, VARIANTS

SHAPE_EXPORT = "jjodel-export"
SHAPE_LLM_ANSWER = "llm-answer"

UNKNOWN = "unknown"  # a provider or model a file does not name


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

    ``unusable_reason`` is set when the model answered but the answer holds no usable mapping (the run
    file says so, or every entry is invalid): ``mappings`` is then empty and the run is scored as a run
    with no suggestions, and counted as unusable (``docs/METRICS.md``, "Runs that are not scored as
    usual"). ``answer_shape`` is how the answer's array was found
    (:data:`benchmark.tracks.mapping.scoring.answers .ANSWER_SHAPES`) when known: decoded here for a raw
    answer, recorded by ``atlbench generate`` for a run file.
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
    unusable_reason: str | None = None
    answer_shape: str | None = None
    #: the run file's ``variant`` block as written (``None``: the original task), read by scoring
    #: (:mod:`benchmark.tracks.mapping.variants.renaming`)
    variant: dict[str, Any] | None = None

    @property
    def unusable(self) -> bool:
        return self.unusable_reason is not None

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


def _text(value: Any) -> str | None:
    if value is None:
        return None
    text = str(value).strip()
    return text or None


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


def extract_json_array(text: str, *, source: str | Path | None = None) -> list[Any]:
    """The entries of an LLM answer, read by the one answer decoder
    (:func:`benchmark.tracks.mapping.scoring.answers.decode_answer`, which also says which shape held
    them)."""
    return decode_answer(text, source=source).entries


def decode_document(text: str, *, source: str | Path | None = None) -> tuple[Any, DecodedAnswer | None]:
    """(document, decoded answer) from text: a JSON object is a jJodel export (possibly fenced; the
    answer is then ``None``), anything else an LLM answer read by the answer decoder."""
    text = text.removeprefix("\ufeff")
    # A text that is a JSON object is not fenced: a fence in it is inside a string (the raw answer of an
    # unusable run), and taking that for the document's fence would misread the file.
    content, base, _fenced = (text, 0, False) if text.lstrip().startswith("{") else payload(text)
    stripped = content.lstrip()
    if stripped.startswith("{"):
        start = base + len(content) - len(stripped)
        value, end = decode_at(text, start, what="the file", source=source)
        trailing = text[end : base + len(content)]
        if trailing.strip():
            line, column = line_column(text, end + len(trailing) - len(trailing.lstrip()))
            raise InputFormatError("extra data after the JSON object", file=source, line=line, column=column)
        return value, None
    answer = decode_answer(text, source=source)
    return answer.entries, answer


# -------------------------------------------------------------------------------------- validation


@cache
def schema() -> dict[str, Any]:
    """The JSON Schema of the jJodel export, as shipped in the package (``$defs.llmAnswer``: raw shape)."""
    text = (
        resources.files("benchmark.tracks.mapping.schemas")
        .joinpath("suggested-mappings.schema.json")
        .read_text("utf-8")
    )
    return json.loads(text)


def _json_path(parts: Iterable[str | int]) -> str:
    return "$" + "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in parts)


@cache
def _validator(definition: str | None) -> Any:
    """The validator of the schema or of one of its definitions; its mappings (or answer entries) are
    checked once per shape (:mod:`benchmark.core.schema_memo`: same errors, a fraction of the time)."""
    import jsonschema  # imported here: validation is the only user

    from benchmark.core.schema_memo import shape_memo_validator
    from benchmark.tracks.mapping.schemas import inline_refs

    full = schema()
    root = full if definition is None else full["$defs"][definition]
    return shape_memo_validator(jsonschema.Draft202012Validator, inline_refs(root, full["$defs"]))


def _validate(data: Any, definition: str | None, *, source: str | Path | None) -> None:
    errors = sorted(
        _validator(definition).iter_errors(data),
        key=lambda e: [(0, p, "") if isinstance(p, int) else (1, 0, p) for p in e.absolute_path],
    )
    if errors:
        first = errors[0]
        more = f" (and {plural(len(errors) - 1, 'more problem')})" if len(errors) > 1 else ""
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


def _all_invalid_reason(builder: _Builder) -> str | None:
    """Why a run whose every entry is invalid holds no usable mapping; ``None`` when it holds one, or
    holds no entry at all (an empty answer is an answer, not an unusable one)."""
    if builder.mappings or not builder.invalid:
        return None
    first = builder.invalid[0]
    count = len(builder.invalid)
    entries = "the only entry is" if count == 1 else f"all {count} entries are"
    return f"{entries} unusable (first: {first.path}: {first.reason})"


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
    if isinstance(data_or_text, str):
        data, answer = decode_document(data_or_text, source=source)
    else:
        data, answer = data_or_text, None
    validate(data, source=source)
    status, status_reason = run_status(data, source=source)
    builder = _Builder()
    notices: list[Notice] = []
    transformation = None
    answer_shape = answer.shape if answer is not None else None
    if isinstance(data, dict):
        shape = SHAPE_EXPORT
        if status == RUN_NO_ANSWER:
            assert status_reason is not None
            found, found_model = _analysis_identity(data)
            raise MissingRunError(
                status_reason,
                provider=_text(provider) or found or UNKNOWN,
                model=_text(model) or found_model or UNKNOWN,
                file=source,
            )
        generation = data.get("generation")
        if isinstance(generation, dict) and isinstance(generation.get("answerShape"), str):
            answer_shape = generation["answerShape"]
        if status == RUN_UNUSABLE:
            data = {**data, "mappings": []}
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
        variant = data.get("variant") if isinstance(data.get("variant"), dict) else None
        block = data.get("transformation")
        if block is not None:
            transformation = SuggestedTransformation(
                _text(block.get("name")), _text(block.get("source")), _text(block.get("target"))
            )
    else:
        shape = SHAPE_LLM_ANSWER
        _read_answer(data, builder)
        found_provider = found_model = found_label = variant = None
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
        unusable_reason=status_reason if status == RUN_UNUSABLE else _all_invalid_reason(builder),
        answer_shape=answer_shape,
        variant=variant,
    )


def _analysis_identity(data: dict[str, Any]) -> tuple[str | None, str | None]:
    """(provider, model) an export names, without validation: ``analysis.provider``, else the first
    mapping's ``provider``; ``analysis.model``."""
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
    return provider, _text(analysis.get("model"))


def _peek_document(path: Path) -> Any:
    """The decoded document of a readable export; ``None`` for a file that cannot be read or decoded."""
    try:
        data, _answer = decode_document(path.read_bytes().decode("utf-8"), source=path)
    except (OSError, UnicodeDecodeError, InputFormatError):
        return None
    return data


def _peek_content(path: Path) -> tuple[str | None, str | None] | None:
    """(provider, model) a readable export names; ``None`` for a file that cannot be read or decoded."""
    data = _peek_document(path)
    if data is None:
        return None
    return _analysis_identity(data) if isinstance(data, dict) else (None, None)


def _variant_name(data: Any) -> str:
    """The task variant an export's ``variant`` block names, ``original`` when it names none or a name that
    is no variant (scoring says what is wrong with the block)."""
    variant = data.get("variant") if isinstance(data, dict) else None
    name = variant.get("name") if isinstance(variant, dict) else None
    return name if isinstance(name, str) and name in VARIANTS else ORIGINAL


def _analysis_template(data: Any) -> str:
    """The prompt template an export names (``analysis.template``), the study's when it names none; a
    value that is not a template's name is the schema's to report when the run is scored."""
    analysis = data.get("analysis") if isinstance(data, dict) else None
    found = analysis.get("template") if isinstance(analysis, dict) else None
    return found if isinstance(found, str) and TEMPLATE_NAME.match(found) else STUDY_TEMPLATE


def _analysis_answer_format(data: Any) -> str:
    """The answer format an export names (``analysis.answerFormat``), free when it names none; a value
    that is not a format's name is the schema's to report when the run is scored."""
    analysis = data.get("analysis") if isinstance(data, dict) else None
    found = analysis.get("answerFormat") if isinstance(analysis, dict) else None
    return found if isinstance(found, str) and ANSWER_FORMAT_NAME.match(found) else FREE_FORMAT


def _peek_file_name(path: Path) -> tuple[str, str] | None:
    """(provider, model) of a run file that cannot be read, from its name: runs are filed as
    ``<provider>-<model>-runNN.json`` (``<provider>-runNN.json`` for synthetic runs), and the dashes
    inside a name make the split ambiguous, so a readable sibling with the same ``<provider>-<model>``
    part settles it; without one, the whole part is the provider and the model is unknown."""
    from benchmark.llm.naming import run_stem_of

    stem = run_stem_of(path.stem)
    if stem is None:
        return None
    for sibling in sorted(path.parent.glob(f"{glob.escape(stem)}-run*{path.suffix}")):
        if sibling == path or run_stem_of(sibling.stem) != stem:
            continue
        found = _peek_content(sibling)
        if found is not None and found[0] is not None:
            return found[0], found[1] or UNKNOWN
    return stem, UNKNOWN


class PeekedRun(NamedTuple):
    """What a run file says of itself before it is scored: enough to name and select its test case."""

    provider: str
    model: str
    variant: str
    template: str
    answer_format: str = FREE_FORMAT


def peek_run(path: str | Path) -> PeekedRun:
    """(provider, model, variant, template) of a suggestion file, read once, cheaply and without
    validation, for naming test cases.

    Reads the text as :func:`load_suggestions` does (an export may sit in a code fence) and applies the
    same precedence as :func:`parse_suggestions` (``analysis.provider``, else the first mapping's
    ``provider``, else ``unknown``), so that a case is named, selected and filtered by the provider its
    row will carry. A file that cannot be read or decoded (a truncated export) keeps the provider its
    name gives (:func:`_peek_file_name`), so its error row stays with that provider; any other name
    gives ``("unknown", "unknown")``, and the file's real error comes when it is scored. The variant is
    the one the file's ``variant`` block names (``docs/VARIANTS.md``), else that of the folder it is
    filed in (``runs/synonym/``), else ``original``; a name that is no variant reads as ``original``
    (scoring says what is wrong with the block). The template is the one ``analysis.template`` names,
    the study's when it names none or cannot be read; likewise the answer format (``analysis.answerFormat``,
    free when it names none).
    """
    path = Path(path)
    data = _peek_document(path)
    if data is None:
        provider, model = _peek_file_name(path) or (UNKNOWN, UNKNOWN)
        variant = path.parent.name if path.parent.name in VARIANTS else ORIGINAL
        return PeekedRun(provider, model, variant, STUDY_TEMPLATE)
    provider, model = _analysis_identity(data) if isinstance(data, dict) else (None, None)
    return PeekedRun(
        provider or UNKNOWN,
        model or UNKNOWN,
        _variant_name(data),
        _analysis_template(data),
        _analysis_answer_format(data),
    )


def peek_provider(path: str | Path) -> tuple[str, str]:
    """(provider, model) of a suggestion file (:func:`peek_run`)."""
    peeked = peek_run(path)
    return peeked.provider, peeked.model


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
    "Duplicate",
    "InvalidEntry",
    "Notice",
    "SHAPE_EXPORT",
    "SHAPE_LLM_ANSWER",
    "SuggestedTransformation",
    "Suggestion",
    "SuggestionSet",
    "decode_document",
    "extract_json_array",
    "PeekedRun",
    "peek_provider",
    "peek_run",
    "filter_confidence",
    "load_suggestions",
    "normalise_name",
    "parse_suggestions",
    "schema",
    "validate",
]
