"""The ``atlbench`` command line.

Each sub-command lives in its own module of this package and exposes
``register(subparsers) -> None``, which adds its parser and sets ``handler`` (a function taking the
parsed namespace and returning an exit status). Modules are discovered, not listed, so that adding a
command never touches this file. Handlers import heavy libraries lazily: ``atlbench --help`` stays fast
and a missing optional extra only breaks the command that needs it.

Exit status: 0 success, 1 a check the user asked for failed (a gate, a failed run), 2 bad input (a
:class:`~benchmark.core.errors.BenchmarkError`, printed as ``FILE:LINE:COL: error: ...``).
"""

from __future__ import annotations

import argparse
import importlib
import pkgutil
import sys
from collections.abc import Iterable, Sequence
from typing import Any

from benchmark import __version__
from benchmark.core.errors import BenchmarkError

EXIT_OK = 0
EXIT_FAILED = 1
EXIT_INPUT_ERROR = 2


def register_modules(subparsers: Any, path: Iterable[str], package: str) -> None:
    """Import every public module of a package and let it add its sub-command (``register``).

    Shared by ``atlbench`` and ``python -m benchmark.bench``: commands are discovered, never listed.
    """
    for module_info in sorted(pkgutil.iter_modules(path), key=lambda m: m.name):
        if module_info.name.startswith("_"):
            continue
        module = importlib.import_module(f"{package}.{module_info.name}")
        register = getattr(module, "register", None)
        if register is not None:
            register(subparsers)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="atlbench",
        description="Score LLM-proposed model-transformation mappings against ATL ground truth.",
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    register_modules(parser.add_subparsers(dest="command", metavar="COMMAND"), __path__, __name__)
    return parser


def report_error(error: BenchmarkError) -> None:
    """Print an input error the way compilers do, so editors and CI logs can link to it."""
    location = error.location
    text = error.message if error.field is None else f"{error.field}: {error.message}"
    print(f"{location}: error: {text}" if location else f"error: {text}", file=sys.stderr)


def main(argv: Sequence[str] | None = None) -> int:
    return run(build_parser(), argv)


def run(parser: argparse.ArgumentParser, argv: Sequence[str] | None = None) -> int:
    """Parse ``argv`` and call the chosen sub-command's handler, with the exit statuses above; shared by
    ``atlbench`` and ``python -m benchmark.bench``."""
    from benchmark.core.gcpause import collect_less_often

    args = parser.parse_args(argv)
    collect_less_often()
    handler = getattr(args, "handler", None)
    if handler is None:
        parser.print_help()
        return EXIT_INPUT_ERROR
    try:
        return int(handler(args) or EXIT_OK)
    except BenchmarkError as error:
        report_error(error)
        return EXIT_INPUT_ERROR
    except BrokenPipeError:  # `atlbench ... | head` must not print a traceback
        return EXIT_OK
