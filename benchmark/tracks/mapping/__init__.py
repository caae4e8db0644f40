"""RQ1, the mapping track (registered as ``atl``): LLM-suggested class and feature correspondences scored
against the bindings of a hand-written ATL transformation.

The pipeline, one module per step: ATL text -> :mod:`benchmark.lang.atl` -> :mod:`.extractor` ->
:mod:`.interchange` document; ``.ecore``/``.km3`` -> :mod:`benchmark.lang.ecore` view -> :mod:`.baselines`;
suggestion files -> :mod:`.suggestions` -> :mod:`.compare` -> :mod:`.counts` rows -> :mod:`.aggregate` ->
:mod:`.stats` -> :mod:`.reports`. :mod:`.track` plugs it into the harness.
"""
