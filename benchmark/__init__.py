"""atl-binding-bench: score LLM-proposed model-transformation mappings against ATL ground truth.

The pipeline, one module per step (each usable from Python, the CLI and pytest):
ATL text -> ``benchmark.atl`` -> ``benchmark.extractor`` -> ``benchmark.interchange`` document;
``.ecore``/``.km3`` -> ``benchmark.metamodel`` view -> ``benchmark.baselines``;
suggestion files -> ``benchmark.suggestions`` -> ``benchmark.compare`` -> ``benchmark.counts`` rows
-> ``benchmark.aggregate`` -> ``benchmark.stats`` -> ``benchmark.reports``.
"""

__version__ = "0.1.0"
