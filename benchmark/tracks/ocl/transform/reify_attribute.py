"""Attribute reification: an attribute becomes a class of its own, reached through a new association.

``Person::age : Integer`` becomes a class ``Age`` with one attribute ``value : Integer`` and an
association ``PersonHasAge`` between ``Person[1] role person`` and ``Age[1] role age``. The role keeps the
attribute's name, so every read of the attribute -- ``p.age``, an implicit ``age``, the collect
shorthand ``persons.age`` -- becomes the same text followed by ``.value`` and means the same: ``p.age`` is
now the one ``Age`` object and ``.value`` its value (undefined when the attribute was; an undefined
``p`` gives undefined both ways), and over a collection the shorthand collects the ``Age`` objects and
then their values, in the same order and with the same flattening.

Every object of the owner (and of its subclasses) gets its own value object, named after the object
and the attribute (``annAge``), holding the value if the original set one, and linked to it; both ends
are ``1``, so the structure of a state is as valid as before.

Eligible: attributes that are neither derived nor initialised (their expressions belong to the owner)
and whose name is not also a navigation of the owner's inheritance component (it becomes a role).
Which eligible attributes are reified is :func:`.selection.choose` (``kind="attribute"``).
"""

from __future__ import annotations

from benchmark.lang.ocl import ast
from benchmark.lang.ocl.model import (
    Association,
    AssociationEnd,
    Attribute,
    Class,
    Model,
    Multiplicity,
    role_name_for,
)
from benchmark.tracks.ocl.transform.mapping import Mapping
from benchmark.tracks.ocl.transform.names import (
    capitalized,
    component,
    expression_variables,
    fresh,
    is_legal,
    type_names,
)
from benchmark.tracks.ocl.transform.resolve import AttributeUse, Resolutions, resolve
from benchmark.tracks.ocl.transform.rewrite import Hook
from benchmark.tracks.ocl.transform.selection import choose
from benchmark.tracks.ocl.transform.subject import (
    StateCopier,
    Subject,
    copy_subject,
    fresh_object_name,
    rewrite_expressions,
)

STEP = "attribute"
VALUE = "value"
ONE = Multiplicity(((1, 1),))


def eligible(model: Model) -> list[tuple[str, str]]:
    """(class, attribute) pairs that can be reified, in model order (see the module docstring)."""
    found = []
    for cls in model.classes.values():
        navigations = {n for c in component(cls) for n in model.classes[c].navigation_names()}
        for attr in cls.attributes:
            if attr.derive is None and attr.init is None and attr.name not in navigations:
                found.append((cls.name, attr.name))
    return found


def plan(subject: Subject, seed: int, resolutions: Resolutions) -> list[tuple[str, str]]:
    return choose(
        eligible(subject.model), resolutions.read_attributes, seed=seed, kind=STEP, model=subject.model.name
    )


def value_hook(resolutions: Resolutions, chosen: set[tuple[str, str]]) -> Hook:
    """``x.attr`` -> ``x.attr.value`` for the reified attributes."""

    def hook(original: ast.Node, node: ast.Node) -> ast.Node:
        use = resolutions.get(original)
        if isinstance(use, AttributeUse) and (use.owner.name, use.attribute.name) in chosen:
            assert isinstance(node, ast.Expr)
            return ast.PropertyCall(node, False, VALUE, line=node.line, column=node.column)
        return node

    return hook


def reify_attributes(subject: Subject, seed: int, mapping: Mapping) -> Subject:
    """The attribute step: choose, rewrite, restructure, rebuild states, record in ``mapping``."""
    resolutions = resolve(subject.model, subject.extra)
    chosen = plan(subject, seed, resolutions)
    mapping.steps.append(STEP)
    if not chosen:
        return subject
    new = copy_subject(subject)
    rewrite_expressions(subject, new, value_hook(resolutions, set(chosen)))
    model = new.model
    forbidden = expression_variables(model, new.extra)
    taken_types = type_names(model) | forbidden
    made: list[tuple[str, str, str, str, str]] = []  # owner, attribute, value class, association, owner role
    for owner_name, attr_name in chosen:
        owner = model.classes[owner_name]
        attr = next(a for a in owner.attributes if a.name == attr_name)
        value_class = _value_class_name(owner_name, attr_name, taken_types)
        association = fresh(f"{owner_name}Has{capitalized(attr_name)}", taken_types)
        owner_role = fresh(role_name_for(owner_name), {VALUE})
        owner.attributes.remove(attr)
        model.add_class(Class(value_class, attributes=[Attribute(VALUE, attr.type)]))
        model.add_association(
            Association(
                association,
                "association",
                [AssociationEnd(owner_name, ONE, owner_role), AssociationEnd(value_class, ONE, attr_name)],
            )
        )
        made.append((owner_name, attr_name, value_class, association, owner_role))
        mapping.reified_attributes.append(
            {
                "old": ("attribute", (owner_name, attr_name)),
                "class": ("class", value_class),
                "value": ("attribute", (value_class, VALUE)),
                "association": ("association", association),
                "role": ("role", (association, attr_name)),
                "owner_role": ("role", (association, owner_role)),
            }
        )
        mapping.created |= {
            ("class", value_class),
            ("attribute", (value_class, VALUE)),
            ("association", association),
            ("role", (association, attr_name)),
            ("role", (association, owner_role)),
        }
    model.finalize()
    copier = StateCopier(model, drop_attributes=set(chosen))
    for old in subject.states:
        state, objects = copier.copy(old)
        for owner_name, attr_name, value_class, association, _ in made:
            for obj in old.objects.values():
                if owner_name not in obj.cls.ancestor_names:
                    continue
                holder = state.create_object(
                    model.classes[value_class], fresh_object_name(state, obj.name + capitalized(attr_name))
                )
                if attr_name in obj.values:
                    state.set_attribute(holder, VALUE, copier.value(obj.values[attr_name], objects))
                state.insert_link(model.associations[association], [objects[obj.name], holder])
        new.states.append(state)
    return new


def _value_class_name(owner: str, attribute: str, taken: set[str]) -> str:
    """``Age`` for ``age``, or ``PersonAge`` when that is taken (then numbered)."""
    base = capitalized(attribute)
    if base not in taken and is_legal(base):
        taken.add(base)
        return base
    return fresh(owner + base, taken)


__all__ = ["eligible", "reify_attributes"]
