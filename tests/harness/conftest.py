"""Import, before any pytester session runs, every module a benchmark session may import.

pytester's in-process sessions (``pytester.runpytest``) snapshot ``sys.modules`` and, when the session
ends, unload every module it imported itself. Python modules survive that (they are imported again), but
compiled extensions do not: numpy refuses a second import in one process ("cannot load module more than
once per process"). A benchmark session writes its reports with numpy, scipy and matplotlib, so the first
in-process session to import them would break every later user in this process — the outer session's own
report writing included (``pytest -n 0 cases tests/harness``). Importing them here, at collection, puts them
in the snapshot so that no session ever unloads them. Pure-Python benchmark modules are listed too: they
would survive, but re-importing the parser, pyecore and the plugin costs seconds per session.
"""

from __future__ import annotations

import matplotlib.backends.backend_agg
import matplotlib.figure
import matplotlib.image
import numpy
import scipy.stats

import benchmark.harness.plugin
import benchmark.lang.atl
import benchmark.lang.ecore.loader
import benchmark.reports
import benchmark.reports.page
import benchmark.tracks.mapping.extractor
import benchmark.tracks.mapping.reports
import benchmark.tracks.mapping.reports.figures
import benchmark.tracks.mapping.reports.html
import benchmark.tracks.mapping.reports.latex
import benchmark.tracks.mapping.reports.tables
import benchmark.tracks.mapping.stats.summary
import benchmark.tracks.mapping.track

PRELOADED = (
    matplotlib.backends.backend_agg,
    matplotlib.figure,
    matplotlib.image,
    numpy,
    scipy.stats,
    benchmark.harness.plugin,
    benchmark.lang.atl,
    benchmark.lang.ecore.loader,
    benchmark.reports,
    benchmark.reports.page,
    benchmark.tracks.mapping.extractor,
    benchmark.tracks.mapping.reports,
    benchmark.tracks.mapping.reports.html,
    benchmark.tracks.mapping.reports.latex,
    benchmark.tracks.mapping.reports.figures,
    benchmark.tracks.mapping.reports.tables,
    benchmark.tracks.mapping.stats.summary,
    benchmark.tracks.mapping.track,
)
