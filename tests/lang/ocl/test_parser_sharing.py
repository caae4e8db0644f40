"""Parse trees are shared between callers parsing the same text (the judge meets one answer text in
every mode, SOIL files repeat their lines); a caller whose positions are shifted gets a shifted copy."""

from __future__ import annotations

import pytest

from benchmark.lang.ocl.errors import OclSyntaxError
from benchmark.lang.ocl.parser import parse_tree

TEXT = "context Book inv pages: self.pages > 0"


def test_same_text_same_tree_and_an_offset_tree_is_private() -> None:
    shared = parse_tree(TEXT, "constraints_file")
    assert parse_tree(TEXT, "constraints_file", file="other.ocl") is shared
    shifted = parse_tree(TEXT, "constraints_file", line_offset=9)
    assert shifted is not shared
    lines = {t.line for t in shared.scan_values(lambda v: hasattr(v, "line"))}
    assert lines == {1}  # shifting the private tree left the shared one alone
    assert {t.line for t in shifted.scan_values(lambda v: hasattr(v, "line"))} == {10}
    again = parse_tree(TEXT, "constraints_file", line_offset=2)  # a copy of the shared tree, shifted anew
    assert {t.line for t in again.scan_values(lambda v: hasattr(v, "line"))} == {3}
    assert again.meta.line == 3 and shifted.meta.line == 10 and shared.meta.line == 1


def test_a_syntax_error_names_each_callers_file() -> None:
    for file in ("a.ocl", "b.ocl"):
        with pytest.raises(OclSyntaxError, match=file):
            parse_tree("context Book inv: self.pages >", "constraints_file", file=file)
