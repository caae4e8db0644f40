"""Thin shim: the benchmark's pytest logic lives in an importable, tested plugin module."""

pytest_plugins = ("benchmark.harness.plugin",)
