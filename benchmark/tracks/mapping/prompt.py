"""The mapping track's prompts: the two metamodel views in a shipped (or a replacement) template, and
the ``name-only`` variant's prompt (``docs/VARIANTS.md``): the transformation's and the metamodels' names
in its own shipped template, with no metamodel content.

Three templates ship (``docs/TEMPLATES.md``): ``study``, the study's jJodel matcher prompt
(``prompt_template.md``), ``terse`` (``prompt_terse.md``) and ``stepwise`` (``prompt_stepwise.md``, the
output schema first); all ask for the same bare JSON array.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from benchmark.core.rows import STUDY_TEMPLATE
from benchmark.llm.prompt import PromptTemplate, load_template
from benchmark.llm.templates import STEPWISE, TERSE, TemplateCatalog

PACKAGE = "benchmark.tracks.mapping"
PART = "prompt"
TEMPLATES = TemplateCatalog(
    PACKAGE,
    {
        STUDY_TEMPLATE: {PART: "prompt_template.md"},
        TERSE: {PART: "prompt_terse.md"},
        STEPWISE: {PART: "prompt_stepwise.md"},
    },
)
BUILTIN_TEMPLATE = (PACKAGE, TEMPLATES.files[STUDY_TEMPLATE][PART])
MAPPING_PLACEHOLDERS = frozenset({"sourceName", "sourceMetamodel", "targetName", "targetMetamodel"})
MAPPING_REQUIRED = frozenset({"sourceMetamodel", "targetMetamodel"})
NAME_ONLY_TEMPLATE = ("benchmark.tracks.mapping", "prompt_name_only.md")
NAME_ONLY_PLACEHOLDERS = frozenset({"transformationName", "sourceName", "targetName"})


def mapping_template(path: str | Path | None = None, name: str = STUDY_TEMPLATE) -> PromptTemplate:
    """The template in ``path``, or the shipped template ``name`` (the study's ``prompt_template.md``)."""
    return load_template(path, builtin=(PACKAGE, TEMPLATES.files[name][PART]))


def metamodel_json(view_json: Mapping[str, Any]) -> str:
    """The metamodel view as embedded in prompts: compact JSON, keys in the view's documented order.

    Compact (no indentation) because metamodels of thirty classes are tens of kilobytes of JSON and the
    indentation alone would be a large share of the prompt's tokens; models read compact JSON fine.
    """
    return json.dumps(view_json, ensure_ascii=False, separators=(",", ":"))


def mapping_prompt(
    template: PromptTemplate,
    *,
    source_name: str,
    source_view_json: Mapping[str, Any],
    target_name: str,
    target_view_json: Mapping[str, Any],
) -> str:
    template.check(MAPPING_PLACEHOLDERS, MAPPING_REQUIRED)
    return template.render(
        {
            "sourceName": source_name,
            "sourceMetamodel": metamodel_json(source_view_json),
            "targetName": target_name,
            "targetMetamodel": metamodel_json(target_view_json),
        }
    )


def name_only_template() -> PromptTemplate:
    """The shipped ``prompt_name_only.md`` (``--prompt-template`` replaces the metamodel prompt only)."""
    return load_template(None, builtin=NAME_ONLY_TEMPLATE)


def name_only_prompt(
    template: PromptTemplate, *, transformation: str, source_name: str, target_name: str
) -> str:
    template.check(NAME_ONLY_PLACEHOLDERS, NAME_ONLY_PLACEHOLDERS)
    return template.render(
        {"transformationName": transformation, "sourceName": source_name, "targetName": target_name}
    )
