"""``atlbench metamodel FILE``: print a metamodel's view as JSON (the shape in docs/METAMODEL_VIEW.md)."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "metamodel",
        help="print the read-only view of an .ecore or .km3 metamodel as JSON",
        description="Load an .ecore or .km3 metamodel and print its view as JSON: the documented shape "
        "(docs/METAMODEL_VIEW.md) that LLM prompts embed.",
    )
    parser.add_argument("file", metavar="FILE", help="an .ecore (single or multi-root) or .km3 file")
    parser.add_argument(
        "--indent",
        type=int,
        default=2,
        metavar="N",
        help="indentation of the JSON (default 2; 0 prints one compact line)",
    )
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    from benchmark.core.errors import ConfigurationError
    from benchmark.lang.ecore import load_metamodel

    if args.indent < 0:
        raise ConfigurationError(f"--indent must be 0 or more, not {args.indent}", field="--indent")
    data = load_metamodel(args.file).to_json()
    if args.indent == 0:
        text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    else:
        text = json.dumps(data, ensure_ascii=False, indent=args.indent)
    sys.stdout.write(text + "\n")
    return 0
