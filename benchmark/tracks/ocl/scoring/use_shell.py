"""One long-lived USE shell per process, fed command file after command file on its standard input.

Starting USE is a JVM start (about a second on 2 cores, before any model is read); judging the bundled
study needs 96 model variants, so a JVM per variant spent most of its time starting. One shell is started
per process (``use -nogui -noplugins -nr EMPTY.use``: a model is loaded so that the shell's queries work
from the start) and each batch is sent as ``open "FOLDER/atlbench.cmd"`` followed by the query
``? 'atlbench-sync-N'``: the shell runs the command file (which opens the variant's model first, and
echoes every command as ``atlbench.cmd> COMMAND``), then answers the query, whose line
``-> 'atlbench-sync-N' : String`` marks the end of the batch. Relative names in the command file are
resolved against its folder, as when USE is started with the file on its command line.

The shell is watched, never trusted: USE that exits, prints a command the file does not hold next, or
takes longer than the timeout for one command (opening or checking one state) is killed with its process
group and :class:`ShellFailed` says how far it got; the caller (:mod:`.use_batch`) starts another and
judges the pending work again. A shell belongs to the process that started it: a forked child (the
helper that scores ahead, :mod:`benchmark.harness.ahead`) starts its own instead of writing to its
parent's. USE's output is read without a thread of our own (``select`` on its pipe): a process with
threads does not fork (:func:`benchmark.core.forked.can_fork`), and the session forks its helper and its
report writers after the shell has started.
"""

from __future__ import annotations

import atexit
import itertools
import os
import re
import select
import shutil
import signal
import subprocess
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from benchmark.tracks.ocl.scoring.use_install import UseFailed, UseInstallation

COMMANDS = "atlbench.cmd"
PROMPT = "use> "
_VERSION = re.compile(r"^USE version (\S+),")
#: seconds a shell may take to start (a JVM on a busy machine), however short the timeout of a command
START_SECONDS = 120.0
#: the shell's first model: loaded so that its ``?`` queries (the end-of-batch marks) always have a system
EMPTY_MODEL = "model AtlbenchEmpty\n"


class ShellFailed(Exception):
    """USE died, hung or answered out of step: ``steps`` are the commands it finished before."""

    def __init__(self, reason: str, steps: list[Step], tail: Sequence[str]) -> None:
        super().__init__(reason)
        self.reason = reason
        self.steps = steps
        self.tail = list(tail)

    def message(self) -> str:
        printed = " | ".join(line.strip() for line in self.tail[-6:] if line.strip())
        return self.reason + (f" (USE printed: {printed})" if printed else "")


@dataclass
class Step:
    """A command of a batch, the lines USE printed for it and the seconds it took (from its echo to the
    next command's)."""

    command: str
    lines: list[str] = field(default_factory=list)
    seconds: float = 0.0


@dataclass
class ShellStats:
    """What a shell cost: USE processes started, the seconds their starts took, and USE's version."""

    starts: int = 0
    start_seconds: float = 0.0
    version: str = ""


class UseShell:
    """A USE process driven through its shell (module docstring). :meth:`run` runs one command file."""

    def __init__(self, installation: UseInstallation, timeout: float) -> None:
        self.installation = installation
        self.timeout = timeout
        self.stats = ShellStats()
        self._process: subprocess.Popen[bytes] | None = None
        self._buffer = b""
        self._owner = 0
        self._marks = itertools.count(1)
        self._folder: str | None = None  # the shell's own (its first model): removed by its owner only
        atexit.register(self.close)

    @property
    def pid(self) -> int | None:
        """The started process's id (the launcher's), when this process owns one."""
        return self._process.pid if self._process is not None and self._owner == os.getpid() else None

    def run(self, folder: Path, commands: Sequence[str]) -> list[Step]:
        """Run ``folder/atlbench.cmd`` (which holds ``commands``, one a line) and return what USE printed
        for each command; raises :class:`ShellFailed` (the shell is then gone) or :class:`UseFailed` (USE
        cannot be started)."""
        self._ensure_started()
        mark = f"atlbench-sync-{next(self._marks)}"
        self._send(f"open \"{folder / COMMANDS}\"\n? '{mark}'\n")
        return self._read_batch(list(commands), mark)[1]

    def close(self) -> None:
        """Stop the shell (killed with its process group: a hung JVM ignores its closed input)."""
        process, self._process = self._process, None
        if process is not None and self._owner == os.getpid():
            _kill(process)
        if self._folder is not None and self._owner == os.getpid():
            shutil.rmtree(self._folder, ignore_errors=True)
        self._folder = None

    # ----------------------------------------------------------------------------------- internals

    def _ensure_started(self) -> None:
        if self._process is not None and self._owner == os.getpid() and self._process.poll() is None:
            return
        if self._owner != os.getpid():  # forked: the parent's shell is not ours to use or to stop
            self._process, self._folder = None, None
        self.close()
        self._owner = os.getpid()
        self._folder = tempfile.mkdtemp(prefix="atlbench-use-shell-")
        empty = Path(self._folder) / "empty.use"
        empty.write_text(EMPTY_MODEL, encoding="utf-8")
        start = time.perf_counter()
        try:
            self._process = subprocess.Popen(
                self.installation.shell_argv(str(empty)),
                cwd=self._folder,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.STDOUT,
                start_new_session=True,  # one process group: the launcher script and its JVM
            )
        except OSError as error:
            self._process = None
            raise UseFailed(f"USE ({self.installation.origin}) could not be started: {error}") from None
        self._buffer = b""
        mark = f"atlbench-sync-{next(self._marks)}"
        self._send(f"? '{mark}'\n")
        try:
            preamble, _ = self._read_batch([], mark, max(self.timeout, START_SECONDS))
        except ShellFailed as failed:
            raise UseFailed(f"USE ({self.installation.origin}) did not start: {failed.message()}") from None
        version = next((m.group(1) for line in preamble if (m := _VERSION.match(line))), "")
        self.stats.starts += 1
        self.stats.start_seconds += time.perf_counter() - start
        self.stats.version = self.stats.version or version

    def _send(self, text: str) -> None:
        assert self._process is not None and self._process.stdin is not None
        try:
            self._process.stdin.write(text.encode("utf-8"))
            self._process.stdin.flush()
        except OSError:
            pass  # it died: reading says so, with what it printed

    def _read_batch(
        self, commands: list[str], mark: str, timeout: float | None = None
    ) -> tuple[list[str], list[Step]]:
        """Read USE's output up to the line that answers ``mark``: (the lines before the first command's
        echo, a step per command, each started by its echo). Each command has ``timeout`` seconds (the
        shell's, unless given)."""
        timeout = self.timeout if timeout is None else timeout
        echo = f"{COMMANDS}> "
        answer = f"-> '{mark}' : String"
        preamble: list[str] = []
        steps: list[Step] = []
        started = time.perf_counter()
        while True:
            try:
                stamp, line = self._next_line(started + timeout)
            except TimeoutError:
                doing = f"`{steps[-1].command}'" if steps else "before its first command"
                self._abandon()
                raise ShellFailed(
                    f"USE did not answer within {timeout:g} s ({doing})", steps, _said(steps, preamble)
                ) from None
            if line is None:
                status = self._abandon()
                doing = f"during `{steps[-1].command}'" if steps else "before its first command"
                raise ShellFailed(f"USE exited (status {status}) {doing}", steps, _said(steps, preamble))
            while line.startswith(PROMPT):
                line = line[len(PROMPT) :]
            if line.startswith(echo):
                said = line[len(echo) :]
                if not said:
                    continue  # the prompt the shell prints as it reaches the end of the file
                if len(steps) < len(commands) and said == commands[len(steps)]:
                    if steps:
                        steps[-1].seconds = stamp - started
                    steps.append(Step(said))
                    started = stamp
                    continue
                self._abandon()
                due = commands[len(steps)] if len(steps) < len(commands) else "the end of the file"
                raise ShellFailed(
                    f"USE answered out of step: `{said}' where `{due}' was due", steps, _said(steps, preamble)
                )
            if line == answer:
                if len(steps) < len(commands):
                    self._abandon()
                    raise ShellFailed(
                        f"USE ran {len(steps)} of the {len(commands)} commands", steps, _said(steps, preamble)
                    )
                if steps:
                    steps[-1].seconds = stamp - started
                return preamble, steps
            (steps[-1].lines if steps else preamble).append(line)

    def _next_line(self, deadline: float) -> tuple[float, str | None]:
        """The next line USE prints and the moment it was read; ``None`` at the end of its output;
        :class:`TimeoutError` when none comes by ``deadline`` (a ``perf_counter`` time)."""
        assert self._process is not None and self._process.stdout is not None
        stream = self._process.stdout.fileno()
        while b"\n" not in self._buffer:
            left = deadline - time.perf_counter()
            if left <= 0 or not select.select([stream], [], [], left)[0]:
                raise TimeoutError
            chunk = os.read(stream, 1 << 16)
            if not chunk:
                if not self._buffer:
                    return time.perf_counter(), None
                chunk = b"\n"  # the last line, unterminated
            self._buffer += chunk
        line, _, self._buffer = self._buffer.partition(b"\n")
        return time.perf_counter(), line.decode("utf-8", "replace").rstrip("\r")

    def _abandon(self) -> int | None:
        """Kill the shell (it failed); its exit status."""
        process, self._process = self._process, None
        if process is None:
            return None
        return _kill(process)


def _said(steps: list[Step], preamble: list[str]) -> list[str]:
    """What USE printed for the command it failed at (or before its first), for the failure's message."""
    return steps[-1].lines if steps else preamble


def _kill(process: subprocess.Popen[bytes]) -> int | None:
    try:
        os.killpg(process.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass
    try:
        return process.wait(timeout=10)
    except subprocess.TimeoutExpired:  # pragma: no cover - SIGKILL is not refused
        return None


__all__ = ["COMMANDS", "ShellFailed", "ShellStats", "Step", "UseShell"]
