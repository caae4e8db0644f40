"""The expectation formats of USE's own test suite, read from a local USE checkout.

Nothing of USE is bundled: the files are read where a checkout lies (``ATLBENCH_USE_SOURCES``). Three
formats, each as the test that runs it in USE reads it:

* ``use-core/src/test/resources/org/tzi/use/parser/test_expr.in`` (``USECompilerTest.testExpression``):
  an expression over one or more lines, then ``-> expected`` (``value : type``); ``#`` lines and empty
  lines are skipped. Evaluated in an empty model.
* the ``*.use`` files of the same folder (``USECompilerTest.testSpecification``): a model is accepted when
  there is no ``.fail`` file next to it; otherwise the ``.fail`` file holds the exact error lines USE
  prints (``t18.use:13:6: message``, columns counted from 0).
* ``use-gui/src/it/resources/testfiles/shell/*.in`` (``ShellIT``) with the model ``*.use`` of the same
  name: a command per line (``\\`` ... ``.`` encloses a command over several lines), the lines starting
  with ``*`` after a command are its expected output, ``#`` lines are comments, blank lines are ignored.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

PARSER_DIR = Path("use-core/src/test/resources/org/tzi/use/parser")
EXPR_FILE = PARSER_DIR / "test_expr.in"
SHELL_DIR = Path("use-gui/src/it/resources/testfiles/shell")
MODEL_STEP = "<model>"  # the pseudo command of a script's first output lines: what loading the model printed


@dataclass(frozen=True)
class ExprCase:
    """One ``test_expr.in`` case: the expression (its lines joined by a space, as USE joins them)."""

    file: str
    line: int  # line of the expected result
    expression: str
    expected: str  # `value : type`


@dataclass(frozen=True)
class SpecCase:
    """One model of the parser folder: accepted (``expected`` empty) or USE's error lines."""

    file: str
    path: Path
    expected: tuple[str, ...]

    @property
    def rejected(self) -> bool:
        return bool(self.expected)


@dataclass(frozen=True)
class ShellStep:
    """One command of a shell script and the output lines USE prints for it (none for most)."""

    line: int  # line of the command in the .in file
    command: str  # several lines for a `\\` ... `.` block, joined by newlines; MODEL_STEP for the model
    expected: tuple[str, ...]


@dataclass(frozen=True)
class ShellScript:
    file: str
    model: Path
    steps: tuple[ShellStep, ...]

    @property
    def expectations(self) -> int:
        return sum(1 for s in self.steps if s.expected)


def read_text(path: Path) -> str:
    """A USE file's text. A few are not UTF-8; Java's default decoder (UTF-8 since Java 18) replaces a
    malformed byte with U+FFFD, and so do we."""
    return path.read_text(encoding="utf-8", errors="replace")


def _relative(path: Path, root: Path) -> str:
    return path.relative_to(root).as_posix()


def read_expr_cases(root: Path) -> list[ExprCase]:
    path = root / EXPR_FILE
    cases: list[ExprCase] = []
    pending: list[str] = []
    for number, line in enumerate(read_text(path).splitlines(), start=1):
        if not pending and (not line or line.startswith("#")):
            continue
        if pending and line.startswith("-> "):
            cases.append(ExprCase(_relative(path, root), number, " ".join(pending), line[3:]))
            pending = []
            continue
        pending.append(line if not pending else line.strip())
    if pending:
        raise ValueError(f"{path}: the expression starting `{pending[0]}' has no `-> ' result line")
    return cases


def read_spec_cases(root: Path) -> list[SpecCase]:
    cases = []
    for path in sorted((root / PARSER_DIR).glob("*.use")):
        fail = path.with_suffix(".fail")
        expected = tuple(read_text(fail).splitlines()) if fail.exists() else ()
        cases.append(SpecCase(_relative(path, root), path, expected))
    return cases


def parse_shell(text: str) -> list[ShellStep]:
    """The steps of a ShellIT script (``ShellIT.createCommandFile`` reads it the same way)."""
    steps: list[ShellStep] = []
    command: list[str] | None = None  # the command being read, with its line
    start = 0
    expected: list[str] = []
    block: list[str] | None = None  # inside `\` ... `.`
    block_line = 0

    def flush() -> None:
        nonlocal command, expected
        if command is not None:
            steps.append(ShellStep(start, "\n".join(command), tuple(expected)))
        command, expected = None, []

    for number, line in enumerate(text.splitlines(), start=1):
        if block is not None:
            if line.strip() == ".":
                flush()
                command, start, block = block, start, None
                continue
            block.append(line)
            continue
        if not line.strip():
            continue
        if line[0] in "*#" and not line[1:].strip():
            continue
        if line.startswith("*"):
            if command is None and not steps and not expected:  # output before any command: the model's
                command, start = [MODEL_STEP], number
            expected.append(line[1:].strip())
            continue
        if line.startswith("#"):
            continue
        if line.strip() == "\\":
            flush()
            block, start, block_line = [], number + 1, number
            continue
        flush()
        command, start = [line], number
    if block is not None:
        raise ValueError(f"line {block_line}: a `\\' block without its closing `.'")
    flush()
    return steps


def read_shell_scripts(root: Path) -> list[ShellScript]:
    scripts = []
    for path in sorted((root / SHELL_DIR).glob("*.in")):
        steps = parse_shell(read_text(path))
        scripts.append(ShellScript(_relative(path, root), path.with_suffix(".use"), tuple(steps)))
    return scripts
