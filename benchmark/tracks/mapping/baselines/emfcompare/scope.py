"""What EMF Compare sees of a metamodel: the comparison scope, feature values and thresholds.

``DefaultComparisonScope`` yields ``EcoreUtil.getAllProperContents`` of a resource: a pre-order walk over
EMF's containment features in EMF's order, roots in resource order, leaving out plain ``EGenericType``s
(those without type arguments that are not themselves an argument or bound). pyecore's own
``eAllContents`` is not pre-order and its meta-level differs from EMF's, so this module walks the pyecore
objects with EMF's containment table and reads every weighted feature with EMF's semantics (EMF's
defaults, ``eIsSet`` and derived values) into a :class:`Node`: everything the distance needs, computed
once per object instead of once per comparison.

pyecore stores ``EAnnotation.details`` as a dict; EMF has one ``EStringToStringMapEntry`` object per
entry. Those objects are recreated here as synthetic nodes, because EMF Compare matches them too and
their presence changes the processing order of every other metaclass (see :mod:`.matcher`).
"""

from __future__ import annotations

import types
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from pyecore.ecore import EObject, EProxy

from benchmark.tracks.mapping.baselines.emfcompare.metaclasses import (
    ATTRIBUTE_WEIGHT,
    ECORE_CLASSIFIER_INDEX,
    ECORE_NS_URI,
    METACLASSES,
    THRESHOLD_RATIOS,
    Containment,
    MetaClass,
)

ROOT_SEGMENT = "0"


class Target:
    """A reference value as EMF Compare's ``EqualityHelper`` and ``URIDistance`` see it.

    ``path`` is EMF Compare's positional location, leaf first (``["@eClassifiers.1", "0"]``); every root
    is ``"0"``. ``container`` is the containing :class:`Node` when the value is in the compared
    resource; ``has_container`` also covers values resolved into another resource.
    """

    __slots__ = ("metaclass", "path", "container", "has_container", "fragment", "label")

    def __init__(
        self,
        metaclass: str,
        path: tuple[str, ...],
        container: Node | None,
        has_container: bool,
        fragment: str | None,
        label: str = "",
    ) -> None:
        self.metaclass = metaclass
        self.path = path
        self.container = container
        self.has_container = has_container
        self.fragment = fragment
        self.label = label

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.metaclass} {self.label or list(self.path)}>"


class Node(Target):
    """One object of the comparison scope, with every value the match engine reads precomputed.

    ``attrs`` follows ``meta.attributes`` (EMF ``eGet`` values, ``None`` for null); ``refs`` follows
    ``meta.references`` (a :class:`Target` or ``None`` for single-valued references, a tuple for
    many-valued ones) and ``ref_set`` their ``eIsSet``. ``threshold`` is
    ``EditionDistance.getThresholdAmount``.
    """

    __slots__ = (
        "uid",
        "obj",
        "side",
        "meta",
        "feature_key",
        "index",
        "attrs",
        "refs",
        "ref_set",
        "threshold",
        "identity_key",
        "in_scope",
        "entry_key",
    )

    def __init__(
        self,
        *,
        obj: Any,
        side: int,
        meta: MetaClass,
        container: Node | None,
        feature_key: str | None,
        index: int,
        path: tuple[str, ...],
        fragment: str | None,
    ) -> None:
        super().__init__(meta.name, path, container, container is not None, fragment)
        self.uid = -1
        self.obj = obj
        self.side = side
        self.meta = meta
        self.feature_key = feature_key
        self.index = index
        self.attrs: tuple[Any, ...] = ()
        self.refs: tuple[Any, ...] = ()
        self.ref_set: tuple[bool, ...] = ()
        self.threshold = 0.0
        self.identity_key: Any = None
        self.in_scope = False
        self.entry_key: str | None = None

    def __repr__(self) -> str:
        return f"<Node {self.metaclass} {'/'.join(reversed(self.path))}>"


def metaclass_of(obj: Any) -> MetaClass | None:
    """The EMF metaclass of a pyecore Ecore object, or ``None`` for anything else."""
    eclass = getattr(obj, "eClass", None)
    name = getattr(eclass, "name", None)
    return METACLASSES.get(name) if isinstance(name, str) else None


def _children(obj: Any, containment: Containment) -> Sequence[Any]:
    value = getattr(obj, containment.name, None)
    if value is None:
        return ()
    if containment.many:
        return list(value)
    return (value,)


class ScopeBuilder:
    """Builds the nodes of one resource (one side of the comparison)."""

    def __init__(self, roots: Sequence[EObject], side: int) -> None:
        self.roots = tuple(roots)
        self.side = side
        self.nodes: list[Node] = []
        self.by_object: dict[int, Node] = {}
        self._targets: dict[tuple[int, bool], Target] = {}
        self._root_ids = {id(r) for r in self.roots}

    # -- traversal -------------------------------------------------------------------------------

    def build(self) -> list[Node]:
        for root in self.roots:
            meta = metaclass_of(root)
            if meta is None:
                continue
            self._walk(root, meta, None, None, 0, (ROOT_SEGMENT,), None, in_generic=False)
        for node in self.nodes:
            _read_values(node, self)
        return self.nodes

    def _walk(
        self,
        obj: Any,
        meta: MetaClass,
        container: Node | None,
        feature_key: str | None,
        index: int,
        path: tuple[str, ...],
        fragment: str | None,
        *,
        in_generic: bool,
    ) -> Node:
        node = Node(
            obj=obj,
            side=self.side,
            meta=meta,
            container=container,
            feature_key=feature_key,
            index=index,
            path=path,
            fragment=fragment,
        )
        # DefaultComparisonScope leaves out EGenericTypes without type arguments unless they are an
        # argument or bound of another EGenericType; their contents are still walked.
        visible = meta.name != "EGenericType" or in_generic or bool(_children(obj, _TYPE_ARGUMENTS))
        if visible:
            self.nodes.append(node)
        self.by_object[id(obj)] = node
        for containment in meta.containments:
            if containment.key == "EAnnotation.details":
                self._walk_details(obj, node, containment, path)
                continue
            for position, child in enumerate(_children(obj, containment)):
                child_meta = metaclass_of(child)
                if child_meta is None:
                    continue  # not an Ecore object (EAnnotation.contents may hold anything)
                segment = f"@{containment.name}.{position}" if containment.many else f"@{containment.name}"
                self._walk(
                    child,
                    child_meta,
                    node,
                    containment.key,
                    position if containment.many else 0,
                    (segment, *path),
                    segment,
                    in_generic=meta.name == "EGenericType",
                )
        return node

    def _walk_details(
        self, annotation: Any, node: Node, containment: Containment, path: tuple[str, ...]
    ) -> None:
        details = getattr(annotation, "details", None)
        if not isinstance(details, Mapping):
            return
        entry_meta = METACLASSES["EStringToStringMapEntry"]
        for position, (key, value) in enumerate(details.items()):
            segment = f"@details.{position}"
            entry = Node(
                obj=None,
                side=self.side,
                meta=entry_meta,
                container=node,
                feature_key=containment.key,
                index=position,
                path=(segment, *path),
                fragment=segment,
            )
            entry.entry_key = None if key is None else str(key)
            entry.attrs = (entry.entry_key, None if value is None else str(value))
            self.nodes.append(entry)

    # -- reference targets -----------------------------------------------------------------------

    def target(self, value: Any, *, resolving: bool, fallback_metaclass: str = "EClass") -> Target | None:
        """The EMF view of a reference value: a node of this resource, or an external object.

        EMF keeps cross-resource references as unresolved proxies unless EMF Compare reads them through
        a resolving list (``resolving``). A proxy has no container, so its location is ``["0"]``.
        """
        if value is None:
            return None
        if isinstance(value, EProxy):
            try:
                value = value.force_resolve()
            except Exception:  # an unresolvable proxy stays a proxy in EMF too
                return _unresolved_proxy(value, fallback_metaclass)
        node = self.by_object.get(id(value))
        if node is not None:
            return node
        key = (id(value), resolving)
        cached = self._targets.get(key)
        if cached is None:
            cached = self._external(value, resolving)
            self._targets[key] = cached
        return cached

    def _external(self, value: Any, resolving: bool) -> Target:
        meta = metaclass_of(value)
        metaclass = (
            meta.name if meta is not None else getattr(getattr(value, "eClass", None), "name", "EObject")
        )
        label = str(getattr(value, "name", "") or "")
        if self._root_of(value) in self._root_ids:
            # In this resource but outside the scope (a plain EGenericType's content, say).
            path = _positional_path(value)
            return Target(metaclass, path, None, len(path) > 1, path[0] if len(path) > 1 else None, label)
        if not resolving:
            return Target(metaclass, (ROOT_SEGMENT,), None, False, None, label)
        if label in ECORE_CLASSIFIER_INDEX and _is_ecore_builtin(value):
            # A pyecore built-in (or the loader's supplement of Ecore classifiers pyecore lacks): EMF
            # resolves it into the runtime EcorePackage, a root, at EMF's classifier position.
            segment = f"@eClassifiers.{ECORE_CLASSIFIER_INDEX[label]}"
            return Target(metaclass, (segment, ROOT_SEGMENT), None, True, segment, label)
        path = _positional_path(value)
        return Target(metaclass, path, None, len(path) > 1, path[0] if len(path) > 1 else None, label)

    @staticmethod
    def _root_of(value: Any) -> int:
        current = value
        while True:
            parent = current.eContainer() if isinstance(current, EObject) else None
            if not isinstance(parent, EObject):
                return id(current)
            current = parent


def _is_ecore_builtin(value: Any) -> bool:
    """Whether a classifier stands for one of EMF's own Ecore classifiers.

    pyecore's built-ins have the ``pyecore.ecore`` module as "container"; classifiers pyecore lacks
    (``EMap``, ...) are supplied by the loader in a package carrying Ecore's nsURI.
    """
    container = value.eContainer() if isinstance(value, EObject) else None
    if not isinstance(container, EObject):
        return True
    return getattr(container, "nsURI", None) == ECORE_NS_URI and container.eContainer() is None


def _unresolved_proxy(proxy: EProxy, fallback_metaclass: str) -> Target:
    """A proxy pyecore cannot resolve. EMF takes the proxy's metaclass from the href's ``xsi:type``,
    which pyecore does not keep: Ecore's own classifiers are recognised by name, anything else gets the
    metaclass its referencing feature usually has."""
    path = str(getattr(proxy, "_proxy_path", "") or "")
    name = path.rsplit("/", 1)[-1].rsplit("#", 1)[-1]
    index = ECORE_CLASSIFIER_INDEX.get(name)
    if index is not None:
        metaclass = "EClass" if index < _FIRST_ECORE_DATA_TYPE else "EDataType"
    else:
        metaclass = fallback_metaclass
    return Target(metaclass, (ROOT_SEGMENT,), None, False, None, path)


_FIRST_ECORE_DATA_TYPE = ECORE_CLASSIFIER_INDEX["EBigDecimal"]
_TYPE_ARGUMENTS = Containment("EGenericType.eTypeArguments", "eTypeArguments", True)


def _positional_path(value: Any) -> tuple[str, ...]:
    """EMF Compare's location of an object outside the scope, computed from pyecore's containment."""
    segments: list[str] = []
    current = value
    while True:
        parent = current.eContainer() if isinstance(current, EObject) else None
        if not isinstance(parent, EObject) or isinstance(parent, types.ModuleType):
            segments.append(ROOT_SEGMENT)
            return tuple(segments)
        feature = current.eContainmentFeature()
        name = feature.name
        if feature.many:
            segments.append(f"@{name}.{list(getattr(parent, name)).index(current)}")
        else:
            segments.append(f"@{name}")
        current = parent


# -- EMF feature values ----------------------------------------------------------------------------


def _get(obj: Any, name: str) -> Any:
    try:
        return getattr(obj, name)
    except Exception:  # pyecore raises on some unset derived values
        return None


def _explicit(obj: Any, name: str) -> bool:
    """Whether pyecore was given a value for ``name`` (its ``eIsSet`` means "was assigned")."""
    try:
        return bool(obj.eIsSet(name))
    except Exception:
        return False


def _erasure(type_name: str) -> str:
    """``EClassifierImpl.setInstanceTypeName``'s instance class name: the type without arguments."""
    head, bracket, _ = type_name.partition("<")
    if not bracket:
        return type_name
    arrays = type_name[type_name.rfind(">") + 1 :]
    return head + (arrays if set(arrays) <= {"[", "]"} else "")


def _classifier_names(obj: Any) -> tuple[str | None, str | None, bool, bool]:
    """``(instanceClassName, instanceTypeName, isSet(className), isSet(typeName))`` as EMF has them.

    EMF stores both names; setting the class name sets the type name to the same string, setting a
    generic type name sets the class name to its erasure; each is "set" only when it carries
    information the other does not.
    """
    type_name = _get(obj, "instanceTypeName") if _explicit(obj, "instanceTypeName") else None
    if type_name is not None:
        class_name = _erasure(type_name)
        return class_name, type_name, class_name == type_name, class_name != type_name
    value = _get(obj, "instanceClassName")
    if value is None and hasattr(obj, "instanceClassName_"):
        value = _get(obj, "instanceClassName_")
    name = value if isinstance(value, str) else None
    return name, name, name is not None, False


def _bool(value: Any, default: bool) -> bool:
    return default if value is None else bool(value)


def _int(value: Any, default: int) -> int:
    try:
        return default if value is None else int(value)
    except (TypeError, ValueError):
        return default


def _attribute_values(node: Node) -> tuple[tuple[Any, ...], int, int]:
    """EMF ``eGet`` values of the weighted attributes, plus (count, weight) of those that are set."""
    obj = node.obj
    kind = node.metaclass
    values: list[Any] = []
    count = 0
    weight = 0
    for attribute in node.meta.attributes:
        name = attribute.name
        if name in ("name", "nsURI", "nsPrefix", "source", "defaultValueLiteral"):
            value = _get(obj, name)
            value = value if isinstance(value, str) else (None if value is None else str(value))
            is_set = value is not None
        elif name == "instanceClassName":
            class_name, _, class_set, _ = _classifier_names(obj)
            value, is_set = class_name, class_set
        elif name == "instanceTypeName":
            _, type_name, _, type_set = _classifier_names(obj)
            value, is_set = type_name, type_set
        elif name in ("serializable", "resolveProxies"):
            # pyecore defaults these to False; EMF to true. Only an explicit value counts.
            value = _bool(_get(obj, name), True) if _explicit(obj, name) else True
            is_set = not value
        elif name in ("ordered", "unique", "changeable"):
            value = _bool(_get(obj, name), True)
            is_set = not value
        elif name in (
            "abstract",
            "interface",
            "volatile",
            "transient",
            "unsettable",
            "derived",
            "iD",
            "containment",
        ):
            value = _bool(_get(obj, name), False)
            is_set = value
        elif name == "lowerBound":
            value = _int(_get(obj, name), 0)
            is_set = value != 0
        elif name == "upperBound":
            value = _int(_get(obj, name), 1)
            is_set = value != 1
        elif name == "value":  # EEnumLiteral.value
            value = _int(_get(obj, name), 0)
            is_set = value != 0
        elif name == "literal":  # EEnumLiteral.getLiteral() falls back to the name
            literal = _get(obj, name)
            is_set = isinstance(literal, str)
            value = literal if is_set else _get(obj, "name")
        else:  # pragma: no cover - the table and this function are kept in step
            raise AssertionError(f"no EMF semantics for {kind}.{name}")
        values.append(value)
        if is_set:
            count += 1
            weight += attribute.weight
    return tuple(values), count, weight


def _generic_type_is_set(generic: Any) -> bool:
    """Whether an ``eGenericType`` carries more than its classifier (arguments or a type parameter)."""
    return generic is not None and (
        bool(_children(generic, _TYPE_ARGUMENTS)) or _get(generic, "eTypeParameter") is not None
    )


def _reference_values(node: Node, builder: ScopeBuilder) -> tuple[tuple[Any, ...], tuple[bool, ...]]:
    obj = node.obj
    values: list[Any] = []
    flags: list[bool] = []
    for reference in node.meta.references:
        name = reference.name
        if name == "eType":
            generic = _get(obj, "eGenericType")
            raw = _get(obj, "eType")
            if raw is None and generic is not None:
                raw = _get(generic, "eClassifier")  # EMF's eType is the generic type's erasure
            fallback = "EDataType" if node.metaclass == "EAttribute" else "EClass"
            value: Any = builder.target(raw, resolving=False, fallback_metaclass=fallback)
            is_set = value is not None and not _generic_type_is_set(generic)
        elif reference.many:
            items = _get(obj, name)
            targets = tuple(
                t
                for t in (builder.target(v, resolving=reference.resolving) for v in (items or ()))
                if t is not None
            )
            value = targets
            is_set = bool(targets)
            if name == "eSuperTypes" and is_set:
                generics = _get(obj, "eGenericSuperTypes") or ()
                is_set = not any(_generic_type_is_set(g) for g in generics)
        else:
            value = builder.target(_get(obj, name), resolving=reference.resolving)
            is_set = value is not None
        values.append(value)
        flags.append(is_set)
    return tuple(values), tuple(flags)


def threshold_amount(set_count: int, set_weight: int, containing_feature_weight: int) -> float:
    """``EditionDistance.getThresholdAmount``: (set weights + containing-feature weight) x ratio."""
    ratio = THRESHOLD_RATIOS[set_count] if set_count < len(THRESHOLD_RATIOS) else THRESHOLD_RATIOS[-1]
    return (set_weight + containing_feature_weight) * ratio


def _read_values(node: Node, builder: ScopeBuilder) -> None:
    if node.metaclass == "EStringToStringMapEntry":
        attrs = node.attrs
        count = sum(1 for v in attrs if v is not None)
        node.threshold = threshold_amount(
            count, count * ATTRIBUTE_WEIGHT, node.meta.containing_feature_weight
        )
        node.identity_key = attrs[0] or ""
        return
    attrs, count, weight = _attribute_values(node)
    refs, ref_set = _reference_values(node, builder)
    for reference, is_set in zip(node.meta.references, ref_set, strict=True):
        if is_set:
            count += 1
            weight += reference.weight
    node.attrs = attrs
    node.refs = refs
    node.ref_set = ref_set
    node.threshold = threshold_amount(count, weight, node.meta.containing_feature_weight)
    # Identical objects have equal first attributes (name, or source for annotations); null == "".
    node.identity_key = (attrs[0] or "") if attrs else None


def build_scope(roots: Sequence[EObject], side: int) -> tuple[list[Node], ScopeBuilder]:
    """The scope of one resource in EMF pre-order, with values read."""
    builder = ScopeBuilder(roots, side)
    return builder.build(), builder


def iter_tree(nodes: Sequence[Node]) -> Iterator[Node]:
    yield from nodes
