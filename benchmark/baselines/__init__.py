"""Deterministic baselines printed beside every LLM: EMF Compare's match engine and name equality.

A baseline takes the source and target metamodel files and returns a jJodel export document, so it is
scored by exactly the same code path as an LLM run.
"""
