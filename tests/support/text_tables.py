"""Reading the report kit's text tables in tests by their cells, not their column widths."""

from __future__ import annotations

import re


def squeezed(text: str) -> str:
    """``text`` with the padding ``tabulate`` lays a table out with taken out of every line (``"| A   |
    1 |"`` -> ``"| A | 1 |"``, ``" A   & 1 \\\\"`` -> ``"A & 1 \\\\"``): a test names cells, and the
    layout is ``tabulate``'s (``tests/reports/test_kit.py`` checks it once)."""
    return "\n".join(re.sub(r" {2,}", " ", line).strip() for line in text.splitlines())
