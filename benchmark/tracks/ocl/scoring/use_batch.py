"""Running a local USE in batch: one JVM checks every answer of a model variant on every object state.

USE (https://github.com/useocl/use, compared with 7.5.0) is installed by the researcher as USE's own
documentation says; this module only finds it and drives it. It is found through ``--ocl-use`` (command
line or ini file) or the ``ATLBENCH_USE`` environment variable, either naming the ``use`` launcher, the
installation folder (whose ``bin/use`` is taken), or a folder of USE's jars (started with ``java -cp
'DIR/*' MAIN``, ``MAIN`` read from the jar manifests).

One batch is one JVM: ``use -nogui -noplugins -nr MODEL atlbench.cmd``, where the model is the variant
without any invariant and the command file, for each group of answers whose invariant names cannot clash,
loads each answer from its own file (``constraints -load``), then for each state ``open -q`` it, ``check``
and ``reset``, and finally ``constraints -unload``. The output is read command by command (the shell
echoes each one), never by the exit code alone, because USE 7.5.0

* reports a constraints file that does not parse (``FILE:line L:C message``, nothing loaded) or does not
  type check (``FILE:L:C: message``, then ``Added invariants: (none)``) on its output and goes on;
* prints nothing at all with ``-q`` on the command line (not used here), compile errors included;
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
of invariant``) is judged again alone, in a JVM of its own.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import tempfile
import time
import zipfile
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from benchmark.core.errors import BenchmarkError, ConfigurationError

ENVIRONMENT = "ATLBENCH_USE"
COMMANDS = "atlbench.cmd"
OK, FAILED, NOT_AVAILABLE = "OK", "FAILED", "N/A"

#: seconds a JVM may take: start-up, plus per state opened and per invariant checked
TIMEOUT_BASE, TIMEOUT_PER_OPEN, TIMEOUT_PER_CHECK = 120.0, 0.5, 0.05

_VERSION = re.compile(r"^USE version (\S+),")
_CHECK = re.compile(r"checking invariant \(\d+\) `([^`']+)': (.*?)(OK\.|FAILED\.|N/A)", re.DOTALL)
_INV_NAME = re.compile(r"\binv\s+([A-Za-z_][A-Za-z0-9_]*)\s*:")
# a string literal, a comment, or `inv NAME :' (the name group) outside both
_NAMES = re.compile(
    r"'(?:\\.|[^'\\\n])*'|--[^\n]*|//[^\n]*|/\*.*?\*/|\binv(?P<gap>\s+)(?P<name>[A-Za-z_][A-Za-z0-9_]*)(?=\s*:)",
    re.DOTALL,
)
_POSITION = re.compile(r"^(line )?(\d+):(\d+)")
_DUPLICATE = "Duplicate definition of invariant"


class UseNotFound(ConfigurationError):
    """USE was asked for (``--ocl-judge use|both``) and is not where the configuration says."""


class UseFailed(BenchmarkError):
    """USE could not judge a batch: it did not start, timed out, or its output is not what it prints."""


@dataclass(frozen=True)
class UseInstallation:
    """How to start USE: the command (launcher, or ``java -cp ... MAIN``) and where it was found."""

    command: tuple[str, ...]
    origin: str

    def argv(self, model: str, commands: str) -> list[str]:
        return [*self.command, "-nogui", "-noplugins", "-nr", model, commands]


def find_use(configured: Path | None, environ: Mapping[str, str] | None = None) -> UseInstallation:
    """The USE installation named by ``configured`` (``--ocl-use``), else by ``ATLBENCH_USE``."""
    environ = os.environ if environ is None else environ
    if configured is not None:
        return _installation(Path(configured), f"--ocl-use {configured}")
    given = environ.get(ENVIRONMENT, "").strip()
    if not given:
        raise UseNotFound(
            f"the USE judge needs a local USE: set {ENVIRONMENT} (or --ocl-use) to its `use' launcher, its "
            "installation folder or the folder of its jars",
            field="--ocl-judge",
        )
    return _installation(Path(given).expanduser(), f"{ENVIRONMENT}={given}")


def _installation(path: Path, origin: str) -> UseInstallation:
    if path.is_file():
        if not os.access(path, os.X_OK):
            raise UseNotFound(f"{origin}: not an executable launcher", file=path)
        return UseInstallation((str(path.resolve()),), origin)
    if not path.is_dir():
        raise UseNotFound(f"{origin}: no such file or folder", file=path)
    launcher = path / "bin" / "use"
    if launcher.is_file() and os.access(launcher, os.X_OK):
        return UseInstallation((str(launcher.resolve()),), origin)
    for folder in (path, path / "lib"):
        jars = sorted(folder.glob("*.jar"))
        main = next((m for m in map(_main_class, jars) if m), None)
        if main:
            java = shutil.which("java")
            if java is None:
                raise UseNotFound(f"{origin}: USE's jars are there but `java' is not on PATH", file=path)
            return UseInstallation((java, "-cp", f"{folder.resolve()}/*", main), origin)
    raise UseNotFound(f"{origin}: neither a `use' launcher nor a folder of USE's jars", file=path)


def _main_class(jar: Path) -> str | None:
    try:
        with zipfile.ZipFile(jar) as archive:
            manifest = archive.read("META-INF/MANIFEST.MF").decode("utf-8", "replace")
    except (OSError, KeyError, zipfile.BadZipFile):
        return None
    found = re.search(r"^Main-Class:\s*(\S+)", manifest, re.MULTILINE)
    return found.group(1) if found and found.group(1).startswith("org.tzi.use.") else None


# ------------------------------------------------------------------------------------------- results


@dataclass
class UseAnswer:
    """What USE said of one answer: rejected (``syntax``/``type`` with USE's message), or its invariants
    (``Class::name``, as USE lists them) and each one's verdict per state (OK, FAILED, N/A)."""

    invariants: tuple[str, ...] = ()
    rejected: str | None = None  # "syntax" | "type"
    message: str = ""
    verdicts: dict[str, dict[str, str]] = field(default_factory=dict)  # state -> invariant -> verdict
    notes: dict[str, str] = field(default_factory=dict)  # state -> what USE printed beside a verdict


@dataclass
class UseCost:
    """What the batches cost: JVMs started, states opened and checked, invariant verdicts, seconds."""

    jvms: int = 0
    states: int = 0
    checks: int = 0
    seconds: float = 0.0
    version: str = ""

    def add(self, other: UseCost) -> None:
        self.jvms += other.jvms
        self.states += other.states
        self.checks += other.checks
        self.seconds += other.seconds
        self.version = self.version or other.version


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


def run_batch(
    installation: UseInstallation,
    model: str,
    states: Mapping[str, str],
    answers: Sequence[str],
) -> tuple[list[UseAnswer], UseCost]:
    """USE's verdicts on every answer (constraints text) in every state (SOIL text), by state name."""
    loaded = [rename_invariants(text, f"__{index}") or Renamed(text) for index, text in enumerate(answers)]
    safe = [i for i, r in enumerate(loaded) if r.shifts or not _INV_NAME.search(r.text)]
    rest = [i for i in range(len(answers)) if i not in set(safe)]
    groups = ([safe] if safe else []) + [
        [rest[i] for i in g] for g in plan_groups([answers[i] for i in rest])
    ]
    results, cost, clashed = _one_jvm(installation, model, states, loaded, groups)
    for index in clashed:  # a name USE gave or read differently: alone, in a JVM of its own
        again, more, _ = _one_jvm(installation, model, states, [Renamed(answers[index])], [[0]])
        results[index] = again[0]
        cost.add(more)
    return results, cost


def _one_jvm(
    installation: UseInstallation,
    model: str,
    states: Mapping[str, str],
    answers: Sequence[Renamed],
    groups: Sequence[Sequence[int]],
) -> tuple[list[UseAnswer], UseCost, list[int]]:
    state_files = {name: f"s{i}.soil" for i, name in enumerate(states)}
    script: list[tuple[str, str, object]] = []  # (command, kind, what it is about)
    for group in groups:
        for index in group:
            script.append((f"constraints -load a{index}.ocl", "load", index))
        for name, file in state_files.items():
            script += [(f"open -q {file}", "open", name), ("check", "check", name), ("reset", "reset", name)]
        script.append(("constraints -unload", "unload", None))
    with tempfile.TemporaryDirectory(prefix="atlbench-use-") as tmp:
        folder = Path(tmp)
        (folder / "model.use").write_text(model, encoding="utf-8")
        for name, file in state_files.items():
            (folder / file).write_text(states[name], encoding="utf-8")
        for index, answer in enumerate(answers):
            (folder / f"a{index}.ocl").write_text(answer.text.rstrip("\n") + "\n", encoding="utf-8")
        (folder / COMMANDS).write_text("".join(f"{c}\n" for c, _, _ in script), encoding="utf-8")
        opens = len(groups) * len(states)
        timeout = TIMEOUT_BASE + TIMEOUT_PER_OPEN * opens + TIMEOUT_PER_CHECK * opens * max(1, len(answers))
        start = time.perf_counter()
        try:
            done = subprocess.run(
                installation.argv("model.use", COMMANDS),
                cwd=folder,
                stdin=subprocess.DEVNULL,
                stdout=subprocess.PIPE,
                stderr=subprocess.STDOUT,
                timeout=timeout,
                check=False,
            )
        except subprocess.TimeoutExpired:
            raise UseFailed(f"USE ({installation.origin}) did not finish within {timeout:.0f} s") from None
        except OSError as error:
            raise UseFailed(f"USE ({installation.origin}) could not be started: {error}") from None
        seconds = time.perf_counter() - start
    output = done.stdout.decode("utf-8", "replace")
    preamble, outputs = _split(output, [c for c, _, _ in script])
    version = next((m.group(1) for line in preamble if (m := _VERSION.match(line))), "")
    if len(outputs) < len(script):
        tail = "\n".join(output.splitlines()[-15:])
        raise UseFailed(
            f"USE ({installation.origin}) stopped after {len(outputs)} of {len(script)} commands "
            f"(exit status {done.returncode}):\n{tail}"
        )
    results = [UseAnswer() for _ in answers]
    owner: dict[str, int] = {}
    clashed: list[int] = []
    checks = 0
    for (_, kind, about), lines in zip(script, outputs, strict=True):
        if kind == "load":
            index = int(about)  # type: ignore[call-overload]
            _read_load(results[index], lines, f"a{index}.ocl", answers[index])
            if any(_DUPLICATE in line for line in lines):
                clashed.append(index)
            for name in results[index].invariants:
                owner[name] = index
        elif kind == "open" and any(line.strip() for line in lines):
            raise UseFailed(f"USE rejects state {about}: " + " ".join(line.strip() for line in lines))
        elif kind == "check":
            checks += _read_check(results, owner, str(about), "\n".join(lines))
        elif kind == "unload":
            owner.clear()
    for index, answer in enumerate(results):
        missing = [s for s in states if set(answer.invariants) - set(answer.verdicts.get(s, {}))]
        if missing and index not in clashed:
            raise UseFailed(f"USE's check did not report every invariant of answer {index} on {missing[0]}")
    return results, UseCost(1, opens, checks, seconds, version), clashed


def _split(output: str, commands: Sequence[str]) -> tuple[list[str], list[list[str]]]:
    """The lines before the first command, and each command's output lines (the shell echoes every
    command it reads from the file as ``atlbench.cmd> COMMAND``)."""
    prompt = f"{COMMANDS}> "
    preamble: list[str] = []
    outputs: list[list[str]] = []
    for line in output.splitlines():
        if (
            line.startswith(prompt)
            and len(outputs) < len(commands)
            and line[len(prompt) :] == commands[len(outputs)]
        ):
            outputs.append([])
        elif outputs:
            outputs[-1].append(line)
        else:
            preamble.append(line)
    return preamble, outputs


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
    "ENVIRONMENT",
    "FAILED",
    "NOT_AVAILABLE",
    "OK",
    "UseAnswer",
    "UseCost",
    "UseFailed",
    "UseInstallation",
    "UseNotFound",
    "find_use",
    "plan_groups",
    "run_batch",
]
