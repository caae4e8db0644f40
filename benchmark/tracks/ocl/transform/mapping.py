"""The record of one transformation: every renamed or reified element, old name -> new name.

Names are written qualified where they need an owner: a class ``Person``, an enumeration ``Term``, an
attribute ``Person::age`` (class::attribute), an association ``Teaches``, a role ``Teaches::lecturer``
(association::role, the name of one association end). "Old" is always a name of the original model and
"new" a name of the final one: steps run in the order association reification, attribute reification,
renaming (see :mod:`.modes`), and the renaming step renames the names that earlier steps recorded, so a
reified attribute of a renamed model lists the class it became under its final name.

``mapping.json`` is :meth:`Mapping.to_json`; its keys are described in ``docs/OCL.md``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

# A reference to a model element: (kind, name) where name is a str for classes, enumerations and
# associations and an (owner, name) pair for attributes (class, attribute) and roles (association, role).
Ref = tuple[str, Any]

KINDS = ("class", "enumeration", "attribute", "association", "role")


def ref_text(ref: Ref) -> str:
    kind, name = ref
    return f"{name[0]}::{name[1]}" if kind in ("attribute", "role") else str(name)


@dataclass
class Renaming:
    """One renaming step: new names by element kind (unrenamed elements are absent)."""

    classes: dict[str, str] = field(default_factory=dict)  # classes, association classes and enumerations
    associations: dict[str, str] = field(default_factory=dict)
    attributes: dict[tuple[str, str], str] = field(default_factory=dict)  # (class, attribute) -> attribute
    roles: dict[tuple[str, str], str] = field(default_factory=dict)  # (association, role) -> role

    def apply(self, ref: Ref) -> Ref:
        kind, name = ref
        if kind in ("class", "enumeration"):
            return kind, self.classes.get(name, name)
        if kind == "association":
            return kind, self.associations.get(name, name)
        owner, member = name
        if kind == "attribute":
            return kind, (self.classes.get(owner, owner), self.attributes.get((owner, member), member))
        return kind, (self.associations.get(owner, owner), self.roles.get((owner, member), member))


Record = dict[str, Any]  # str keys; values are refs, lists of refs or lists of records; "old" is original


@dataclass
class Mapping:
    """What a mode did to one model (built step by step by the transformations).

    A reification record names the original element under ``old`` and the elements that replace it
    under other keys (refs, lists of refs, or a list of records for the ends of an association).
    """

    model: str
    mode: str
    seed: int
    steps: list[str] = field(default_factory=list)
    renamed: list[tuple[Ref, Ref]] = field(default_factory=list)  # (original, final)
    reified_attributes: list[Record] = field(default_factory=list)
    reified_associations: list[Record] = field(default_factory=list)
    created: set[Ref] = field(default_factory=set)  # elements added by a step, under their current names
    association_form: str = "class"  # how associations were reified: class, or association_class

    def rename(self, renaming: Renaming, current: list[Ref]) -> None:
        """Record a renaming of the current model's elements ``current`` (original ones are listed as
        renamed; ones created by earlier steps are renamed inside those steps' records)."""
        for ref in current:
            new = renaming.apply(ref)
            if ref not in self.created and new != ref:
                self.renamed.append((ref, new))
        self.created = {renaming.apply(r) for r in self.created}
        for record in [*self.reified_attributes, *self.reified_associations]:
            _rename_record(record, renaming)

    def new_name(self, ref: Ref) -> Ref:
        """The final name of an original element that was renamed (the element itself otherwise)."""
        for old, new in self.renamed:
            if old == ref:
                return new
        return ref

    def to_json(self) -> dict[str, Any]:
        renamed: dict[str, dict[str, str]] = {_plural(k): {} for k in KINDS}
        for old, new in self.renamed:
            renamed[_plural(old[0])][ref_text(old)] = ref_text(new)
        data: dict[str, Any] = {
            "model": self.model,
            "mode": self.mode,
            "seed": self.seed,
            "steps": list(self.steps),
            "renamed": renamed,
            "reified_attributes": [_record_json(r) for r in self.reified_attributes],
            "reified_associations": [_record_json(r) for r in self.reified_associations],
        }
        if self.association_form != "class":  # the default form is implied (files written before it)
            data["association_form"] = self.association_form
        return data


def _plural(kind: str) -> str:
    return "classes" if kind == "class" else f"{kind}s"


def _rename_record(record: Record, renaming: Renaming) -> None:
    for key, value in record.items():
        if key == "old":
            continue
        if isinstance(value, tuple):
            record[key] = renaming.apply(value)
        else:
            for i, item in enumerate(value):
                if isinstance(item, dict):
                    _rename_record(item, renaming)
                else:
                    value[i] = renaming.apply(item)


def _record_json(record: Record) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in record.items():
        if isinstance(value, tuple):
            out[key] = ref_text(value)
        else:
            out[key] = [_record_json(v) if isinstance(v, dict) else ref_text(v) for v in value]
    return out
