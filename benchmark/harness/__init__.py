"""The pytest side of the harness: options, per-process session state, fixtures, hooks and CI gates.

Modelled on pytest-benchmark's split (plugin hooks only, a session object, renderers apart, hookspecs):
:mod:`benchmark.harness.plugin` holds the hooks that ``conftest.py`` loads; everything track-specific
comes from the tracks through :mod:`benchmark.core.track`.
"""
