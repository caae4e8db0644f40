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

from benchmark.tracks.mapping.baselines.emfcompare.matcher import (
    Match,
    MatchResult,
    MatchStatistics,
    Resource,
    match,
    match_roots,
)

__all__ = ["Match", "MatchResult", "MatchStatistics", "Resource", "match", "match_roots"]
