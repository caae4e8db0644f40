"""USE's verdicts on a model variant's answers: the command files a USE shell runs, and what it printed.

For one variant, the model without any invariant and each state written as SOIL go to a folder with each
answer's constraint in a file of its own; the command file opens the model, and then for each group of
answers whose invariant names cannot clash loads each answer (``constraints -load``), for each state
``open -q`` it, ``check`` and ``reset``, and finally ``constraints -unload``. It runs in the process's
long-lived USE shell (:mod:`.use_shell`). The output is read command by command (the shell echoes each
one), because USE 7.5.0

* reports a constraints file that does not parse (``FILE:line L:C message``, nothing loaded) or does not
  type check (``FILE:L:C: message``, then ``Added invariants: (none)``) on its output and goes on;
* keeps the previous model when a model does not compile (so the model's own line, ``Model NAME (...)``,
  must be there before anything else is read);
* ignores ``check Ctx::inv``: it looks the invariant up by its qualified name and then filters by the
  bare name, so it checks nothing; every loaded invariant is checked and the output is filtered instead;
* reports an invariant whose body is undefined as ``FAILED`` (``-> false``: ``forAll`` counts an
  undefined body as false) and one whose evaluation cannot finish as ``N/A``.

Answers of one constraint usually share a name (the reference's), and USE refuses a second invariant of
the same name. So that every answer loads at once (each state is then opened once, not once per clashing
answer), each invariant name is given a suffix (``name__7``) before loading; the columns of USE's
messages on such a line are given back as they are in the answer. An answer whose names cannot be
renamed safely (a reserved word where the name should be) is loaded as written, in a later group where
its names do not clash. An answer's invariants are the names USE lists after ``Added invariants:`` (so
unnamed ones are matched by the names USE gives them); one that clashes anyway (``Duplicate definition
of invariant``) is judged again alone.

**Faults.** When the shell dies, hangs (one command, such as checking one state, takes longer than the
timeout) or answers out of step, the verdicts it printed before are kept, a new shell is started and the
pending work is run again: the state it was at with the same answers once more, then each of those
answers alone on it; an answer that still cannot be judged on a state gets a *judge error* for that
state, with what USE printed (:attr:`UseAnswer.errors`), and the rest of the work goes on.
"""

from __future__ import annotations

import re
import tempfile
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from benchmark.tracks.ocl.scoring.use_install import UseFailed
from benchmark.tracks.ocl.scoring.use_shell import COMMANDS, ShellFailed, Step, UseShell

OK, FAILED, NOT_AVAILABLE = "OK", "FAILED", "N/A"

_CHECK = re.compile(r"checking invariant \(\d+\) `([^`']+)': (.*?)(OK\.|FAILED\.|N/A)", re.DOTALL)
_INV_NAME = re.compile(r"\binv\s+([A-Za-z_][A-Za-z0-9_]*)\s*:")
# a string literal, a comment, or `inv NAME :' (the name group) outside both
_NAMES = re.compile(
    r"'(?:\\.|[^'\\\n])*'|--[^\n]*|//[^\n]*|/\*.*?\*/|\binv(?P<gap>\s+)(?P<name>[A-Za-z_][A-Za-z0-9_]*)(?=\s*:)",
    re.DOTALL,
)
_POSITION = re.compile(r"^(line )?(\d+):(\d+)")
_MODEL_NAME = re.compile(r"^\s*model\s+(\S+)", re.MULTILINE)
_DUPLICATE = "Duplicate definition of invariant"
#: the kinds of command, as the cost's breakdown names them
KINDS = ("model", "load", "open", "check", "reset", "unload")


# ------------------------------------------------------------------------------------------- results


@dataclass
class UseAnswer:
    """What USE said of one answer: rejected (``syntax``/``type`` with USE's message), or its invariants
    (``Class::name``, as USE lists them) and each one's verdict per state (OK, FAILED, N/A); ``errors``
    holds the states USE could not judge it on (it died or hung there, twice), with why."""

    invariants: tuple[str, ...] = ()
    rejected: str | None = None  # "syntax" | "type"
    message: str = ""
    verdicts: dict[str, dict[str, str]] = field(default_factory=dict)  # state -> invariant -> verdict
    notes: dict[str, str] = field(default_factory=dict)  # state -> what USE printed beside a verdict
    errors: dict[str, str] = field(default_factory=dict)  # state -> why USE could not judge it there


@dataclass
class UseCost:
    """What judging cost: USE processes started and restarted, states opened and checked, invariant
    verdicts, judge errors, seconds in all and per kind of command (``start`` and ``parse``: our reading
    of USE's output, beside :data:`KINDS`)."""

    jvms: int = 0
    states: int = 0
    checks: int = 0
    seconds: float = 0.0
    version: str = ""
    restarts: int = 0
    judge_errors: int = 0
    breakdown: dict[str, float] = field(default_factory=dict)

    def add(self, other: UseCost) -> None:
        self.jvms += other.jvms
        self.states += other.states
        self.checks += other.checks
        self.seconds += other.seconds
        self.version = self.version or other.version
        self.restarts += other.restarts
        self.judge_errors += other.judge_errors
        for kind, seconds in other.breakdown.items():
            self.spent(kind, seconds)

    def spent(self, kind: str, seconds: float) -> None:
        self.breakdown[kind] = self.breakdown.get(kind, 0.0) + seconds


@dataclass(frozen=True)
class Renamed:
    """An answer as loaded: its names suffixed, and where on which line each suffix went in."""

    text: str
    shifts: tuple[tuple[int, int, int], ...] = ()  # (line, column after the name, characters added)

    def original_position(self, message: str) -> str:
        """USE's message with its ``[line ]L:C`` position as it is in the answer as written."""
        found = _POSITION.match(message)
        if found is None:
            return message
        line, column = int(found.group(2)), int(found.group(3))
        column -= sum(added for at_line, at, added in self.shifts if at_line == line and at <= column)
        return f"{found.group(1) or ''}{line}:{column}{message[found.end() :]}"


def rename_invariants(text: str, suffix: str) -> Renamed | None:
    """``text`` with every invariant name followed by ``suffix``; ``None`` when a name is a reserved
    word (renaming it would turn USE's syntax error into a valid constraint)."""
    from benchmark.lang.ocl.parser import RESERVED_WORDS

    shifts: list[tuple[int, int, int]] = []
    unsafe = False

    def rename(match: re.Match[str]) -> str:
        nonlocal unsafe
        name = match.group("name")
        if name is None:
            return match.group(0)
        if name in RESERVED_WORDS:
            unsafe = True
            return match.group(0)
        end = match.end()
        line = text.count("\n", 0, end) + 1
        column = end - (text.rfind("\n", 0, end) + 1)
        shifts.append((line, column, len(suffix)))
        return f"inv{match.group('gap')}{name}{suffix}"

    renamed = _NAMES.sub(rename, text)
    return None if unsafe else Renamed(renamed, tuple(shifts))


def plan_groups(texts: Sequence[str]) -> list[list[int]]:
    """Answers in loading groups whose invariant names (as far as they can be read) do not repeat: the
    answers of one constraint usually share the reference's name, so each goes to another group."""
    groups: list[tuple[set[str], list[int]]] = []
    for index, text in enumerate(texts):
        names = set(_INV_NAME.findall(text))
        for used, members in groups:
            if not names & used:
                used |= names
                members.append(index)
                break
        else:
            groups.append((set(names), [index]))
    return [members for _, members in groups]


# ----------------------------------------------------------------------------------------- the work


@dataclass
class Job:
    """Answers loaded together and the states they are checked on; ``tries`` counts the runs of this
    work that failed before (0: as planned; 1: the failed state again; 2: one answer alone)."""

    members: list[int]
    states: list[str]
    tries: int = 0


def run_batch(
    shell: UseShell, model: str, states: Mapping[str, str], answers: Sequence[str]
) -> tuple[list[UseAnswer], UseCost]:
    """USE's verdicts on every answer (constraints text) in every state (SOIL text), by state name."""
    loaded = [rename_invariants(text, f"__{index}") or Renamed(text) for index, text in enumerate(answers)]
    safe = [i for i, r in enumerate(loaded) if r.shifts or not _INV_NAME.search(r.text)]
    rest = [i for i in range(len(answers)) if i not in set(safe)]
    groups = ([safe] if safe else []) + [
        [rest[i] for i in g] for g in plan_groups([answers[i] for i in rest])
    ]
    batch = _Batch(shell, model, states, loaded)
    batch.work([Job(group, list(states)) for group in groups])
    clashed = sorted(batch.clashed)
    if clashed:  # a name USE gave or read differently: each alone, as written
        for index in clashed:
            batch.results[index] = UseAnswer()
            batch.loaded[index] = Renamed(answers[index])
        batch.clashed.clear()
        batch.work([Job([index], list(states)) for index in clashed])
    for index, answer in enumerate(batch.results):
        missing = [
            s
            for s in states
            if s not in answer.errors and set(answer.invariants) - set(answer.verdicts.get(s, {}))
        ]
        if missing and answer.rejected is None and index not in batch.clashed:
            raise UseFailed(f"USE's check did not report every invariant of answer {index} on {missing[0]}")
    return batch.results, batch.cost


class _Batch:
    """The work on one variant: the folder of its files, the results so far, and the runs of the shell."""

    def __init__(self, shell: UseShell, model: str, states: Mapping[str, str], loaded: list[Renamed]) -> None:
        self.shell = shell
        self.model = model
        self.states = states
        self.loaded = loaded
        self.results = [UseAnswer() for _ in loaded]
        self.cost = UseCost()
        self.clashed: set[int] = set()
        self.state_files = {name: f"s{i}.soil" for i, name in enumerate(states)}
        found = _MODEL_NAME.search(model)
        self.model_name = found.group(1) if found else ""

    def work(self, jobs: list[Job]) -> None:
        model_failures = 0
        while jobs:
            try:
                jobs = self._run(jobs)
            except ShellFailed as failed:  # the model's own line never came: once more, then give up
                model_failures += 1
                self.cost.restarts += 1
                if model_failures > 1:
                    raise UseFailed(f"USE could not open the model: {failed.message()}") from None

    def _run(self, jobs: list[Job]) -> list[Job]:
        """Run ``jobs`` in one command file; the jobs still to run (after a failure of the shell)."""
        script: list[tuple[str, str, object]] = [("open model.use", "model", None)]
        for number, job in enumerate(jobs):
            script += [(f"constraints -load a{i}.ocl", "load", (number, i)) for i in job.members]
            for name in job.states:
                file = self.state_files[name]
                script += [(f"open -q {file}", "open", (number, name)), ("check", "check", (number, name))]
                script.append(("reset", "reset", (number, name)))
            script.append(("constraints -unload", "unload", (number, None)))
        starts, starting = self.shell.stats.starts, self.shell.stats.start_seconds
        start = time.perf_counter()
        failure: ShellFailed | None = None
        with tempfile.TemporaryDirectory(prefix="atlbench-use-") as tmp:
            folder = Path(tmp)
            (folder / "model.use").write_text(self.model, encoding="utf-8")
            for name, file in self.state_files.items():
                (folder / file).write_text(self.states[name], encoding="utf-8")
            for index in {i for job in jobs for i in job.members}:
                text = self.loaded[index].text.rstrip("\n") + "\n"
                (folder / f"a{index}.ocl").write_text(text, encoding="utf-8")
            (folder / COMMANDS).write_text("".join(f"{c}\n" for c, _, _ in script), encoding="utf-8")
            try:
                steps = self.shell.run(folder, [c for c, _, _ in script])
            except ShellFailed as failed:
                failure, steps = failed, failed.steps
        self.cost.seconds += time.perf_counter() - start
        self.cost.jvms += self.shell.stats.starts - starts
        if self.shell.stats.starts > starts:
            self.cost.spent("start", self.shell.stats.start_seconds - starting)
        self.cost.version = self.cost.version or self.shell.stats.version
        done = steps if failure is None else steps[:-1]  # the last step of a failed run did not finish
        for step, (_, kind, _) in zip(steps, script, strict=False):
            self.cost.spent(kind, step.seconds)
        parse = time.perf_counter()
        self._read(done, script)
        self.cost.spent("parse", time.perf_counter() - parse)
        if failure is None:
            return []
        if len(done) == 0:
            raise failure  # at the model: not the answers' doing
        self.cost.restarts += 1
        return self._after(failure, jobs, script[len(done)])

    def _read(self, steps: Sequence[Step], script: Sequence[tuple[str, str, object]]) -> None:
        owner: dict[str, int] = {}
        for step, (_, kind, about) in zip(steps, script, strict=False):
            if kind == "model":
                if not any(line.startswith(f"Model {self.model_name} (") for line in step.lines):
                    raise UseFailed("USE rejects the model: " + " ".join(line.strip() for line in step.lines))
            elif kind == "load":
                index = about[1]  # type: ignore[index]
                _read_load(self.results[index], step.lines, f"a{index}.ocl", self.loaded[index])
                if any(_DUPLICATE in line for line in step.lines):
                    self.clashed.add(index)
                for name in self.results[index].invariants:
                    owner[name] = index
            elif kind == "open":
                self.cost.states += 1
                if any(line.strip() for line in step.lines):
                    state = about[1]  # type: ignore[index]
                    raise UseFailed(
                        f"USE rejects state {state}: " + " ".join(line.strip() for line in step.lines)
                    )
            elif kind == "check":
                self.cost.checks += _read_check(self.results, owner, str(about[1]), "\n".join(step.lines))  # type: ignore[index]
            elif kind == "unload":
                owner.clear()

    def _after(self, failure: ShellFailed, jobs: list[Job], at: tuple[str, str, object]) -> list[Job]:
        """The jobs still to run when the shell failed at the command ``at`` (module docstring)."""
        _, kind, about = at
        number, what = about  # type: ignore[misc]
        job = jobs[number]
        later = jobs[number + 1 :]
        if kind == "unload":  # every state of the job was checked
            return later
        if kind == "load":  # nothing checked yet: the whole job again
            failed, rest = list(job.states), []
        else:
            position = job.states.index(what)
            failed, rest = ([] if kind == "reset" else [what]), job.states[position + 1 :]
        after = [Job(job.members, rest, job.tries)] if rest else []
        if not failed:
            return after + later
        if job.tries == 0:
            return [Job(job.members, failed, 1), *after, *later]
        if job.tries == 1 and len(job.members) > 1:
            return [*(Job([m], failed, 2) for m in job.members), *after, *later]
        for index in job.members:  # it failed alone (or once more, alone already): a judge error
            for name in failed:
                self.results[index].errors[name] = failure.message()
                self.cost.judge_errors += 1
        return after + later


def _read_load(answer: UseAnswer, lines: Sequence[str], file: str, loaded: Renamed) -> None:
    syntax = re.compile(rf"^{re.escape(file)}:line (\d+):(\d+) (.*)$")
    typed = re.compile(rf"^{re.escape(file)}:(\d+):(\d+): (.*)$")
    errors: list[str] = []
    kind: str | None = None
    listed = False
    names: list[str] = []
    for line in lines:
        if (m := syntax.match(line)) is not None:
            kind = kind or "syntax"
            errors.append(loaded.original_position(f"line {m.group(1)}:{m.group(2)} {m.group(3)}"))
        elif (m := typed.match(line)) is not None:
            kind = kind or "type"
            errors.append(loaded.original_position(f"{m.group(1)}:{m.group(2)}: {m.group(3)}"))
        elif line == "Added invariants:":
            listed = True
        elif listed and line.strip() == "(none)":
            continue
        elif listed and line.strip():
            names.append(line.strip())
        elif line.strip():
            errors.append(line.strip())
    if kind is not None or not listed:
        answer.rejected = kind or "syntax"
        answer.message = "; ".join(errors) or "USE loaded nothing"
        return
    answer.invariants = tuple(names)
    answer.message = "; ".join(errors)


def _read_check(results: list[UseAnswer], owner: Mapping[str, int], state: str, text: str) -> int:
    count = 0
    for match in _CHECK.finditer(text):
        name, between, verdict = match.group(1), match.group(2).strip(), match.group(3)
        index = owner.get(name)
        if index is None:
            continue
        count += 1
        results[index].verdicts.setdefault(state, {})[name] = verdict.rstrip(".")
        if between:  # what USE printed while evaluating it (an error, before `N/A')
            results[index].notes[state] = " ".join(between.split())
    return count


__all__ = [
    "FAILED",
    "KINDS",
    "NOT_AVAILABLE",
    "OK",
    "Renamed",
    "UseAnswer",
    "UseCost",
    "plan_groups",
    "rename_invariants",
    "run_batch",
]
