"""The USE judge's shell when USE dies, hangs or answers out of step: replaced, the pending work judged
again, and what still cannot be judged a counted judge error with USE's message, never a gap.

With the stand-in ``tests/support/fake_use.py`` (always), and with the real USE when ``ATLBENCH_USE``
names one (skipped in one line without it, as in CI): there the faults are made from outside, by
killing or stopping the JVM as it starts a command.
"""

from __future__ import annotations

import os
import signal
import stat
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from benchmark.tracks.ocl.payload import JUDGE_ERROR, Judgement
from benchmark.tracks.ocl.scoring import use_shell
from benchmark.tracks.ocl.scoring.use_batch import UseAnswer, run_batch
from benchmark.tracks.ocl.scoring.use_install import ENVIRONMENT, UseFailed, UseInstallation, find_use
from benchmark.tracks.ocl.scoring.use_judge import _judgement
from benchmark.tracks.ocl.scoring.use_shell import UseShell

FAKE = Path(__file__).resolve().parents[2] / "support" / "fake_use.py"
MODEL = "model Shop\n\nclass Item\nattributes\n  price : Integer\nend\n"
STATES = {"s0.soil": "!new Item('a')\n", "s1.soil": "!new Item('b')\n", "s2.soil": "!new Item('c')\n"}
ANSWERS = [
    "context Item inv cheap: self.price < 10",
    "context Item inv never: false",
    "context Item inv cheap: self.price <= 9",
    "context Item inv HANGS: self.price > 0",
]


def _fake(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, **faults: str) -> UseInstallation:
    launcher = tmp_path / "use"
    launcher.write_text(f'#!/bin/sh\nexec "{sys.executable}" "{FAKE}" "$@"\n')
    launcher.chmod(launcher.stat().st_mode | stat.S_IXUSR)
    for name in ("FAKE_USE_FAULT", "FAKE_USE_ONCE", "FAKE_USE_HANG_ON"):
        monkeypatch.delenv(name, raising=False)
    for name, value in faults.items():
        monkeypatch.setenv(f"FAKE_USE_{name.upper()}", value)
    return find_use(launcher)


@pytest.fixture
def shells() -> Iterator[list[UseShell]]:
    made: list[UseShell] = []
    yield made
    for shell in made:
        shell.close()


def _shell(installation: UseInstallation, shells: list[UseShell], timeout: float = 20.0) -> UseShell:
    shell = UseShell(installation, timeout)
    shells.append(shell)
    return shell


def _verdicts(results: list[UseAnswer]) -> list[dict[str, dict[str, str]]]:
    return [r.verdicts for r in results]


def test_one_shell_judges_batch_after_batch(tmp_path, monkeypatch, shells) -> None:
    shell = _shell(_fake(tmp_path, monkeypatch), shells)
    results, cost = run_batch(shell, MODEL, STATES, ANSWERS)
    again, second = run_batch(shell, MODEL, STATES, ANSWERS[:2])
    assert (cost.jvms, second.jvms, shell.stats.starts) == (1, 0, 1)
    assert results[0].invariants == ("Item::cheap__0",) and results[2].invariants == ("Item::cheap__2",)
    assert results[1].verdicts == {state: {"Item::never__1": "FAILED"} for state in STATES}
    assert results[0].verdicts["s2.soil"] == {"Item::cheap__0": "OK"}
    assert cost.version == "7.5.0-fake" and cost.states == 3 and cost.checks == 12
    assert _verdicts(again) == _verdicts(results)[:2]
    assert {"start", "model", "load", "open", "check", "parse"} <= set(cost.breakdown)


@pytest.mark.parametrize(
    ("fault", "reason"),
    [
        ("die:check:2", "USE exited (status 3) during `check'"),
        ("hang:check:2", "USE did not answer within 1 s (`check')"),
        ("garble:check:2", "USE answered out of step: `something else' where `check' was due"),
        ("die:constraints:3", "USE exited (status 3) during `constraints -load a2.ocl'"),
    ],
)
def test_a_shell_that_fails_once_is_replaced_and_its_work_judged_again(
    tmp_path, monkeypatch, shells, fault: str, reason: str
) -> None:
    clean, _ = run_batch(_shell(_fake(tmp_path, monkeypatch), shells), MODEL, STATES, ANSWERS)
    installation = _fake(tmp_path, monkeypatch, fault=fault, once=str(tmp_path / "faulted"))
    failures: list[str] = []
    real = use_shell.ShellFailed.__init__

    def record(self, why, steps, tail):  # type: ignore[no-untyped-def]
        failures.append(why)
        real(self, why, steps, tail)

    monkeypatch.setattr(use_shell.ShellFailed, "__init__", record)
    results, cost = run_batch(_shell(installation, shells, timeout=1.0), MODEL, STATES, ANSWERS)
    assert failures == [reason]
    assert (cost.jvms, cost.restarts, cost.judge_errors) == (2, 1, 0)
    assert _verdicts(results) == _verdicts(clean) and not any(r.errors for r in results)


def test_a_state_that_cannot_be_judged_is_a_judge_error_of_the_answer_that_hangs_there(
    tmp_path, monkeypatch, shells
) -> None:
    installation = _fake(tmp_path, monkeypatch, hang_on="HANGS:s1.soil")
    results, cost = run_batch(_shell(installation, shells, timeout=0.5), MODEL, STATES, ANSWERS)
    assert results[3].errors == {"s1.soil": "USE did not answer within 0.5 s (`check')"}
    assert set(results[3].verdicts) == {"s0.soil", "s2.soil"}  # judged on every other state
    assert all(not r.errors and set(r.verdicts) == set(STATES) for r in results[:3])  # judged alone
    # the state with all four answers, again, then each answer alone on it: 1 + 1 + 4 runs, 3 hung
    assert (cost.restarts, cost.judge_errors, cost.jvms) == (3, 1, 4)
    judged = _judgement("c1", results[3], ANSWERS[3], "Item", dict.fromkeys(STATES, True))
    assert judged == Judgement(
        "c1", JUDGE_ERROR, f"USE could not judge it: {results[3].errors['s1.soil']}", ("s1.soil",)
    )


def test_a_use_that_does_not_start_says_so(tmp_path, shells) -> None:
    launcher = tmp_path / "use"
    launcher.write_text("#!/bin/sh\necho 'Error: no Java here' >&2\nexit 1\n")
    launcher.chmod(launcher.stat().st_mode | stat.S_IXUSR)
    with pytest.raises(UseFailed, match="did not start: USE exited .* no Java here"):
        run_batch(_shell(find_use(launcher), shells), MODEL, STATES, ANSWERS)


def test_a_forked_child_starts_its_own_shell(tmp_path, monkeypatch, shells) -> None:
    shell = _shell(_fake(tmp_path, monkeypatch), shells)
    run_batch(shell, MODEL, STATES, ANSWERS[:1])
    parent = shell.pid
    reader, writer = os.pipe()
    child = os.fork()
    if child == 0:  # pragma: no cover - runs in the child
        os.close(reader)
        try:
            run_batch(shell, MODEL, STATES, ANSWERS[:1])
            os.write(writer, f"{shell.pid} {shell.stats.starts}".encode())
        finally:
            os._exit(0)
    os.close(writer)
    said = os.read(reader, 100).decode().split()
    os.waitpid(child, 0)
    assert int(said[0]) not in (parent, 0) and said[1] == "2"
    assert shell.pid == parent and run_batch(shell, MODEL, STATES, ANSWERS[:1])[1].jvms == 0


# ------------------------------------------------------------------------------------- a real USE

real_use = pytest.mark.skipif(not os.environ.get(ENVIRONMENT), reason=f"no local USE ({ENVIRONMENT} unset)")


def _signal_at(monkeypatch: pytest.MonkeyPatch, command: str, signals: list[int]) -> None:
    """Send each of ``signals`` to the shell's process group as the real USE echoes ``command`` (one per
    echo, in turn): a fault made from outside, at a known point of the batch (a slow check follows it,
    so the signal lands while USE works on that state)."""
    real = UseShell._next_line
    pending = list(signals)

    def watched(self, deadline):  # type: ignore[no-untyped-def]
        stamp, line = real(self, deadline)
        if pending and line is not None and line.endswith(f"{use_shell.COMMANDS}> {command}"):
            os.killpg(self._process.pid, pending.pop(0))
        return stamp, line

    monkeypatch.setattr(UseShell, "_next_line", watched)


REAL_MODEL = "model Shop\n\nclass Item\nattributes\n  price : Integer\nend\n"
REAL_STATES = {
    "cheap.soil": "!new Item('a')\n!set a.price := 5\n",
    "dear.soil": "!new Item('b')\n!set b.price := 50\n",
}
#: an invariant whose check takes USE seconds on the dear state (nine million evaluations)
SLOW = "self.price > 10 implies Sequence{1..3000}->forAll(i | Sequence{1..3000}->forAll(j | i + j > 0))"
REAL_ANSWERS = [
    "context Item inv cheap: self.price < 10",
    f"context Item inv slow: {SLOW}",
]


@real_use
@pytest.mark.parametrize("kill", [signal.SIGKILL, signal.SIGSTOP], ids=["killed", "hangs"])
def test_a_real_use_killed_or_hanging_is_replaced(monkeypatch, shells, kill: int) -> None:
    installation = find_use(None)
    clean, _ = run_batch(_shell(installation, shells), REAL_MODEL, REAL_STATES, REAL_ANSWERS)
    assert clean[0].verdicts == {
        "cheap.soil": {"Item::cheap__0": "OK"},
        "dear.soil": {"Item::cheap__0": "FAILED"},
    }
    assert clean[1].verdicts == {"cheap.soil": {"Item::slow__1": "OK"}, "dear.soil": {"Item::slow__1": "OK"}}
    _signal_at(monkeypatch, "open -q s1.soil", [kill])
    shell = _shell(installation, shells, timeout=30.0)
    results, cost = run_batch(shell, REAL_MODEL, REAL_STATES, REAL_ANSWERS)
    assert (cost.jvms, cost.restarts, cost.judge_errors) == (2, 1, 0)
    assert _verdicts(results) == _verdicts(clean)


@real_use
def test_a_real_use_that_hangs_on_a_state_gives_a_judge_error_to_the_answer_alone(shells) -> None:
    endless = SLOW.replace("3000", "100000")  # ten billion evaluations on the dear state
    answers = [REAL_ANSWERS[0], f"context Item inv endless: {endless}"]
    shell = _shell(find_use(None), shells, timeout=3.0)
    results, cost = run_batch(shell, REAL_MODEL, REAL_STATES, answers)
    assert set(results[1].errors) == {"dear.soil"}
    assert results[1].errors["dear.soil"].startswith("USE did not answer within 3 s (`check') (USE printed: ")
    assert results[1].verdicts == {"cheap.soil": {"Item::endless__1": "OK"}}
    assert not results[0].errors and set(results[0].verdicts) == set(REAL_STATES)  # judged alone there
    assert (cost.restarts, cost.judge_errors) == (3, 1)  # both on it, both again, then the endless one alone
