"""The round-trip track's prompts: the example pairs E, then the input model, then the stage's task.

A template of this track has three parts: the inverse stage's prompt, the forward stage's and the system
message. Three templates ship as package data (``docs/TEMPLATES.md``): ``study``, the study's wording
(``prompt_inverse.md``, ``prompt_forward.md``, ``prompt_system.md``), ``terse``
(``prompt_terse_*.md``) and ``stepwise`` (``prompt_stepwise_*.md``, the output first, then numbered steps);
``--prompt-template DIR`` replaces any part of the template chosen with ``DIR/inverse.md``,
``DIR/forward.md`` and ``DIR/system.md`` (the others stay the shipped ones). Each part's SHA-256 is
recorded in every run file and raw log. A stage template may use ``{{examples}}`` and ``{{input}}``
(required) and ``{{k}}``; the system template is sent as it is (an empty one sends no system message).

**The example pairs** of a (pair, operator, k) are the case's own base pair first, then the k - 1 other
base pairs of the study that come first in the order of ``SHA-256("<seed>:<pair>:<other pair>")``
(:func:`example_pairs`). The order depends on the pair and the seed only, not on the operator, so every
operator of a pair is prompted with the same examples, and the examples of k = 2 are the first two of
k = 4: comparisons across operators and across k change one thing at a time. Both stages of a run use the
same list in the same order; run files record the list, the rule and the seed.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from benchmark.core.errors import ConfigurationError
from benchmark.core.rows import STUDY_TEMPLATE
from benchmark.llm.prompt import PromptTemplate, load_template
from benchmark.llm.templates import STEPWISE, TERSE, TemplateCatalog, template_record
from benchmark.tracks.roundtrip.names import FORWARD, INVERSE
from benchmark.tracks.roundtrip.study.cases import BasePair

PACKAGE = "benchmark.tracks.roundtrip"
SYSTEM = "system"
BUILTIN_FILES = {INVERSE: "prompt_inverse.md", FORWARD: "prompt_forward.md", SYSTEM: "prompt_system.md"}
TEMPLATES = TemplateCatalog(
    PACKAGE,
    {
        STUDY_TEMPLATE: BUILTIN_FILES,
        **{
            name: {part: f"prompt_{name}_{part}.md" for part in (INVERSE, FORWARD, SYSTEM)}
            for name in (TERSE, STEPWISE)
        },
    },
)
REPLACEMENT_FILES = {INVERSE: "inverse.md", FORWARD: "forward.md", "system": "system.md"}
STAGE_PLACEHOLDERS = frozenset({"examples", "input", "k"})
STAGE_REQUIRED = frozenset({"examples", "input"})
EXAMPLE_RULE = (
    "the case's own base pair first, then the other base pairs in the order of "
    'SHA-256("<seed>:<pair>:<other pair>"), the first k - 1'
)


@dataclass(frozen=True)
class RoundTripTemplates:
    inverse: PromptTemplate
    forward: PromptTemplate
    system: PromptTemplate

    def stage(self, name: str) -> PromptTemplate:
        return self.inverse if name == INVERSE else self.forward

    @property
    def system_text(self) -> str | None:
        """The system message, or None when the system template is empty."""
        return self.system.text.strip() or None

    def describe(self) -> dict[str, Any]:
        """Origin and SHA-256 of each template (what the raw logs record)."""
        return {
            "promptTemplates": {
                name: template.describe()
                for name, template in (
                    ("inverse", self.inverse),
                    ("forward", self.forward),
                    ("system", self.system),
                )
            }
        }

    def record(self) -> dict[str, Any]:
        """Name, origin kind and SHA-256 of each template (what every run file records; no local paths,
        so that a replay writes the same bytes wherever it runs)."""
        return {
            name: template_record(template)
            for name, template in (
                ("inverse", self.inverse),
                ("forward", self.forward),
                ("system", self.system),
            )
        }


def load_templates(folder: str | Path | None = None, name: str = STUDY_TEMPLATE) -> RoundTripTemplates:
    """The parts of the shipped template ``name``, each replaced by its file in ``folder`` when there is
    one."""
    files = TEMPLATES.files[name]
    builtin = {part: TEMPLATES.load(name, part) for part in files}
    if folder is not None:
        folder = Path(folder)
        if not folder.is_dir():
            raise ConfigurationError(
                "the round-trip track takes a folder holding inverse.md, forward.md and/or system.md",
                file=folder,
                field="--prompt-template",
            )
        replaced = {
            part: load_template(folder / file, builtin=(PACKAGE, files[part]))
            for part, file in REPLACEMENT_FILES.items()
            if (folder / file).is_file()
        }
        if not replaced:
            raise ConfigurationError(
                "no inverse.md, forward.md or system.md in this folder",
                file=folder,
                field="--prompt-template",
            )
        builtin.update(replaced)
    templates = RoundTripTemplates(builtin[INVERSE], builtin[FORWARD], builtin["system"])
    for stage in (INVERSE, FORWARD):
        templates.stage(stage).check(STAGE_PLACEHOLDERS, STAGE_REQUIRED)
    templates.system.check(frozenset(), frozenset())
    return templates


def example_pairs(pairs: Sequence[str], own: str, k: int, seed: int) -> tuple[str, ...]:
    """The k example pairs of a case of pair ``own`` (module docstring)."""
    if own not in pairs:
        raise KeyError(own)
    if not 1 <= k <= len(pairs):
        raise ConfigurationError(
            f"k = {k} example pairs asked, the study has {len(pairs)} base pairs", field="--examples"
        )

    def rank(other: str) -> str:
        return hashlib.sha256(f"{seed}:{own}:{other}".encode()).hexdigest()

    others = sorted((p for p in pairs if p != own), key=lambda other: (rank(other), other))
    return (own, *others[: k - 1])


def model_text(path: Path) -> str:
    """A model file as it goes into a prompt (UTF-8; the trailing newline dropped)."""
    return path.read_text(encoding="utf-8").rstrip("\n")


def render_examples(pairs: Sequence[BasePair]) -> str:
    """The example pairs as the prompt shows them: each S, then its T, in fenced blocks."""
    blocks = []
    for index, pair in enumerate(pairs, 1):
        blocks.append(
            f"Example pair {index}\n\nS (Ecore metamodel):\n\n```xml\n{model_text(pair.source)}\n```\n\n"
            f"T (SQL-XMI):\n\n```xml\n{model_text(pair.target)}\n```"
        )
    return "\n\n".join(blocks)


def stage_prompt(templates: RoundTripTemplates, stage: str, examples: str, given: str, k: int) -> str:
    return templates.stage(stage).render({"examples": examples, "input": given, "k": str(k)})
