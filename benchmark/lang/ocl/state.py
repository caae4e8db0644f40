"""Object states (USE's system state): objects with attribute values, and links between them.

A state is built by the SOIL reader (:mod:`benchmark.lang.ocl.soil`) or programmatically, then evaluated many
times; lookups the evaluator needs (links by association end, instances by class) are indexed lazily and
dropped whenever the state changes.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from benchmark.lang.ocl.errors import StateError
from benchmark.lang.ocl.model import Association, AssociationEnd, Class, Model
from benchmark.lang.ocl.values import Obj


class Link:
    """One link of an association: one object per end (in end order), and the link object if any."""

    __slots__ = ("association", "objects", "link_object")

    def __init__(
        self, association: Association, objects: tuple[Obj, ...], link_object: Obj | None = None
    ) -> None:
        self.association = association
        self.objects = objects
        self.link_object = link_object

    def __repr__(self) -> str:
        names = ", ".join(o.name for o in self.objects)
        return f"<link {self.association.name}({names})>"


class ObjectState:
    """Objects (in creation order) and links of one model; mutate only through the methods below."""

    def __init__(self, model: Model, *, file: str | None = None) -> None:
        self.model = model
        self.file = file
        self.objects: dict[str, Obj] = {}
        self.links: list[Link] = []
        self._link_keys: dict[tuple[int, tuple[int, ...]], Link] = {}
        self.version = 0
        self._links_at: dict[int, dict[Obj, list[Link]]] = {}
        self._instances: dict[str, tuple[Obj, ...]] = {}
        self._name_counters: dict[str, int] = {}

    # -- pickling -----------------------------------------------------------------------------------
    # The indexes are keyed by object identities (``id``), which a copy does not keep: a pickled state
    # (the OCL track's disk cache) carries its objects and links only and rebuilds its indexes.
    _INDEXES = ("_link_keys", "_links_at", "_instances")

    def __getstate__(self) -> dict[str, Any]:
        return {k: v for k, v in self.__dict__.items() if k not in self._INDEXES}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)
        self._links_at = {}
        self._instances = {}
        self._link_keys = {_link_key(link.association, link.objects): link for link in self.links}

    # -- changes ------------------------------------------------------------------------------------
    def _changed(self) -> None:
        self.version += 1
        if self._links_at:
            self._links_at.clear()
        if self._instances:
            self._instances.clear()

    def create_object(self, cls: Class, name: str) -> Obj:
        if cls.abstract:
            raise StateError(f"cannot create an object of the abstract class `{cls.name}'")
        if name in self.objects:
            raise StateError(f"an object named `{name}' already exists")
        obj = Obj(name, cls)
        self.objects[name] = obj
        self._changed()
        return obj

    def unique_name(self, cls: Class) -> str:
        """USE's generated object names (``UniqueNameGenerator``): the class name and a counter per class
        that only grows (a destroyed ``A1`` is not reused); a name taken by hand is skipped."""
        n = self._name_counters.get(cls.name, 0) + 1
        while f"{cls.name}{n}" in self.objects:
            n += 1
        self._name_counters[cls.name] = n
        return f"{cls.name}{n}"

    def set_attribute(self, obj: Obj, name: str, value: Any) -> None:
        attr = obj.cls.attribute(name)
        if attr is None:
            raise StateError(f"class `{obj.cls.name}' has no attribute `{name}'")
        if attr.derive is not None:
            raise StateError(f"attribute `{obj.cls.name}::{name}' is derived and cannot be set")
        obj.values[name] = value
        self._changed()

    def find_link(self, assoc: Association, objects: tuple[Obj, ...]) -> Link | None:
        return self._link_keys.get(_link_key(assoc, objects))

    def insert_link(self, assoc: Association, objects: Iterable[Obj], link_object: Obj | None = None) -> Link:
        objs = tuple(objects)
        if len(objs) != len(assoc.ends):
            raise StateError(
                f"association `{assoc.name}' has {len(assoc.ends)} ends, but {len(objs)} objects were given"
            )
        for obj, end in zip(objs, assoc.ends, strict=True):
            if end.class_name not in obj.cls.ancestor_names:
                raise StateError(
                    f"object `{obj.name}' of class `{obj.cls.name}' cannot be at end `{end.name}' of "
                    "association "
                    f"`{assoc.name}' (expected class `{end.class_name}')"
                )
        key = _link_key(assoc, objs)
        if key in self._link_keys:
            names = ", ".join(o.name for o in objs)
            raise StateError(f"a link ({names}) of association `{assoc.name}' already exists")
        link = Link(assoc, objs, link_object)
        if link_object is not None:
            link_object.link = link
        self.links.append(link)
        self._link_keys[key] = link
        self._changed()
        return link

    def delete_link(self, assoc: Association, objects: Iterable[Obj]) -> None:
        objs = tuple(objects)
        link = self.find_link(assoc, objs)
        if link is None:
            names = ", ".join(o.name for o in objs)
            raise StateError(f"there is no link ({names}) of association `{assoc.name}'")
        self._remove_link(link)

    def _remove_link(self, link: Link) -> None:
        self.links.remove(link)
        del self._link_keys[_link_key(link.association, link.objects)]
        if link.link_object is not None and link.link_object.name in self.objects:
            del self.objects[link.link_object.name]
        self._changed()

    def destroy_object(self, obj: Obj) -> None:
        """Remove the object, its links, and the link objects of those links (USE's ``destroy``)."""
        if self.objects.get(obj.name) is not obj:
            raise StateError(f"object `{obj.name}' does not exist")
        del self.objects[obj.name]
        for link in [lk for lk in self.links if obj in lk.objects or lk.link_object is obj]:
            self._remove_link(link)
        for other in self.objects.values():  # USE: attributes holding the object become undefined
            for name, value in other.values.items():
                if value is obj:
                    other.values[name] = None
        self._changed()

    # -- indexed lookups (used by the evaluator) ----------------------------------------------------
    def links_at(self, end: AssociationEnd) -> dict[Obj, list[Link]]:
        """Links of ``end``'s association grouped by the object at ``end``, in insertion order."""
        key = id(end)
        index = self._links_at.get(key)
        if index is None:
            index = {}
            for link in self.links:
                if link.association is end.association:
                    index.setdefault(link.objects[end.index], []).append(link)
            self._links_at[key] = index
        return index

    def instances(self, cls: Class) -> tuple[Obj, ...]:
        """Objects of ``cls`` and its subclasses, in creation order."""
        found = self._instances.get(cls.name)
        if found is None:
            found = tuple(o for o in self.objects.values() if cls.name in o.cls.ancestor_names)
            self._instances[cls.name] = found
        return found

    def object(self, name: str) -> Obj | None:
        return self.objects.get(name)


def _link_key(assoc: Association, objects: tuple[Obj, ...]) -> tuple[int, tuple[int, ...]]:
    return id(assoc), tuple(map(id, objects))
