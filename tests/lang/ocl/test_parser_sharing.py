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


def test_constraints_share_their_expressions_not_their_invariants_or_files() -> None:
    """``parse_constraints`` builds a text's raw syntax once: each model gets its own invariants (named
    and numbered in it, positioned in the caller's file) over the same expression; a text with an error
    is read again for each caller, so its message names that caller's file."""
    from benchmark.lang.ocl.errors import ModelError
    from benchmark.lang.ocl.use_io import parse_constraints, parse_use

    use = "model Lib\nclass Book\nattributes\n  pages : Integer\nend\n"
    first, second = parse_use(use), parse_use(use)
    second.invariant_counter = 4
    text = "context Book inv: self.pages > 1\n  inv named: self.pages < 900"
    a = parse_constraints(text, first, file="a.ocl")
    b = parse_constraints(text, second, file="b.ocl")
    assert [i.name for i in a] == ["inv1", "named"] and [i.name for i in b] == ["inv5", "named"]
    assert a[0] is not b[0] and a[0].expr is b[0].expr
    assert (a[1].position.file, a[1].position.line, b[1].position.file) == ("a.ocl", 2, "b.ocl")
    for file in ("c.ocl", "d.ocl"):
        with pytest.raises(OclSyntaxError, match=file):
            parse_constraints("context Book inv: self.pages >", first, file=file)
        with pytest.raises(ModelError, match=file):
            parse_constraints("context Page inv: true", first, file=file)
