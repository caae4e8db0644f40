"""Synthetic suggestion runs: the ground truth with controlled, seeded noise.

They exist so that the bundled corpus can be benchmarked honestly without claiming to be LLM output
(their provider names say ``Synthetic-…``), so that the metrics can be sanity-checked against a known
truth (``Synthetic-Oracle`` must score recall 1, and precision 1 up to partial bindings), and so that
scaling benchmarks can multiply runs. ``docs/SYNTHETIC_RUNS.md`` documents every noise operation.

The generator is a pure function of (ground truth, metamodel views, profile, seed): the same inputs give
byte-identical files on every machine (``random.Random`` seeded with a string, sorted inputs, no clocks).

**Template-sensitive profile.** ``--template NAME`` writes the runs a profile "would" give under another
of the track's prompt templates (``docs/TEMPLATES.md``): every noise probability multiplied by the
profile's factor for that template (:data:`TEMPLATE_NOISE`), filed as ``<profile>-<template>-runNN.json``
with ``analysis.template`` set. The factors are made up, to give the prompt-sensitivity report something
to show (a spread, and a pair of profiles that swap under one template); nothing is measured here.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path, PurePath
from typing import Any

from benchmark.core.rows import STUDY_TEMPLATE
from benchmark.core.wording import plural
from benchmark.lang.ecore.view import MetamodelView
from benchmark.llm.naming import template_suffix
from benchmark.llm.templates import STEPWISE, TERSE
from benchmark.tracks.mapping.interchange import InterchangeDocument, dumps
from benchmark.tracks.mapping.jjodel import KIND_ATTRIBUTE, KIND_CLASS, MappingEntry, export_document
from benchmark.tracks.mapping.variants.apply import rename_document, renamed_views
from benchmark.tracks.mapping.variants.names import DEFAULT_SEED, ORIGINAL
from benchmark.tracks.mapping.variants.renaming import Renaming
from benchmark.tracks.mapping.variants.rules import draw_renaming

GENERATOR_VERSION = 1
LABELS = ("high", "medium", "low")


@dataclass(frozen=True)
class NoiseProfile:
    """Probabilities of each noise operation, applied independently per mapping.

    ``confidence_correct``/``confidence_noise`` are the label weights (high, medium, low) of faithful
    and of corrupted mappings: noise gets lower confidence more often, as a calibrated model would, so the
    confidence curves have something to show. ``unlabelled`` drops the label, ``spelling`` writes it as
    ``HIGH``/``med``/``Low`` (normalisation must cope), ``qualify`` writes class names as ``MM!C`` or
    ``pkg::C``.
    """

    name: str
    drop_class: float = 0.0
    drop_binding: float = 0.0
    swap_source: float = 0.0  # name another feature of the source class: a divergent binding
    wrong_target_class: float = 0.0  # pair the source class with another target class
    invent_class: float = 0.0  # a class mapping to a class that does not exist (hallucination)
    invent_binding: float = 0.0  # a feature mapping to a target feature that does not exist
    duplicate: float = 0.0
    qualify: float = 0.0
    unlabelled: float = 0.0
    spelling: float = 0.0
    confidence_correct: tuple[float, float, float] = (1.0, 0.0, 0.0)
    confidence_noise: tuple[float, float, float] = (0.2, 0.4, 0.4)
    description: str = ""
    #: a memoriser: the ground truth itself on the original task, this noise on every task variant
    #: (``docs/VARIANTS.md``); what a model that recalls the published transformation would do
    memorised: bool = False

    def noise_on(self, variant: str) -> NoiseProfile:
        """The noise this profile applies to ``variant`` (none on the original task, for a memoriser)."""
        if self.memorised and variant == ORIGINAL:
            return NoiseProfile(name=self.name, description=self.description, memorised=True)
        return self

    def to_json(self) -> dict[str, Any]:
        data = asdict(self)
        if not self.memorised:  # the files of the other profiles keep the shape they always had
            del data["memorised"]
        return data


#: the plausible but imperfect matcher, whose noise the memoriser applies off the original task
NOISY = NoiseProfile(
    name="Synthetic-Noisy",
    drop_class=0.1,
    drop_binding=0.2,
    swap_source=0.15,
    wrong_target_class=0.1,
    invent_class=0.05,
    invent_binding=0.1,
    duplicate=0.05,
    qualify=0.15,
    unlabelled=0.05,
    spelling=0.1,
    confidence_correct=(0.6, 0.3, 0.1),
    confidence_noise=(0.2, 0.4, 0.4),
    description="a plausible but imperfect matcher: drops, swaps, wrong pairs, a few "
    "hallucinations, qualified names and mixed confidence labels",
)

PROFILES: dict[str, NoiseProfile] = {
    profile.name: profile
    for profile in (
        NoiseProfile(
            name="Synthetic-Oracle",
            description="the ground truth itself: every class pair, one mapping per binding naming one "
            "of its source features; scores recall 1 and precision 1 up to partial bindings",
        ),
        NOISY,
        NoiseProfile(
            name="Synthetic-Sloppy",
            drop_class=0.3,
            drop_binding=0.45,
            swap_source=0.3,
            wrong_target_class=0.25,
            invent_class=0.15,
            invent_binding=0.25,
            duplicate=0.1,
            qualify=0.3,
            unlabelled=0.15,
            spelling=0.2,
            confidence_correct=(0.4, 0.4, 0.2),
            confidence_noise=(0.3, 0.4, 0.3),
            description="a weak matcher: heavy noise, confidence labels barely informative",
        ),
        replace(
            NOISY,
            name="Synthetic-Memoriser",
            memorised=True,
            description="a memoriser: the ground truth itself on the original task, Synthetic-Noisy's noise "
            "on every task variant (docs/VARIANTS.md)",
        ),
    )
}


#: Per template other than the study's: the factor on every noise probability of each profile (a profile
#: not listed keeps its noise). Synthetic: chosen so that Synthetic-Noisy suffers from the terse wording and
#: Synthetic-Sloppy gains so much from the stepwise one that it overtakes Synthetic-Noisy there.
TEMPLATE_NOISE: dict[str, dict[str, float]] = {
    TERSE: {"Synthetic-Noisy": 1.8, "Synthetic-Sloppy": 1.1},
    STEPWISE: {"Synthetic-Noisy": 1.5, "Synthetic-Sloppy": 0.3},
}
NOISE_FIELDS = (
    "drop_class",
    "drop_binding",
    "swap_source",
    "wrong_target_class",
    "invent_class",
    "invent_binding",
    "duplicate",
    "qualify",
    "unlabelled",
    "spelling",
)


def template_factor(noise: NoiseProfile, template: str) -> float:
    """How much more (or less) noise ``noise`` makes under ``template`` (1 under the study's)."""
    if template == STUDY_TEMPLATE:
        return 1.0
    from benchmark.core.errors import ConfigurationError

    if template not in TEMPLATE_NOISE:
        raise ConfigurationError(
            f"no synthetic profile for template {template!r}; known: {', '.join(TEMPLATE_NOISE)}",
            field="--template",
        )
    return TEMPLATE_NOISE[template].get(noise.name, 1.0)


def under_template(noise: NoiseProfile, template: str) -> NoiseProfile:
    """The profile as it behaves under ``template``: every noise probability times its factor (at most 1)."""
    factor = template_factor(noise, template)
    if factor == 1.0:
        return noise
    return replace(noise, **{name: min(1.0, getattr(noise, name) * factor) for name in NOISE_FIELDS})


def profile(name: str) -> NoiseProfile:
    from benchmark.core.errors import ConfigurationError

    try:
        return PROFILES[name]
    except KeyError:
        raise ConfigurationError(
            f"unknown synthetic profile {name!r}; known: {', '.join(PROFILES)}", field="--profile"
        ) from None


def run_seed(
    seed: int,
    profile_name: str,
    transformation: str,
    run: int,
    variant: str = ORIGINAL,
    template: str = STUDY_TEMPLATE,
) -> str:
    """The seed of one run, derived from the user's seed so runs, transformations, task variants and
    templates never share noise (the original task under the study's template keeps the seeds it always
    had)."""
    parts = [str(seed), profile_name]
    if template != STUDY_TEMPLATE:
        parts.append(template)
    parts.append(transformation)
    if variant != ORIGINAL:
        parts.append(variant)
    return ":".join([*parts, str(run)])


@dataclass
class _Writer:
    rng: random.Random
    profile: NoiseProfile
    source_package: str
    target_package: str
    entries: list[MappingEntry] = field(default_factory=list)
    operations: dict[str, int] = field(default_factory=dict)

    def chance(self, probability: float, operation: str) -> bool:
        hit = probability > 0 and self.rng.random() < probability
        if hit:
            self.operations[operation] = self.operations.get(operation, 0) + 1
        return hit

    def confidence(self, faithful: bool) -> str | None:
        if self.chance(self.profile.unlabelled, "unlabelled"):
            return None
        weights = self.profile.confidence_correct if faithful else self.profile.confidence_noise
        label = self.rng.choices(LABELS, weights=weights)[0]
        if self.chance(self.profile.spelling, "spelling"):
            return {"high": "HIGH", "medium": "med", "low": "Low"}[label]
        return label

    def name(self, class_name: str, package: str) -> str:
        if self.chance(self.profile.qualify, "qualify"):
            return f"{package}!{class_name}" if self.rng.random() < 0.5 else f"{package}::{class_name}"
        return class_name

    def add(self, entry: MappingEntry) -> None:
        self.entries.append(entry)
        if self.chance(self.profile.duplicate, "duplicate"):
            self.entries.append(entry)


def _features(view: MetamodelView | None, class_name: str) -> list[str]:
    if view is None:
        return []
    found = view.find_class(class_name)
    return sorted({f.name for f in found.all_features}) if found is not None else []


def _classes(view: MetamodelView | None) -> list[str]:
    return sorted({c.name for c in view.classes if not c.abstract}) if view is not None else []


def ground_truth_digest(document: InterchangeDocument) -> str:
    """SHA-256 of the ground truth a run was derived from. The ATL file is named without its directory:
    where the tree lives (``atlbench synth validation`` or ``atlbench synth $PWD/validation``) must not
    change the bytes written."""
    info = document.transformation
    located = replace(document, transformation=replace(info, file=PurePath(info.file).name))
    return hashlib.sha256(dumps(located).encode("utf-8")).hexdigest()


@dataclass(frozen=True)
class Task:
    """A task as its runs answer it: the ground truth and the metamodels in the variant's names (as they
    are for ``original``), the renaming, and the digest of that ground truth. Made once per task and
    variant (:func:`task`) and shared by all its runs: renaming a Zoo metamodel and hashing its ground
    truth cost more than writing a run."""

    document: InterchangeDocument
    source_view: MetamodelView | None
    target_view: MetamodelView | None
    renaming: Renaming | None
    digest: str


def task(
    document: InterchangeDocument,
    source_view: MetamodelView | None = None,
    target_view: MetamodelView | None = None,
    renaming: Renaming | None = None,
) -> Task:
    """The task of ``document`` under ``renaming`` (``None``: the original task)."""
    if renaming is not None:
        document = rename_document(document, renaming)
        source_view, target_view = renamed_views(renaming, source_view, target_view)
    return Task(document, source_view, target_view, renaming, ground_truth_digest(document))


def synthesize(
    document: InterchangeDocument,
    *,
    noise: NoiseProfile,
    seed: str,
    source_view: MetamodelView | None = None,
    target_view: MetamodelView | None = None,
    renaming: Renaming | None = None,
    template: str = STUDY_TEMPLATE,
) -> dict[str, Any]:
    """A jJodel export derived from ``document`` under ``noise`` (as it behaves under ``template``); a
    ``synthetic`` block records how. With a ``renaming`` (a task variant), the document and views are
    renamed first, the run answers in the variant's names, and its ``variant`` block records the
    renaming."""
    return synthesize_task(
        task(document, source_view, target_view, renaming), noise=noise, seed=seed, template=template
    )


def synthesize_task(
    prepared: Task, *, noise: NoiseProfile, seed: str, template: str = STUDY_TEMPLATE
) -> dict[str, Any]:
    """:func:`synthesize` on a task made already (:func:`task`): what :func:`write_synthetic_runs` calls
    for every run of a task and variant."""
    document, source_view, target_view = prepared.document, prepared.source_view, prepared.target_view
    renaming = prepared.renaming
    variant = renaming.variant if renaming is not None else ORIGINAL
    factor = template_factor(noise, template)
    recorded_profile = under_template(noise, template)
    noise = recorded_profile.noise_on(variant)
    rng = random.Random(seed)
    info = document.transformation
    source_name = source_view.name if source_view else (info.in_models[0].metamodel if info.in_models else "")
    target_name = (
        target_view.name if target_view else (info.out_models[0].metamodel if info.out_models else "")
    )
    writer = _Writer(rng, noise, source_name or "Source", target_name or "Target")
    target_classes = _classes(target_view) or sorted({m.target_class for m in document.class_matches})

    for match in sorted(document.class_matches, key=lambda m: m.key):
        source_class, target_class = match.source_class, match.target_class
        if writer.chance(noise.wrong_target_class, "wrong_target_class"):
            others = [c for c in target_classes if c != target_class]
            if others:
                wrong = rng.choice(others)
                writer.add(
                    MappingEntry(
                        KIND_CLASS,
                        writer.name(source_class, writer.source_package),
                        writer.name(wrong, writer.target_package),
                        confidence=writer.confidence(False),
                    )
                )
        if not writer.chance(noise.drop_class, "drop_class"):
            writer.add(
                MappingEntry(
                    KIND_CLASS,
                    writer.name(source_class, writer.source_package),
                    writer.name(target_class, writer.target_package),
                    confidence=writer.confidence(True),
                )
            )
        source_features = _features(source_view, source_class)
        for binding in sorted(match.feature_matches, key=lambda f: f.target_feature):
            if writer.chance(noise.drop_binding, "drop_binding"):
                continue
            faithful = True
            chosen = rng.choice(sorted(binding.source_features)) if binding.source_features else None
            if writer.chance(noise.swap_source, "swap_source"):
                candidates = [f for f in source_features if f not in binding.source_features]
                if candidates:
                    chosen, faithful = rng.choice(candidates), False
            writer.add(
                MappingEntry(
                    KIND_ATTRIBUTE,
                    writer.name(source_class, writer.source_package),
                    writer.name(target_class, writer.target_package),
                    chosen,
                    binding.target_feature,
                    confidence=writer.confidence(faithful),
                )
            )
        if writer.chance(noise.invent_binding, "invent_binding"):
            invented = f"{rng.choice(['related', 'parent', 'owner', 'display', 'total'])}{target_class}Ref"
            writer.add(
                MappingEntry(
                    KIND_ATTRIBUTE,
                    source_class,
                    target_class,
                    rng.choice(source_features) if source_features else None,
                    invented,
                    confidence=writer.confidence(False),
                )
            )
        if writer.chance(noise.invent_class, "invent_class"):
            writer.add(
                MappingEntry(
                    KIND_CLASS,
                    source_class,
                    f"{target_class}{rng.choice(['Descriptor', 'Entry', 'Model', 'Item'])}",
                    confidence=writer.confidence(False),
                )
            )

    synthetic: dict[str, Any] = {
        "generator": "atlbench synth",
        "version": GENERATOR_VERSION,
        "seed": seed,
        "profile": recorded_profile.to_json(),
    }
    if template != STUDY_TEMPLATE:
        synthetic["template"] = {
            "name": template,
            "noiseFactor": factor,
            "note": "a made-up template effect (every noise probability times noiseFactor); no prompt "
            "was sent",
        }
    synthetic |= {
        "operations": dict(sorted(writer.operations.items())),
        "groundTruthSha256": prepared.digest,
        "note": "synthetic run derived from the ground truth; not produced by a language model",
    }
    label = noise.name if template == STUDY_TEMPLATE else f"{noise.name}, template {template}"
    extra: dict[str, Any] = {"synthetic": synthetic}
    if renaming is not None:
        extra["variant"] = renaming.to_json()
    return export_document(
        transformation=info.name,
        source=writer.source_package,
        target=writer.target_package,
        provider=noise.name,
        model=f"atlbench-synth-v{GENERATOR_VERSION}",
        model_label=f"synthetic ({label}), seed {seed}",
        mappings=writer.entries,
        extra=extra,
        template=template,
    )


@dataclass
class SynthReport:
    """What :func:`write_synthetic_runs` did, file by file."""

    transformations: int = 0
    written: list[Path] = field(default_factory=list)
    unchanged: list[Path] = field(default_factory=list)
    refused: list[Path] = field(default_factory=list)  # existed with other content; left alone
    notes: list[str] = field(default_factory=list)


def write_synthetic_runs(
    root: str | Path,
    *,
    profiles: Sequence[NoiseProfile],
    runs: int,
    first_run: int = 1,
    seed: int = 0,
    out_dir: str = "runs",
    force: bool = False,
    progress: Callable[[str], None] | None = None,
    variants: Sequence[str] = (ORIGINAL,),
    variant_seed: int = DEFAULT_SEED,
    template: str = STUDY_TEMPLATE,
) -> SynthReport:
    """Write ``<folder>/<out_dir>/<profile>-runNN.json`` for every transformation folder under ``root``
    (``<profile>-<template>-runNN.json`` for a template other than the study's), and
    ``<folder>/<out_dir>/<variant>/...`` for every task variant other than ``original`` (its renaming
    drawn with ``variant_seed``, ``docs/VARIANTS.md``).

    An existing file with the same content is left as it is; one with other content is only replaced
    with ``force`` (a hand-edited run is never lost silently).
    """
    from benchmark.tracks.mapping.discovery import discover
    from benchmark.tracks.mapping.ground_truth import load_ground_truth, resolve_metamodels

    report = SynthReport()
    discovery = discover(root)
    report.transformations = len(discovery.transformations)
    for folder in discovery.transformations:
        document = load_ground_truth(folder.atl_file)
        metamodels = resolve_metamodels(document, folder.metamodel_files, folder=folder.path)
        report.notes += [
            f"{folder.path}: {note} (names are not checked against it)" for note in metamodels.notes
        ]
        for variant in variants:
            renaming = None
            if variant != ORIGINAL:
                if metamodels.source is None or metamodels.target is None:
                    report.notes.append(f"{folder.path}: no {variant} runs without both metamodels")
                    continue
                renaming = draw_renaming(variant, metamodels.source, metamodels.target, variant_seed)
            prepared = task(document, metamodels.source, metamodels.target, renaming)
            for noise, number in ((n, i) for n in profiles for i in range(first_run, first_run + runs)):
                _write_run(
                    report,
                    folder.path / out_dir if variant == ORIGINAL else folder.path / out_dir / variant,
                    synthesize_task(
                        prepared,
                        noise=noise,
                        seed=run_seed(seed, noise.name, folder.name, number, variant, template),
                        template=template,
                    ),
                    f"{noise.name}{template_suffix(template)}-run{number:02d}.json",
                    force,
                    progress,
                )
    return report


def _write_run(
    report: SynthReport,
    runs_dir: Path,
    export: dict[str, Any],
    name: str,
    force: bool,
    progress: Callable[[str], None] | None,
) -> None:
    """Write one run file unless it holds these bytes already or (without ``force``) other ones."""
    from benchmark.core.fileio import dumps_json, write_text_atomic

    path = runs_dir / name
    text = dumps_json(export)
    if path.exists() and path.read_text(encoding="utf-8") == text:
        report.unchanged.append(path)
        return
    if path.exists() and not force:
        report.refused.append(path)
        return
    write_text_atomic(path, text)
    report.written.append(path)
    if progress is not None:
        progress(f"wrote {path} ({plural(len(export['mappings']), 'mapping')})")
