"""A Hypothesis strategy for the instances of a JSON Schema, for the subset the answer schemas use.

hypothesis-jsonschema would do this, but its 0.23.1 (the latest) reaches into Hypothesis internals that the
Hypothesis this project pins no longer has (``'many' object has no attribute 'more'``), so the tests draw
instances with this small generator instead. It covers what the published answer schemas (and the
dialects' subsets) use: ``type`` (one or a list), ``properties``/``required``/``additionalProperties``,
``items`` with ``minItems``/``maxItems``, ``enum``, ``const``, ``anyOf``/``oneOf``, string ``minLength``/
``maxLength``, ``pattern`` (drawn with Hypothesis's ``from_regex``: any text the pattern matches, quotes
and control characters included where it allows them), and local ``$ref`` into ``$defs``; any other
keyword is an error here, so a schema the generator does not understand cannot pass a test by accident.
Every instance drawn is checked against the schema with ``jsonschema`` before it is returned.
"""

from __future__ import annotations

from typing import Any

from hypothesis import strategies as st
from jsonschema import Draft202012Validator

_KNOWN = {
    "type", "properties", "required", "additionalProperties", "items", "minItems", "maxItems", "enum",
    "const", "anyOf", "oneOf", "minLength", "maxLength", "pattern", "$ref", "$defs", "$schema", "title",
    "description",
}  # fmt: skip
# Text a model may write inside a string: letters, digits, spaces, quotes, XML and OCL punctuation, unicode.
_TEXT = st.text(
    alphabet=st.characters(codec="utf-8", exclude_categories=("Cs",)), max_size=40
) | st.sampled_from(["", " ", "Book", "self.x > 0", '<a b="c"/>', "line\nbreak", "Ünïcode ✓"])


def _strategy(schema: dict[str, Any], root: dict[str, Any]) -> st.SearchStrategy[Any]:
    unknown = set(schema) - _KNOWN
    if unknown:
        raise ValueError(f"schema_instances does not generate for keywords {sorted(unknown)}")
    if "$ref" in schema:
        ref = schema["$ref"]
        if not ref.startswith("#/$defs/"):
            raise ValueError(f"only local $ref into $defs: {ref}")
        return _strategy(root["$defs"][ref.removeprefix("#/$defs/")], root)
    if "const" in schema:
        return st.just(schema["const"])
    if "enum" in schema:
        return st.sampled_from(schema["enum"])
    for key in ("anyOf", "oneOf"):
        if key in schema:
            return st.one_of([_strategy(option, root) for option in schema[key]])
    kind = schema.get("type")
    if isinstance(kind, list):
        return st.one_of([_strategy({**schema, "type": one}, root) for one in kind])
    if kind == "null":
        return st.none()
    if kind == "boolean":
        return st.booleans()
    if kind == "integer":
        return st.integers(-(10**6), 10**6)
    if kind == "number":
        return st.floats(allow_nan=False, allow_infinity=False, width=32)
    if kind == "string":
        low, high = schema.get("minLength", 0), schema.get("maxLength", 40)
        if "pattern" in schema:  # the pattern bounds the text; 40 is only the default of a free one
            most = schema.get("maxLength", float("inf"))
            drawn = st.from_regex(schema["pattern"], fullmatch=True)
            return drawn.filter(lambda text: low <= len(text) <= most)
        return _TEXT.filter(lambda text: low <= len(text) <= high)
    if kind == "array":
        items = _strategy(schema.get("items", {"type": "string"}), root)
        return st.lists(items, min_size=schema.get("minItems", 0), max_size=min(schema.get("maxItems", 4), 4))
    if kind == "object":
        properties = schema.get("properties", {})
        required = set(schema.get("required", ()))
        if schema.get("additionalProperties", True) is not False:
            raise ValueError("only objects with additionalProperties: false (what the dialects send)")
        fixed = {name: _strategy(sub, root) for name, sub in properties.items() if name in required}
        optional = {name: _strategy(sub, root) for name, sub in properties.items() if name not in required}
        return st.fixed_dictionaries(fixed, optional=optional)
    raise ValueError(f"schema_instances needs a type, enum, const or anyOf: {schema}")


def instances(schema: dict[str, Any]) -> st.SearchStrategy[Any]:
    """Instances of ``schema`` (module docstring), each checked with ``jsonschema``."""
    validator = Draft202012Validator(schema)

    def checked(value: Any) -> Any:
        errors = list(validator.iter_errors(value))
        assert not errors, f"schema_instances drew a non-instance: {errors[0].message}"
        return value

    return _strategy(schema, schema).map(checked)


__all__ = ["instances"]
