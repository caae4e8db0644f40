"""Readable, stable names for matched objects of any Ecore metaclass (the ``"matches"`` list).

| metaclass | name |
|---|---|
| EPackage | ``pkg``, nested ``pkg/sub`` |
| EClass, EDataType, EEnum | ``pkg/Name`` |
| EAttribute, EReference | ``pkg/Class/feature`` |
| EEnumLiteral | ``pkg/Enum/LITERAL`` |
| EOperation | ``pkg/Class/op(p1,p2)`` (parameter names) |
| EParameter | ``pkg/Class/op(p1,p2)/p1`` |
| ETypeParameter | ``<owner>/<T>`` |
| EAnnotation | ``<owner>/@<source>#<index among the owner's annotations>`` |
| EStringToStringMapEntry | ``<annotation>/[<key>]`` |
| EGenericType | ``<owner>/@<containing feature>[.<index>]`` |

A missing name is the empty string. The same scheme is implemented by the local Java driver used for
differential testing, so that both match lists can be compared line by line.
"""

from __future__ import annotations

from benchmark.tracks.mapping.baselines.emfcompare.scope import Node


def _text(value: object) -> str:
    return "" if value is None else str(value)


def own_segment(node: Node) -> str:
    obj = node.obj
    kind = node.metaclass
    if kind == "EOperation":
        parameters = ",".join(_text(getattr(p, "name", None)) for p in getattr(obj, "eParameters", ()))
        return f"{_text(obj.name)}({parameters})"
    if kind == "ETypeParameter":
        return f"<{_text(obj.name)}>"
    if kind == "EAnnotation":
        return f"@{_text(getattr(obj, 'source', None))}#{node.index}"
    if kind == "EStringToStringMapEntry":
        return f"[{_text(node.entry_key)}]"
    if kind == "EGenericType":
        return node.path[0]
    return _text(getattr(obj, "name", None))


def qualified_name(node: Node) -> str:
    segments: list[str] = []
    current: Node | None = node
    while current is not None:
        segments.append(own_segment(current))
        current = current.container
    return "/".join(reversed(segments))
