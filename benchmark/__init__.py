"""atl-binding-bench: a pytest-based benchmark of LLMs on model-driven-engineering tasks.

Layout: :mod:`benchmark.core` (track API, row envelope, results, collector: imports no track),
:mod:`benchmark.harness` (the pytest plugin), :mod:`benchmark.reports` and :mod:`benchmark.stats`
(generic renderers and resampling), :mod:`benchmark.llm` (engine, providers, cache, batch, logs),
:mod:`benchmark.lang` (ATL, Ecore, OCL), :mod:`benchmark.tracks` (one package per study),
:mod:`benchmark.cli` and :mod:`benchmark.bench` (speed benchmarks). ``docs/TRACKS.md`` explains how a track
plugs in.
"""

__version__ = "0.1.0"
