"""Prints what the LLM runner itself costs per run, against a local server that answers at once.

Usage: ``python -m benchmark.bench llm_runner [--runs 200] [--prompt-kb 40] [--concurrency 4]``. Each run
is a ``--prompt-kb`` KB prompt answered with a 40-entry JSON array by the test suite's local HTTP server
(:mod:`benchmark.bench.support.fake_llm_server`) through the real ``openai`` SDK. Timed (wall clock, since
the point is the round trip through SDK, HTTP and threads): direct requests with ``--concurrency`` workers,
the same runs replayed from the cache (what ``--offline`` costs), replayed from raw logs only, and sent as one
batch. A real model takes seconds to minutes per answer, so these figures only show that the runner's
own share is negligible.
"""

from __future__ import annotations

import argparse
import json
import tempfile
import time
from pathlib import Path
from typing import Any

from benchmark.bench.support.fake_llm_server import FakeLLMServer
from benchmark.core.wording import plural
from benchmark.llm.batch import PollPolicy
from benchmark.llm.cache import LogReplay, ResponseCache
from benchmark.llm.config import KIND_OPENAI, ProviderConfig
from benchmark.llm.engine import Engine
from benchmark.llm.rawlog import RawLog
from benchmark.llm.redact import Redactor
from benchmark.llm.requests import GenerationParameters, Job, LlmRequest

ANSWER = json.dumps(
    [
        {
            "sourceClass": f"Source{i}",
            "sourceAttribute": None if i % 4 == 0 else f"feature{i}",
            "targetClass": f"Target{i}",
            "targetAttribute": None if i % 4 == 0 else f"feature{i}",
            "confidence": "high",
            "reason": "names and types agree",
        }
        for i in range(40)
    ]
)


def timed(rows: list[list[str]], label: str, runs: int, action: object) -> None:
    """One row of the printed table: ``label``, the seconds ``action`` took, and per run."""
    started = time.perf_counter()
    action()  # type: ignore[operator]
    elapsed = time.perf_counter() - started
    rows.append([label, f"{elapsed:.3f}", f"{1000 * elapsed / runs:.2f}"])


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        prog="python -m benchmark.bench llm_runner", description=__doc__.splitlines()[0]
    )
    parser.add_argument("--runs", type=int, default=200)
    parser.add_argument("--prompt-kb", type=int, default=40)
    parser.add_argument("--concurrency", type=int, default=4)
    args = parser.parse_args(argv)
    server = FakeLLMServer(lambda prompt: ANSWER, polls_until_done=1).start()
    scratch = tempfile.TemporaryDirectory(prefix="atlbench-bench-")  # removed at the end, even on error
    workdir = Path(scratch.name)
    config = ProviderConfig(
        name="Bench",
        kind=KIND_OPENAI,
        model="bench-1",
        base_url=server.url + "/v1",
        api_key_env=None,
        parameters=GenerationParameters(max_tokens=4096, temperature=0.0, seed=1),
    )
    prompt = "x" * (args.prompt_kb * 1024)
    log = workdir / "log.jsonl"
    jobs = [
        Job(
            LlmRequest(prompt=prompt, parameters=config.parameters, run_index=i),
            label=f"run{i}",
            log_path=log,
        )
        for i in range(1, args.runs + 1)
    ]

    def engine(cache: Path, **options: object) -> Engine:
        redactor = Redactor()
        return Engine(
            config,
            cache=ResponseCache(cache),
            log=RawLog({"bench": True}, redactor),
            redactor=redactor,
            concurrency=args.concurrency,
            poll=PollPolicy(initial=0.0, maximum=0.0),
            **options,  # type: ignore[arg-type]
        )

    print(
        f"{plural(args.runs, 'run')}, {args.prompt_kb} KB prompt, 40-entry answer, "
        f"concurrency {args.concurrency}"
    )
    import openai  # noqa: F401  (SDK import time is not the runner's)

    from benchmark.reports.table import terminal_lines

    rows: list[list[str]] = []
    timed(
        rows,
        "direct requests (openai SDK, local server)",
        args.runs,
        lambda: engine(workdir / "c1").run(jobs),
    )
    timed(
        rows,
        "replay from the cache (--offline)",
        args.runs,
        lambda: engine(workdir / "c1", offline=True).run(jobs),
    )
    timed(
        rows,
        "replay from raw logs only (fresh cache)",
        args.runs,
        lambda: engine(workdir / "c2", offline=True, replay=LogReplay([log])).run(jobs),
    )
    timed(
        rows,
        "one batch (upload, create, poll, download)",
        args.runs,
        lambda: engine(workdir / "c3").run(jobs, batch=True),
    )
    print("\n".join(terminal_lines(("path", "s total", "ms / run"), rows)))
    print(f"requests seen by the server: {server.count()}")
    server.stop()
    scratch.cleanup()


def register(subparsers: Any) -> None:
    """``python -m benchmark.bench llm_runner``: the options are this module's own (``--help`` lists them)."""
    parser = subparsers.add_parser(
        "llm_runner",
        help="LLM engine overhead per request against a local fake server",
        add_help=False,
        prefix_chars="+",
    )
    parser.add_argument("arguments", nargs=argparse.REMAINDER)
    parser.set_defaults(handler=lambda args: main(args.arguments) or 0)


if __name__ == "__main__":
    main()
