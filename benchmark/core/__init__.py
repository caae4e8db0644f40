"""The generic core: errors, file I/O, hardened XML, the disk cache, metric formulas, the row envelope,
``results.json``, the xdist-safe row collector, the track API and the track registry.

It imports no track and no language package (``tests/core/test_import_contract.py`` checks it), so every
study plugs in through :mod:`benchmark.core.track` instead of editing the core. A track author needs this
one import (``docs/TRACKS.md``)::

    from benchmark.core import Collection, Facts, GroundTruthCase, Option, Row, RunCase, Track
"""

from benchmark.core.options import Option
from benchmark.core.rows import Facts, Row
from benchmark.core.track import (
    Collection,
    GroundTruthCase,
    GroundTruthProblem,
    HtmlPart,
    PairedData,
    RunCase,
    SkippedInput,
    Track,
    TrackContext,
    TrackReport,
)

__all__ = [
    "Collection",
    "Facts",
    "GroundTruthCase",
    "GroundTruthProblem",
    "HtmlPart",
    "Option",
    "PairedData",
    "Row",
    "RunCase",
    "SkippedInput",
    "Track",
    "TrackContext",
    "TrackReport",
]
