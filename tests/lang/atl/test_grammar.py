"""The grammar is LALR(1) without any silently resolved conflict."""

from __future__ import annotations

import pytest
from lark import Lark
from lark.exceptions import GrammarError

from benchmark.lang.atl.parser import build_lark


def test_grammar_builds_in_strict_mode():
    # strict=True turns every shift/reduce conflict into an error instead of a silent "shift".
    parser = build_lark(strict=True)
    assert parser.options.parser == "lalr"


def test_strict_mode_does_catch_the_iterator_trap():
    # The naive way to write ATL's iterator and collection-operation calls: lark resolves the conflict
    # after `( NAME` with lookahead ',' as shift and then rejects `s->including(a, b)`. Strict mode must
    # refuse it, or the test above would prove nothing.
    naive = r"""
        start: expr
        expr: NAME
            | expr "->" NAME "(" NAME ("," NAME)* "|" expr ")"
            | expr "->" NAME "(" [expr ("," expr)*] ")"
        NAME: /[a-z]+/
        %ignore " "
    """
    with pytest.raises(GrammarError, match="Shift/Reduce"):
        Lark(naive, parser="lalr", strict=True)
    lenient = Lark(naive, parser="lalr")
    lenient.parse("s->exists(a, b | a)")
    with pytest.raises(Exception):  # noqa: B017 - any lark error: the naive grammar is wrong
        lenient.parse("s->including(a, b)")


def test_compiled_grammar_cache_gives_the_same_parser(tmp_path, monkeypatch):
    from pathlib import Path

    from benchmark.lang.atl.builder import AstBuilder
    from benchmark.lang.atl.parser import grammar_cache_file
    from benchmark.lang.atl.synthetic import synthetic_module

    monkeypatch.setenv("ATLBENCH_GRAMMAR_CACHE", str(tmp_path / "cache"))
    path = grammar_cache_file()
    assert path is not None and path.startswith(str(tmp_path / "cache"))
    compiled = build_lark(transformer=AstBuilder(), cache=path)
    assert Path(path).stat().st_size > 0
    loaded = build_lark(transformer=AstBuilder(), cache=path)
    text = synthetic_module(2)
    assert loaded.parse(text) == compiled.parse(text)
    monkeypatch.setenv("ATLBENCH_GRAMMAR_CACHE", "off")
    assert grammar_cache_file() is None
