"""The extractor: an ATL unit's AST to its interchange document (the benchmark's ground truth).

    >>> from benchmark.lang.atl import parse
    >>> from benchmark.tracks.mapping.extractor import extract
    >>> unit = parse('''module M; create OUT : B from IN : A;
    ... helper context A!Book def : pages() : Integer = self.chapters->collect(c | c.nbPages).sum();
    ... rule R { from b : A!Book to p : B!Publication (nbPages <- b.pages()) }''')
    >>> match = extract(unit, file="M.atl").class_match("Book", "Publication")
    >>> match.feature_matches[0].source_paths
    ('chapters', 'chapters.nbPages')

The semantics (class pairs, inheritance, bindings, source paths, helper expansion, diagnostics) are defined in
docs/INTERCHANGE_FORMAT.md; modules: :mod:`~benchmark.tracks.mapping.extractor.paths` (source-path analysis
and helper expansion), :mod:`~benchmark.tracks.mapping.extractor.inheritance` (``extends``),
:mod:`~benchmark.tracks.mapping.extractor.document` (pairs and document),
:mod:`~benchmark.tracks.mapping.extractor.checks` (diagnostics),
:mod:`~benchmark.tracks.mapping.extractor.operations` (the standard operations).
"""

from __future__ import annotations

from benchmark.tracks.mapping.extractor.checks import CODES as DIAGNOSTIC_CODES
from benchmark.tracks.mapping.extractor.document import ExtractionError, extract, extract_file
from benchmark.tracks.mapping.extractor.operations import STANDARD_OPERATIONS

__all__ = ["extract", "extract_file", "ExtractionError", "STANDARD_OPERATIONS", "DIAGNOSTIC_CODES"]
