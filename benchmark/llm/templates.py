"""A track's shipped prompt templates by short name, and which of them a ``generate`` call asks with.

A score measured with one prompt wording is one sample (``docs/TEMPLATES.md``), so every track ships
three templates, the same three names in every track, each asking for the same output:

``study``     the study's own wording (the mapping track's jJodel matcher prompt, the OCL and round-trip
              studies' prompts): the default, and what a run file means when it names no template;
``terse``     the same request in as few words as the task allows, the output format last;
``stepwise``  the output schema first, then numbered steps to follow, then the input.

The texts are package data beside each track (``importlib.resources``), described by a
:class:`TemplateCatalog`: a name, and for each *part* of the prompt (the mapping and OCL tracks have one,
``prompt``; the round-trip track three, ``inverse``, ``forward`` and ``system``) the file that holds it.
Every provider is asked with the same templates (as lm-evaluation-harness does, for comparability): a
template is chosen per call (``--template NAME``, several at once, or ``all``), never per provider.
``--prompt-template FILE`` still replaces a template's text (recorded by its SHA-256), under the name of
the one template chosen.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from benchmark.core.errors import ConfigurationError
from benchmark.core.rows import STUDY_TEMPLATE, TEMPLATE_NAME
from benchmark.llm.prompt import PromptTemplate, builtin_template

ALL = "all"
TERSE = "terse"
STEPWISE = "stepwise"
SHIPPED = (STUDY_TEMPLATE, TERSE, STEPWISE)
NAME = TEMPLATE_NAME


@dataclass(frozen=True)
class TemplateCatalog:
    """A track's shipped templates: name -> part -> file name in ``package``."""

    package: str
    files: Mapping[str, Mapping[str, str]]

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(self.files)

    def select(self, wanted: Sequence[str]) -> tuple[str, ...]:
        """The templates a call asks with, in the catalog's order: the study's when none is named, every
        one for ``all``; an unknown name is a configuration error listing the known ones."""
        if not wanted:
            return (STUDY_TEMPLATE,)
        unknown = [name for name in wanted if name != ALL and name not in self.files]
        if unknown:
            raise ConfigurationError(
                f"unknown template {', '.join(unknown)}; this track ships {', '.join(self.names)} (or {ALL})",
                field="--template",
            )
        chosen = set(self.names if ALL in wanted else wanted)
        return tuple(name for name in self.names if name in chosen)

    def load(self, name: str, part: str) -> PromptTemplate:
        """The shipped text of one part of one template."""
        return builtin_template(self.package, self.files[name][part])


def chosen_templates(
    catalog: TemplateCatalog, wanted: Sequence[str], replacement: Path | None
) -> list[tuple[str, Path | None]]:
    """(name, replacement) for every template a call asks with: ``replacement`` (``--prompt-template``)
    replaces the text of the one template chosen, and is refused when several are."""
    names = catalog.select(wanted)
    if replacement is not None and len(names) > 1:
        raise ConfigurationError(
            f"--prompt-template replaces one template, and {len(names)} are chosen "
            f"({', '.join(names)}); choose the one it replaces with --template NAME",
            field="--prompt-template",
        )
    return [(name, replacement) for name in names]


def describe_templates(templates: Mapping[str, PromptTemplate]) -> dict[str, object]:
    """What a raw log's spec line and a call's manifest record about the templates of a one-part track:
    ``promptTemplate`` as before when the study's is the only one, else ``promptTemplates`` by name."""
    if list(templates) == [STUDY_TEMPLATE]:
        return {"promptTemplate": templates[STUDY_TEMPLATE].describe()}
    return {"promptTemplates": {name: template.describe() for name, template in templates.items()}}


def template_record(template: PromptTemplate) -> dict[str, object]:
    """What a run file records about the template its prompt came from: its file's name, whether it is
    shipped, its SHA-256 (no local path: a replay writes the same bytes wherever it runs)."""
    return {
        "name": Path(template.origin.removeprefix("builtin:")).name,
        "builtin": template.origin.startswith("builtin:"),
        "sha256": template.sha256,
    }


__all__ = [
    "ALL",
    "SHIPPED",
    "STEPWISE",
    "TERSE",
    "TemplateCatalog",
    "chosen_templates",
    "describe_templates",
    "template_record",
]
