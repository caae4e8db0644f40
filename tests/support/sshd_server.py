"""A real OpenSSH server on 127.0.0.1 for the tests of remote (SSH) xdist workers.

Everything it uses lives in one folder: the server's config, a throwaway host key, a throwaway client key
and the ``authorized_keys`` that admits it, and the client's ``ssh_config`` (pytest-xdist hands it to
``ssh -F`` through the ``ssh_config=`` key of a ``--tx`` spec), so neither ``/etc/ssh`` nor ``~/.ssh`` is
read or written. The server runs as the current user on a free port (no PAM, ``StrictModes no``: the
folder is a temporary one) and admits that user only, by that key only.

As root, OpenSSH's privilege separation needs ``/run/sshd``, which Debian's service creates at boot and a
container without an init does not have (``.ci/run`` creates it). Where the server cannot start, or cannot
be logged into, :class:`Unavailable` says why in one line.
"""

from __future__ import annotations

import os
import pwd
import shutil
import socket
import subprocess
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

READY = "Server listening on 127.0.0.1 port"
START_SECONDS = 10.0


class Unavailable(Exception):
    """No SSH server can be run here: the message says why, in one line."""


@dataclass(frozen=True)
class SshServer:
    host: str  # the Host entry of ``config``
    config: Path  # the client's ssh_config
    port: int

    def tx(self, python: str, chdir: Path, count: int = 1) -> str:
        """A pytest-xdist ``--tx`` spec: ``count`` workers started over SSH in ``chdir`` with ``python``."""
        spec = f"ssh={self.host}//ssh_config={self.config}//python={python}//chdir={chdir}"
        return f"{count}*{spec}" if count > 1 else spec


def _tool(name: str, *elsewhere: str) -> str:
    found = shutil.which(name) or next((p for p in elsewhere if os.access(p, os.X_OK)), None)
    if found is None:
        raise Unavailable(f"no {name} on this machine (Debian: apt-get install openssh-server)")
    return found


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def _keygen(keygen: str, path: Path) -> None:
    subprocess.run(
        [keygen, "-q", "-t", "ed25519", "-N", "", "-C", "atlbench-test", "-f", str(path)],
        check=True,
        capture_output=True,
    )


def _server_config(folder: Path, port: int, user: str) -> Path:
    config = folder / "sshd_config"
    config.write_text(
        f"ListenAddress 127.0.0.1\nPort {port}\nHostKey {folder / 'host_key'}\n"
        f"PidFile {folder / 'sshd.pid'}\nAuthorizedKeysFile {folder / 'authorized_keys'}\n"
        f"AllowUsers {user}\nPubkeyAuthentication yes\nPasswordAuthentication no\n"
        "KbdInteractiveAuthentication no\nPermitRootLogin prohibit-password\nUsePAM no\nStrictModes no\n"
        "X11Forwarding no\nAllowTcpForwarding no\nPrintMotd no\n"
    )
    return config


def _client_config(folder: Path, port: int, user: str) -> Path:
    host_key = (folder / "host_key.pub").read_text().split()
    (folder / "known_hosts").write_text(f"[127.0.0.1]:{port} {host_key[0]} {host_key[1]}\n")
    config = folder / "ssh_config"
    config.write_text(
        f"Host atlbench-test\n  HostName 127.0.0.1\n  Port {port}\n  User {user}\n"
        f"  IdentityFile {folder / 'client_key'}\n  IdentitiesOnly yes\n"
        f"  UserKnownHostsFile {folder / 'known_hosts'}\n  GlobalKnownHostsFile /dev/null\n"
        "  StrictHostKeyChecking yes\n  BatchMode yes\n  ConnectTimeout 10\n  LogLevel ERROR\n"
    )
    return config


def _start(sshd: str, config: Path, log: Path) -> subprocess.Popen[bytes] | str:
    """The listening server, or why it stopped (its first line of complaint)."""
    with log.open("wb") as sink:
        process = subprocess.Popen(
            [sshd, "-D", "-e", "-f", str(config)], stdin=subprocess.DEVNULL, stdout=sink, stderr=sink
        )
    deadline = time.monotonic() + START_SECONDS
    while time.monotonic() < deadline:
        text = log.read_text(errors="replace")
        if READY in text:
            return process
        if process.poll() is not None:
            lines = [line for line in text.splitlines() if line.strip()]
            return lines[0] if lines else f"sshd exited with status {process.returncode}"
        time.sleep(0.05)
    process.kill()
    process.wait()
    return f"sshd did not listen within {START_SECONDS:g} s"


@contextmanager
def running_sshd(folder: Path) -> Iterator[SshServer]:
    """An SSH server that admits the current user with a key of its own, for the ``with`` block."""
    sshd = _tool("sshd", "/usr/sbin/sshd")
    _tool("ssh")
    keygen = _tool("ssh-keygen")
    user = pwd.getpwuid(os.getuid()).pw_name
    folder.mkdir(parents=True, exist_ok=True)
    _keygen(keygen, folder / "host_key")
    _keygen(keygen, folder / "client_key")
    shutil.copy(folder / "client_key.pub", folder / "authorized_keys")
    (folder / "authorized_keys").chmod(0o600)
    for _attempt in range(3):  # another process may take the free port before sshd binds it
        port = _free_port()
        started = _start(sshd, _server_config(folder, port, user), folder / "sshd.log")
        if not (isinstance(started, str) and "Address already in use" in started):
            break
    if isinstance(started, str):
        raise Unavailable(f"sshd cannot start here: {started}")
    try:
        server = SshServer("atlbench-test", _client_config(folder, port, user), port)
        login = subprocess.run(
            ["ssh", "-F", str(server.config), server.host, "true"],
            stdin=subprocess.DEVNULL,
            capture_output=True,
            text=True,
            timeout=30,
        )
        if login.returncode != 0:
            reason = (login.stderr.strip().splitlines() or [f"exit status {login.returncode}"])[-1]
            raise Unavailable(f"the test sshd does not let {user} in: {reason}")
        yield server
    finally:
        started.terminate()
        try:
            started.wait(timeout=10)
        except subprocess.TimeoutExpired:
            started.kill()
            started.wait()


__all__ = ["SshServer", "Unavailable", "running_sshd"]
