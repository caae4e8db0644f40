"""Prompt templates: ``{{placeholder}}`` substitution, validated, and hashed for provenance.

Each track ships its templates as package data (the mapping track's ``prompt_template.md`` asks for the same
answer as jJodel's AI matcher); ``--prompt-template FILE`` swaps in another one (for example the exact
template a study used). Its SHA-256 is recorded in every run file and log line, so two runs are comparable
only when their template hashes agree.

Substitution is deliberately dumb (no expressions, no escaping): a template is text with named holes.
A misspelt placeholder is an error naming the file and line, not silently left in the prompt.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

from benchmark.core.errors import ConfigurationError, InputFormatError
from benchmark.core.fileio import sha256_text

PLACEHOLDER = re.compile(r"\{\{\s*([A-Za-z_][A-Za-z0-9_]*)\s*\}\}")


@dataclass(frozen=True)
class PromptTemplate:
    text: str
    origin: str  # "builtin:<name>" or the file path given by the user

    @property
    def sha256(self) -> str:
        return sha256_text(self.text)

    def placeholders(self) -> set[str]:
        return {match.group(1) for match in PLACEHOLDER.finditer(self.text)}

    def check(self, allowed: frozenset[str], required: frozenset[str]) -> None:
        """Reject unknown placeholders (with their line) and templates that omit a required one."""
        for match in PLACEHOLDER.finditer(self.text):
            name = match.group(1)
            if name not in allowed:
                line = self.text.count("\n", 0, match.start()) + 1
                column = match.start() - (self.text.rfind("\n", 0, match.start()) + 1) + 1
                raise InputFormatError(
                    f"unknown placeholder {{{{{name}}}}}; this template may use: "
                    + ", ".join(f"{{{{{p}}}}}" for p in sorted(allowed)),
                    file=self.origin,
                    line=line,
                    column=column,
                )
        missing = required - self.placeholders()
        if missing:
            raise InputFormatError(
                "the template never uses "
                + ", ".join(f"{{{{{p}}}}}" for p in sorted(missing))
                + ", so the model would not see that input",
                file=self.origin,
            )

    def render(self, values: Mapping[str, str]) -> str:
        def substitute(match: re.Match[str]) -> str:
            name = match.group(1)
            if name not in values:
                raise InputFormatError(f"no value for placeholder {{{{{name}}}}}", file=self.origin)
            return values[name]

        return PLACEHOLDER.sub(substitute, self.text)

    def describe(self) -> dict[str, str]:
        return {"origin": self.origin, "sha256": self.sha256}


def builtin_template(package: str, name: str) -> PromptTemplate:
    """A template shipped as package data of ``package`` (each track ships its own)."""
    text = resources.files(package).joinpath(name).read_text(encoding="utf-8")
    return PromptTemplate(text=text, origin=f"builtin:{name}")


def load_template(path: str | Path | None, *, builtin: tuple[str, str]) -> PromptTemplate:
    """The template in ``path``, or the shipped one (``builtin`` = (package, file name)) when ``None``."""
    if path is None:
        return builtin_template(*builtin)
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError as error:
        raise ConfigurationError("prompt template not found", file=path) from error
    except (OSError, UnicodeDecodeError) as error:
        raise ConfigurationError(f"cannot read prompt template: {error}", file=path) from error
    return PromptTemplate(text=text, origin=str(path))
