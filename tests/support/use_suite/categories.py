"""Whether USE rejected an input, and why our judge's output differs: named, countable reasons.

The rules look at the texts only (USE's expectation, our output, the model's source), never at file
names, so a new USE version is categorised without edits; what no rule explains is ``unclassified``.
"""

from __future__ import annotations

import re

STRICT = "strict checks: ShellIT runs -extendedTypeSystemChecks:E -oclAnyCollectionsChecks:E"
WARNING = "USE prints a warning next to the same result"
WHOLE_PART = "USE warns at insert that a whole/part rule breaks; we report it at check"
_WHOLE_PART_WARNINGS = ("Insert has resulted in", "cannot be a part of itself")
ORDER = "element order (USE's HashSet order)"
UNSURE = "state after a shell command we do not run"
ERROR_TEXT = "both reject; the message differs"
ERROR_POSITION = "both reject with this message; the position differs"
WE_ACCEPT = "we accept what USE rejects"
WE_REJECT = "we reject what USE accepts"
UNCLASSIFIED = "unclassified"

_STRICT_MARKS = (
    "You can change this check using the -extendedTypeSystemChecks switch",
    "You can change this check using the -oclAnyCollectionsChecks switch",
)

# parts of USE's model language we do not read (docs/OCL.md, "Not supported"): a word of the source line
# our first error points at, or a part of its message
MODEL_FEATURES = (
    (r"\bimport\b", "model imports"),
    (r"\bbegin\b", "SOIL operation bodies (begin ... end)"),
    (r"\bdataType\b", "data types (dataType)"),
    (r"\bexistential\b", "existential invariants"),
    (r"\bqualifier\b", "qualified associations"),
    (r"\b(union|redefines|subsets|derived)\b", "union, redefines, subsets or derived association ends"),
    (r"^\s*@", "annotations (@...)"),
    (r"\b(statemachines|psm)\b", "state machines"),
    (r"generalization of associations|needs a `between'", "generalization of association classes"),
)

_POSITIONED = re.compile(r"^([^:\s]+):(\d+):(\d+): ")


def message_of(line: str) -> str:
    """The text of an error line without its ``file:line:column:`` prefix."""
    match = _POSITIONED.match(line)
    return line[match.end() :] if match else line


def is_warning(line: str) -> bool:
    return "Warning" in line[:40]


def use_rejects(command: str, expected: tuple[str, ...]) -> bool:
    """Did USE reject the input? A query (``?``, ``:``) succeeded when it printed its ``-> result``
    line; anything else failed when USE printed a positioned error (not a warning) or ``Error...``."""
    if command.startswith(("?", ":")):
        return not any(e.startswith("-> ") and not e.startswith("-> Could not evaluate") for e in expected)
    return any(
        (_POSITIONED.match(e) and not is_warning(message_of(e))) or e.startswith("Error") for e in expected
    )


def result_with_warnings(expected: tuple[str, ...], actual: tuple[str, ...]) -> bool:
    """USE printed warnings, then the very output we print (the same verdict, more words); a statement
    for which USE printed only a warning and we nothing counts too."""
    n = len(actual)
    if n == 0:
        return bool(expected) and is_warning(expected[0])
    return n < len(expected) and expected[-n:] == actual and any(is_warning(e) for e in expected[:-n])


def model_feature(source: str, actual: tuple[str, ...]) -> str | None:
    """The part of USE's model language we do not read that made us reject a model, if one did."""
    if not actual:
        return None
    match = _POSITIONED.match(actual[0])
    lines = source.splitlines()
    line = lines[int(match.group(2)) - 1] if match and 0 < int(match.group(2)) <= len(lines) else ""
    for pattern, feature in MODEL_FEATURES:
        if re.search(pattern, line) or re.search(pattern, actual[0]):
            return feature
    return None


def categorize(
    kind: str,
    command: str,
    expected: tuple[str, ...],
    actual: tuple[str, ...],
    *,
    rejected: bool,
    use_rejected: bool,
    context: str | None = None,
) -> str:
    """Why ``actual`` differs from ``expected``; ``command`` is the model's source for kind ``model``."""
    if kind == "unsupported":
        word = command.strip().split()[0] if command.strip() else "?"
        return f"shell command we do not run: `{'??' if word.startswith('??') else word}'"
    if kind == "model" and rejected and not use_rejected:
        feature = model_feature(command, actual)
        return f"model language we do not read: {feature}" if feature else WE_REJECT
    if any(mark in line for line in expected for mark in _STRICT_MARKS):
        return STRICT
    if rejected and use_rejected:
        ours, theirs = [message_of(a) for a in actual], [message_of(e) for e in expected]
        return ERROR_POSITION if ours and ours[0] in theirs else ERROR_TEXT
    if result_with_warnings(expected, actual):
        if any(mark in expected[0] for mark in _WHOLE_PART_WARNINGS):
            return WHOLE_PART
        return WARNING
    if not rejected and len(expected) == len(actual) and sorted("".join(expected)) == sorted("".join(actual)):
        return ORDER
    if context is not None:
        return f"{UNSURE} ({context})"
    if use_rejected and not rejected:
        return WE_ACCEPT
    if rejected and not use_rejected:
        return WE_REJECT
    return UNCLASSIFIED
