"""The harness of the differential test against USE's test suite, on files written here in USE's formats.

These run everywhere (no USE checkout needed): the readers of the three formats, the agreement levels,
and a replay of a tiny shell script. The files imitate the formats only; their content is ours.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from use_suite.categories import STRICT, WHOLE_PART, categorize, use_rejects
from use_suite.figures import figures
from use_suite.formats import (
    EXPR_FILE,
    MODEL_STEP,
    PARSER_DIR,
    SHELL_DIR,
    parse_shell,
    read_expr_cases,
    read_shell_scripts,
    read_spec_cases,
)
from use_suite.outcome import use_error_line
from use_suite.replay import run_all

from benchmark.lang.ocl.errors import OclTypeError

SCRIPT = """\
# a comment, then commands; `*' lines are the output of the command above them
*shop.use:3:6: printed while the model loads
!create a : Item
!set a.price := 3

? a.price + 1
*-> 4 : Integer
#
\\
? Set{1, 2}->iterate(i; acc : Integer = 0 |
    acc + i)
.
*-> 3 : Integer
check
*checking structure...
*checking invariants...
exit
"""


def test_shell_scripts_are_read_as_shellit_reads_them() -> None:
    steps = parse_shell(SCRIPT)
    assert [(s.line, s.command.splitlines()[0], s.expected) for s in steps] == [
        (2, MODEL_STEP, ("shop.use:3:6: printed while the model loads",)),
        (3, "!create a : Item", ()),
        (4, "!set a.price := 3", ()),
        (6, "? a.price + 1", ("-> 4 : Integer",)),
        (10, "? Set{1, 2}->iterate(i; acc : Integer = 0 |", ("-> 3 : Integer",)),
        (14, "check", ("checking structure...", "checking invariants...")),
        (17, "exit", ()),
    ]
    assert steps[4].command == "? Set{1, 2}->iterate(i; acc : Integer = 0 |\n    acc + i)"


def test_an_unclosed_block_is_an_error_naming_its_line() -> None:
    with pytest.raises(ValueError, match="line 2: a `\\\\' block without its closing `.'"):
        parse_shell("!create a : Item\n\\\n? 1 +\n")


def test_errors_print_as_use_prints_them_with_columns_from_zero() -> None:
    error = OclTypeError("undefined variable `x'", file="<input>", line=1, column=5)
    assert use_error_line(error) == "<input>:1:4: undefined variable `x'"


@pytest.mark.parametrize(
    ("command", "expected", "rejected"),
    [
        ("? 1 + 'a'", ("<input>:1:2: Undefined operation `Integer.+(String)'.",), True),
        ("? x.y", ("-> Could not evaluate. expected link set size 1",), True),
        ("? 1->size()", ("<input>:1:1: Warning: application of `size' ...", "-> 1 : Integer"), False),
        ("!insert (a, b) into R", ("Warning: Insert has resulted in two aggregates for object `b'.",), False),
        ("!create a : Nope", ("<input>:1:11: Undefined class `Nope'.",), True),
        (MODEL_STEP, ("m.use:2:6: Redefinition of `A'.",), True),
    ],
)
def test_whether_use_rejected_an_input(command: str, expected: tuple[str, ...], rejected: bool) -> None:
    assert use_rejects(command, expected) is rejected


def test_differences_get_named_reasons() -> None:
    strict = ("<input>:1:4: Expression `...' can never evaluate to true because ...",
              "You can change this check using the -extendedTypeSystemChecks switch.")  # fmt: skip
    assert (
        categorize("shell", "? x", strict, ("-> false : Boolean",), rejected=False, use_rejected=True)
        == STRICT
    )
    warned = ("Warning: Insert has resulted in a cycle in the part-whole hierarchy.",)
    assert categorize("shell", "!insert (a, b) into R", warned, (), rejected=False, use_rejected=False) == (
        WHOLE_PART
    )
    source = "model M\nclass A\nattributes\n  x : Integer derived\nend\n"
    reason = categorize(
        "model", source, (), ("m.use:4:14: unexpected `derived'",), rejected=True, use_rejected=False
    )
    assert reason == "model language we do not read: union, redefines, subsets or derived association ends"


SHOP_USE = """\
model Shop

class Item
attributes
  price : Integer
end

class Item
end
"""

SHELL_USE = """\
model Shop
class Item
attributes
  price : Integer
end
constraints
context Item inv cheap: self.price < 10
context Item inv affordable: self.price < 5
"""

SHELL_IN = """\
!create a : Item
!set a.price := 7
? a.price * 2
*-> 14 : Integer
? a.price * 'x'
*<input>:1:8: Undefined operation `Integer.*(String)'.
check
*checking structure...
*checking invariants...
*checking invariant (1) `Item::affordable': FAILED.
*-> false : Boolean
*checking invariant (2) `Item::cheap': OK.
*checked 2 invariants, 1 failure.
gen -r
*Generated result (system state) accepted.
? a.price
*-> 8 : Integer
"""


@pytest.fixture()
def checkout(tmp_path: Path) -> Path:
    """A directory laid out like a USE checkout, holding our own files in USE's formats."""
    (tmp_path / PARSER_DIR).mkdir(parents=True)
    (tmp_path / EXPR_FILE).write_text("# comment\n\n1 +\n  2\n-> 3 : Integer\n'a'.size()\n-> 2 : Integer\n")
    (tmp_path / PARSER_DIR / "t1.use").write_text(SHOP_USE)
    (tmp_path / PARSER_DIR / "t1.fail").write_text("t1.use:8:6: Redefinition of `Item'.\n")
    (tmp_path / PARSER_DIR / "t2.use").write_text("model Empty\n")
    (tmp_path / SHELL_DIR).mkdir(parents=True)
    (tmp_path / SHELL_DIR / "t001.use").write_text(SHELL_USE)
    (tmp_path / SHELL_DIR / "t001.in").write_text(SHELL_IN)
    return tmp_path


def test_a_replay_of_each_kind_counts_agreement_at_two_levels(checkout: Path) -> None:
    expr, spec, shell = read_expr_cases(checkout), read_spec_cases(checkout), read_shell_scripts(checkout)
    assert [(c.line, c.expression) for c in expr] == [(5, "1 + 2"), (7, "'a'.size()")]
    outcomes = run_all(expr, spec, shell)
    got = {kind: (f.agree, f.exact, f.total) for kind, f in figures(outcomes).items()}
    # expr: 1 + 2 right, 'a'.size() is 1 not 2; spec: both reject t1 (other words), both accept t2;
    # shell: model, query, rejected query (other words), check; `gen' not run and the state after it
    assert got == {"expr": (1, 1, 2), "spec": (2, 1, 2), "shell": (4, 3, 6)}
    assert [(o.kind, o.line, o.category) for o in outcomes if not o.exact] == [
        ("expr", 7, "unclassified"),
        ("spec", 1, "both reject; the message differs"),
        ("shell", 5, "both reject; the message differs"),
        ("shell", 14, "shell command we do not run: `gen'"),
        ("shell", 16, "state after a shell command we do not run (after `gen')"),
    ]
