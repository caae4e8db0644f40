"""Deterministic baselines printed beside every LLM: EMF Compare's match engine and name equality.

A baseline takes the source and target metamodels (as loaded by
:func:`benchmark.lang.ecore.load_resource`) and returns a jJodel export document, so it is scored by
exactly the same code path as an LLM run.

:data:`BASELINES` maps a baseline's name (its ``analysis.provider``) to its function. Entries import
their module on first call, so registering a baseline is one line and listing them imports nothing heavy.
"""

from benchmark.tracks.mapping.baselines.registry import BASELINES, run_baseline, run_baseline_on_views

__all__ = ["BASELINES", "run_baseline", "run_baseline_on_views"]
