"""``atlbench variant export``: a task variant written out for a person, so that the probe can be run by
hand (in jJodel, in a chat window) and its answers filed back with ``atlbench import --variant-file``.

For every selected transformation and variant, ``OUT/<transformation>/<variant>/`` holds:

* the two metamodels as the variant shows them, as ``.ecore`` and ``.km3``
  (:mod:`benchmark.lang.ecore.write`), named after their (renamed) main package -- none for
  ``name-only``, whose prompt shows none;
* ``ground-truth.json``: the ground truth in the variant's names (an interchange document,
  ``docs/INTERCHANGE_FORMAT.md``), which ``atlbench diff`` scores an answer against;
* ``variant.json``: the renaming, exactly the ``variant`` block a run of the variant records;
* ``prompt.md``: the prompt ``atlbench generate --variant`` sends with the shipped template.

The renaming is drawn as ``generate`` and ``synth`` draw it (the same seed gives the same files).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path, PurePath

from benchmark.core.fileio import dumps_json, write_text_atomic
from benchmark.lang.ecore.view import MetamodelView
from benchmark.lang.ecore.write import ecore_text, km3_text
from benchmark.tracks.mapping.interchange import InterchangeDocument, dumps
from benchmark.tracks.mapping.variants.apply import rename_document
from benchmark.tracks.mapping.variants.names import DEFAULT_SEED, NAME_ONLY, ORIGINAL

GROUND_TRUTH = "ground-truth.json"
VARIANT_FILE = "variant.json"
PROMPT_FILE = "prompt.md"


@dataclass(frozen=True)
class Exported:
    """One transformation's variant written out: where, and the files."""

    transformation: str
    variant: str
    folder: Path
    files: tuple[Path, ...]


def _metamodel_files(source: MetamodelView, target: MetamodelView) -> dict[str, MetamodelView]:
    """File stem -> view: the package names, told apart when a transformation maps a metamodel to
    itself."""
    if source.name == target.name:
        return {f"{source.name}-source": source, f"{target.name}-target": target}
    return {source.name: source, target.name: target}


def _located(document: InterchangeDocument) -> InterchangeDocument:
    """The document with its ATL file named without its directory (where the tree lives is no part of
    the ground truth)."""
    info = document.transformation
    return replace(document, transformation=replace(info, file=PurePath(info.file).name))


def export_variants(
    root: str | Path,
    out: str | Path,
    variants: Sequence[str],
    *,
    selectors: Sequence[str] = (),
    seed: int = DEFAULT_SEED,
) -> list[Exported]:
    """Write every selected transformation's ``variants`` under ``out`` (module docstring)."""
    from benchmark.tracks.mapping.discovery import discover
    from benchmark.tracks.mapping.ground_truth import load_ground_truth
    from benchmark.tracks.mapping.llm_task import case_prompt, load_cases
    from benchmark.tracks.mapping.prompt import mapping_template

    out = Path(out)
    cases = load_cases(root, selectors, variants=tuple(variants), variant_seed=seed)
    template = mapping_template()
    folders = {f.name: f for f in discover(root).transformations}
    exported: list[Exported] = []
    for case in cases:
        document = load_ground_truth(folders[case.name].atl_file)
        target_dir = out / case.name / case.variant
        written: list[Path] = []
        if case.variant != NAME_ONLY and case.views is not None:
            for stem, view in _metamodel_files(*case.views).items():
                written.append(write_text_atomic(target_dir / f"{stem}.ecore", ecore_text(view)))
                written.append(write_text_atomic(target_dir / f"{stem}.km3", km3_text(view)))
        renamed = rename_document(document, case.renaming) if case.renaming is not None else document
        written.append(write_text_atomic(target_dir / GROUND_TRUTH, dumps(_located(renamed))))
        block = case.renaming.to_json() if case.renaming is not None else {"name": ORIGINAL}
        written.append(write_text_atomic(target_dir / VARIANT_FILE, dumps_json(block)))
        written.append(write_text_atomic(target_dir / PROMPT_FILE, case_prompt(case, template)))
        exported.append(Exported(case.name, case.variant, target_dir, tuple(written)))
    return exported


__all__ = ["GROUND_TRUTH", "PROMPT_FILE", "VARIANT_FILE", "Exported", "export_variants"]
