"""The mapping track's cases: one ground-truth case per transformation folder of the validation tree
(:mod:`.discovery`), one run case per suggestion file and per baseline run live.

Case ids read ``<transformation>-<provider>-<run file stem>`` (the provider added unless the file name
says it) and ``<transformation>-<baseline>``, so that ``-k Claude`` selects a provider's runs whatever its
files are called, and ``-k Grafcet`` a transformation's. A run of a task variant other than ``original``
(``docs/VARIANTS.md``) has the variant right after the transformation
(``book2publication-synonym-Synthetic-Noisy-run01``), so ``-k synonym`` selects a variant; the baselines
run on the original task and on every variant with metamodels that a run file of the transformation
answers (``book2publication-synonym-EMFCompare``). A run asked with a prompt template other than the
study's (``analysis.template``) has the template's name in its case id (its file name says it:
``Claude-gpt-4o-terse-run01``; added after the provider otherwise), so ``-k terse`` selects it; so
does a run asked in an answer format other than free (``analysis.answerFormat``: ``-k grounded``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path

from benchmark.core.fileio import sha256_file
from benchmark.core.rows import FREE_FORMAT, STUDY_TEMPLATE
from benchmark.core.track import Collection, GroundTruthCase, RunCase, SkippedInput
from benchmark.tracks.mapping.discovery import Discovery
from benchmark.tracks.mapping.scoring.suggestions import UNKNOWN, peek_run
from benchmark.tracks.mapping.variants.names import ORIGINAL, VARIANTS, WITH_METAMODELS, baseline_run


def run_case_id(
    transformation: str,
    provider: str,
    stem: str,
    variant: str = ORIGINAL,
    template: str = STUDY_TEMPLATE,
    answer_format: str = FREE_FORMAT,
) -> str:
    """``Grafcet2Petrinet-Claude-run03``: the provider is added unless the file name already says it (or
    the file does not say who made it), so that ``-k Claude`` selects a provider's runs whatever their
    files are called; likewise a template other than the study's, right after the provider; a variant's
    segment follows the transformation (``Grafcet2Petrinet-synonym-...``); an answer format other than
    free follows the template."""
    known = provider != UNKNOWN and provider.lower() not in stem.lower()
    words = stem.lower().split("-")
    label = stem
    for segment, default in ((answer_format, FREE_FORMAT), (template, STUDY_TEMPLATE)):
        if segment != default and segment not in words:
            label = f"{segment}-{label}"
    label = f"{provider}-{label}" if known else label
    task = transformation if variant == ORIGINAL else f"{transformation}-{variant}"
    return f"{task}-{label}"


def collect(discovery: Discovery, baselines: Sequence[str], track: str = "atl") -> Collection:
    """Every case of a validation tree: a ground-truth case per transformation, a run case per run file
    and per selected baseline, sorted by id (identical on every xdist worker)."""
    ground_truths: list[GroundTruthCase] = []
    runs: list[RunCase] = []
    for folder in discovery.transformations:
        ground_truths.append(GroundTruthCase(track, folder.name, folder.atl_file))
        folder_runs = []
        variants = {ORIGINAL}
        for path in folder.suggestion_files:
            provider, model, variant, template, answer_format = peek_run(path)
            variants.add(variant)
            run = folder.run_id(path)
            case_id = run_case_id(folder.name, provider, path.stem, variant, template, answer_format)
            folder_runs.append(
                RunCase(
                    track,
                    folder.name,
                    provider,
                    run,
                    case_id,
                    file=path,
                    model=model,
                    template=template,
                    answer_format=answer_format,
                )
            )
        ids = [case.case_id for case in folder_runs]
        for index, case in enumerate(folder_runs):
            if ids.count(case.case_id) > 1:  # same file name in two sub-folders: use the relative path
                unique = run_case_id(
                    folder.name,
                    case.provider,
                    case.run.replace("/", "-"),
                    template=case.template,
                    answer_format=case.answer_format,
                )
                folder_runs[index] = replace(case, case_id=unique)
        runs.extend(folder_runs)
        for variant in (v for v in VARIANTS if v in variants and v in WITH_METAMODELS):
            task = folder.name if variant == ORIGINAL else f"{folder.name}-{variant}"
            for baseline in baselines:
                runs.append(
                    RunCase(
                        track,
                        folder.name,
                        provider=baseline,
                        run=baseline_run(baseline, variant),
                        case_id=f"{task}-{baseline}",
                        baseline=baseline,
                    )
                )
    skipped = [SkippedInput(s.path, s.reason) for s in discovery.skipped_folders]
    skipped += [SkippedInput(s.path, s.reason) for s in discovery.ignored_files]
    return Collection(
        tuple(sorted(ground_truths, key=lambda c: c.case_id)),
        tuple(sorted(runs, key=lambda c: c.case_id)),
        tuple(skipped),
    )


def input_files(discovery: Discovery) -> dict[str, str]:
    """Every input file of the tree (ATL, metamodels, runs), relative to its root, with its SHA-256."""
    root = discovery.root
    files: list[Path] = []
    for folder in discovery.transformations:
        files += [folder.atl_file, *folder.metamodel_files, *folder.suggestion_files]
    return {path.relative_to(root).as_posix(): sha256_file(path) for path in sorted(set(files))}
