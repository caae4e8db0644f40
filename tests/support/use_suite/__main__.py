"""``PYTHONPATH=tests/support python -m use_suite [USE_CHECKOUT] [--all | --figures]``: the agreement
figures of the OCL judge with USE's own test suite, and the differences (see docs/OCL.md)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from use_suite import ENV_VAR, use_sources
from use_suite.figures import report
from use_suite.formats import read_expr_cases, read_shell_scripts, read_spec_cases
from use_suite.replay import run_all


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m use_suite", description=__doc__)
    parser.add_argument("checkout", nargs="?", type=Path, help=f"a USE checkout (default: ${ENV_VAR})")
    shown = parser.add_mutually_exclusive_group()
    shown.add_argument("--all", action="store_true", help="also list the differences in output text only")
    shown.add_argument("--figures", action="store_true", help="print the figures only, no difference")
    args = parser.parse_args(argv)
    root = args.checkout or use_sources()
    if root is None:
        parser.error(f"give a USE checkout or set {ENV_VAR}")
    outcomes = run_all(read_expr_cases(root), read_spec_cases(root), read_shell_scripts(root))
    for outcome in outcomes:
        if args.figures:
            break
        if not outcome.agree or (args.all and not outcome.exact):
            print(outcome.describe())
    print(report(outcomes))
    return 0


if __name__ == "__main__":
    sys.exit(main())
