"""``atlbench import``: file hand-exported jJodel runs under the right transformation, normalised name.

Each file is read with the comparator's reader
(:func:`benchmark.tracks.mapping.scoring.suggestions.load_suggestions`), so a file that imports is a file
that scores; a file that does not is reported with the reader's message (file, line, JSON path) and nothing
is written for it. The transformation folder is, in this order: the one named by ``--transformation``; the
one whose folder name equals the export's ``transformation.name`` (ignoring case); the only one holding
metamodels named like the export's ``transformation.source`` and ``transformation.target``. The run is filed
as ``<folder>/runs/<provider>-<model>-runNN.json`` with the next free run number of that provider and model; a
run whose bytes are already in ``runs/`` is not imported twice.

An export is copied byte for byte, unless ``--provider`` or ``--model`` names another provider or model
than the export does: they override what is scored, so the export's ``analysis`` block (and each mapping's
``provider``) is rewritten and an ``imported`` block keeps the file's own provider and model, its name and
its hash. The duplicate check compares the bytes that are filed, so the same export imported under two
providers is two runs, and imported twice under one is one.

A bare LLM answer (e.g. pasted from a chat window), read by the one answer decoder
(:func:`benchmark.tracks.mapping.scoring.answers.decode_answer`: the array bare, fenced, in prose, or the one
array of a ``{"mappings": [...]}`` object without jJodel header) carries no provider, model or transformation;
with ``--provider``, ``--model`` and ``--transformation`` it is wrapped into a jJodel export (entries
unchanged, plus an ``imported`` block naming the original file, its hash and the answer's shape).

An answer to a task variant obtained by hand (``docs/VARIANTS.md``: ``atlbench variant export`` wrote the
variant's metamodels, prompt and ``variant.json``) is imported with ``--variant-file variant.json``: the
renaming is checked against the transformation's metamodels, added to the file as its ``variant`` block,
and the run is filed in ``runs/<variant>/``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from benchmark.core.errors import BenchmarkError, ConfigurationError, InputFormatError
from benchmark.core.fileio import dumps_json, sha256_file, sha256_text, write_text_atomic
from benchmark.llm.naming import existing_run_indices, run_file_name
from benchmark.tracks.mapping.discovery import TransformationFolder, discover
from benchmark.tracks.mapping.ground_truth import MetamodelResolver
from benchmark.tracks.mapping.llm_task import RUNS_DIR, answer_entry
from benchmark.tracks.mapping.scoring.answers import decode_answer
from benchmark.tracks.mapping.scoring.suggestions import SuggestionSet

IMPORTED = "imported"
ALREADY_PRESENT = "already-present"
FAILED = "error"


@dataclass(frozen=True)
class ImportResult:
    source: Path
    status: str
    destination: Path | None = None
    message: str | None = None
    error: BenchmarkError | None = None


def _folders(into: Path) -> list[TransformationFolder]:
    return list(discover(into).transformations)


def _choose_folder(
    folders: Sequence[TransformationFolder],
    *,
    source: Path,
    forced: str | None,
    name: str | None,
    mm_source: str | None,
    mm_target: str | None,
) -> TransformationFolder:
    def by_name(wanted: str) -> list[TransformationFolder]:
        return [f for f in folders if f.name.casefold() == wanted.casefold()]

    if forced is not None:
        found = by_name(forced)
        if not found:
            known = ", ".join(f.name for f in folders)
            raise ConfigurationError(
                f"no transformation folder {forced!r}; available: {known}", field="--transformation"
            )
        return found[0]
    if name:
        found = by_name(name)
        if len(found) == 1:
            return found[0]
    if mm_source and mm_target:
        matching = []
        for folder in folders:
            resolver = MetamodelResolver(folder.metamodel_files, folder=folder.path)
            try:
                if resolver.find(mm_source) is not None and resolver.find(mm_target) is not None:
                    matching.append(folder)
            except BenchmarkError:
                continue
        if len(matching) == 1:
            return matching[0]
        if len(matching) > 1:
            names = ", ".join(f.name for f in matching)
            raise InputFormatError(
                f"transformation {mm_source} -> {mm_target} matches several folders ({names});"
                " give --transformation",
                file=source,
                field="$.transformation",
            )
    described = name or (f"{mm_source} -> {mm_target}" if mm_source or mm_target else "nothing")
    raise InputFormatError(
        f"cannot tell which transformation this run belongs to (the file names {described});"
        " give --transformation",
        file=source,
        field="$.transformation",
    )


def import_file(
    path: Path,
    into: Path,
    *,
    transformation: str | None = None,
    provider: str | None = None,
    model: str | None = None,
    dry_run: bool = False,
    folders: Sequence[TransformationFolder] | None = None,
    reserved: set[Path] | None = None,
    variant: dict[str, Any] | None = None,
    variant_file: Path | None = None,
) -> ImportResult:
    """Validate one file and file it (see the module docstring). Errors come back in the result."""
    from benchmark.tracks.mapping.scoring.suggestions import SHAPE_EXPORT, UNKNOWN

    try:
        text = path.read_bytes().decode("utf-8")
        suggestions = _read(path, text)
        is_export = suggestions.shape == SHAPE_EXPORT
        chosen_provider = provider or (suggestions.provider if suggestions.provider != UNKNOWN else None)
        chosen_model = model or (suggestions.model if suggestions.model != UNKNOWN else None)
        missing = [
            flag for flag, value in (("--provider", chosen_provider), ("--model", chosen_model)) if not value
        ]
        if missing:
            what = "an LLM answer names" if not is_export else "the export names"
            raise InputFormatError(
                f"{what} no {' or '.join(m.removeprefix('--') for m in missing)};"
                f" give {' and '.join(missing)}",
                file=path,
                field="$.analysis",
            )
        if not is_export and transformation is None:
            raise InputFormatError(
                "an LLM answer names no transformation; give --transformation", file=path, field="$"
            )
        assert chosen_provider is not None and chosen_model is not None
        info = suggestions.transformation
        folder = _choose_folder(
            folders if folders is not None else _folders(into),
            source=path,
            forced=transformation,
            name=info.name if info else None,
            mm_source=info.source if info else None,
            mm_target=info.target if info else None,
        )
        if not is_export:
            text = _wrap_answer(text, path, folder.name, chosen_provider, chosen_model)
        elif (chosen_provider, chosen_model) != (suggestions.provider, suggestions.model):
            text = _rename_export(text, path, chosen_provider, chosen_model, model_given=model is not None)
        runs_dir = folder.path / RUNS_DIR
        if variant is not None:
            text, name = _with_variant(text, path, folder, variant, variant_file, suggestions.variant)
            runs_dir = runs_dir / name
        digest = sha256_text(text)
        for existing in sorted(runs_dir.glob("*.json")) if runs_dir.is_dir() else []:
            if sha256_file(existing) == digest:
                return ImportResult(path, ALREADY_PRESENT, existing, f"already imported as {existing}")
        used = existing_run_indices(runs_dir, chosen_provider, chosen_model)
        index = max(used, default=0) + 1
        destination = runs_dir / run_file_name(chosen_provider, chosen_model, index)
        while reserved is not None and destination in reserved:  # earlier files of a dry run
            index += 1
            destination = runs_dir / run_file_name(chosen_provider, chosen_model, index)
        if reserved is not None:
            reserved.add(destination)
        if not dry_run:
            write_text_atomic(destination, text)
        return ImportResult(path, IMPORTED, destination)
    except BenchmarkError as error:
        return ImportResult(path, FAILED, None, str(error), error)
    except (OSError, UnicodeDecodeError) as error:
        failure = InputFormatError(f"cannot read: {error}", file=path)
        return ImportResult(path, FAILED, None, str(failure), failure)


def _with_variant(
    text: str,
    path: Path,
    folder: TransformationFolder,
    block: dict[str, Any],
    block_file: Path | None,
    recorded: dict[str, Any] | None,
) -> tuple[str, str]:
    """(the file with the variant's block, the variant's name): the renaming must fit the folder's
    metamodels, and a file that records a variant must record this one."""
    from benchmark.tracks.mapping.ground_truth import load_ground_truth, resolve_metamodels
    from benchmark.tracks.mapping.scoring.suggestions import decode_document
    from benchmark.tracks.mapping.variants.names import ORIGINAL
    from benchmark.tracks.mapping.variants.renaming import read_recorded

    if recorded is not None and recorded != block:
        raise InputFormatError(
            f"the file records another variant ({recorded.get('name')!r}) than "
            f"{block_file or 'the one given'}",
            file=path,
            field="$.variant",
        )
    metamodels = resolve_metamodels(
        load_ground_truth(folder.atl_file), folder.metamodel_files, folder=folder.path
    )
    renaming = read_recorded(block, metamodels.source, metamodels.target, file=block_file)
    document, _answer = decode_document(text, source=path)
    document["variant"] = block
    return dumps_json(document), renaming.variant if renaming is not None else ORIGINAL


def read_variant_file(path: Path) -> dict[str, Any]:
    """A ``variant.json`` (``atlbench variant export``): the ``variant`` block of the variant's runs."""
    import json

    from benchmark.tracks.mapping.variants.renaming import Renaming

    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, ValueError) as error:
        raise InputFormatError(f"cannot read the variant file: {error}", file=path) from error
    Renaming.from_json(data, source=path, field_path="$")  # names the file and field when it is broken
    return data


def _read(path: Path, text: str) -> SuggestionSet:
    """The file as the scorer reads it; an answer object without jJodel header (``{"mappings": [...]}``,
    which the scorer reads as a broken export) is read as the answer it is."""
    from benchmark.tracks.mapping.scoring.suggestions import load_suggestions, parse_suggestions

    try:
        return load_suggestions(path)
    except InputFormatError:
        try:
            answer = decode_answer(text, source=path)
        except InputFormatError:
            answer = None
        if answer is None or not answer.in_object or "jjodel" in answer.object_keys:
            raise
        return parse_suggestions(answer.entries, source=path)


def _rename_export(text: str, path: Path, provider: str, model: str, *, model_given: bool) -> str:
    """The export with ``provider`` and ``model`` in place of its own, which ``imported`` keeps."""
    from benchmark.tracks.mapping.scoring.suggestions import decode_document

    document, _answer = decode_document(text, source=path)
    analysis = dict(document.get("analysis") or {})
    imported: dict[str, Any] = {
        "file": path.name,
        "sha256": sha256_text(text),
        "provider": analysis.get("provider"),
        "model": analysis.get("model"),
    }
    if "imported" in document:
        imported["previous"] = document["imported"]
    analysis.update(provider=provider, model=model)
    if model_given:
        analysis["modelLabel"] = model
    document["analysis"] = analysis
    document["mappings"] = [
        {**entry, "provider": provider} if isinstance(entry, dict) and "provider" in entry else entry
        for entry in document.get("mappings", [])
    ]
    document["imported"] = imported
    return dumps_json(document)


def _wrap_answer(text: str, path: Path, transformation: str, provider: str, model: str) -> str:
    from benchmark.tracks.mapping.jjodel import export_document

    answer = decode_answer(text, source=path)
    imported = {"file": path.name, "sha256": sha256_text(text), "shape": "llm-answer", **answer.to_json()}
    document = export_document(
        transformation=transformation,
        source="",
        target="",
        provider=provider,
        model=model,
        mappings=[answer_entry(entry) for entry in answer.entries],
        extra={"imported": imported},
    )
    document["transformation"] = {"name": transformation, "source": None, "target": None}
    return dumps_json(document)


def import_runs(
    files: Sequence[Path],
    into: Path,
    *,
    transformation: str | None = None,
    provider: str | None = None,
    model: str | None = None,
    dry_run: bool = False,
    variant_file: Path | None = None,
) -> list[ImportResult]:
    """Import every file (see the module docstring); ``variant_file`` files them as runs of the task
    variant it describes. A variant file that cannot be read raises before any file is imported."""
    folders = _folders(into)
    variant = read_variant_file(variant_file) if variant_file is not None else None
    if not folders:
        raise ConfigurationError("no transformation folder (one .atl file each) found", file=into)
    results = []
    reserved: set[Path] = set()
    for path in files:
        result = import_file(
            Path(path),
            into,
            transformation=transformation,
            provider=provider,
            model=model,
            dry_run=dry_run,
            folders=folders,
            reserved=reserved,
            variant=variant,
            variant_file=variant_file,
        )
        results.append(result)
    return results
