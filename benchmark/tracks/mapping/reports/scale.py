"""How the mapping track's reports stay readable when a session holds many transformations (the ATL Zoo).

Up to :data:`FULL_UP_TO` transformations (the bundled study has 8) every report lists every provider x
transformation line, as it always did. Beyond, a table of provider x transformation lines would run to
hundreds of lines (530 for 105 Zoo transformations and 5 providers), so:

* the terminal prints the ``ALL`` rows first, then a bounded table: F1 per provider on the
  :data:`HARDEST_SHOWN` transformations with the lowest mean F1 over the providers (``-v`` prints every
  provider x transformation line; ``rq1_aggregate.csv`` has them all);
* ``summary.md`` and ``tables.tex`` give F1 per transformation as one line per transformation with a
  column per provider (the ``ALL`` line first): in ``summary.md`` inside a ``<details>`` block, in
  ``tables.tex`` as a ``longtable`` that breaks across pages (so does the validation-set table);
* ``index.html`` keeps its tables (past 20 rows they show 20 and a switch for the rest) and moves the
  per-binding drill-down, most of the page's size, to a page of its own, ``rq1_drilldown.html``, linked
  from its section;
* the F1 heatmap is drawn in side-by-side panels of at most :data:`HEATMAP_ROWS_PER_PANEL` rows, in the
  tables' (alphabetical) order, so that each label stays legible and the figure keeps a page's proportions.
"""

from __future__ import annotations

FULL_UP_TO = 20
HARDEST_SHOWN = 10
HEATMAP_ROWS_PER_PANEL = 55
DRILLDOWN_HTML = "rq1_drilldown.html"


def at_scale(transformations: int) -> bool:
    """Whether a session of this many transformations gets the compact views (module docstring)."""
    return transformations > FULL_UP_TO


__all__ = ["DRILLDOWN_HTML", "FULL_UP_TO", "HARDEST_SHOWN", "HEATMAP_ROWS_PER_PANEL", "at_scale"]
