"""``python -m benchmark.bench parse DIR``: ATL parser speed on a corpus, side by side, and its scaling.

Three measurements, printed as ``name: value`` lines:

1. corpus, in process: every ``.atl`` file below DIR parsed and summarized the way ``atlbench parse
   --summary`` does it (both cores when it pays), wall clock from before the grammar is set up (loaded
   from the compiled-grammar cache, or compiled when there is none); interpreter start not included;
2. corpus, whole commands, side by side: ``python -m benchmark parse --summary -- FILES`` as a fresh
   process, once with the compiled grammar loaded from its cache (as every run after the first) and once
   with the cache disabled (interpreter start, imports and grammar compilation, like a user's very first
   run); with ``--official CLASSPATH``, the official Java parser on the same files through a driver class
   on that classpath (JVM start included). The commands run in turn, A B C A B C ..., for ``--rounds``
   rounds after ``--warmup`` uncounted ones; each figure is the median [min-max] of the whole process's
   wall and CPU seconds (CPU: user + system of the process and every child it waited for, so the
   project's worker processes count), and each other command is also given as wall and CPU ratios to
   the project's cached command, the medians of the round-by-round ratios. Every command's output is checked:
   a command that did not answer for every file (say, because a file name with a space was split in
   two) is reported, and the benchmark exits with status 1;
3. scaling: a generated module (:mod:`benchmark.lang.atl.synthetic`) at 1x, 10x and 100x its base size, parsed
   in one process (best of several runs), to show that cost grows linearly with size.

The official parser is never part of this repository: ``--official`` takes a classpath (jars or class
directories, joined with the platform's path separator) holding a driver class (``--official-main``,
default ``AtlParseDriver``) that is run as ``JAVA -cp CLASSPATH MAIN --mode MODE --files-from LIST``,
where LIST is a UTF-8 file naming one file a line (so no file name is ever split by a shell or limited by
the command-line length). ``MODE`` is ``full`` (``AtlParser.parseWithProblems``: lexing, parsing and
injection into the EMF model, what Eclipse runs) or ``parse`` (the same ANTLR 3 lexer and parser with a
do-nothing model adapter); ``--official-modes`` also takes ``setup``, the driver in ``full`` mode with an
empty list (JVM start, class loading and metamodel setup, no file). The driver prints one line
``files=N read=N units=N ...`` and may add ``setup_s=S parse_s=S`` (its own clock: class loading and
metamodel setup, then the parsing loop), which are reported as medians too. docs/ATL_PARSER.md describes
how the figures in the README were measured.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shlex
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from benchmark.core.wording import plain_text

if TYPE_CHECKING:
    from benchmark.bench._corpus import AtlCorpus

#: ``--official-modes`` values: the driver's ``--mode`` argument, or ``setup`` (full mode, no file).
OFFICIAL_MODES = ("full", "parse", "setup")
_OFFICIAL_LABELS = {
    "full": "official, full injection (lexing, parsing, EMF model)",
    "parse": "official, lexing + parsing only (do-nothing model adapter)",
    "setup": "official, no file (JVM start, class loading, metamodel setup)",
}
#: The line an official driver prints: ``files=N read=N units=N`` then optional ``key=value`` pairs.
_DRIVER_LINE = re.compile(r"\bfiles=(\d+) read=(\d+) units=(\d+)")
_DRIVER_FIGURE = re.compile(r"\b(setup_s|parse_s)=([0-9.]+)")


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "parse",
        help="ATL parser speed on a directory of .atl files, beside the official parser; scaling",
        description=plain_text(__doc__),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("directory", type=Path, help="directory searched recursively for .atl files")
    parser.add_argument(
        "-j", "--jobs", type=int, default=None, help="worker processes (default: usable CPUs)"
    )
    parser.add_argument(
        "--base-blocks",
        type=int,
        default=10,
        help="size of the 1x generated module, in blocks of about 1.6 KB (default: 10)",
    )
    parser.add_argument(
        "--repeat-seconds",
        type=float,
        default=1.0,
        help="keep re-parsing each scaling size for this long (best run counts; at least 3 runs)",
    )
    parser.add_argument(
        "--no-cold", action="store_true", help="skip the whole-command runs (project and official)"
    )
    parser.add_argument("--no-scaling", action="store_true", help="skip the scaling run")
    parser.add_argument(
        "--rounds", type=int, default=5, help="counted rounds of the whole-command runs (default: 5)"
    )
    parser.add_argument("--warmup", type=int, default=1, help="uncounted rounds before them (default: 1)")
    parser.add_argument(
        "--official",
        metavar="CLASSPATH",
        default=None,
        help="classpath of the official ATL parser and its driver class: also time it on the same files",
    )
    parser.add_argument(
        "--official-main",
        metavar="CLASS",
        default="AtlParseDriver",
        help="the driver class on that classpath (default: AtlParseDriver)",
    )
    parser.add_argument(
        "--official-modes",
        default="full,setup",
        help="comma-separated: full, parse, setup (default: full,setup)",
    )
    parser.add_argument(
        "--java",
        metavar="CMD",
        default="java",
        help="the java command, split as a shell splits words (default: java)",
    )
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    from benchmark.bench._corpus import AtlCorpus
    from benchmark.core.errors import ConfigurationError

    modes = [mode.strip() for mode in args.official_modes.split(",") if mode.strip()]
    unknown = [mode for mode in modes if mode not in OFFICIAL_MODES]
    if unknown or (args.official and not modes):
        raise ConfigurationError(
            f"--official-modes: {', '.join(unknown) or 'none given'}; known: {', '.join(OFFICIAL_MODES)}"
        )
    if args.rounds < 1 or args.warmup < 0:
        raise ConfigurationError("--rounds must be at least 1 and --warmup at least 0")
    corpus = AtlCorpus.below(args.directory)
    print(corpus.describe())
    _in_process(corpus, args.jobs)
    status = 0
    if not args.no_cold:
        with tempfile.TemporaryDirectory(prefix="atlbench-parse-") as scratch:
            contenders = _contenders(corpus, args, modes, Path(scratch))
            status = _side_by_side(contenders, args.rounds, args.warmup)
    if not args.no_scaling:
        _scaling(args.base_blocks, args.repeat_seconds)
    return status


def _mb_per_second(size: int, seconds: float) -> float:
    return size / 1e6 / seconds if seconds > 0 else float("inf")


def _in_process(corpus: AtlCorpus, jobs: int | None) -> None:
    start = time.perf_counter()
    cpu_start = time.process_time()
    from benchmark.lang.atl.batch import parse_files, workers
    from benchmark.lang.atl.parser import _parser

    _parser()
    compiled = time.perf_counter()
    results = list(parse_files(corpus.files, jobs=jobs))
    seconds = time.perf_counter() - start
    failures = [result for result in results if not result.ok]
    print(f"jobs: {workers(corpus.files, jobs)}")
    print(f"grammar set-up seconds (imports, compiled or loaded from its cache): {compiled - start:.3f}")
    print(f"in-process seconds (wall, grammar set-up included): {seconds:.3f}")
    print(f"in-process main-process CPU seconds: {time.process_time() - cpu_start:.3f}")
    print(f"in-process MB/s: {_mb_per_second(corpus.size, seconds):.2f}")
    print(f"sum of per-file parse seconds: {sum(result.seconds for result in results):.3f}")
    print(f"failures: {len(failures)}")
    for result in failures:
        print(f"  {result.location}: error: {result.error}")


@dataclass(frozen=True)
class _Run:
    """One finished run of a command: its whole-process figures and what it printed."""

    wall: float
    cpu: float | None
    status: int
    stdout: str
    stderr: str


@dataclass
class _Contender:
    """A command timed on the corpus, and how to tell from its output which files it handled."""

    label: str
    command: list[str]
    check: Callable[[_Run, Sequence[str]], _Answer]
    #: The files it should answer for (none for the official driver on an empty list).
    files: Sequence[str]
    environment: dict[str, str] | None = None
    runs: list[_Run] = field(default_factory=list)


@dataclass(frozen=True)
class _Answer:
    """What a run says it did: files it answered for, a note, and figures of its own clock."""

    answered: int | None
    note: str
    figures: dict[str, float] = field(default_factory=dict)


def write_file_list(files: Sequence[str], target: Path) -> Path:
    """``files`` one a line, UTF-8, for ``--files-from``: no name passes through a shell or argv limit."""
    from benchmark.core.errors import ConfigurationError

    for name in files:
        if "\n" in name or "\r" in name:
            raise ConfigurationError(
                "a file name contains a line break; it cannot go in a file list", file=name
            )
    target.write_text("".join(f"{name}\n" for name in files), encoding="utf-8")
    return target


def project_command(files: Sequence[str], jobs: int | None) -> list[str]:
    """The project's command on ``files``: one argument per file, after ``--`` (a name may start with -)."""
    command = [sys.executable, "-m", "benchmark", "parse", "--summary"]
    if jobs is not None:
        command += ["--jobs", str(jobs)]
    return [*command, "--", *files]


def official_command(java: str, classpath: str, main: str, mode: str, file_list: Path) -> list[str]:
    """``JAVA -cp CLASSPATH MAIN --mode MODE --files-from LIST`` (``setup`` is ``full`` on an empty list)."""
    return [
        *shlex.split(java),
        "-cp",
        classpath,
        main,
        "--mode",
        "full" if mode == "setup" else mode,
        "--files-from",
        str(file_list),
    ]


def check_project(run: _Run, files: Sequence[str]) -> _Answer:
    """Which of ``files`` the run named in a summary line (one JSON object a file, errors included)."""
    named: set[str] = set()
    errors = 0
    for line in run.stdout.splitlines():
        try:
            record = json.loads(line)
        except ValueError:
            continue
        if isinstance(record, dict) and isinstance(record.get("file"), str):
            named.add(record["file"])
            errors += "error" in record
    answered = len(named.intersection(files))
    others = len(named) - answered
    note = f"{answered} of {len(files)} files answered ({errors} with a syntax error)"
    if others:
        note += f", and {others} names that are not corpus files"
    if answered != len(files):
        said = [line for line in run.stderr.splitlines() if ": error: " not in line][-1:] or ["no message"]
        note += f" (exit status {run.status}; {said[0].strip()})"
    return _Answer(answered, note)


def check_official(run: _Run, files: Sequence[str]) -> _Answer:
    """Read the driver's ``files=N read=N units=N [setup_s=S parse_s=S]`` line."""
    match = _DRIVER_LINE.search(run.stdout)
    if match is None:
        said = run.stderr.strip().splitlines()[-1:] or ["nothing on stderr"]
        return _Answer(None, f"no 'files=N read=N units=N' line (exit status {run.status}; {said[0]})")
    listed, read, units = (int(group) for group in match.groups())
    figures = {key: float(value) for key, value in _DRIVER_FIGURE.findall(run.stdout[match.start() :])}
    note = f"{read} of {len(files)} files read ({listed} listed), {units} units"
    return _Answer(read if listed == len(files) else None, note, figures)


def _contenders(
    corpus: AtlCorpus, args: argparse.Namespace, modes: Sequence[str], scratch: Path
) -> list[_Contender]:
    from benchmark.lang.atl.batch import workers
    from benchmark.lang.atl.parser import GRAMMAR_CACHE_VARIABLE

    files = corpus.files
    count = workers(corpus.files, args.jobs)
    described = f"python -m benchmark parse --summary FILES, {count} process{'es' if count > 1 else ''}"
    ours = project_command(corpus.files, args.jobs)
    utf8 = {"PYTHONIOENCODING": "utf-8"}  # its summaries name the files as given, in any locale
    contenders = [
        _Contender(f"project, compiled grammar cached ({described})", ours, check_project, files, utf8),
        # Truly cold: the grammar is compiled, not loaded from the compiled-tables cache.
        _Contender(
            f"project, grammar compiled, cache off ({described})",
            ours,
            check_project,
            files,
            {**utf8, GRAMMAR_CACHE_VARIABLE: "off"},
        ),
    ]
    if args.official:
        listed = write_file_list(corpus.files, scratch / "files.txt")
        empty = write_file_list([], scratch / "no-files.txt")
        for mode in modes:
            setup = mode == "setup"
            command = official_command(
                args.java, args.official, args.official_main, mode, empty if setup else listed
            )
            contenders.append(
                _Contender(_OFFICIAL_LABELS[mode], command, check_official, () if setup else files)
            )
    return contenders


def _children_cpu() -> float | None:
    try:
        import resource
    except ImportError:  # not on Windows
        return None
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def _time(contender: _Contender) -> _Run:
    env = {**os.environ, **contender.environment} if contender.environment else None
    cpu_before = _children_cpu()
    start = time.perf_counter()
    completed = subprocess.run(
        contender.command, capture_output=True, encoding="utf-8", errors="replace", check=False, env=env
    )
    wall = time.perf_counter() - start
    cpu_after = _children_cpu()
    cpu = None if cpu_before is None or cpu_after is None else cpu_after - cpu_before
    return _Run(wall, cpu, completed.returncode, completed.stdout, completed.stderr)


def _spread(values: Sequence[float]) -> str:
    if len(values) == 1:
        return f"{values[0]:.3f} s"
    return f"{statistics.median(values):.3f} s [{min(values):.3f}-{max(values):.3f}]"


def _print_ratio(what: str, pairs: Sequence[tuple[float, float]]) -> None:
    ratios = [value / base for value, base in pairs if base > 0]
    if ratios:
        print(
            f"  {what} ratio to the project's cached command: {statistics.median(ratios):.2f}"
            f" (median of {len(ratios)} round-by-round ratios)"
        )


def _side_by_side(contenders: list[_Contender], rounds: int, warmup: int) -> int:
    print(
        f"side by side: {rounds} round{'s' * (rounds != 1)} after {warmup} warm-up,"
        f" the {len(contenders)} commands in turn;"
        " median [min-max] of each whole process"
    )
    for number in range(warmup + rounds):
        for contender in contenders:
            run = _time(contender)
            if number >= warmup:
                contender.runs.append(run)
    status = 0
    reference = contenders[0]
    for contender in contenders:
        answers = [contender.check(run, contender.files) for run in contender.runs]
        walls = [run.wall for run in contender.runs]
        cpus = [run.cpu for run in contender.runs if run.cpu is not None]
        print(f"{contender.label}:")
        print(f"  wall seconds: {_spread(walls)}")
        if cpus:
            print(f"  CPU seconds (user + system, children included): {_spread(cpus)}")
        for key, label in (("setup_s", "class loading and setup"), ("parse_s", "parsing loop")):
            values = [answer.figures[key] for answer in answers if key in answer.figures]
            if values:
                print(f"  its own clock, {label}: {_spread(values)}")
        notes = sorted({answer.note for answer in answers})
        print(f"  output: {'; '.join(notes)}")
        if any(answer.answered != len(contender.files) for answer in answers):
            status = 1
            print(
                f"  WARNING: it did not answer for all {len(contender.files)} files:"
                " these figures do not measure them"
            )
        if contender is not reference:
            pairs = list(zip(contender.runs, reference.runs, strict=True))
            _print_ratio("wall", [(run.wall, base.wall) for run, base in pairs])
            cpu_pairs = [
                (run.cpu, base.cpu) for run, base in pairs if run.cpu is not None and base.cpu is not None
            ]
            _print_ratio("CPU", cpu_pairs)
    return status


def _scaling(base_blocks: int, repeat_seconds: float) -> None:
    from benchmark.lang.atl import parse
    from benchmark.lang.atl.synthetic import synthetic_module

    print(f"scaling (generated module, {base_blocks} blocks at 1x, best of several runs; the cost ratio uses")
    print("  CPU time, which other processes on the machine disturb less than wall time):")
    from benchmark.reports.table import terminal_lines

    base_rate: float | None = None
    rows: list[list[str]] = []
    for factor in (1, 10, 100):
        text = synthetic_module(base_blocks * factor)
        size = len(text.encode("utf-8"))
        best_wall = best_cpu = float("inf")
        runs = 0
        budget_start = time.perf_counter()
        while runs < 3 or (time.perf_counter() - budget_start < repeat_seconds and runs < 50):
            start, cpu_start = time.perf_counter(), time.process_time()
            parse(text)
            best_wall = min(best_wall, time.perf_counter() - start)
            best_cpu = min(best_cpu, time.process_time() - cpu_start)
            runs += 1
        per_megabyte = best_cpu / (size / 1e6)
        if base_rate is None:
            base_rate = per_megabyte
        rows.append(
            [
                f"{factor}x",
                str(size),
                f"{best_wall:.4f}",
                f"{best_cpu:.4f}",
                f"{_mb_per_second(size, best_wall):.2f}",
                f"{per_megabyte / base_rate:.2f}",
                str(runs),
            ]
        )
    headers = ("size", "bytes", "s wall", "s CPU", "MB/s", "cost per byte, x the 1x", "runs")
    print("\n".join(f"  {line}" for line in terminal_lines(headers, rows)))
