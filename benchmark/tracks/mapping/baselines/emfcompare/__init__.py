"""A faithful Python port of EMF Compare 3.5.3's default match engine, used as the structural baseline.

``DefaultMatchEngine.create(UseIdentifiers.WHEN_AVAILABLE)`` (what ``EMFCompare.builder().build()``
uses) on two resources: ``IdentifierEObjectMatcher`` delegating to
``ProximityEObjectMatcher(CachingDistance(EditionDistance))`` with the Ecore weight provider. The
package is split by job: :mod:`.metaclasses` (EMF's Ecore feature table and weights), :mod:`.scope`
(the compared objects and their EMF values), :mod:`.dice`, :mod:`.distance`, :mod:`.matcher` and
:mod:`.document` (the jJodel export). ``docs/EMF_COMPARE_PORT.md`` records how it was checked against
the Java engine and the remaining known differences.
"""

from __future__ import annotations

from typing import Any, Protocol

from benchmark.tracks.mapping.baselines.emfcompare.matcher import (
    Match,
    MatchResult,
    MatchStatistics,
    match_roots,
)


class Resource(Protocol):
    """What the engine needs of a loaded metamodel (``benchmark.lang.ecore.LoadedMetamodel``)."""

    @property
    def roots(self) -> tuple[Any, ...]: ...

    @property
    def xmi_ids(self) -> Any: ...


def match(left: Resource, right: Resource) -> MatchResult:
    """Every match EMF Compare makes between two metamodels: pairs and unmatched objects of each side.

    ``left`` drives the matching (the outcome is not symmetric); objects carrying an ``xmi:id`` are
    paired by id first, exactly as EMF Compare does.
    """
    return match_roots(left.roots, right.roots, left_ids=left.xmi_ids, right_ids=right.xmi_ids)


__all__ = ["Match", "MatchResult", "MatchStatistics", "Resource", "match", "match_roots"]
