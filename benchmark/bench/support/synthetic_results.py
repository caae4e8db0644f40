"""A synthetic session built through the real comparator, for trying the reports and measuring their speed.

Ground truths and suggestion sets are generated from a seed (no corpus needed), then scored with
:func:`benchmark.tracks.mapping.scoring.compare.compare` and turned into rows with ``Comparison.to_row``, so
the rows have exactly the shape the pytest suite records (per-item verdicts, confidence slices, ...).
Providers differ in skill; runs of one provider differ by sampling noise; the ``EMFCompare`` provider plays
the deterministic baseline (one run, no confidence labels).
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from benchmark.core.results import ResultsHeader
from benchmark.core.rows import STUDY_TEMPLATE
from benchmark.tracks.mapping.interchange import (
    ClassMatch,
    FeatureMatch,
    InterchangeDocument,
    TransformationInfo,
)
from benchmark.tracks.mapping.jjodel import KIND_ATTRIBUTE, KIND_CLASS
from benchmark.tracks.mapping.payload import RunRow, TransformationFacts
from benchmark.tracks.mapping.reports.results import MappingResults
from benchmark.tracks.mapping.scoring.compare import compare, error_row
from benchmark.tracks.mapping.scoring.suggestions import SHAPE_EXPORT, Suggestion, SuggestionSet
from benchmark.tracks.mapping.stats.baseline import BASELINE_PROVIDER

DEFAULT_PROVIDERS = ("Claude", "GPT", "Gemini", "Llama", "Mistral")


def _ground_truth(name: str, rng: random.Random) -> tuple[InterchangeDocument, TransformationFacts]:
    matches = []
    bindings = partial = target_only = 0
    for c in range(rng.randint(3, 6)):
        features = []
        for f in range(rng.randint(2, 6)):
            roll = rng.random()
            if roll < 0.15:  # target-only: a constant
                paths: tuple[str, ...] = ()
                target_only += 1
            elif roll < 0.35:  # mediated by a helper reading two features
                paths = (f"a{c}_{f}", f"b{c}_{f}")
                partial += 1
            else:
                paths = (f"a{c}_{f}",)
            features.append(
                FeatureMatch(
                    target_feature=f"t{c}_{f}",
                    source_paths=paths,
                    source_features=tuple(sorted({p.split(".", 1)[0] for p in paths})),
                )
            )
            bindings += 1
        matches.append(ClassMatch(f"S{c}", f"T{c}", feature_matches=tuple(features)))
    info = TransformationInfo(name=name, file=f"{name}/{name}.atl")
    facts = TransformationFacts(
        name=name,
        file=info.file,
        matched_rules=len(matches),
        helpers=partial,
        class_pairs=len(matches),
        bindings=bindings,
        partial_bindings=partial,
        target_only_bindings=target_only,
        source_metamodel=f"{name}_In",
        target_metamodel=f"{name}_Out",
    )
    return InterchangeDocument(info, tuple(matches)), facts


def _label(correct: bool, rng: random.Random, labelled: bool) -> str:
    if not labelled:
        return "unknown"
    weights = (0.6, 0.3, 0.08, 0.02) if correct else (0.2, 0.35, 0.35, 0.1)
    return rng.choices(("high", "medium", "low", "unknown"), weights)[0]


def _suggest(
    truth: InterchangeDocument, skill: float, rng: random.Random, *, labelled: bool, noise: float
) -> list[Suggestion]:
    out: list[Suggestion] = []

    def add(kind: str, sc: str, tc: str, sf: str | None, tf: str | None, correct: bool) -> None:
        out.append(
            Suggestion(kind, sc, tc, sf, tf, _label(correct, rng, labelled), f"$.mappings[{len(out)}]")
        )

    for match in truth.class_matches:
        if rng.random() < skill:
            add(KIND_CLASS, match.source_class, match.target_class, None, None, True)
        for feature in match.feature_matches:
            if rng.random() >= skill:
                continue
            if feature.source_features and rng.random() < 0.85:
                add(
                    KIND_ATTRIBUTE,
                    match.source_class,
                    match.target_class,
                    feature.source_features[0],
                    feature.target_feature,
                    True,
                )
            else:
                add(
                    KIND_ATTRIBUTE,
                    match.source_class,
                    match.target_class,
                    "wrong",
                    feature.target_feature,
                    False,
                )
    for extra in range(rng.randint(0, max(0, round(noise * 6)))):
        add(KIND_ATTRIBUTE, "S0", "T0", f"x{extra}", f"made_up{extra}", False)
    if rng.random() < noise:
        add(KIND_CLASS, "S0", "T1", None, None, False)
    return out


def _run(
    truth: InterchangeDocument, provider: str, skill: float, run: int, rng: random.Random, template: str
) -> RunRow:
    """One scored run of ``provider``, its file named and its row built as ``generate`` and the harness do."""
    mappings = _suggest(truth, skill, rng, labelled=True, noise=0.5)
    stem = provider if template == STUDY_TEMPLATE else f"{provider}-{template}"
    name = truth.transformation.name
    suggestions = SuggestionSet(
        f"{name}/runs/{stem}-run{run + 1:02d}.json",
        SHAPE_EXPORT,
        provider,
        f"{provider.lower()}-model",
        provider,
        tuple(mappings),
    )
    row = compare(truth, suggestions).to_row(run=f"run{run + 1:02d}")
    return row if template == STUDY_TEMPLATE else row.replaced(template=template)


def synthetic_results(
    *,
    transformations: int = 8,
    providers: Sequence[str] = DEFAULT_PROVIDERS,
    runs: int = 5,
    seed: int = 0,
    baseline: bool = True,
    error_runs: int = 0,
    names: Sequence[str] = (),
    templates: Sequence[str] = (STUDY_TEMPLATE,),
    variants: Sequence[str] = (),
) -> MappingResults:
    """A session of ``transformations`` x (``providers`` x ``templates`` x ``runs``, the same again per
    task variant in ``variants``, + one baseline run) rows; the first ``error_runs`` runs of the first
    provider become error rows. ``names`` names the transformations (default ``T01_Model12Model``...;
    given, there are as many transformations as names). A prompt template other than the study's, and a
    variant, costs a provider some skill, so that their tables show differences."""
    rng = random.Random(seed)
    rows: list[RunRow] = []
    facts = []
    names = list(names) or [f"T{i + 1:02d}_Model{i + 1}2Model" for i in range(transformations)]
    skills = {p: 0.45 + 0.45 * (len(providers) - i) / max(1, len(providers)) for i, p in enumerate(providers)}
    for name in names:
        truth, fact = _ground_truth(name, rng)
        facts.append(fact)
        for provider in providers:
            for number, template in enumerate(templates):
                for run in range(runs):
                    rows.append(_run(truth, provider, skills[provider] - 0.05 * number, run, rng, template))
        for number, variant in enumerate(variants, 1):
            for provider in providers:
                for run in range(runs):
                    row = _run(truth, provider, skills[provider] - 0.08 * number, run, rng, STUDY_TEMPLATE)
                    file = f"{name}/runs/{variant}/{provider}-{row.run}.json"
                    rows.append(row.replaced(variant=variant, run=f"{variant}/{row.run}", file=file))
        if baseline:
            mappings = _suggest(truth, 0.5, random.Random(f"{seed}-{name}"), labelled=False, noise=0.2)
            suggestions = SuggestionSet(
                f"{name}/baseline.json",
                SHAPE_EXPORT,
                BASELINE_PROVIDER,
                "emf-compare",
                "EMF Compare",
                tuple(mappings),
            )
            rows.append(compare(truth, suggestions).to_row(run="baseline"))
    for index in range(error_runs):
        victim = next(r for r in rows if r.provider == providers[0] and r.ok)
        rows.remove(victim)
        rows.append(
            error_row(
                f"{victim.file}: $.mappings[{index}]: not valid JSON",
                provider=victim.provider,
                model=victim.model,
                transformation=victim.transformation,
                run=victim.run,
                file=victim.file,
            )
        )
    header = ResultsHeader(
        created="2024-05-17T12:00:00+00:00",
        versions={"atl-binding-bench": "synthetic"},
        options={"seed": seed, "synthetic": True},
        validation_root="synthetic",
    )
    return MappingResults(header, tuple(facts), tuple(rows))


__all__ = ["DEFAULT_PROVIDERS", "synthetic_results"]
