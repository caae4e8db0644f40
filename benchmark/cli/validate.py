"""``atlbench validate``: score every track's data the way the pytest session does, without pytest.

The same :class:`~benchmark.harness.session.Harness` as the pytest plugin, the same options (declared once
by the harness and each track), the same track code, baselines included: the rows, tables,
``results.json`` and reports are those of ``pytest cases`` on the same tree, and the command fails
(exit 1) on the problems that fail the pytest session: a ground truth that is unusable, a run that could
not be scored, runs that got no answer (unless ``--allow-missing-runs``), a session that scored nothing.
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import replace
from pathlib import Path
from typing import Any

from benchmark.cli import EXIT_FAILED, EXIT_OK


def _classes() -> tuple[Any, ...]:
    from benchmark.core.registry import track_classes

    return track_classes()


def register(subparsers: Any) -> None:
    from benchmark.core.options import add_to_argparse
    from benchmark.harness.options import VALIDATION_ROOT, all_options

    parser = subparsers.add_parser(
        "validate",
        help="score every run of a validation tree, as the pytest session does",
        description="Score every track's cases below ROOT with the pytest session's code and options "
        "(baselines included), print each track's tables and exit 1 when a ground truth is unusable, a run "
        "could not be scored or nothing was scored. -o writes a results.json that `atlbench report` "
        "reads; --reports-dir also writes the report files.",
    )
    parser.add_argument("root", metavar="ROOT", help="validation tree (each track's data below it)")
    parser.add_argument(
        "--track",
        dest="tracks",
        action="append",
        metavar="NAME",
        help="only this track (repeatable; default: every installed track with data)",
    )
    parser.add_argument("-o", "--output", metavar="results.json", help="write the session's results.json")
    parser.add_argument("-v", "--verbose", action="store_true", help="list skipped folders and files")
    options = [o for o in all_options(_classes()) if o is not VALIDATION_ROOT]
    for option in options:
        if option.flag == "--reports-dir":
            # no default folder here (validate writes reports only when asked); every other field,
            # aliases included, as the pytest option declares it
            option = replace(option, default="", help="also write the report files into this folder")
        add_to_argparse(parser, [option])
    parser.add_argument("--progress", action="store_true", help="print each case as it is scored")
    parser.set_defaults(handler=run)


def _excluded_lines(rows: list[Any]) -> list[str]:
    """One line per task and cause: the runs an unusable ground truth excludes share one message."""
    from benchmark.core.rows import group_by_cause, run_name
    from benchmark.core.wording import plural

    lines = []
    for (track, task), cause, group in group_by_cause(rows, lambda r: (r.track, r.task), lambda r: r.error):
        if len(group) == 1:
            lines.append(f"{track} {task} {group[0].provider} {group[0].run}: {cause}")
        else:
            runs = ", ".join(run_name(r.provider, r.run) for r in group)
            lines.append(f"{track} {task} ({plural(len(group), 'run')}: {runs}): {cause}")
    return lines


def run(args: argparse.Namespace) -> int:
    from benchmark.core.errors import ConfigurationError
    from benchmark.core.options import LIST
    from benchmark.harness.options import VALIDATION_ROOT, read_session_options
    from benchmark.harness.session import Harness

    classes = {cls.name: cls for cls in _classes()}
    wanted = args.tracks or list(classes)
    for name in wanted:
        if name not in classes:
            raise ConfigurationError(
                f"unknown track {name!r}; installed: {', '.join(classes)}", field="--track"
            )

    def read(option: Any) -> tuple[Any, Path, Any]:
        if option is VALIDATION_ROOT:
            return args.root, Path.cwd(), option
        given, spelt = option.given_as(lambda dest: getattr(args, dest, None))
        if option.flag == "--reports-dir":
            return (given or ""), Path.cwd(), spelt
        default = () if option.kind == LIST else option.default
        return (given if given is not None else default), Path.cwd(), spelt

    options = read_session_options(read, list(classes.values()))
    root = Path(args.root)
    if not root.is_dir():
        raise ConfigurationError("validation root is not a folder", file=root, field="ROOT")
    harness = Harness(options, classes, source_dir=Path.cwd())
    names = [n for n in wanted if options.roots[n].is_dir()]
    for name in sorted(set(wanted) - set(names)):
        print(f"track {name}: no data at {options.roots[name]}; skipped", file=sys.stderr)
    rows, problems = harness.score_all(names, progress=args.progress)
    results = harness.build_results(rows, tracks=names if rows else ())
    for heading, lines in harness.summary_lines(results, args.verbose):
        print(f"== {heading}")
        for line in lines:
            print(line)
    failures = [f"ground truth {p}" for p in problems]
    excluded = [r for r in rows if not r.ok and harness.track(r.track).missing_reason(r) is None]
    failures += _excluded_lines(excluded)  # missing runs: one line of their own, below
    missing_messages, missing_failures = harness.missing_check(rows)
    failures += missing_failures
    track_messages, track_failures = harness.track_checks(rows)
    missing_messages += track_messages
    failures += track_failures
    if not rows:
        failures.append(f"no run was scored under {root} (tracks: {', '.join(names) or 'none with data'})")
    failures += harness.nothing_scored(rows)
    if args.output:
        print(f"wrote {results.save(args.output)}")
    if options.reports_dir is not None and rows:
        written = harness.write_reports(results, options.reports_dir)
        print(f"reports written to {options.reports_dir}: {', '.join(p.name for p in written)}")
    for message in missing_messages:
        print(message)
    if rows:
        messages, gate_failures = harness.gates(results)
        for message in messages:
            print(message)
        failures += gate_failures
    for failure in failures:
        print(f"error: {failure}", file=sys.stderr)
    return EXIT_FAILED if failures else EXIT_OK
