"""The OCL robustness track: LLM-written OCL judged with :mod:`benchmark.lang.ocl` on original and
meaning-preserving transformed models."""
