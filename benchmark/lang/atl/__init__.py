"""The ATL front-end: grammar, lexer, typed AST and printer for the whole ATL language.

    >>> from benchmark.lang.atl import parse
    >>> unit = parse("module M; create OUT : B from IN : A; rule R { from a : A!X to b : B!Y (n <- a.n) }")
    >>> unit.rules[0].out_elements[0].bindings[0].property
    'n'

Public API: :func:`parse`, :func:`parse_file`, :class:`AtlSyntaxError`, the node classes of
:mod:`benchmark.lang.atl.ast`, :func:`~benchmark.lang.atl.printer.to_atl` (AST back to text) and
:func:`~benchmark.lang.atl.summary.summarize` (the counts of ``atlbench parse --summary``).
"""

from benchmark.lang.atl import ast
from benchmark.lang.atl.errors import AtlSyntaxError
from benchmark.lang.atl.parser import parse, parse_file, read_atl_text

__all__ = ["parse", "parse_file", "read_atl_text", "AtlSyntaxError", "ast"]
