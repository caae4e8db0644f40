"""The OCL judge against USE's own test suite: ``test_expr.in``, the parser models, the shell tests.

Runs only when ``ATLBENCH_USE_SOURCES`` names a local checkout of https://github.com/useocl/use (nothing
of USE is bundled; CI has no access to GitHub, so there it skips). Agreement must not drop below the
figures measured on USE commit 30d480db (docs/OCL.md explains both levels and every difference), and
every difference must have a named reason (:mod:`use_suite.categories`).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from use_suite import ENV_VAR, use_sources
from use_suite.categories import UNCLASSIFIED
from use_suite.figures import KINDS, figures
from use_suite.formats import read_expr_cases, read_shell_scripts, read_spec_cases
from use_suite.outcome import Outcome
from use_suite.replay import run_all

ROOT = use_sources()
if ROOT is None:
    pytest.skip(
        f"{ENV_VAR} is unset: no local USE checkout to compare the OCL judge with (none is bundled)",
        allow_module_level=True,
    )

# kind -> (agreeing, identical, expectations) measured on useocl/use 30d480db; the floors are the ratios
MEASURED = {
    "expr": (121, 121, 121),
    "spec": (42, 12, 49),
    "shell": (1148, 1109, 1533),
}


@pytest.fixture(scope="module")
def outcomes() -> list[Outcome]:
    assert ROOT is not None
    root = Path(ROOT)
    if not (root / "use-core").is_dir():
        pytest.fail(f"{ENV_VAR}={root} is not a USE checkout (no use-core folder)")
    return run_all(read_expr_cases(root), read_spec_cases(root), read_shell_scripts(root))


def _listing(found: list[Outcome], limit: int = 60) -> str:
    shown = "\n".join(o.describe() for o in found[:limit])
    more = f"\n... and {len(found) - limit} more" if len(found) > limit else ""
    return shown + more


@pytest.mark.parametrize("kind", KINDS)
def test_agreement_with_uses_own_tests_stays_above_the_measured_floor(
    outcomes: list[Outcome], kind: str
) -> None:
    agree_floor, exact_floor, measured_total = MEASURED[kind]
    got = figures(outcomes)[kind]
    assert got.total > 0, f"no {kind} expectation found under {ROOT}"
    disagreements = [o for o in outcomes if o.kind == kind and not o.agree]
    assert got.agree_ratio >= agree_floor / measured_total, (
        f"{got.line()}; the floor is {agree_floor}/{measured_total}. Disagreements:\n"
        + _listing(disagreements)
    )
    assert got.exact_ratio >= exact_floor / measured_total, (
        f"{got.line()}; the floor for identical output is {exact_floor}/{measured_total}. Differences:\n"
        + _listing([o for o in outcomes if o.kind == kind and not o.exact])
    )


def test_every_difference_has_a_named_reason(outcomes: list[Outcome]) -> None:
    unexplained = [o for o in outcomes if not o.exact and o.category in (None, UNCLASSIFIED)]
    assert not unexplained, "differences no rule of use_suite.categories explains:\n" + _listing(unexplained)


def test_no_command_use_runs_silently_is_rejected(outcomes: list[Outcome]) -> None:
    """A SOIL command USE runs without a word must run here too, or every later result is suspect."""
    rejected = [o for o in outcomes if o.kind == "shell-setup"]
    assert not rejected, _listing(rejected)
