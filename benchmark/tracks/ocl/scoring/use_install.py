"""Finding the local USE and saying how to start it, and what identifies it for the disk cache.

USE (https://github.com/useocl/use, compared with 7.5.0) is installed by the researcher as USE's own
documentation says; this module only finds it. It is named by ``--ocl-use`` (command line or ini file)
or the ``ATLBENCH_USE`` environment variable: the ``use`` launcher, the installation folder (whose
``bin/use`` is taken), or a folder of USE's jars.

The launcher is run as it is, with no JVM flag of ours: USE runs as one long-lived shell per process
(:mod:`.use_shell`), so its start is paid once, and the start-up flag that paid for a JVM per variant
(C1 only, ``-XX:TieredStopAtLevel=1``: 320 s in USE instead of 554 s for the bundled study's 96 JVMs)
made the long-lived shell's checks slower (15 to 24 s instead of 8 to 14 s on the same work; 2 cores,
load 17 to 22).

A verdict of USE is a function of the installation, so its disk-cache key holds
:meth:`UseInstallation.fingerprint`: the SHA-256 of the launcher and of every jar the installation
holds, and of the Java it runs on.
"""

from __future__ import annotations

import hashlib
import os
import re
import shutil
import zipfile
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from benchmark.core.errors import BenchmarkError, ConfigurationError

ENVIRONMENT = "ATLBENCH_USE"


class UseNotFound(ConfigurationError):
    """USE was asked for (``--ocl-judge use|both``) and is not where the configuration says."""


class UseFailed(BenchmarkError):
    """USE could not judge a variant: it did not start, or rejects the variant's model or a state."""


@dataclass(frozen=True)
class UseInstallation:
    """How to start USE (the launcher, or ``java -cp ... MAIN``), where it was found, and the files that
    make it (hashed into the disk cache's keys)."""

    command: tuple[str, ...]
    origin: str
    files: tuple[str, ...] = ()

    def shell_argv(self, model: str) -> list[str]:
        """A shell: USE reads the model, then commands from its standard input."""
        return [*self.command, "-nogui", "-noplugins", "-nr", model]

    def fingerprint(self) -> str:
        """The SHA-256 of the installation's files and of the Java started (when started here: a jar
        folder; a launcher's Java is its own business)."""
        parts = [f"{Path(f).name}={_digest(f, *_stamp(f))}" for f in self.files]
        java = self.command[0] if self.command and Path(self.command[0]).name == "java" else ""
        if java:
            real = os.path.realpath(java)
            parts.append(f"java={real}:{_stamp(real)}")
        return hashlib.sha256("\n".join(parts).encode()).hexdigest()


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
        return _launcher(path.resolve(), origin)
    if not path.is_dir():
        raise UseNotFound(f"{origin}: no such file or folder", file=path)
    launcher = path / "bin" / "use"
    if launcher.is_file() and os.access(launcher, os.X_OK):
        return _launcher(launcher.resolve(), origin)
    for folder in (path, path / "lib"):
        jars = sorted(folder.glob("*.jar"))
        main = next((m for m in map(_main_class, jars) if m), None)
        if main:
            java = _java(origin, path)
            command = (java, "-cp", f"{folder.resolve()}/*", main)
            return UseInstallation(command, origin, tuple(str(j.resolve()) for j in jars))
    raise UseNotFound(f"{origin}: neither a `use' launcher nor a folder of USE's jars", file=path)


def _launcher(launcher: Path, origin: str) -> UseInstallation:
    """The launcher, identified by itself and the jars of its installation (``../lib``), when it has one."""
    lib = launcher.parent.parent / "lib"
    jars = tuple(str(j.resolve()) for j in sorted(lib.glob("*.jar"))) if lib.is_dir() else ()
    return UseInstallation((str(launcher),), origin, (str(launcher), *jars))


def _java(origin: str, where: Path) -> str:
    java = shutil.which("java")
    if java is None:
        raise UseNotFound(f"{origin}: USE's jars are there but `java' is not on PATH", file=where)
    return java


def _main_class(jar: Path) -> str | None:
    try:
        with zipfile.ZipFile(jar) as archive:
            manifest = archive.read("META-INF/MANIFEST.MF").decode("utf-8", "replace")
    except (OSError, KeyError, zipfile.BadZipFile):
        return None
    found = re.search(r"^Main-Class:\s*(\S+)", manifest, re.MULTILINE)
    return found.group(1) if found and found.group(1).startswith("org.tzi.use.") else None


def _stamp(path: str) -> tuple[int, int]:
    try:
        status = os.stat(path)
    except OSError:
        return (-1, -1)
    return (status.st_size, status.st_mtime_ns)


@cache
def _digest(path: str, size: int, mtime: int) -> str:
    """The SHA-256 of a file, once per process and version of the file (its size and time are the key)."""
    digest = hashlib.sha256()
    try:
        with open(path, "rb") as handle:
            for block in iter(lambda: handle.read(1 << 20), b""):
                digest.update(block)
    except OSError:
        return "unreadable"
    return digest.hexdigest()


__all__ = ["ENVIRONMENT", "UseFailed", "UseInstallation", "UseNotFound", "find_use"]
