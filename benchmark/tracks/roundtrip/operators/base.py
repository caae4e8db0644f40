"""What every delta operator is: two edits (Ecore side, SQL side) of one element chosen by a seed.

An operator lists its possible *targets* on each side. A target is a tuple of names that fully describes one
change (``("Book", "BookRecord")`` for renaming Book), so that it can be shown in the manifest and substituted
into the operator's witness patterns. Both sides list the same targets for a model and its forward image,
computed independently (the S side from the metamodel, the T side from the schema's structure,
:mod:`benchmark.tracks.roundtrip.models.sqlview`), and the seed picks one by position in the sorted list.
``apply_s``/``apply_t`` are then ordinary functions of (model, seed), and the commutation law
``forward(apply_s(S, seed)) == apply_t(forward(S), seed)`` is a real check of both definitions.

A target that cannot be applied (the new name is already taken) raises :class:`OperatorNotApplicable`:
choosing another would make the choice depend on the side, which the law forbids.
"""

from __future__ import annotations

import hashlib
from abc import ABC, abstractmethod
from collections.abc import Sequence
from dataclasses import dataclass
from fnmatch import fnmatchcase
from typing import ClassVar, Literal, TypeVar

from benchmark.core.errors import BenchmarkError
from benchmark.tracks.roundtrip.models.ecoremodel import EcorePackage
from benchmark.tracks.roundtrip.models.sqlmodel import SqlSchema

Target = tuple[str, ...]
Side = Literal["S", "T"]
Change = Literal["appears", "changes", "disappears"]
T = TypeVar("T")


class OperatorNotApplicable(BenchmarkError):
    """The model offers no target for this operator, or the chosen target clashes with the model."""


def choose(items: Sequence[T], seed: int, salt: str) -> T:
    """One item picked by ``seed``: a hash, not ``random``, so the choice is the same on every platform
    and Python version."""
    if not items:
        raise OperatorNotApplicable(f"{salt}: the model offers no target")
    digest = hashlib.sha256(f"{salt}:{seed}".encode()).digest()
    return items[int.from_bytes(digest[:8], "big") % len(items)]


@dataclass(frozen=True)
class Witness:
    """One documented effect of an operator on the canonical lines of one side.

    ``pattern`` is a line key (``kind key``) in which ``{0}``, ``{1}``, ... stand for the target's parts
    and ``*`` for any text; a required witness must match at least one changed line.
    """

    side: Side
    change: Change
    pattern: str
    required: bool = True

    def key_pattern(self, target: Target) -> str:
        """The pattern as a normalized key: SQL names case-folded, Ecore names exact (as in the lines)."""
        text = self.pattern.format(*target)
        return text.casefold() if self.side == "T" else text

    def matches(self, target: Target, normalized_key: str) -> bool:
        return fnmatchcase(normalized_key, self.key_pattern(target))

    def describe(self) -> str:
        return f"{self.change}: {self.pattern}" + ("" if self.required else " (when present)")


def appears(side: Side, pattern: str, required: bool = True) -> Witness:
    return Witness(side, "appears", pattern, required)


def changes(side: Side, pattern: str, required: bool = True) -> Witness:
    return Witness(side, "changes", pattern, required)


def disappears(side: Side, pattern: str, required: bool = True) -> Witness:
    return Witness(side, "disappears", pattern, required)


class DeltaOperator(ABC):
    """A delta operator; subclasses define targets and edits for both sides."""

    name: ClassVar[str]
    summary: ClassVar[str]
    target_parts: ClassVar[tuple[str, ...]]  # what each part of a target is, for docs and manifest
    witnesses: ClassVar[tuple[Witness, ...]]

    @abstractmethod
    def targets_s(self, package: EcorePackage) -> list[Target]: ...

    @abstractmethod
    def targets_t(self, schema: SqlSchema) -> list[Target]: ...

    @abstractmethod
    def edit_s(self, package: EcorePackage, target: Target) -> EcorePackage: ...

    @abstractmethod
    def edit_t(self, schema: SqlSchema, target: Target) -> SqlSchema: ...

    def pick_s(self, package: EcorePackage, seed: int) -> Target:
        return choose(sorted(set(self.targets_s(package))), seed, self.name)

    def pick_t(self, schema: SqlSchema, seed: int) -> Target:
        return choose(sorted(set(self.targets_t(schema))), seed, self.name)

    def apply_s(self, package: EcorePackage, seed: int) -> EcorePackage:
        return self.edit_s(package, self.pick_s(package, seed))

    def apply_t(self, schema: SqlSchema, seed: int) -> SqlSchema:
        return self.edit_t(schema, self.pick_t(schema, seed))

    def witnesses_for(self, side: Side) -> tuple[Witness, ...]:
        return tuple(w for w in self.witnesses if w.side == side)

    def not_applicable(self, target: Target, why: str) -> OperatorNotApplicable:
        return OperatorNotApplicable(f"{self.name} {'/'.join(target)}: {why}")
