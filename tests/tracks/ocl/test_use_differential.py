"""The built-in judge against a local USE: the same outcome for every reference and LLM-like mutant.

Needs USE (``ATLBENCH_USE`` names its launcher, installation or jar folder, see docs/OCL.md); skipped in
one line without it, as in CI. For every bundled model (its original variant), every reference
constraint and mutants of it that an LLM could have written -- a quantifier swapped, a comparison off by
one, a null check dropped, ``.`` for ``->``, ``==``, ``!=``, ``&&``, a misspelt feature, a navigation to
a role that does not exist, integer division -- are judged on every state by both judges; they must give
the same outcome and the same states. A verdict the built-in judge reports as depending on USE's
HashSet order (``orderDependent``) is the one exception, listed by name.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable
from pathlib import Path

import pytest

from benchmark.tracks.ocl.dataset import load_dataset
from benchmark.tracks.ocl.scoring.judge import Referee
from benchmark.tracks.ocl.scoring.use_install import ENVIRONMENT, find_use
from benchmark.tracks.ocl.scoring.use_judge import disagreements, judge_with_use
from benchmark.tracks.ocl.scoring.use_shell import UseShell
from benchmark.tracks.ocl.variants import ORIGINAL, VariantSource

DATASET = Path(__file__).resolve().parents[3] / "validation" / "ocl"

pytestmark = pytest.mark.skipif(not os.environ.get(ENVIRONMENT), reason=f"no local USE ({ENVIRONMENT} unset)")


def _first(pattern: str, replacement: str | Callable[[re.Match[str]], str]) -> Callable[[str], str]:
    compiled = re.compile(pattern)
    return lambda text: compiled.sub(replacement, text, count=1)


def _body(mutate: Callable[[str], str]) -> Callable[[str], str]:
    """Apply ``mutate`` to the expression only (after ``inv name:``)."""

    def apply(text: str) -> str:
        head, _, body = text.partition(":")
        return f"{head}:{mutate(body)}"

    return apply


MUTANTS: dict[str, Callable[[str], str]] = {
    "quantifier": _body(
        lambda b: b.replace("forAll", "\0").replace("exists", "forAll").replace("\0", "exists")
    ),
    "off-by-one": _body(
        _first(
            r"(>=|<=|(?<![<>-])>(?!=)|<(?![>=]))",
            lambda m: {">=": ">", "<=": "<", ">": ">=", "<": "<="}[m.group(1)],
        )
    ),
    "null-check-dropped": _body(
        _first(r"(?:not\s+)?[\w.]+\.(?:isDefined|oclIsUndefined|isUndefined)\(\)\s+(?:implies|or|and)\s+", "")
    ),
    "dot-for-arrow": _body(_first(r"->", ".")),
    "double-equals": _body(_first(r"(?<![<>=])=(?!=)", "==")),
    "c-not-equal": _body(_first(r"<>", "!=")),
    "c-and": _body(_first(r"\band\b", "&&")),
    "misspelt": _body(_first(r"self\.([A-Za-z_]\w*?)(\w)\b", r"self.\1")),
    "undefined-navigation": _body(_first(r"\bself\.", "self.previous.")),
    "integer-division": _body(_first(r"(self\.\w+)\s*(>=|<=|>|<|=)", r"\1 div 2 \2")),
}


def _mutants(reference: str) -> dict[str, str]:
    found = {}
    for kind, mutate in MUTANTS.items():
        text = mutate(reference)
        if text != reference:
            found[kind] = text
    return found


@pytest.fixture(scope="module")
def use():
    shell = UseShell(find_use(None), timeout=60.0)
    yield shell
    shell.close()


@pytest.mark.parametrize("model", sorted(load_dataset(DATASET).models))
def test_both_judges_agree_on_references_and_mutants(model: str, use) -> None:
    entry = load_dataset(DATASET).models[model]
    variant = VariantSource(entry).variant(ORIGINAL)
    referee = Referee.of(variant)
    answers: dict[tuple[str, str], str] = {}
    for cid, reference in variant.references.items():
        answers[("reference", cid)] = reference
        for kind, text in _mutants(reference).items():
            answers[(kind, cid)] = text
    verdicts = judge_with_use(variant, answers, use)
    keys = list(answers)
    ours = [referee.judge(cid, answers[(kind, cid)]) for kind, cid in keys]
    theirs = [verdicts.judge(key, answers[key]) for key in keys]
    assert all(
        j.outcome == "agreement" for (kind, _), j in zip(keys, theirs, strict=True) if kind == "reference"
    )
    found = disagreements(ours, theirs)
    unexplained = [
        f"{kind} of {d.constraint}: `{answers[(kind, d.constraint)]}'\n"
        f"    built-in: {d.builtin.outcome} {list(d.builtin.states)} {d.builtin.detail}\n"
        f"    USE:      {d.use.outcome} {list(d.use.states)} {d.use.detail}"
        for (kind, _), d in ((k, d) for k, d in _keyed(keys, ours, found))
        if not d.builtin.order_dependent
    ]
    assert len(keys) > 3 * len(variant.references)  # the mutants exist
    assert not unexplained, f"{len(unexplained)} disagreements:\n" + "\n".join(unexplained)


def _keyed(keys, ours, found):
    by_judgement = {id(j): key for key, j in zip(keys, ours, strict=True)}
    return [(by_judgement[id(d.builtin)], d) for d in found]
