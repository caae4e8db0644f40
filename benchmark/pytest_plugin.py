"""The benchmark's pytest plugin (collection, xdist-safe row collection, tables and report files).

Loaded by the project's ``conftest.py``; kept here so that its logic is importable and tested.
"""
