"""The generic core: errors, file I/O, hardened XML, the disk cache, metric formulas, the row envelope,
``results.json``, the xdist-safe row collector, the track API and the track registry.

It imports no track and no language package (``tests/core/test_import_contract.py`` checks it), so every
study plugs in through :mod:`benchmark.core.track` instead of editing the core.
"""
