"""``atlbench generate``: ask an LLM for suggestion runs of every selected transformation."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from benchmark.cli import EXIT_FAILED, EXIT_OK


def _generate_options() -> list[Any]:
    from benchmark.core.registry import declared_options

    return declared_options("generate_options")


def register(subparsers: Any) -> None:
    from benchmark.core.options import add_to_argparse

    parser = subparsers.add_parser(
        "generate",
        help="ask an LLM for suggestion runs (runs/<provider>-<model>-runNN.json)",
        description="For each selected transformation and run index, build the prompt from the folder's "
        "metamodels, ask the configured provider (or replay the cache), and file the answer as a jJodel "
        "export in <transformation>/runs/. Providers are configured in atlbench.toml or [tool.atlbench] of "
        "pyproject.toml; keys come from the environment only. Exits 1 when a run failed. "
        "See docs/LLM_RUNS.md.",
    )
    parser.add_argument(
        "--provider",
        dest="providers",
        action="append",
        required=True,
        metavar="NAME",
        help="a provider of the configuration (repeatable: one call, one budget)",
    )
    parser.add_argument(
        "--track",
        dest="tracks",
        action="append",
        metavar="NAME",
        help="the track whose prompts are sent (default: atl; repeatable)",
    )
    add_to_argparse(parser, _generate_options())
    parser.add_argument("--runs", type=int, default=1, metavar="N", help="run indices 1..N (default 1)")
    parser.add_argument(
        "--validation-root", type=Path, default=Path("validation"), metavar="DIR", help="default: validation/"
    )
    parser.add_argument(
        "-k",
        dest="selectors",
        action="append",
        default=[],
        metavar="SUBSTRING",
        help="only tasks (transformations, pairs, models) whose name contains SUBSTRING (any case; "
        "repeatable: any of them)",
    )
    parser.add_argument(
        "--concurrency", type=int, metavar="N", help="parallel requests (default: provider's, 4)"
    )
    parser.add_argument("--offline", action="store_true", help="send nothing: replay cached answers only")
    parser.add_argument(
        "--batch", action="store_true", help="send all uncached requests as one provider batch"
    )
    parser.add_argument("--refresh", action="store_true", help="ignore cached answers and ask again")
    parser.add_argument(
        "--no-log-replay",
        dest="replay_logs",
        action="store_false",
        help="do not replay answers from committed runs/.log/*.jsonl when the cache lacks them",
    )
    parser.add_argument(
        "--template",
        dest="templates",
        action="append",
        default=[],
        metavar="NAME",
        help="prompt template to ask with: study (default), terse, stepwise, or all (repeatable; every "
        "provider gets the same; see docs/TEMPLATES.md)",
    )
    parser.add_argument(
        "--answer-format",
        dest="answer_formats",
        action="append",
        default=[],
        metavar="NAME[,NAME]",
        help="how the answer is asked for: free (default: the prompt alone), schema (the answer's JSON Schema"
        " is sent), grounded (its names limited to the task's), or all the track offers; a comma list or "
        "repeated (each a series of its own; needs the provider's structured_output, docs/LLM_RUNS.md)",
    )
    parser.add_argument(
        "--prompt-template",
        type=Path,
        metavar="FILE",
        help="replace the text of the template chosen with --template (default: the study's)",
    )
    parser.add_argument("--config", type=Path, metavar="FILE", help="atlbench.toml or pyproject.toml to read")
    parser.add_argument(
        "--cache-dir",
        type=Path,
        metavar="DIR",
        help="response cache (default: $ATLBENCH_CACHE_DIR, [cache] dir, else ~/.cache/atlbench)",
    )
    parser.add_argument("--timeout", type=float, metavar="SECONDS", help="per-request timeout (default 300)")
    parser.add_argument("--max-attempts", type=int, metavar="N", help="attempts per request (default 5)")
    parser.add_argument(
        "--max-tokens",
        type=int,
        metavar="N",
        help="answer length limit for this call instead of the provider's max_tokens (part of the cache key)",
    )
    parser.add_argument(
        "--batch-max-wait",
        type=float,
        metavar="SECONDS",
        help="stop polling a batch after this long (run again to collect it); default: wait",
    )
    parser.add_argument(
        "--max-cost",
        type=float,
        metavar="USD",
        help="stop sending when the next request could cross this cost (needs every provider's price)",
    )
    parser.add_argument(
        "--max-requests", type=int, metavar="N", help="send at most N HTTP requests in this call"
    )
    parser.add_argument(
        "--dry-run",
        action="store_true",
        help="list the runs, requests, prompt tokens and cost range per provider and track; send nothing",
    )
    parser.add_argument("--no-progress", dest="progress", action="store_false", help="no progress bar")
    parser.add_argument(
        "--json", dest="json_report", type=Path, metavar="OUT.json", help="write the session report"
    )
    parser.set_defaults(handler=run)


def _say(message: str) -> None:
    try:
        from tqdm import tqdm

        tqdm.write(message, file=sys.stderr)
    except ImportError:  # pragma: no cover
        print(message, file=sys.stderr)


def run(args: argparse.Namespace) -> int:
    from benchmark.core.options import read_argparse
    from benchmark.core.registry import track_class
    from benchmark.llm.batch import PollPolicy
    from benchmark.llm.generate import GenerateOptions

    tracks = list(dict.fromkeys(args.tracks or ["atl"]))
    options = [
        GenerateOptions(
            provider=provider,
            track=track,
            track_options=read_argparse(args, track_class(track).generate_options),
            runs=args.runs,
            validation_root=args.validation_root,
            selectors=args.selectors,
            concurrency=args.concurrency,
            offline=args.offline,
            batch=args.batch,
            refresh=args.refresh,
            replay_logs=args.replay_logs,
            prompt_template=args.prompt_template,
            templates=args.templates,
            answer_formats=args.answer_formats,
            config_file=args.config,
            cache_dir=args.cache_dir,
            timeout=args.timeout,
            max_attempts=args.max_attempts,
            max_tokens=args.max_tokens,
            poll=PollPolicy(max_wait=args.batch_max_wait),
            progress=args.progress and sys.stderr.isatty(),
            max_cost=args.max_cost,
            max_requests=args.max_requests,
        )
        for track in tracks
        for provider in dict.fromkeys(args.providers)
    ]
    if args.dry_run:
        return _dry_run(options)
    try:
        return _generate(options, args.json_report)
    except KeyboardInterrupt:
        print(
            "atlbench generate: interrupted; every answer received is in the cache and the raw logs (requests"
            " in flight were finished): run the same command again to file them and send the rest",
            file=sys.stderr,
        )
        return EXIT_INTERRUPTED


EXIT_INTERRUPTED = 130  # the shell's convention for SIGINT


def _dry_run(options: list[Any]) -> int:
    from benchmark.core.wording import plural
    from benchmark.llm.estimate import estimate

    estimates, plans = estimate(options)
    for planned in plans:
        for item in planned:
            print(f"{item.label}: {item.source} -> {item.path}")
    for found in estimates:
        print("\n".join(found.lines()))
    runs = sum(len(planned) for planned in plans)
    to_send = sum(1 for planned in plans for item in planned if item.source == "request")
    print(f"{plural(runs, 'run')}; {runs - to_send} cached; {to_send} to request", file=sys.stderr)
    return EXIT_OK


def _generate(options: list[Any], json_report: Path | None) -> int:
    from benchmark.core.fileio import write_json_atomic
    from benchmark.llm.generate import generate_call
    from benchmark.llm.task import FILED_OK

    def report_problem(filed: Any) -> None:
        if filed.status != FILED_OK:
            _say(f"{filed.label}: {filed.status}: {filed.message}")

    call, reports = generate_call(options, notify=_say, on_filed=report_problem)
    for item, report in zip(options, reports, strict=True):
        where = "" if len(options) == 1 else f" [{item.track} / {item.provider}]"
        print(f"atlbench generate{where}: {report.summary_line()}")
    if call.budget.stopped:
        stopped = sum(report.stats.budget_stopped for report in reports)
        print(
            f"{call.budget.stopped}: {stopped} runs not sent are missing (reason budget); the same command"
            " sends them (stored answers are replayed, not bought again)",
            file=sys.stderr,
        )
    if json_report is not None:
        data = reports[0].to_json() if len(reports) == 1 else {"sessions": [r.to_json() for r in reports]}
        write_json_atomic(json_report, {**data, "call": call.call_id, "budget": call.budget.to_json()})
    failed = [f.label for report in reports for f in report.filed if f.status != FILED_OK]
    if failed:
        print(f"failed runs: {', '.join(failed)}", file=sys.stderr)
        return EXIT_FAILED
    return EXIT_OK


__all__ = ["register", "run"]
