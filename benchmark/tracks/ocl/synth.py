"""Synthetic noisy runs of the OCL track, so a fresh clone runs the whole study without an LLM.

``atlbench ocl synth [--root validation/ocl] [--seed N]`` writes ``runs/<provider>/<run>/<mode>.json``
(:mod:`.runs`) for every profile of :data:`PROFILES`, run and mode. The providers are named
``Synthetic-*``: these are **not** LLM answers, and every report says so. Each answer starts from the
variant's reference and is, by a seeded draw per (seed, provider, run, mode, model, constraint), either
kept or spoiled in one of the ways LLM answers go wrong:

``flip``      one comparison or equality operator changed (``<=`` to ``<``...): a disagreement;
``stale``     the *original* reference on a transformed model (the answer ignored the transformation):
              mostly type errors under renaming, disagreements or type errors under reification;
``context``   the context class replaced by another class of the model: a type error or wrong context;
``syntax``    a parenthesis lost or a keyword misspelt: a syntax error;
``prose``     no constraint at all, only an apology: a syntax error.

A latent draw per (provider, run, model, constraint) decides skill, so an answer correct on a
transformed model is usually correct on the original too (robustness below accuracy, as for real
models). Answers come in varied presentations (fenced code, inline code, prose around the constraint,
unnamed invariants) so that the extraction rules are exercised on every run.

**Template-sensitive profile.** ``atlbench ocl synth --template NAME`` writes the runs the profiles of
:data:`TEMPLATE_PROFILES` "would" give under another of the track's prompt templates (``docs/TEMPLATES.md``):
the same providers with other skills, filed as ``runs/<provider>/<template>/<run>/<mode>.json`` with
``template`` set; ``--model`` and ``--mode`` restrict them to some models and modes. The skills are made
up, to give the prompt-sensitivity report something to show; no prompt was sent.
"""

from __future__ import annotations

import hashlib
import random
import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from benchmark.core.fileio import write_json_atomic
from benchmark.core.rows import STUDY_TEMPLATE
from benchmark.llm.templates import STEPWISE, TERSE
from benchmark.tracks.ocl.dataset import Dataset
from benchmark.tracks.ocl.runs import RunFile, run_path
from benchmark.tracks.ocl.variants import ORIGINAL, VariantSource, modes


@dataclass(frozen=True)
class Profile:
    provider: str
    llm: str
    runs: tuple[str, ...]
    skill: float  # probability of a correct answer on the original
    transformed: dict[str, float]  # mode component -> factor on skill when the mode includes it
    stale: float  # probability that a spoiled answer on a transformed model is the stale original


PROFILES = (
    Profile(
        "Synthetic-Noisy",
        "synthetic-noisy-1",
        ("run01", "run02"),
        0.8,
        {"rename": 0.9, "attribute": 0.8, "association": 0.85},
        0.5,
    ),
    Profile(
        "Synthetic-Sloppy",
        "synthetic-sloppy-1",
        ("run01",),
        0.55,
        {"rename": 0.6, "attribute": 0.6, "association": 0.7},
        0.7,
    ),
)

#: The profiles under each template other than the study's (module docstring): Synthetic-Noisy loses
#: accuracy and robustness with the terse wording; Synthetic-Sloppy becomes far more robust with the
#: stepwise one, so that the two swap places there. Made up; no prompt was sent.
TEMPLATE_PROFILES: dict[str, tuple[Profile, ...]] = {
    TERSE: (
        Profile(
            "Synthetic-Noisy",
            "synthetic-noisy-1",
            ("run01", "run02"),
            0.7,
            {"rename": 0.6, "attribute": 0.7, "association": 0.75},
            0.6,
        ),
        Profile(
            "Synthetic-Sloppy",
            "synthetic-sloppy-1",
            ("run01", "run02"),
            0.5,
            {"rename": 0.55, "attribute": 0.6, "association": 0.65},
            0.7,
        ),
    ),
    STEPWISE: (
        Profile(
            "Synthetic-Noisy",
            "synthetic-noisy-1",
            ("run01", "run02"),
            0.8,
            {"rename": 0.8, "attribute": 0.75, "association": 0.8},
            0.5,
        ),
        Profile(
            "Synthetic-Sloppy",
            "synthetic-sloppy-1",
            ("run01", "run02"),
            0.75,
            {"rename": 1.0, "attribute": 0.95, "association": 0.95},
            0.2,
        ),
    ),
}


def profiles_of(template: str) -> tuple[Profile, ...]:
    """The synthetic profiles as they answer under ``template``."""
    if template == STUDY_TEMPLATE:
        return PROFILES
    if template not in TEMPLATE_PROFILES:
        from benchmark.core.errors import ConfigurationError

        raise ConfigurationError(
            f"no synthetic profile for template {template!r}; known: {', '.join(TEMPLATE_PROFILES)}",
            field="--template",
        )
    return TEMPLATE_PROFILES[template]


_FLIPS = (("<=", "<"), (">=", ">"), ("<>", "="), (" < ", " <= "), (" > ", " >= "), (" = ", " <> "))


def _rng(*parts: object) -> random.Random:
    digest = hashlib.sha256("\x1f".join(map(str, parts)).encode()).digest()
    return random.Random(int.from_bytes(digest[:8], "big"))


def _skill(profile: Profile, mode: str) -> float:
    factor = 1.0
    if mode != ORIGINAL:
        for part, value in profile.transformed.items():
            if part in mode or mode == "full":
                factor *= value
    return profile.skill * factor


def _flip(text: str, rng: random.Random) -> str:
    head, _, body = text.partition(":")
    found = [(old, new) for old, new in _FLIPS if old in body]
    if not found:
        return f"{head}: not ({body.strip()})"
    old, new = rng.choice(found)
    return f"{head}:{body.replace(old, new, 1)}"


def _syntax(text: str, rng: random.Random) -> str:
    if ")" in text and rng.random() < 0.6:
        index = text.rindex(")")
        return text[:index] + text[index + 1 :]
    return text.replace(" inv ", " invariant ", 1)


def _context(text: str, classes: list[str], rng: random.Random) -> str:
    match = re.match(r"context\s+(\w+)", text)
    others = [c for c in classes if match is None or c != match.group(1)]
    if match is None or not others:
        return text
    return f"context {rng.choice(others)}{text[match.end() :]}"


def _present(text: str, rng: random.Random) -> str:
    """The answer as an LLM might format it."""
    if rng.random() < 0.3:
        text = re.sub(r"\binv \w+:", "inv:", text, count=1)
    style = rng.randrange(4)
    if style == 0:
        return f"```ocl\n{text}\n```"
    if style == 1:
        return (
            f"Here is the invariant:\n\n```\n{text}\n```\n\nIt holds for every instance of the context class."
        )
    if style == 2:
        return f"The constraint is `{text}`."
    return f"{text}\n\nThis invariant states the requirement directly."


def synthesize(
    sources: dict[str, VariantSource],
    profile: Profile,
    run: str,
    mode: str,
    seed: int,
    template: str = STUDY_TEMPLATE,
) -> dict[str, dict[str, str]]:
    """``answers`` of one run file: dataset model -> constraint id -> raw answer (the draws of a template
    other than the study's are its own)."""
    who = (profile.provider,) if template == STUDY_TEMPLATE else (profile.provider, template)
    answers: dict[str, dict[str, str]] = {}
    for name, source in sources.items():
        variant, original = source.variant(mode, seed), source.variant(ORIGINAL, seed)
        classes = sorted(variant.model.classes)
        given: dict[str, str] = {}
        for cid, reference in variant.references.items():
            latent = _rng("skill", seed, *who, run, name, cid).random()
            rng = _rng("answer", seed, *who, run, mode, name, cid)
            if latent < _skill(profile, mode) and rng.random() < 0.97:
                given[cid] = _present(reference, rng)
                continue
            roll = rng.random()
            if mode != ORIGINAL and roll < profile.stale:
                text = original.references[cid]
            elif roll < 0.55:
                text = _flip(reference, rng)
            elif roll < 0.7:
                text = _context(reference, classes, rng)
            elif roll < 0.85:
                text = _syntax(reference, rng)
            else:
                given[cid] = "I am not able to express this requirement as an OCL invariant."
                continue
            given[cid] = _present(text, rng)
        answers[name] = given
    return answers


def write_synthetic_runs(
    dataset: Dataset,
    seed: int = 0,
    template: str = STUDY_TEMPLATE,
    models: Sequence[str] = (),
    chosen_modes: Sequence[str] = (),
    profiles: Sequence[Profile] | None = None,
) -> list[Path]:
    """Every synthetic run file of the dataset (``runs/<provider>/<run>/<mode>.json``; under
    ``<provider>/<template>/`` for another template than the study's), written; ``models`` and
    ``chosen_modes`` restrict them (none: all); ``profiles`` replaces the template's (a bench gives them
    more runs)."""
    from benchmark.core.errors import ConfigurationError

    unknown = sorted(set(models) - set(dataset.models))
    if unknown:
        raise ConfigurationError(f"no model {', '.join(unknown)} in the dataset", field="--model")
    wanted = [name for name in dataset.models if not models or name in models]
    sources = {name: VariantSource(dataset.models[name]) for name in wanted}
    written = []
    for profile in profiles_of(template) if profiles is None else profiles:
        for run in profile.runs:
            for mode in modes():
                if chosen_modes and mode not in chosen_modes:
                    continue
                answers = synthesize(sources, profile, run, mode, seed, template)
                path = run_path(dataset.root, profile.provider, run, mode, template)
                document = RunFile(path, profile.provider, profile.llm, run, mode, seed, answers, template)
                written.append(write_json_atomic(path, document.to_json()))
    return written


__all__ = ["PROFILES", "TEMPLATE_PROFILES", "Profile", "profiles_of", "synthesize", "write_synthetic_runs"]
