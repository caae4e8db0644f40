"""What the speed benchmarks and the test suite both use: a local fake LLM server (:mod:`.fake_llm_server`)
and synthetic sessions scored through the real comparator (:mod:`.synthetic_results`). Not a benchmark:
:mod:`benchmark.bench` registers the modules that have ``register``."""
