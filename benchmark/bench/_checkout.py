"""The checkouts a session bench runs: this one, and with ``--against COMMIT`` a temporary one of COMMIT.

The other commit is checked out with ``git worktree add --detach`` into a temporary folder and removed
(``git worktree remove --force``) when the bench ends, even on an error. Its sessions run with **this
interpreter and its installed libraries**, with the checkout's folder first on ``PYTHONPATH`` and as the
working directory (so its ``pytest.ini``, ``conftest.py`` and ``cases/`` are the ones run). That is the
correct comparison of two commits' code: an editable install of the other commit in its own virtualenv
could resolve other library versions, and the difference measured would then be partly the libraries'.
It is correct only when both commits declare the same dependencies and entry points (the tracks are
found through the installed distribution's ``atlbench.tracks`` entry points, which name modules that
``PYTHONPATH`` then resolves in the other checkout): :func:`other_checkout` compares the two
``pyproject.toml`` files and refuses a commit whose declarations differ, and checks that ``benchmark``
is imported from the other checkout before anything is timed.

Every checkout timed is put in the same **bytecode** state first (:func:`prepare_bytecode`): by default
its modules (``benchmark/``, ``cases/``, ``conftest.py``) are byte-compiled, as Python leaves a checkout
after its first session when nothing tells it otherwise; with ``--bytecode source`` its ``__pycache__``
folders are removed and its sessions run with ``PYTHONDONTWRITEBYTECODE=1``, so every session compiles
every module of the checkout from source (a fresh clone's first session, or an environment that writes no
bytecode). The libraries' own bytecode (numpy, matplotlib...) is what their installation left, the same
for both checkouts. Without this, a shell that sets ``PYTHONDONTWRITEBYTECODE`` timed this checkout from
source against a byte-compiled other commit (0.2 to 0.3 s per session process).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
import tomllib
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, replace
from pathlib import Path

from benchmark.core.errors import ConfigurationError

REPO = Path(__file__).resolve().parents[2]


#: the checkout's own modules, compiled or not as the bench says (the libraries keep their bytecode)
COMPILED_PATHS = ("benchmark", "cases", "conftest.py")
BYTECODE_STATES = {
    "compiled": "every checkout's modules byte-compiled before timing (Python's default after a first run)",
    "source": "every session compiles the checkout's modules from source (no __pycache__, "
    "PYTHONDONTWRITEBYTECODE=1)",
}


@dataclass(frozen=True)
class Checkout:
    """A source tree whose ``pytest cases`` is timed: its folder, how its column is headed, and whether
    its sessions write no bytecode (``--bytecode source``)."""

    root: Path
    label: str
    from_source: bool = False

    def env(self, base: dict[str, str] | None = None) -> dict[str, str]:
        """The environment of a session of this checkout: its folder first on ``PYTHONPATH``; with
        ``from_source``, ``PYTHONDONTWRITEBYTECODE=1`` (otherwise as the bench's own environment says)."""
        base = dict(os.environ if base is None else base)
        rest = base.get("PYTHONPATH", "")
        base["PYTHONPATH"] = os.pathsep.join(p for p in (str(self.root), rest) if p)
        if self.from_source:
            base["PYTHONDONTWRITEBYTECODE"] = "1"
        return base


def prepare_bytecode(checkout: Checkout, state: str) -> Checkout:
    """``checkout`` put in the bytecode ``state`` (:data:`BYTECODE_STATES`, module docstring), as the
    checkout its sessions then run."""
    if state not in BYTECODE_STATES:
        raise ConfigurationError(
            f"unknown bytecode state {state!r} (known: {', '.join(BYTECODE_STATES)})", field="--bytecode"
        )
    if state == "compiled":
        subprocess.run(
            [sys.executable, "-m", "compileall", "-q", *COMPILED_PATHS],
            cwd=checkout.root,
            capture_output=True,
        )
        return replace(checkout, from_source=False)
    for name in COMPILED_PATHS:
        top = checkout.root / name
        caches = [top.parent / "__pycache__"] if top.is_file() else list(top.rglob("__pycache__"))
        for folder in caches:
            shutil.rmtree(folder, ignore_errors=True)
    return replace(checkout, from_source=True)


def this_checkout() -> Checkout:
    return Checkout(REPO, "this")


def _git(*args: str, cwd: Path = REPO) -> str:
    result = subprocess.run(["git", *args], cwd=cwd, capture_output=True, text=True)
    if result.returncode != 0:
        raise ConfigurationError(f"git {' '.join(args)}: {result.stderr.strip()}", field="--against")
    return result.stdout.strip()


def declarations(pyproject_text: str) -> dict[str, object]:
    """What a checkout must share with the installed distribution to run on its interpreter: the
    project's dependencies, optional dependencies and entry points."""
    project = tomllib.loads(pyproject_text).get("project", {})
    keys = ("dependencies", "optional-dependencies", "entry-points", "scripts")
    return {key: project.get(key) for key in keys}


def check_same_declarations(commit: str, theirs: str, ours: str) -> None:
    """Refuse a commit whose ``pyproject.toml`` declares other dependencies or entry points than this
    checkout's (module docstring)."""
    mine, other = declarations(ours), declarations(theirs)
    differ = sorted(key for key in mine if mine[key] != other[key])
    if differ:
        raise ConfigurationError(
            f"{commit} declares other {', '.join(differ)} in pyproject.toml than this checkout: its "
            "sessions cannot run on this interpreter's installation; time it from its own checkout",
            field="--against",
        )


def imported_from(checkout: Checkout) -> Path:
    """Where a session of ``checkout`` imports ``benchmark`` from."""
    code = "import benchmark; print(benchmark.__file__)"
    found = subprocess.run(
        [sys.executable, "-c", code], cwd=checkout.root, env=checkout.env(), capture_output=True, text=True
    )
    return Path(found.stdout.strip()).resolve()


@contextmanager
def other_checkout(commit: str, repo: Path = REPO) -> Iterator[Checkout]:
    """COMMIT checked out in a temporary worktree for the ``with`` block, then removed."""
    sha = _git("rev-parse", "--verify", f"{commit}^{{commit}}", cwd=repo)
    check_same_declarations(
        commit, _git("show", f"{sha}:pyproject.toml", cwd=repo), (REPO / "pyproject.toml").read_text()
    )
    with tempfile.TemporaryDirectory(prefix="atlbench-against-") as parent:
        folder = Path(parent) / sha[:12]
        _git("worktree", "add", "--detach", str(folder), sha, cwd=repo)
        try:
            checkout = Checkout(folder, sha[:7])
            where = imported_from(checkout)
            if not where.is_relative_to(folder.resolve()):
                raise ConfigurationError(
                    f"a session of {commit} would import benchmark from {where}, not from its checkout",
                    field="--against",
                )
            yield checkout
        finally:
            subprocess.run(
                ["git", "worktree", "remove", "--force", str(folder)], cwd=repo, capture_output=True
            )
            subprocess.run(["git", "worktree", "prune"], cwd=repo, capture_output=True)
