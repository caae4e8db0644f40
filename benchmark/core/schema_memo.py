"""JSON Schema validation that checks an array's items once per *shape* when their schema allows it.

A run file holds hundreds of mappings that differ only in their strings; jsonschema checks every one of
them keyword by keyword (about 60 µs each), which made validating suggestion files most of the cost of
scoring them. When an ``items`` schema constrains nothing but JSON types and object keys (only the
keywords in :data:`SHAPE_KEYWORDS`, all the way down), whether an item is valid depends on its shape
alone: its keys, and the JSON type of each value, recursively (an integral float counts apart, since
``"integer"`` accepts it). Such items are then checked once per shape: an item whose shape was valid
before is valid now; any other item is validated in full, so every error is the one jsonschema gives,
at the same path. Any other ``items`` schema (``prefixItems`` beside it, a ``const``, an ``enum``, a
``pattern``...) is validated by jsonschema's own rule, unchanged.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

#: Keywords whose verdict depends on the item's shape only.
SHAPE_KEYWORDS = frozenset({"type", "properties", "required", "additionalProperties", "description", "title"})


def shape(value: Any) -> Any:
    """The shape of a JSON value: what a :data:`SHAPE_KEYWORDS` schema can see of it."""
    if isinstance(value, dict):
        return tuple(sorted((key, shape(item)) for key, item in value.items()))
    if isinstance(value, list):
        return ("[", *(shape(item) for item in value))
    if isinstance(value, bool):  # before int: a bool is an int in Python, not in JSON Schema
        return "b"
    if isinstance(value, float):
        return "f1" if value.is_integer() else "f"
    return type(value).__name__


def shape_only(schema: Any) -> bool:
    """Whether ``schema`` constrains shapes only (see the module's docstring)."""
    if isinstance(schema, bool):
        return True
    if not isinstance(schema, dict) or not set(schema) <= SHAPE_KEYWORDS:
        return False
    properties = schema.get("properties", {})
    additional = schema.get("additionalProperties", True)
    return (
        isinstance(properties, dict)
        and all(shape_only(s) for s in properties.values())
        and shape_only(additional)
    )


def shape_memo_validator(base: Any, schema: dict[str, Any]) -> Any:
    """A validator of ``schema`` built on the jsonschema validator class ``base``
    (``jsonschema.Draft202012Validator``), whose ``items`` keyword checks shape-only items once per
    shape. Keep the validator: the valid shapes it has seen are remembered with it."""
    import jsonschema

    original = base.VALIDATORS["items"]
    valid_shapes: dict[int, set[Any]] = {}

    def items(validator: Any, items_schema: Any, instance: Any, schema: dict[str, Any]) -> Iterator[Any]:
        memo = isinstance(items_schema, dict) and "prefixItems" not in schema and shape_only(items_schema)
        if not memo or not validator.is_type(instance, "array"):
            yield from original(validator, items_schema, instance, schema)
            return
        seen = valid_shapes.setdefault(id(items_schema), set())
        for index, item in enumerate(instance):
            key = shape(item)
            if key in seen:
                continue
            errors = list(validator.descend(item, items_schema, path=index))
            if errors:
                yield from errors
            else:
                seen.add(key)

    extended = jsonschema.validators.extend(base, {"items": items})
    return extended(schema)
