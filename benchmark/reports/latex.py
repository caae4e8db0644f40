r"""The one LaTeX escaper of every track's ``.tex`` files.

Every character that LaTeX reads as markup (``\ { } ~ ^ < > & % $ # _ |``) is replaced by what prints it,
and the few Unicode signs the tables use (±, –, —, −, Δ, α, →, ·) by their LaTeX spelling, so a cell
holding a provider, model or task name with any of them compiles with pdfLaTeX and no extra package
(``tests/reports/test_latex_compiles.py`` compiles every track's ``.tex`` files with such names). A minus
before a number is typeset as a minus sign, not as a hyphen.
"""

from __future__ import annotations

import re

SPECIAL = {
    "\\": r"\textbackslash{}",
    "&": r"\&",
    "%": r"\%",
    "$": r"\$",
    "#": r"\#",
    "_": r"\_",
    "{": r"\{",
    "}": r"\}",
    "~": r"\textasciitilde{}",
    "^": r"\textasciicircum{}",
    "<": r"\textless{}",
    ">": r"\textgreater{}",
    "|": r"\textbar{}",
    "±": r"$\pm$",
    "–": "--",
    "—": "---",
    "−": "$-$",
    "Δ": r"$\Delta$",
    "α": r"$\alpha$",
    "→": r"$\rightarrow$",
    "·": r"$\cdot$",
}

_NEGATIVE = re.compile(r"(?<![\w.])-(?=\d)")


def latex_escape(text: str) -> str:
    """``text`` as LaTeX that prints it: special characters and the tables' Unicode signs replaced, a
    minus sign before a number typeset as one."""
    return _NEGATIVE.sub("$-$", "".join(SPECIAL.get(ch, ch) for ch in text))


__all__ = ["SPECIAL", "latex_escape"]
