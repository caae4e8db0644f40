"""The counts ``atlbench parse --summary`` prints for a unit (issue 2, section 4).

They are chosen so that the official ATL parser's model of the same file gives the same numbers: the
differential test in docs/ATL_PARSER.md compares them file by file.
"""

from __future__ import annotations

from typing import TypedDict

from benchmark.lang.atl import ast

__all__ = ["Summary", "summarize", "SUMMARY_KEYS"]


class Summary(TypedDict):
    unit: str
    name: str
    matchedRules: int
    lazyRules: int
    uniqueLazyRules: int
    calledRules: int
    helpers: int
    contextHelpers: int
    inElements: int
    outElements: int
    bindings: int


SUMMARY_KEYS: tuple[str, ...] = tuple(Summary.__annotations__)


def summarize(unit: ast.Unit) -> Summary:
    """``unit`` ("module" | "query" | "library"), ``name``, ``matchedRules`` (non-lazy), ``lazyRules``
    (unique ones included), ``uniqueLazyRules``, ``calledRules``, ``helpers``, ``contextHelpers``,
    ``inElements``, ``outElements`` (simple and foreach) and ``bindings`` (of output elements only, not
    binding statements of ``do`` blocks)."""
    matched = lazy = unique = called = in_elements = out_elements = bindings = 0
    rules: tuple[ast.MatchedRule | ast.CalledRule, ...] = unit.rules if isinstance(unit, ast.Module) else ()
    for rule in rules:
        if isinstance(rule, ast.MatchedRule):
            if rule.lazy:
                lazy += 1
                unique += rule.unique
            else:
                matched += 1
            in_elements += len(rule.in_pattern.elements)
        else:
            called += 1
        for element in rule.out_elements:
            out_elements += 1
            bindings += len(element.bindings)
    helpers = unit.helpers
    return Summary(
        unit=type(unit).__name__.lower(),
        name=unit.name,
        matchedRules=matched,
        lazyRules=lazy,
        uniqueLazyRules=unique,
        calledRules=called,
        helpers=len(helpers),
        contextHelpers=sum(helper.context is not None for helper in helpers),
        inElements=in_elements,
        outElements=out_elements,
        bindings=bindings,
    )
