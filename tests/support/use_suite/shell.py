"""Replaying a ShellIT script (``shell/*.in``) on our judge: a USE shell made of our engine.

What runs: SOIL commands (``!...``), ``?`` queries, ``:`` static types, ``check``, ``constraints -load``,
``reset`` and ``undo`` (the state is rebuilt without the last SOIL command). What does not: ``gen``,
``open``, ``??`` traces, operation calls (``!openter`` ... ``!opexit``), ``!assign``; the state after one
of them may differ from USE's, and later differences say so. Loading the model is one expectation per
script: USE's first output lines, or none (the model loads silently).
"""

from __future__ import annotations

import shlex
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from benchmark.lang.ocl.engine import OclEngine
from benchmark.lang.ocl.errors import EvaluationError, OclError
from benchmark.lang.ocl.soil import SoilSession
from benchmark.lang.ocl.use_io import parse_use
from use_suite.categories import use_rejects
from use_suite.formats import MODEL_STEP, ShellScript, ShellStep, read_text
from use_suite.outcome import EXPRESSION_FILE, Outcome, judge, use_error_line

# shell commands we do not run that change the state
UNSUPPORTED_STATE_CHANGES = ("open", "read", "readq", "gen", "step", "load", "!openter", "!opexit", "!assign")
STOP_COMMANDS = ("exit", "quit", "q")
EVALUATION_FAILED = "could not evaluate: "  # our EvaluationError; USE's shell prints `-> Could not evaluate.'


def load_model(name: str, text: str) -> tuple[OclEngine | None, tuple[str, ...]]:
    """Our engine for a USE model, or None and our error line as USE would print it."""
    try:
        return OclEngine(parse_use(text, file=name)), ()
    except OclError as error:
        return None, (use_error_line(error),)


@dataclass
class _Shell:
    """A USE shell on our judge: the model of the script, one SOIL session, the commands run so far."""

    engine: OclEngine
    directory: Path
    session: SoilSession = field(init=False)
    history: list[str] = field(default_factory=list)  # the SOIL commands run, for `undo`
    unsure: str | None = None  # why the state may differ from USE's from here on
    operation_depth: int = 0  # inside `!openter` ... `!opexit`, which we do not simulate

    def __post_init__(self) -> None:
        self.session = self.engine.soil_session(file=EXPRESSION_FILE)

    def replay(self) -> None:
        """A fresh state with the SOIL commands of :attr:`history` (they are deterministic)."""
        self.session = self.engine.soil_session(file=EXPRESSION_FILE)
        for text in self.history:
            self.session.execute(text)

    def run(self, step: ShellStep) -> tuple[tuple[str, ...], bool] | None:
        """Our output lines for ``step`` and whether we rejected it; None for a command we do not run."""
        command = step.command.strip()
        words = command.split()
        first = "!" + words[1] if words[0] == "!" and len(words) > 1 else words[0]  # `! openter` too
        if first in UNSUPPORTED_STATE_CHANGES:
            if first == "!openter":
                self.operation_depth += 1
            elif first == "!opexit":
                self.operation_depth = max(0, self.operation_depth - 1)
            self.unsure = f"after `{first}'"
            return None
        if self.operation_depth and command.startswith("!"):
            return None  # a statement of an operation call we do not simulate (uses `self`, parameters)
        try:
            return self._run(command, words)
        except OclError as error:
            return (use_error_line(error),), True

    def _run(self, command: str, words: list[str]) -> tuple[tuple[str, ...], bool] | None:
        if command.startswith("!"):
            self.session.execute(command)
            self.history.append(command)
            return (), False
        if command.startswith("??"):
            return None  # an evaluation trace
        if command.startswith("?"):
            compiled = self._compile(command[1:])
            try:
                value = self.engine.evaluate(compiled, self.session.state, self.session.variables)
            except EvaluationError as error:
                return (f"-> Could not evaluate. {error.message.removeprefix(EVALUATION_FAILED)}",), True
            return (f"-> {value.text}",), False
        if command.startswith(":"):
            return (f"-> {self._compile(command[1:]).type}",), False
        if words == ["check"]:
            report = self.engine.check(self.session.state)
            return tuple(line.strip() for line in report.to_text().splitlines() if line.strip()), False
        if words[:2] == ["constraints", "-load"] and len(words) == 3:
            self.engine.add_constraints_file(self.directory / shlex.split(words[2])[0])
            return (), False
        if words in (["reset"], ["undo"]):
            if words == ["reset"]:
                self.history.clear()
            elif self.history:
                self.history.pop()
            self.replay()
            return (), False
        return None

    def _compile(self, text: str):  # type: ignore[no-untyped-def]
        return self.engine.compile(
            text, self.session.state, soil_variables=self.session.variables, file=EXPRESSION_FILE
        )


def run_shell_script(script: ShellScript) -> Iterator[Outcome]:
    """Every expectation of ``script``. A command USE ran without a word that we reject is reported with
    kind ``shell-setup`` (no expectation of its own, but the state differs from there on)."""
    source = read_text(script.model)
    engine, model_errors = load_model(script.model.name, source)
    steps = list(script.steps)
    model_step = steps.pop(0) if steps and steps[0].command == MODEL_STEP else ShellStep(0, MODEL_STEP, ())
    use_rejected_model = use_rejects(MODEL_STEP, model_step.expected)
    model_step_outcome = judge(
        "shell", script.file, model_step.line, MODEL_STEP, model_step.expected, model_errors,
        rejected=engine is None, use_rejected=use_rejected_model, category_kind="model", source=source,
    )  # fmt: skip
    yield model_step_outcome
    if engine is None:  # every expectation of the script is lost, for the reason the model has
        reason = model_step_outcome.category if not use_rejected_model else "model rejected by both"
        for step in steps:
            if step.expected:
                yield Outcome(
                    "shell",
                    script.file,
                    step.line,
                    step.command,
                    step.expected,
                    model_errors,
                    False,
                    False,
                    reason,
                )
        return
    shell = _Shell(engine, script.model.parent)
    for step in steps:
        if not step.command.strip():
            continue  # an empty `\` ... `.` block
        if step.command.split()[0] in STOP_COMMANDS:
            return
        context = shell.unsure
        ran = shell.run(step)
        if ran is None:
            if step.expected:
                yield judge(
                    "shell", script.file, step.line, step.command, step.expected, (),
                    rejected=False, use_rejected=use_rejects(step.command, step.expected),
                    category_kind="unsupported", context=context,
                )  # fmt: skip
            continue
        actual, rejected = ran
        if not step.expected:
            if rejected:  # USE ran it silently; we did not: the following results may differ
                shell.unsure = "after a command we reject"
                yield Outcome("shell-setup", script.file, step.line, step.command, (), actual, False, False)
            continue
        yield judge(
            "shell", script.file, step.line, step.command, step.expected, actual,
            rejected=rejected, use_rejected=use_rejects(step.command.strip(), step.expected), context=context,
        )  # fmt: skip
