"""Identifier renaming: every class, enumeration, attribute, association and role gets a new name.

Names come from :mod:`benchmark.lang.words.synonyms` (a synonym table, then a qualified spelling, then a
numbered one; a name USE allows but that is not a plain identifier, ``$Person``, is renamed from its
identifier form ``Person``), and each name's candidates are bounded: more numbered ones than the names a
candidate can be refused for, so one is always free and planning ends. Invariant names are the
constraints' ids and stay, and so do enumeration literals (they are values, written in the states),
operation names, parameters and variables. A new name must be legal and unambiguous where it is seen
(:mod:`.names`) and differ from every name of the original model, of any kind (an answer written for
the original model must not mean something else in the renamed one). Type names are unique in the
model, feature names within an inheritance component, and the link-object navigation of an association
class (USE's ``role_name_for(AC)`` from each participant) is reserved before attributes and roles are
named. Elements are named in model order, so the result depends only on the model and the seed.

Expressions are rewritten where the checker resolved a name to a renamed element (see
:mod:`.resolve`): attribute reads, navigations (including ``x.role[sourceRole]`` qualifications and the
collect shorthand), ``C.allInstances``, type names and ``E::literal``. States keep their object names;
classes, attributes and associations are renamed.
"""

from __future__ import annotations

import dataclasses

from benchmark.lang.ocl import ast
from benchmark.lang.ocl.model import Association, Enumeration, Model, role_name_for
from benchmark.lang.words.synonyms import candidates
from benchmark.tracks.ocl.transform.mapping import Mapping, Ref, Renaming
from benchmark.tracks.ocl.transform.names import (
    component,
    expression_variables,
    feature_names,
    is_legal,
    type_names,
)
from benchmark.tracks.ocl.transform.resolve import AttributeUse, NavigationUse, Resolutions, resolve
from benchmark.tracks.ocl.transform.rewrite import Hook, all_instances_source, chain, rename_types
from benchmark.tracks.ocl.transform.subject import StateCopier, Subject, copy_subject, rewrite_expressions

STEP = "rename"


def plan_renaming(subject: Subject, seed: int) -> Renaming:
    """New names for every element of the subject's model (see the module docstring for the rules)."""
    model = subject.model
    forbidden = expression_variables(model, subject.extra)
    renaming = Renaming()
    # no new name is an old name of any kind: an answer written for the original model must not mean
    # something else in the renamed one
    old = type_names(model) | feature_names(model, model.classes)
    taken_types: set[str] = set()
    # feature names already given, per inheritance component (a frozenset of class names)
    features: dict[frozenset[str], set[str]] = {}

    def pick(name: str, kind: str, taken: set[str], extra_ok=lambda c: True) -> str:  # noqa: ANN001
        # every name a candidate can be refused for is in one of these sets (the numbered candidates are
        # legal names): with more numbered candidates than they hold, one is free
        refusable = len(taken) + len(old) + len(forbidden) + sum(len(f) for f in features.values())
        for cand in candidates(name, kind, seed, numbered=refusable + 1):
            if cand not in taken and cand not in old and cand not in forbidden:
                if is_legal(cand) and extra_ok(cand):
                    taken.add(cand)
                    return cand
        raise AssertionError(f"no new name for {name!r} among its candidates")

    for enum in model.enumerations.values():
        renaming.classes[enum.name] = pick(enum.name, "enumeration", taken_types)
    comps = {name: component(cls) for name, cls in model.classes.items()}

    def free_in(comps_: list[frozenset[str]]):  # noqa: ANN202
        return lambda cand: all(cand not in features.setdefault(c, set()) for c in comps_)

    for cls in model.classes.values():
        if cls.association is None:
            renaming.classes[cls.name] = pick(cls.name, "class", taken_types)
            continue
        # an association class: one name for the class and the association, and a navigation from
        # each participant named after it
        participants = [comps[e.class_name] for e in cls.association.ends]

        def link_role_free(cand: str, participants: list[frozenset[str]] = participants) -> bool:
            role = role_name_for(cand)
            return is_legal(role) and role not in forbidden and free_in(participants)(role)

        new = pick(cls.name, "class", taken_types, link_role_free)
        renaming.classes[cls.name] = renaming.associations[cls.name] = new
        for comp in participants:
            features.setdefault(comp, set()).add(role_name_for(new))
    for assoc in model.associations.values():
        if not assoc.is_class:
            renaming.associations[assoc.name] = pick(assoc.name, "association", taken_types)
    for cls in model.classes.values():
        comp = comps[cls.name]
        for attr in cls.attributes:
            new = pick(attr.name, "attribute", features.setdefault(comp, set()))
            renaming.attributes[(cls.name, attr.name)] = new
    for assoc in model.associations.values():
        for end in assoc.ends:
            seen_from = _seen_from(model, assoc, end.index, comps)
            new = pick(end.name, "role", set(), free_in(seen_from))
            for comp in seen_from:
                features[comp].add(new)
            renaming.roles[(assoc.name, end.name)] = new
    return renaming


def _seen_from(
    model: Model, assoc: Association, index: int, comps: dict[str, frozenset[str]]
) -> list[frozenset[str]]:
    """The components from which end ``index`` of ``assoc`` is navigated (other ends, the class)."""
    found = [comps[e.class_name] for e in assoc.ends if e.index != index]
    if assoc.is_class:
        found.append(comps[assoc.name])
    unique: list[frozenset[str]] = []
    for comp in found:
        if comp not in unique:
            unique.append(comp)
    return unique


def rename_hook(resolutions: Resolutions, renaming: Renaming) -> Hook:
    """Rewrite names the checker resolved to renamed elements (see the module docstring)."""

    def hook(original: ast.Node, node: ast.Node) -> ast.Node:
        use = resolutions.get(original)
        if isinstance(use, AttributeUse):
            new = renaming.attributes.get((use.owner.name, use.attribute.name), use.attribute.name)
            return dataclasses.replace(node, name=new)  # type: ignore[type-var]
        if isinstance(use, NavigationUse):
            nav = use.navigation
            assoc = nav.association.name
            if nav.target_end is not None:
                new = renaming.roles.get((assoc, nav.target_end.name), nav.target_end.name)
            else:  # participant -> link objects of an association class
                new = role_name_for(renaming.classes.get(assoc, assoc))
            changes: dict[str, object] = {"name": new}
            if isinstance(node, ast.PropertyCall) and node.roles:
                changes["roles"] = tuple(renaming.roles.get((assoc, r), r) for r in node.roles)
            return dataclasses.replace(node, **changes)  # type: ignore[type-var]
        source = all_instances_source(node)
        if source is not None and source.name in renaming.classes:
            assert isinstance(node, ast.PropertyCall)
            return dataclasses.replace(
                node, source=dataclasses.replace(source, name=renaming.classes[source.name])
            )
        return node

    return chain(hook, rename_types(renaming.classes))


def current_refs(model: Model) -> list[Ref]:
    """Every nameable element of the model, in model order."""
    refs: list[Ref] = [("enumeration", name) for name in model.enumerations]
    for cls in model.classes.values():
        refs.append(("class", cls.name))
        refs.extend(("attribute", (cls.name, a.name)) for a in cls.attributes)
    for assoc in model.associations.values():
        refs.append(("association", assoc.name))
        refs.extend(("role", (assoc.name, e.name)) for e in assoc.ends)
    return refs


def apply_renaming(subject: Subject, renaming: Renaming, resolutions: Resolutions) -> Subject:
    """The renamed copy of ``subject`` (model, extra invariants and states)."""
    new = copy_subject(subject)
    rewrite_expressions(subject, new, rename_hook(resolutions, renaming))
    model = new.model
    model.enumerations = {
        renaming.classes.get(name, name): _renamed(enum, renaming.classes.get(name, name))
        for name, enum in model.enumerations.items()
    }
    classes = {}
    for name, cls in model.classes.items():
        for attr in cls.attributes:
            attr.name = renaming.attributes.get((name, attr.name), attr.name)
        cls.name = renaming.classes.get(name, name)
        cls.supers = tuple(renaming.classes.get(s, s) for s in cls.supers)
        classes[cls.name] = cls
    model.classes = classes
    associations = {}
    for name, assoc in model.associations.items():
        for end in assoc.ends:
            end.role = renaming.roles.get((name, end.name), end.name)
            end.class_name = renaming.classes.get(end.class_name, end.class_name)
        assoc.name = renaming.associations.get(name, name)
        associations[assoc.name] = assoc
    model.associations = associations
    for inv in [*model.invariants, *new.extra]:
        inv.class_name = renaming.classes.get(inv.class_name, inv.class_name)
    model.finalize()
    copier = StateCopier(model, renaming)
    new.states = [copier.copy(state)[0] for state in subject.states]
    return new


def _renamed(enum: Enumeration, name: str) -> Enumeration:
    """The copy's enumeration under its new name; its type carries the name too (and is this model's
    own, since the model is a copy), so attribute types and values follow."""
    enum.name = name
    enum.type.name = name
    return enum


def rename(subject: Subject, seed: int, mapping: Mapping) -> Subject:
    """The rename step: plan, apply, and record it in ``mapping``."""
    resolutions = resolve(subject.model, subject.extra)
    renaming = plan_renaming(subject, seed)
    result = apply_renaming(subject, renaming, resolutions)
    mapping.rename(renaming, current_refs(subject.model))
    mapping.steps.append(STEP)
    return result
