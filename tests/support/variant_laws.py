"""The laws every renaming of the mapping track's task variants obeys, as checks shared by the tests of
the bundled transformations (``test_variant_laws.py``) and of generated metamodels
(``test_variant_names.py``): every name renamed validly or kept with its reason, new names unique, a name
shared by both metamodels moved together (``synonym``), and the renaming undone by its inverse."""

from __future__ import annotations

import json
import re
from dataclasses import replace

from benchmark.lang.atl.lexer import KEYWORDS as ATL_KEYWORDS
from benchmark.lang.ecore.view import MetamodelView
from benchmark.lang.ecore.write import KM3_KEYWORDS
from benchmark.tracks.mapping.variants.apply import rename_view, renamed_views
from benchmark.tracks.mapping.variants.names import SHUFFLED, SYNONYM
from benchmark.tracks.mapping.variants.renaming import (
    NAMESPACES,
    Order,
    Renaming,
    renaming_problems,
    view_names,
)

IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")
KEYWORDS = frozenset(ATL_KEYWORDS) | KM3_KEYWORDS


def valid_new_name(name: str) -> bool:
    """An ASCII identifier that is no keyword of ATL or KM3: written unquoted in both."""
    return bool(IDENTIFIER.match(name)) and name not in KEYWORDS


def check_names(renaming: Renaming, source: MetamodelView, target: MetamodelView) -> None:
    """Every name renamed validly or kept with its reason; unique; shared names moved together."""
    originals = {n: set(view_names(source)[n]) | set(view_names(target)[n]) for n in NAMESPACES}
    for role, view in (("source", source), ("target", target)):
        side = renaming.side(role)
        assert side is not None
        assert renaming_problems(side, view, role) == []
        kept = {(k.kind, k.name): k.reason for k in side.kept}
        for namespace, names in view_names(view).items():
            mapping = side.namespace(namespace)
            for old, kind in names.items():
                if renaming.variant == SHUFFLED:
                    assert not mapping
                elif old in mapping:
                    new = mapping[old]
                    assert valid_new_name(new), f"{role} {kind} {old!r} renamed {new!r}: not a valid name"
                    assert new not in originals[namespace], f"{role} {kind} {old!r} renamed to a name in use"
                else:
                    assert kept.get((kind, old)), f"{role} {kind} {old!r} is neither renamed nor kept"
            news = list(mapping.values())
            assert len(news) == len(set(news)), f"{role} {namespace}: two names renamed alike"
    if renaming.variant == SYNONYM:
        assert renaming.source is not None and renaming.target is not None
        for namespace in NAMESPACES:
            source_map = renaming.source.namespace(namespace)
            target_map = renaming.target.namespace(namespace)
            for old in set(source_map) & set(target_map):
                assert source_map[old] == target_map[old], f"{old!r} renamed apart in the two metamodels"


def check_reversible(renaming: Renaming, source: MetamodelView, target: MetamodelView) -> None:
    there = renamed_views(renaming, source, target)
    if renaming.variant == SHUFFLED:
        for view, side in zip((source, target), (renaming.source, renaming.target), strict=True):
            assert side is not None
            original_order = Order(
                {p.qualified_name: p.classifiers for p in view.packages},
                {c.qualified_name: tuple(f.name for f in c.features) for c in view.classes},
            )
            assert rename_view(rename_view(view, side), replace(side, order=original_order)) == view
    else:
        assert renamed_views(renaming.inverse(), *there) == (source, target)
    assert Renaming.from_json(json.loads(json.dumps(renaming.to_json()))) == renaming
