"""The few lines of XML text writing both canonical writers share.

The writers emit text directly instead of going through a serializer so that every byte is decided
here: attribute order, quoting, indentation and the final newline never depend on a library version.
"""

from __future__ import annotations

XML_DECLARATION = '<?xml version="1.0" encoding="UTF-8"?>'
XMI_NS_URI = "http://www.omg.org/XMI"
XSI_NS_URI = "http://www.w3.org/2001/XMLSchema-instance"

_ESCAPES = {"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "\n": "&#10;", "\r": "&#13;", "\t": "&#9;"}


def escape_attribute(value: str) -> str:
    return "".join(_ESCAPES.get(ch, ch) for ch in value)


def attributes(pairs: list[tuple[str, str | None]]) -> str:
    """`` a="1" b="2"`` for the pairs whose value is not None, in the given order."""
    return "".join(f' {name}="{escape_attribute(value)}"' for name, value in pairs if value is not None)


def element(indent: int, tag: str, pairs: list[tuple[str, str | None]], children: list[str]) -> list[str]:
    """One element as lines: self-closing when it has no children."""
    pad = "  " * indent
    if not children:
        return [f"{pad}<{tag}{attributes(pairs)}/>"]
    return [f"{pad}<{tag}{attributes(pairs)}>", *children, f"{pad}</{tag}>"]


def boolean(value: bool) -> str:
    return "true" if value else "false"
