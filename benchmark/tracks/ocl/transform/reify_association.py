"""Association reification: a binary association becomes a class with two associations.

``association Teaches between Professor[0..1] role lecturer; Course[*] role courses ordered end``
becomes a class ``Teaches`` (one object per former link) and

* ``TeachesLecturer`` between ``Professor[1] role lecturer`` and ``Teaches[*] role teaches ordered``,
* ``TeachesCourses`` between ``Teaches[0..1] role teaches`` and ``Course[1] role courses``.

Each link object sits between exactly one object of each former end, and an object has as many link
objects as it had partners, so the multiplicity of a former end moves to the link-object end on the
other side (with its ``ordered``); an aggregation or composition stays one, with the whole first on
both new associations, so shared parts and part cycles are reported as before. When both ends belong to
one inheritance component (a reflexive association, or a class and its subclass), the link-object roles
say which side they start from (``supervisionAsBoss``) so that no class sees one role twice.

Navigation ``x.courses`` becomes ``x.teaches.courses`` (link objects, then their partners); a to-many
end is an OrderedSet or Set again with ``->asOrderedSet()`` / ``->asSet()`` (collecting over link
objects gives a Sequence or Bag, and ``Set{} = Bag{}`` is false). The collect shorthand ``xs.courses``
becomes ``xs.teaches.courses`` without that conversion: collecting twice gives the same Bag or
Sequence as collecting once. A role qualification ``x.r[s]`` is dropped (the new path is unambiguous).

Eligible: binary associations that are not association classes and whose two role names differ (they
become the link class's navigations). Which are reified is :func:`.selection.choose`
(``kind="association"``).

**The association-class form** (``form="association_class"``, ``atlbench ocl transform --association-as
association-class``) makes the association an association class instead: ``associationclass Teaches
between Professor[0..1] role lecturer; Course[*] role courses ordered end``, one link object per former
link (``!insert (p, c) into Teaches`` becomes a link object of ``Teaches`` between ``p`` and ``c``). The
references navigate through the link objects as above, ``x.courses`` becoming ``x.teaches.courses``
(``teaches``: the class name with a lower-case first letter, USE's navigation from a participant to an
association class, whose type the opposite end decides as before), but the direct navigation
``x.courses`` stays valid in USE: an answer that ignores the change is still right, which is why this
form is an option and the track's modes use the class form. Eligible in this form: the same associations
except those whose two ends lie in one inheritance component (USE would need ``x.teaches[lecturer]`` to
say which side a reflexive association class is navigated from).
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from benchmark.lang.ocl import ast
from benchmark.lang.ocl.model import Association, AssociationEnd, Class, Model, Multiplicity, role_name_for
from benchmark.tracks.ocl.transform.mapping import Mapping
from benchmark.tracks.ocl.transform.names import (
    capitalized,
    component,
    expression_variables,
    feature_names,
    fresh,
    is_legal,
    type_names,
)
from benchmark.tracks.ocl.transform.resolve import NavigationUse, Resolutions, resolve
from benchmark.tracks.ocl.transform.rewrite import Hook
from benchmark.tracks.ocl.transform.selection import choose
from benchmark.tracks.ocl.transform.subject import (
    StateCopier,
    Subject,
    copy_subject,
    rewrite_expressions,
)

STEP = "association"
ONE = Multiplicity(((1, 1),))
CLASS_FORM = "class"
ASSOCIATION_CLASS_FORM = "association_class"
FORMS = (CLASS_FORM, ASSOCIATION_CLASS_FORM)


@dataclass(frozen=True)
class Plan:
    """The new names for one reified association (ends 0 and 1 of the original)."""

    association: str
    link_class: str
    first: str  # association between end 0's class and the link class
    second: str  # association between the link class and end 1's class
    link_roles: tuple[str, str]  # role of the link-class end reached from end 0's class / end 1's class


def eligible(model: Model, form: str = CLASS_FORM) -> list[str]:
    found = [
        a.name
        for a in model.associations.values()
        if not a.is_class and not a.is_nary and a.ends[0].name != a.ends[1].name
    ]
    if form == ASSOCIATION_CLASS_FORM:
        found = [
            n
            for n in found
            if len({component(model.classes[e.class_name]) for e in model.associations[n].ends}) == 2
        ]
    return found


def plan(subject: Subject, seed: int, resolutions: Resolutions, form: str = CLASS_FORM) -> list[Plan]:
    if form == ASSOCIATION_CLASS_FORM:
        return plan_association_classes(subject, seed, resolutions)
    model = subject.model
    names = choose(eligible(model), resolutions.navigated, seed=seed, kind=STEP, model=model.name)
    forbidden = expression_variables(model, subject.extra)
    taken_types = (type_names(model) - set(names)) | forbidden
    features: dict[frozenset[str], set[str]] = {}
    plans = []
    for name in names:
        assoc = model.associations[name]
        first_end, second_end = assoc.ends
        link_class = fresh(name, taken_types)
        comps = [component(model.classes[e.class_name]) for e in assoc.ends]
        base = role_name_for(link_class)
        bases = (
            [base, base] if comps[0] != comps[1] else [f"{base}As{capitalized(e.name)}" for e in assoc.ends]
        )
        link_roles = []
        for comp, role_base in zip(comps, bases, strict=True):
            taken = features.setdefault(comp, feature_names(model, comp) | forbidden)
            link_roles.append(fresh(role_base, taken))
        plans.append(
            Plan(
                name,
                link_class,
                fresh(f"{link_class}{capitalized(first_end.name)}", taken_types),
                fresh(f"{link_class}{capitalized(second_end.name)}", taken_types),
                (link_roles[0], link_roles[1]),
            )
        )
    return plans


def plan_association_classes(subject: Subject, seed: int, resolutions: Resolutions) -> list[Plan]:
    """Plans of the association-class form: the class is the association (one name for both) and its
    navigation from each participant is the class name with a lower-case first letter, so the name is
    drawn until that navigation is free in both participants' inheritance components."""
    model = subject.model
    names = choose(
        eligible(model, ASSOCIATION_CLASS_FORM), resolutions.navigated, seed=seed, kind=STEP, model=model.name
    )
    forbidden = expression_variables(model, subject.extra)
    taken_types = (type_names(model) - set(names)) | forbidden
    features: dict[frozenset[str], set[str]] = {}
    plans = []
    for name in names:
        comps = [component(model.classes[e.class_name]) for e in model.associations[name].ends]
        taken = [features.setdefault(c, feature_names(model, c) | forbidden) for c in comps]

        def navigation_free(candidate: str, taken: list[set[str]] = taken) -> bool:
            navigation = role_name_for(candidate)
            return is_legal(navigation) and all(navigation not in t for t in taken)

        candidate = fresh(name, taken_types, navigation_free)
        navigation = role_name_for(candidate)
        for t in taken:
            t.add(navigation)
        plans.append(Plan(name, candidate, candidate, candidate, (navigation, navigation)))
    return plans


def path_hook(resolutions: Resolutions, plans: dict[str, Plan]) -> Hook:
    """``x.r`` -> ``x.link.r`` (with ``->asSet()`` / ``->asOrderedSet()`` for to-many ends)."""

    def hook(original: ast.Node, node: ast.Node) -> ast.Node:
        use = resolutions.get(original)
        if not isinstance(use, NavigationUse) or use.navigation.association.name not in plans:
            return node
        nav = use.navigation
        assert nav.source_end is not None and nav.target_end is not None
        p = plans[nav.association.name]
        changes: dict[str, object] = {"name": p.link_roles[nav.source_end.index]}
        if isinstance(node, ast.PropertyCall):
            changes["roles"] = ()
        inner = dataclasses.replace(node, **changes)  # type: ignore[type-var]
        assert isinstance(inner, ast.Expr)
        where = {"line": node.line, "column": node.column}
        path: ast.Expr = ast.PropertyCall(inner, False, nav.target_end.name, **where)
        if not use.collect and nav.target_end.multiplicity.is_collection:
            convert = "asOrderedSet" if nav.target_end.ordered else "asSet"
            path = ast.PropertyCall(path, True, convert, (), **where)
        return path

    return hook


def reify_associations(subject: Subject, seed: int, mapping: Mapping, form: str = CLASS_FORM) -> Subject:
    """The association step: choose, rewrite, restructure, rebuild states, record in ``mapping``."""
    if form not in FORMS:
        raise ValueError(f"unknown association reification form {form!r}; expected one of {', '.join(FORMS)}")
    resolutions = resolve(subject.model, subject.extra)
    plans = plan(subject, seed, resolutions, form)
    mapping.steps.append(STEP)
    mapping.association_form = form
    if not plans:
        return subject
    new = copy_subject(subject)
    rewrite_expressions(subject, new, path_hook(resolutions, {p.association: p for p in plans}))
    if form == ASSOCIATION_CLASS_FORM:
        return _to_association_classes(subject, new, plans, mapping)
    model = new.model
    for p in plans:
        assoc = model.associations.pop(p.association)
        e0, e1 = assoc.ends
        model.add_class(Class(p.link_class))
        model.add_association(
            Association(
                p.first,
                assoc.kind,
                [
                    AssociationEnd(e0.class_name, ONE, e0.name, navigable=e0.navigable),
                    AssociationEnd(p.link_class, e1.multiplicity, p.link_roles[0], e1.ordered, e1.navigable),
                ],
            )
        )
        model.add_association(
            Association(
                p.second,
                assoc.kind,
                [
                    AssociationEnd(p.link_class, e0.multiplicity, p.link_roles[1], e0.ordered, e0.navigable),
                    AssociationEnd(e1.class_name, ONE, e1.name, navigable=e1.navigable),
                ],
            )
        )
        mapping.reified_associations.append(
            {
                "old": ("association", p.association),
                "class": ("class", p.link_class),
                "associations": [("association", p.first), ("association", p.second)],
                "ends": [
                    {
                        "old": ("role", (p.association, e0.name)),
                        "role": ("role", (p.first, e0.name)),
                        "link_role": ("role", (p.second, p.link_roles[1])),
                    },
                    {
                        "old": ("role", (p.association, e1.name)),
                        "role": ("role", (p.second, e1.name)),
                        "link_role": ("role", (p.first, p.link_roles[0])),
                    },
                ],
            }
        )
        mapping.created |= {
            ("class", p.link_class),
            ("association", p.first),
            ("association", p.second),
            ("role", (p.first, e0.name)),
            ("role", (p.first, p.link_roles[0])),
            ("role", (p.second, p.link_roles[1])),
            ("role", (p.second, e1.name)),
        }
    model.finalize()
    copier = StateCopier(model, skip_associations={p.association for p in plans})
    for old in subject.states:
        state, objects = copier.copy(old)
        for p in plans:
            link_class = model.classes[p.link_class]
            base = role_name_for(p.link_class)
            number = 0
            for link in old.links:
                if link.association.name != p.association:
                    continue
                first, second = (objects[o.name] for o in link.objects)
                number += 1
                while f"{base}{number}" in state.objects:
                    number += 1
                link_object = state.create_object(link_class, f"{base}{number}")
                state.insert_link(model.associations[p.first], [first, link_object])
                state.insert_link(model.associations[p.second], [link_object, second])
        new.states.append(state)
    return new


def _to_association_classes(old: Subject, new: Subject, plans: list[Plan], mapping: Mapping) -> Subject:
    """The association-class form's model, states and record (the expressions are rewritten already)."""
    model = new.model
    for p in plans:
        assoc = model.associations.pop(p.association)
        cls = Class(p.link_class)
        model.add_class(cls)
        ends = [
            AssociationEnd(e.class_name, e.multiplicity, e.name, e.ordered, e.navigable) for e in assoc.ends
        ]
        link_assoc = Association(p.link_class, assoc.kind, ends, is_class=True)
        model.add_association(link_assoc)
        cls.association = link_assoc
        mapping.reified_associations.append(
            {
                "old": ("association", p.association),
                "class": ("class", p.link_class),
                "associations": [("association", p.link_class)],
                "ends": [
                    {"old": ("role", (p.association, e.name)), "role": ("role", (p.link_class, e.name))}
                    for e in assoc.ends
                ],
            }
        )
        mapping.created |= {
            ("class", p.link_class),
            ("association", p.link_class),
            *(("role", (p.link_class, e.name)) for e in assoc.ends),
        }
    model.finalize()
    copier = StateCopier(model, skip_associations={p.association for p in plans})
    for state_before in old.states:
        state, objects = copier.copy(state_before)
        for p in plans:
            link_class, link_assoc = model.classes[p.link_class], model.associations[p.link_class]
            base, number = p.link_roles[0], 0
            for link in state_before.links:
                if link.association.name != p.association:
                    continue
                number += 1
                while f"{base}{number}" in state.objects:
                    number += 1
                link_object = state.create_object(link_class, f"{base}{number}")
                state.insert_link(link_assoc, [objects[o.name] for o in link.objects], link_object)
        new.states.append(state)
    return new


__all__ = ["ASSOCIATION_CLASS_FORM", "CLASS_FORM", "FORMS", "Plan", "eligible", "reify_associations"]
