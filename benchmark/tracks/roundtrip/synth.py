"""Synthetic round-trip runs: the expected models with controlled, seeded noise, chained like real runs.

**Not produced by a language model**, and labelled so: the provider is ``Synthetic-<profile>``, the model
``atlbench-roundtrip-synth-v1``, and every run file's ``generation`` block names the generator, the
profile, the seed and the noise operations that fired. They let a fresh clone run the whole track on the
bundled 10 pairs x 10 operators, exercise every column of the sheet (unloadable, unusable and not-run
stages, harmless and harmful additions, missed deltas, flags), and feed the speed benchmark.

For one (pair, operator, k, run) of a profile:

1. **inverse**: S' is Δ(S), or the base S when the delta is ignored (``ignore_delta``); then, each with
   its probability, one attribute is dropped, retyped or its lower bound flipped, a derived attribute
   (harmless) or a persistent one (harmful) is added; the answer is the canonical ``.ecore`` text,
   wrapped in prose and a fence (``prose``) with a flag comment naming the delta target (``flag``), or
   cut off (``truncate``), or no model at all (``refuse``: the forward stage is then not run);
2. **forward**: T' is the forward mapping of that S' (so the inverse stage's mistakes propagate, as in a
   real chain; when S' cannot be mapped, Δ(T)), then a column is dropped, retyped (``VARCHAR(255)`` ->
   ``TEXT``) or its nullability flipped, a column added; the answer is bare SQL-XMI, or in prose, or cut
   off.

Noise weakens with more example pairs: every probability is multiplied by ``1 / (1 + k_gain (k - 1))``.
The runs are a pure function of the bundled files, the profile and the seed string
``"<seed>:<profile>:<pair>:<operator>:<k>:<run>"`` (``random.Random``, sorted inputs, no clock), so
``atlbench roundtrip synth --check`` can verify the bundled ones byte for byte.

**Template-sensitive profile.** ``--template NAME`` writes the runs a profile "would" give under another of
the track's prompt templates (``docs/TEMPLATES.md``): every noise probability but ``prose`` and ``flag``
times the profile's factor for that template (:data:`TEMPLATE_NOISE`), the seed string
``"<seed>:<profile>:<template>:<pair>:<operator>:<k>:<run>"``, files named
``<provider>-<model>-<template>-k<k>-run<NN>-<stage>.json`` with ``template`` set; ``-k`` restricts them to
some cases. The factors are made up, to give the prompt-sensitivity report something to show; no prompt
was sent.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, replace
from pathlib import Path
from typing import Any

from benchmark.core.fileio import dumps_json, write_text_atomic
from benchmark.core.rows import STUDY_TEMPLATE
from benchmark.llm.templates import STEPWISE, TERSE
from benchmark.tracks.roundtrip.models.ecore_io import read_ecore, write_ecore
from benchmark.tracks.roundtrip.models.ecoremodel import EcoreAttribute, EcoreClass, EcorePackage
from benchmark.tracks.roundtrip.models.forward import ForwardMappingError, forward
from benchmark.tracks.roundtrip.models.sql_io import read_sql, write_sql
from benchmark.tracks.roundtrip.models.sqlmodel import SqlColumn, SqlSchema
from benchmark.tracks.roundtrip.names import BUNDLED_EXAMPLES, FORWARD, INVERSE
from benchmark.tracks.roundtrip.prompt import EXAMPLE_RULE, example_pairs
from benchmark.tracks.roundtrip.reading.runfile import (
    STATUS_NOT_RUN,
    StageRun,
    answer_status,
    generator_of,
    run_path,
)
from benchmark.tracks.roundtrip.study.cases import RoundTripCase, Study

GENERATOR = "atlbench roundtrip synth"
GENERATOR_VERSION = 1
SYNTH_MODEL = "atlbench-roundtrip-synth-v1"


@dataclass(frozen=True)
class RoundTripNoise:
    """Probabilities of each noise operation (module docstring), at k = 1."""

    name: str
    ignore_delta: float = 0.0
    drop_attribute: float = 0.0
    retype_attribute: float = 0.0
    flip_lower: float = 0.0
    add_derived: float = 0.0
    add_attribute: float = 0.0
    drop_column: float = 0.0
    retype_column: float = 0.0
    flip_nullable: float = 0.0
    add_column: float = 0.0
    truncate: float = 0.0
    refuse: float = 0.0
    prose: float = 0.0
    flag: float = 0.0
    k_gain: float = 0.0
    description: str = ""

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


PROFILES: dict[str, RoundTripNoise] = {
    profile.name: profile
    for profile in (
        RoundTripNoise(
            name="Synthetic-Careful",
            ignore_delta=0.05,
            drop_attribute=0.05,
            retype_attribute=0.05,
            flip_lower=0.05,
            add_derived=0.1,
            add_attribute=0.03,
            drop_column=0.05,
            retype_column=0.1,
            flip_nullable=0.05,
            add_column=0.03,
            truncate=0.02,
            refuse=0.01,
            prose=0.5,
            flag=0.6,
            k_gain=0.25,
            description="mostly right: few ignored deltas, small slips, a rare refusal",
        ),
        RoundTripNoise(
            name="Synthetic-Sloppy",
            ignore_delta=0.35,
            drop_attribute=0.25,
            retype_attribute=0.2,
            flip_lower=0.2,
            add_derived=0.2,
            add_attribute=0.15,
            drop_column=0.25,
            retype_column=0.3,
            flip_nullable=0.2,
            add_column=0.15,
            truncate=0.1,
            refuse=0.05,
            prose=0.8,
            flag=0.3,
            k_gain=0.15,
            description="often ignores the delta, slips often, sometimes cut off or refuses",
        ),
        RoundTripNoise(name="Synthetic-Oracle", description="the expected models themselves, bare"),
        RoundTripNoise(
            name="Synthetic-Echo", ignore_delta=1.0, description="the unchanged base models: did nothing"
        ),
    )
}
BUNDLED_PROFILES = ("Synthetic-Careful", "Synthetic-Sloppy")
#: Per template other than the study's: the factor on each profile's noise (a profile not listed keeps
#: its noise). Made up: Synthetic-Careful slips more with the terse wording, and Synthetic-Sloppy gains so
#: much from the stepwise one that it overtakes Synthetic-Careful there.
TEMPLATE_NOISE: dict[str, dict[str, float]] = {
    TERSE: {"Synthetic-Careful": 3.0, "Synthetic-Sloppy": 1.2},
    STEPWISE: {"Synthetic-Careful": 2.0, "Synthetic-Sloppy": 0.15},
}
_UNSCALED = ("name", "prose", "flag", "k_gain", "description")


def under_template(profile: RoundTripNoise, template: str) -> RoundTripNoise:
    """The profile as it behaves under ``template`` (module docstring)."""
    if template == STUDY_TEMPLATE:
        return profile
    if template not in TEMPLATE_NOISE:
        from benchmark.core.errors import ConfigurationError

        raise ConfigurationError(
            f"no synthetic profile for template {template!r}; known: {', '.join(TEMPLATE_NOISE)}",
            field="--template",
        )
    factor = TEMPLATE_NOISE[template].get(profile.name, 1.0)
    scaled = {
        name: min(1.0, value * factor) for name, value in asdict(profile).items() if name not in _UNSCALED
    }
    return replace(profile, **scaled)


_RETYPE = {"EInt": "ELong", "ELong": "EInt", "EString": "EDate", "EDate": "EString", "EBoolean": "EInt"}


class _Noise:
    """One stage's random choices, and the names of the operations that fired."""

    def __init__(self, profile: RoundTripNoise, rng: random.Random, k: int) -> None:
        self.profile, self.rng = profile, rng
        self.scale = 1.0 / (1.0 + profile.k_gain * (k - 1))
        self.fired: list[str] = []

    def __call__(self, name: str) -> bool:
        probability = getattr(self.profile, name)
        if name not in ("prose", "flag"):
            probability *= self.scale
        hit = self.rng.random() < probability
        if hit:
            self.fired.append(name)
        return hit


def _noisy_package(package: EcorePackage, noise: _Noise) -> EcorePackage:
    attributes = sorted(
        (c.name, f.name) for c in package.classes for f in c.features if isinstance(f, EcoreAttribute)
    )
    if attributes and noise("drop_attribute"):
        owner, name = noise.rng.choice(attributes)
        package = package.replace_classifier(owner, package.eclass(owner).replace_feature(name, None))
        attributes.remove((owner, name))
    for operation in ("retype_attribute", "flip_lower"):
        if attributes and noise(operation):
            owner, name = noise.rng.choice(attributes)
            feature = package.eclass(owner).feature(name)
            assert isinstance(feature, EcoreAttribute)
            if operation == "retype_attribute":
                feature = replace(feature, type=_RETYPE.get(feature.type, "EString"))
            else:
                feature = replace(feature, lower=1 - min(feature.lower, 1))
            package = package.replace_classifier(owner, package.eclass(owner).replace_feature(name, feature))
    for operation, attribute in (
        ("add_derived", EcoreAttribute("summary", "EString", derived=True, transient=True, volatile=True)),
        ("add_attribute", EcoreAttribute("notes", "EString")),
    ):
        if package.classes and noise(operation):
            owner: EcoreClass = noise.rng.choice(sorted(package.classes, key=lambda c: c.name))
            if owner.feature(attribute.name) is None:
                package = package.replace_classifier(
                    owner.name, replace(owner, features=(*owner.features, attribute))
                )
    return package


def _noisy_schema(schema: SqlSchema, noise: _Noise) -> SqlSchema:
    def plain_columns() -> list[tuple[str, str]]:
        found = []
        for table in schema.tables:
            keyed = set(table.primary_key.columns if table.primary_key else ())
            keyed |= {c for fk in table.foreign_keys for c in fk.columns}
            found += [(table.name, c.name) for c in table.columns if c.name not in keyed]
        return sorted(found)

    columns = plain_columns()
    if columns and noise("drop_column"):
        table, name = noise.rng.choice(columns)
        schema = schema.replace_table(table, schema.require_table(table).without_column(name))
        columns.remove((table, name))
    for operation in ("retype_column", "flip_nullable"):
        if columns and noise(operation):
            table_name, name = noise.rng.choice(columns)
            table = schema.require_table(table_name)
            column = table.require_column(name)
            if operation == "retype_column":
                column = replace(column, type="TEXT" if column.type.startswith("VARCHAR") else "BIGINT")
            else:
                column = replace(column, nullable=not column.nullable)
            schema = schema.replace_table(table_name, table.replace_column(name, column))
    if schema.tables and noise("add_column"):
        table = noise.rng.choice(sorted(schema.tables, key=lambda t: t.name))
        if table.column("notes") is None:
            added = replace(table, columns=(*table.columns, SqlColumn("notes", "VARCHAR(255)")))
            schema = schema.replace_table(table.name, added)
    return schema


def _answer(model: str, stage: str, case: RoundTripCase, noise: _Noise) -> str:
    if noise("refuse"):
        return "I am not able to produce this model from the examples given."
    if stage == INVERSE and noise("flag"):
        target = "/".join(case.target) or case.operator
        model = model.replace(
            "\n  <eClassifiers", f"\n  <!-- {case.operator}: {target} -->\n  <eClassifiers", 1
        )
    if noise("truncate"):
        model = model[: int(len(model) * 0.7)]
    if noise("prose"):
        what = "S′" if stage == INVERSE else "T′"
        return f"Here is {what}, following the example mapping:\n\n```xml\n{model.rstrip()}\n```\n"
    return model


def _document(
    case: RoundTripCase,
    stage: str,
    profile: RoundTripNoise,
    k: int,
    run: int,
    seed: int,
    seed_text: str,
    examples: tuple[str, ...],
    noise: _Noise | None,
    answer: str | None,
    status: Any,
    not_run: str,
    template: str = STUDY_TEMPLATE,
) -> StageRun:
    """One synthetic run file; ``status`` None means the forward stage was not run."""
    synthetic: dict[str, Any] = {"profile": profile.name, "seed": seed_text}
    if template != STUDY_TEMPLATE:
        synthetic["template"] = {
            "name": template,
            "noiseFactor": TEMPLATE_NOISE[template].get(profile.name, 1.0),
            "note": "a made-up template effect on the profile's noise; no prompt was sent",
        }
    synthetic["fired"] = noise.fired if noise is not None else []
    generation = {"generator": GENERATOR, "version": GENERATOR_VERSION, "synthetic": synthetic}
    extra: dict[str, Any] = {"examples": {"rule": EXAMPLE_RULE, "seed": seed}, "generation": generation}
    if status is not None:
        extra["extraction"] = status.extraction
    return StageRun(
        pair=case.domain,
        operator=case.operator,
        k=k,
        run=run,
        stage=stage,
        provider=profile.name,
        model=SYNTH_MODEL,
        status=status.status if status is not None else STATUS_NOT_RUN,
        answer=answer,
        reason=status.reason if status is not None else not_run,
        examples=examples,
        extra=extra,
        template=template,
    )


@dataclass(frozen=True)
class SynthReport:
    written: tuple[Path, ...]
    unchanged: tuple[Path, ...]
    refused: tuple[Path, ...]  # files not written by the generator: left alone


def _seed_text(
    seed: int, profile: str, case: RoundTripCase, k: int, run: int, template: str = STUDY_TEMPLATE
) -> str:
    who = profile if template == STUDY_TEMPLATE else f"{profile}:{template}"
    return f"{seed}:{who}:{case.domain}:{case.operator}:{k}:{run}"


def synthetic_runs(
    study: Study,
    profile: RoundTripNoise,
    k: int,
    run: int,
    seed: int = 0,
    template: str = STUDY_TEMPLATE,
) -> list[tuple[Path, StageRun]]:
    """The two run files of every case of the study for one (profile, k, run) under ``template``."""
    names = [pair.name for pair in study.pairs]
    return [
        entry
        for case in study.cases
        for entry in _case_runs(study, case, names, profile, k, run, seed, template)
    ]


def _case_runs(
    study: Study,
    case: RoundTripCase,
    names: list[str],
    profile: RoundTripNoise,
    k: int,
    run: int,
    seed: int,
    template: str = STUDY_TEMPLATE,
) -> list[tuple[Path, StageRun]]:
    examples = example_pairs(names, case.domain, k, seed)
    seed_text = _seed_text(seed, profile.name, case, k, run, template)
    noisy = under_template(profile, template)
    rng = random.Random(seed_text)
    inverse_noise = _Noise(noisy, rng, k)
    package = read_ecore(case.source if inverse_noise("ignore_delta") else case.delta_source)
    package = _noisy_package(package, inverse_noise)
    inverse_answer = _answer(write_ecore(package), INVERSE, case, inverse_noise)
    inverse_status = answer_status(inverse_answer, case.inverse.kind)
    not_run = f"not run: the inverse answer is unusable ({inverse_status.reason})"

    def document(stage: str, noise: _Noise | None, answer: str | None, status: Any) -> StageRun:
        return _document(
            case, stage, profile, k, run, seed, seed_text, examples, noise, answer, status, not_run, template
        )

    def path(stage: str) -> Path:
        where = (study.root, case.domain, case.operator, profile.name, SYNTH_MODEL)
        return run_path(*where, k, run, stage, template)

    result = [(path(INVERSE), document(INVERSE, inverse_noise, inverse_answer, inverse_status))]
    if inverse_status.status != "ok":
        return [*result, (path(FORWARD), document(FORWARD, None, None, None))]
    forward_noise = _Noise(noisy, rng, k)
    try:
        schema = forward(package)
    except ForwardMappingError:
        schema = read_sql(case.delta_target)
    schema = _noisy_schema(schema, forward_noise)
    forward_answer = _answer(write_sql(schema), FORWARD, case, forward_noise)
    forward_status = answer_status(forward_answer, case.forward.kind)
    return [*result, (path(FORWARD), document(FORWARD, forward_noise, forward_answer, forward_status))]


def write_synthetic_runs(
    study: Study,
    profiles: Sequence[str] = BUNDLED_PROFILES,
    examples: Sequence[int] = BUNDLED_EXAMPLES,
    runs: int = 1,
    seed: int = 0,
    *,
    check: bool = False,
    progress: Callable[[str], None] = lambda line: None,
    template: str = STUDY_TEMPLATE,
    selectors: Sequence[str] = (),
) -> SynthReport:
    """Write (or with ``check``, compare) the synthetic runs of the cases whose ``<pair>/<operator>``
    holds one of ``selectors`` (all without any) under ``template``; a file another tool wrote is left
    alone."""
    if selectors:
        chosen = [c for c in study.cases if any(s.casefold() in c.case_id.casefold() for s in selectors)]
        study = replace(study, cases=chosen)
    written, unchanged, refused = [], [], []
    for name in profiles:
        profile = PROFILES[name]
        for k in examples:
            for run in range(1, runs + 1):
                progress(f"{name} k{k} run{run:02d}")
                for path, document in synthetic_runs(study, profile, k, run, seed, template):
                    text = dumps_json(document.to_json())
                    if path.exists() and path.read_text(encoding="utf-8") == text:
                        unchanged.append(path)
                    elif path.exists() and generator_of(path) != GENERATOR:
                        refused.append(path)
                    else:
                        written.append(path)
                        if not check:
                            write_text_atomic(path, text)
    return SynthReport(tuple(written), tuple(unchanged), tuple(refused))
