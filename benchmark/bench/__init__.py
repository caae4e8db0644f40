"""Speed benchmarks: ``python -m benchmark.bench NAME ...`` prints figures; tests never time anything.

Each benchmark is a module of this package exposing ``register(subparsers) -> None``, which adds its
sub-command parser and sets ``handler`` (a function taking the parsed namespace and returning an exit
status), exactly like the ``atlbench`` commands in :mod:`benchmark.cli`. Modules are discovered, not
listed: adding ``benchmark/bench/baseline.py`` adds ``python -m benchmark.bench baseline`` without
touching this file.
"""

from __future__ import annotations

import argparse
import importlib
import pkgutil
from collections.abc import Sequence

__all__ = ["build_parser", "main"]


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m benchmark.bench", description="Speed benchmarks of the atl-binding-bench library."
    )
    subparsers = parser.add_subparsers(dest="benchmark", metavar="BENCHMARK")
    for module_info in sorted(pkgutil.iter_modules(__path__), key=lambda m: m.name):
        if module_info.name.startswith("_"):
            continue
        module = importlib.import_module(f"{__name__}.{module_info.name}")
        register = getattr(module, "register", None)
        if register is not None:
            register(subparsers)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    handler = getattr(args, "handler", None)
    if handler is None:
        parser.print_help()
        return 2
    return int(handler(args) or 0)
