"""A stand-in for USE's shell, for the USE judge's fault tests: it speaks the part of USE 7.5.0's shell
protocol the judge uses, and dies, hangs or answers out of step where it is told to.

Started as ``python fake_use.py -nogui -noplugins -nr MODEL`` (by a launcher script the tests write), it
prints USE's banner, then reads commands from its standard input: ``open "FILE"`` runs a command file
(each command echoed as ``NAME> COMMAND``, as USE echoes them), ``? 'text'`` answers
``-> 'text' : String``. In a command file, ``open model.use`` prints ``Model NAME (...)``;
``constraints -load FILE`` lists the file's invariants (``context C inv name:``) as ``C::name``;
``check`` reports every loaded invariant OK, or FAILED when its text holds ``false`` (the verdict does
not depend on the state: the tests are about the protocol, not OCL). It is not USE and judges nothing.

Faults, from the environment: ``FAKE_USE_FAULT=KIND:COMMAND:N`` (``die``, ``hang`` or ``garble``) at the
N-th time the command file command ``COMMAND`` (``check``, ``open``, ``constraints``...) starts; with
``FAKE_USE_ONCE=FILE`` only while FILE does not exist (the fake creates it as it faults, so the next
process runs clean). ``FAKE_USE_HANG_ON=TEXT:STATE``: hang at every ``check`` of the state file STATE
while an invariant whose file holds TEXT is loaded.
"""

from __future__ import annotations

import os
import re
import sys
import time
from pathlib import Path

_INVARIANT = re.compile(r"context\s+(\w+)\s+inv\s+(\w+)\s*:")


class Fake:
    def __init__(self) -> None:
        self.loaded: list[tuple[str, str]] = []  # (qualified name, the text of its file)
        self.state = ""
        self.counts: dict[str, int] = {}
        kind, _, rest = os.environ.get("FAKE_USE_FAULT", "").partition(":")
        command, _, number = rest.partition(":")
        self.fault = (kind, command, int(number or 0)) if kind else None
        self.once = os.environ.get("FAKE_USE_ONCE")
        text, _, state = os.environ.get("FAKE_USE_HANG_ON", "").partition(":")
        self.hang_on = (text, state) if text else None

    def say(self, line: str) -> None:
        sys.stdout.write(line + "\n")
        sys.stdout.flush()

    def faults_at(self, command: str) -> str | None:
        word = command.split()[0]
        self.counts[word] = self.counts.get(word, 0) + 1
        if self.fault is None or self.fault[1] != word or self.fault[2] != self.counts[word]:
            return None
        if self.once:
            if Path(self.once).exists():
                return None
            Path(self.once).write_text("faulted\n")
        return self.fault[0]

    def run_file(self, path: Path) -> None:
        for command in path.read_text().splitlines():
            fault = self.faults_at(command)
            if fault == "garble":
                self.say(f"{path.name}> something else")
                continue
            self.say(f"{path.name}> {command}")
            if fault == "die":
                os._exit(3)
            if fault == "hang":
                time.sleep(3600)
            self.command(path.parent, command)
        sys.stdout.write(f"{path.name}> \n")

    def command(self, folder: Path, command: str) -> None:
        if command.startswith("open model.use"):
            name = (folder / "model.use").read_text().split()[1]
            self.loaded = []
            self.say("compiling specification...")
            self.say("done")
            self.say(f"Model {name} (0 data types, 1 class, 0 associations, 0 invariants)")
        elif command.startswith("constraints -load "):
            text = (folder / command.split()[-1]).read_text()
            names = [f"{c}::{n}" for c, n in _INVARIANT.findall(text)]
            self.loaded += [(name, text) for name in names]
            self.say("Added invariants:")
            for name in names or ["(none)"]:
                self.say(name)
        elif command.startswith("open -q "):
            self.state = command.split()[-1]
        elif command == "check":
            if self.hang_on and self.state == self.hang_on[1]:
                if any(self.hang_on[0] in text for _, text in self.loaded):
                    time.sleep(3600)
            self.say("checking structure...")
            self.say("checking invariants...")
            for number, (name, text) in enumerate(sorted(self.loaded), 1):
                verdict = "FAILED." if "false" in text else "OK."
                self.say(f"checking invariant ({number}) `{name}': {verdict}")
        elif command == "constraints -unload":
            self.loaded = []


def main() -> None:
    fake = Fake()
    fake.say("USE version 7.5.0-fake, Copyright (C) nobody: a test stand-in")
    for line in sys.stdin:
        sys.stdout.write("use> ")
        line = line.strip()
        if line.startswith("open "):
            fake.run_file(Path(line[5:].strip().strip('"')))
        elif line.startswith("? '"):
            fake.say(f"-> {line[2:]} : String")
    sys.stdout.write("use> \n")


if __name__ == "__main__":
    main()
