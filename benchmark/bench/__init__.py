"""Speed benchmarks: ``python -m benchmark.bench NAME ...`` prints figures; tests never time anything.

Each benchmark is a module of this package exposing ``register(subparsers) -> None``, which adds its
sub-command parser and sets ``handler`` (a function taking the parsed namespace and returning an exit
status), exactly like the ``atlbench`` commands in :mod:`benchmark.cli`. Modules are discovered, not
listed: adding ``benchmark/bench/baseline.py`` adds ``python -m benchmark.bench baseline`` without
touching this file.
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence

from benchmark.cli import register_modules, run

__all__ = ["build_parser", "main"]


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m benchmark.bench", description="Speed benchmarks of the atl-binding-bench library."
    )
    register_modules(parser.add_subparsers(dest="benchmark", metavar="BENCHMARK"), __path__, __name__)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    return run(build_parser(), argv)
