"""One expectation of USE's test suite replayed on our judge, and the two levels of agreement.

``agree``: the same verdict -- the same printed value (USE may print warnings before it), or both reject
the input. ``exact``: the same output lines, error texts and positions included (our 1-based columns are
printed from 0, as USE prints them). A difference gets a reason from :mod:`use_suite.categories`.
"""

from __future__ import annotations

from dataclasses import dataclass

from benchmark.lang.ocl.errors import OclError
from use_suite.categories import categorize, result_with_warnings

EXPRESSION_FILE = "<input>"  # what USE's shell names an expression typed at its prompt


@dataclass(frozen=True)
class Outcome:
    kind: str  # expr | spec | shell (shell-setup: a silent command we reject, not an expectation)
    file: str
    line: int
    command: str
    expected: tuple[str, ...]
    actual: tuple[str, ...]
    agree: bool
    exact: bool
    category: str | None = None  # why they differ (when not exact)

    def describe(self) -> str:
        first = (self.command.splitlines() or [""])[0][:100]
        return (
            f"{self.file}:{self.line}: [{self.category}] {first}\n"
            f"    USE:  {' | '.join(self.expected)}\n    ours: {' | '.join(self.actual)}"
        )


def use_error_line(error: OclError) -> str:
    """An error as USE prints it: ``file:line:column: message``, the column counted from 0."""
    where = [error.file or EXPRESSION_FILE]
    if error.line is not None:
        where.append(str(error.line))
        if error.column is not None:
            where.append(str(error.column - 1))
    return ":".join(where) + ": " + error.message


def judge(
    kind: str,
    file: str,
    line: int,
    command: str,
    expected: tuple[str, ...],
    actual: tuple[str, ...],
    *,
    rejected: bool,
    use_rejected: bool,
    category_kind: str | None = None,
    source: str | None = None,
    context: str | None = None,
) -> Outcome:
    """Compare; ``source`` (a model's text) helps name the reason when we reject a model."""
    exact = actual == expected or (rejected and use_rejected and actual[0] in expected)
    agree = exact or rejected == use_rejected and (rejected or result_with_warnings(expected, actual))
    if command == "check" and sorted(actual) == sorted(expected):
        agree = True  # the same report; USE lists structure violations in HashSet order
    category = None
    if not exact:
        category = categorize(
            category_kind or kind,
            source if source is not None else command,
            expected,
            actual,
            rejected=rejected,
            use_rejected=use_rejected,
            context=context,
        )
    return Outcome(kind, file, line, command, expected, actual, agree, exact, category)
