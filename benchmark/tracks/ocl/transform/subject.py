"""What a transformation step works on, and the copying every step shares.

A :class:`Subject` is one model with its invariants, further invariants that live outside it (a
constraints file, the reference OCL of a specification) and object states of that model. A step never
changes its input: it copies the model (:func:`copy_subject`), rewrites every expression of the copy
from the original's ASTs (:func:`rewrite_expressions`, so the recorded meanings of the original's nodes
apply), changes the copy's structure, and rebuilds each state for the new model (:func:`copy_state`,
then its own additions).
"""

from __future__ import annotations

import io
import pickle
from dataclasses import dataclass, field
from typing import Any

from benchmark.lang.ocl.compiler import Runtime
from benchmark.lang.ocl.model import Class, Invariant, Model
from benchmark.lang.ocl.state import ObjectState
from benchmark.lang.ocl.types import ClassType, CollectionType, EnumType, TupleType, Type
from benchmark.lang.ocl.values import EnumValue, Obj, OclCollection, OclTuple, make_collection
from benchmark.lang.words.synonyms import identifier_form
from benchmark.tracks.ocl.transform.mapping import Renaming
from benchmark.tracks.ocl.transform.rewrite import Hook, rewrite


@dataclass
class Subject:
    model: Model  # finalized; its invariants are the ones of the .use file
    extra: list[Invariant] = field(default_factory=list)  # invariants kept outside the model
    states: list[ObjectState] = field(default_factory=list)

    def check(self) -> Runtime:
        """Type check the model and the extra invariants (raises the checker's errors)."""
        runtime = Runtime(self.model)
        for inv in self.extra:
            runtime.compile_invariant(inv)
        return runtime


def detached(model: Model, counter: int | None = None) -> Model:
    """A model sharing ``model``'s types but holding none of its invariants: constraints parsed into
    it (``parse_constraints``) are checked against the model without joining it, and may reuse the
    names of its invariants. Unnamed ones continue from ``counter`` (default: the model's numbering)."""
    scratch = Model(model.name, model.enumerations, model.classes, model.associations)
    scratch.invariant_counter = model.invariant_counter if counter is None else counter
    return scratch


def copy_subject(subject: Subject) -> Subject:
    """A deep copy of the model and the extra invariants (states are rebuilt, never copied).

    Expressions are shared, not copied: AST nodes are immutable, and every step replaces them anyway.
    """
    model, extra = _copy_sharing((subject.model, subject.extra), _expressions(subject))
    return Subject(model, extra, [])


def _copy_sharing(value: Any, shared: list[Any]) -> Any:
    """``copy.deepcopy(value)`` except for the objects in ``shared``, which the copy refers to as they
    are. Done by pickling into memory and back (the objects of ``shared`` passed by reference), which
    gives what ``deepcopy`` with those objects in its memo gives (both rebuild every object through its
    ``__reduce_ex__``) several times faster; the model of a subject is picklable anyway, the OCL track
    keeps its variants in a pickled disk cache."""
    by_id = {id(x): i for i, x in enumerate(shared)}

    class _Pickler(pickle.Pickler):
        def persistent_id(self, obj: Any) -> int | None:
            return by_id.get(id(obj))

    class _Unpickler(pickle.Unpickler):
        def persistent_load(self, pid: Any) -> Any:
            return shared[pid]

    buffer = io.BytesIO()
    _Pickler(buffer, protocol=pickle.HIGHEST_PROTOCOL).dump(value)
    buffer.seek(0)
    return _Unpickler(buffer).load()


def _expressions(subject: Subject) -> list[Any]:
    found: list[Any] = []
    for cls in subject.model.classes.values():
        found += [e for a in cls.attributes for e in (a.derive, a.init) if e is not None]
        found += [op.body for op in cls.operations if op.body is not None]
        found += [c.expr for op in cls.operations for c in op.conditions]
    found += [inv.expr for inv in [*subject.model.invariants, *subject.extra]]
    return found


def rewrite_expressions(old: Subject, new: Subject, hook: Hook) -> None:
    """Set every expression of ``new`` (a fresh :func:`copy_subject` of ``old``) to the rewritten
    expression of ``old``: derived and initial values, operation bodies and conditions, invariants."""
    for old_cls, new_cls in zip(old.model.classes.values(), new.model.classes.values(), strict=True):
        for old_attr, new_attr in zip(old_cls.attributes, new_cls.attributes, strict=True):
            if old_attr.derive is not None:
                new_attr.derive = rewrite(old_attr.derive, hook)
            if old_attr.init is not None:
                new_attr.init = rewrite(old_attr.init, hook)
        for old_op, new_op in zip(old_cls.operations, new_cls.operations, strict=True):
            if old_op.body is not None:
                new_op.body = rewrite(old_op.body, hook)
            for old_cond, new_cond in zip(old_op.conditions, new_op.conditions, strict=True):
                new_cond.expr = rewrite(old_cond.expr, hook)
    for old_inv, new_inv in zip(
        [*old.model.invariants, *old.extra], [*new.model.invariants, *new.extra], strict=True
    ):
        new_inv.expr = rewrite(old_inv.expr, hook)


def declaring_class(cls: Class, attribute: str) -> str:
    """The class among ``cls`` and its ancestors that declares ``attribute``."""
    for anc in cls.ancestors:
        if any(a.name == attribute for a in anc.attributes):
            return anc.name
    raise KeyError(f"{cls.name}::{attribute}")


class StateCopier:
    """Rebuilds a state for the new model: same objects in the same order, values, links.

    ``renaming`` gives new class, enumeration, attribute and association names; values of the
    attributes in ``drop_attributes`` ((class, attribute) pairs) and links of ``skip_associations`` are
    left out, for the step to rebuild in its own way.
    """

    def __init__(
        self,
        model: Model,
        renaming: Renaming | None = None,
        *,
        drop_attributes: set[tuple[str, str]] | None = None,
        skip_associations: set[str] | None = None,
    ) -> None:
        self.model = model
        self.renaming = renaming or Renaming()
        self.drop_attributes = drop_attributes or set()
        self.skip_associations = skip_associations or set()

    def class_name(self, name: str) -> str:
        return self.renaming.classes.get(name, name)

    def copy(self, old: ObjectState) -> tuple[ObjectState, dict[str, Obj]]:
        """The new state and the new objects by (unchanged) object name."""
        state = ObjectState(self.model, file=old.file)
        objects: dict[str, Obj] = {}
        for obj in old.objects.values():
            objects[obj.name] = state.create_object(
                self.model.classes[self.class_name(obj.cls.name)], obj.name
            )
        # (old class, attribute) -> the attribute's name in the new state, None when it is dropped
        names: dict[tuple[str, str], str | None] = {}
        for obj in old.objects.values():
            new_obj = objects[obj.name]
            for name, value in obj.values.items():
                key = (obj.cls.name, name)
                if key not in names:
                    owner = declaring_class(obj.cls, name)
                    dropped = (owner, name) in self.drop_attributes
                    names[key] = None if dropped else self.renaming.attributes.get((owner, name), name)
                new_name = names[key]
                if new_name is not None:
                    state.set_attribute(new_obj, new_name, self.value(value, objects))
        associations: dict[str, Any] = {}  # old association name -> the new model's association
        for link in old.links:
            if link.association.name in self.skip_associations:
                continue
            assoc = associations.get(link.association.name)
            if assoc is None:
                assoc = associations[link.association.name] = self.model.associations[
                    self.renaming.associations.get(link.association.name, link.association.name)
                ]
            link_object = objects[link.link_object.name] if link.link_object is not None else None
            state.insert_link(assoc, [objects[o.name] for o in link.objects], link_object)
        return state, objects

    def value(self, v: Any, objects: dict[str, Obj]) -> Any:
        if isinstance(v, Obj):
            return objects[v.name]
        if isinstance(v, EnumValue):
            return self.model.enumerations[self.class_name(v.type.name)].values[v.literal]
        if isinstance(v, OclCollection):
            return make_collection(v.kind, (self.value(x, objects) for x in v))
        if isinstance(v, OclTuple):
            return OclTuple(self.type(v.type), {k: self.value(x, objects) for k, x in v.values.items()})
        return v

    def type(self, t: Type) -> Any:
        if isinstance(t, ClassType):
            return self.model.classes[self.class_name(t.name)].type
        if isinstance(t, EnumType):
            return self.model.enumerations[self.class_name(t.name)].type
        if isinstance(t, CollectionType):
            return CollectionType(t.kind, self.type(t.elem))
        if isinstance(t, TupleType):
            return TupleType((n, self.type(p)) for n, p in t.parts)
        return t


def fresh_object_name(state: ObjectState, base: str) -> str:
    """A new object's name: ``base`` (as an identifier, which a SOIL file can hold: ``person0$x``, made of
    an object and a ``$`` attribute, gives ``person0_x``), numbered when the state has it already."""
    base = identifier_form(base) or "object"
    name, n = base, 2
    while name in state.objects:
        name = f"{base}{n}"
        n += 1
    return name
