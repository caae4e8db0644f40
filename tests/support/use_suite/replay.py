"""Replaying ``test_expr.in`` and the parser models (``*.use`` / ``*.fail``) on our judge; all kinds."""

from __future__ import annotations

from benchmark.lang.ocl.engine import OclEngine
from benchmark.lang.ocl.errors import OclError
from use_suite.formats import ExprCase, ShellScript, SpecCase, read_text
from use_suite.outcome import EXPRESSION_FILE, Outcome, judge, use_error_line
from use_suite.shell import load_model, run_shell_script


def run_expr_cases(cases: list[ExprCase]) -> list[Outcome]:
    engine = OclEngine.from_text("model Test\n")  # USECompilerTest: an empty model, an empty state
    state = engine.state_from_text("")
    outcomes = []
    for case in cases:
        try:
            actual = engine.evaluate(engine.compile(case.expression, file=EXPRESSION_FILE), state).text
            rejected = False
        except OclError as error:
            actual, rejected = use_error_line(error), True
        outcomes.append(
            judge(
                "expr", case.file, case.line, case.expression, (case.expected,), (actual,),
                rejected=rejected, use_rejected=False,
            )
        )  # fmt: skip
    return outcomes


def run_spec_cases(cases: list[SpecCase]) -> list[Outcome]:
    """We stop at the first error where USE reports several: ours must be one of USE's lines."""
    outcomes = []
    for case in cases:
        text = read_text(case.path)
        engine, errors = load_model(case.path.name, text)
        outcomes.append(
            judge(
                "spec", case.file, 1, case.path.name, case.expected, errors,
                rejected=engine is None, use_rejected=case.rejected, category_kind="model", source=text,
            )
        )  # fmt: skip
    return outcomes


def run_all(expr: list[ExprCase], spec: list[SpecCase], shell: list[ShellScript]) -> list[Outcome]:
    outcomes = run_expr_cases(expr) + run_spec_cases(spec)
    for script in shell:
        outcomes.extend(run_shell_script(script))
    return outcomes
