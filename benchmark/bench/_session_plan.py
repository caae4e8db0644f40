"""What ``python -m benchmark.bench session`` runs and how it prints it: the rows, the pytest command of
each, the timed sessions, and the tables read from them. No process is started here (:mod:`.session`
does), so the tables can be checked on made-up timings.
"""

from __future__ import annotations

import re
import statistics
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from benchmark.core.errors import ConfigurationError
from benchmark.stats.median_interval import median_interval

#: The rows: ``pytest cases`` (every track) and each track's module alone.
ROWS = {
    "all": "cases",
    "mapping": "cases/test_rq1.py",
    "ocl": "cases/test_ocl.py",
    "roundtrip": "cases/test_roundtrip.py",
}
CACHES = ("cold", "warm")
STARTUP = "start-up (interpreter, imports, pytest and its plugins)"
EXIT = "exit (interpreter shutdown)"


def choices(text: str, allowed: Sequence[str], option: str) -> list[str]:
    """A comma-separated list of some of ``allowed``, in the order given; an error names the option."""
    picked = [part.strip() for part in text.split(",") if part.strip()]
    unknown = [p for p in picked if p not in allowed]
    if unknown or not picked:
        raise ConfigurationError(
            f"{', '.join(unknown) or 'nothing'}: choose among {', '.join(allowed)}", field=option
        )
    return list(dict.fromkeys(picked))


def scales(text: str) -> list[int]:
    try:
        values = [int(part) for part in text.split(",") if part.strip()]
    except ValueError:
        values = []
    if not values or min(values) < 1:
        raise ConfigurationError(f"{text!r}: positive whole multipliers, such as 1,4,16", field="--scales")
    return sorted(set(values))


def worker_counts(text: str) -> list[str]:
    picked = [part.strip() for part in text.split(",") if part.strip()]
    if not picked or any(not (p == "auto" or p.isdigit()) for p in picked):
        raise ConfigurationError(f"{text!r}: pytest-xdist -n values, such as 0,auto", field="--workers")
    return list(dict.fromkeys(picked))


@dataclass(frozen=True)
class ScaledRoots:
    """The data roots of a session at ``scale`` x the bundled runs (none at 1x: the bundled data)."""

    scale: int
    mapping: Path | None = None
    ocl: Path | None = None
    roundtrip: Path | None = None

    def options(self) -> list[str]:
        given = [("--validation-root", self.mapping), ("--ocl-root", self.ocl)]
        given.append(("--roundtrip-root", self.roundtrip))
        return [part for flag, path in given if path is not None for part in (flag, str(path))]


#: the rows whose sessions run the OCL track (``--ocl-judge`` goes to them)
OCL_ROWS = ("all", "ocl")


def pytest_command(
    python: str,
    row: str,
    workers: str,
    cache_dir: Path,
    reports_dir: Path,
    roots: ScaledRoots,
    ocl_judge: str = "builtin",
) -> list[str]:
    """The user's command for a row (``pytest cases -n auto``...), with the cache and the reports in the
    bench's folders, the data roots of the scale, and the OCL judge when it is not the built-in one."""
    command = [python, "-m", "pytest", ROWS[row], "-n", workers, "-p", "no:randomly"]
    command += ["-o", f"cache_dir={cache_dir}", "--reports-dir", str(reports_dir)]
    if ocl_judge != "builtin" and row in OCL_ROWS:
        command += ["--ocl-judge", ocl_judge]
    return command + roots.options()


def use_lines(output: str) -> list[str]:
    """What a session judged with USE printed about USE's cost (``USE 7.5.0 judged ...`` and the line
    after it that says where the time went)."""
    lines = output.splitlines()
    found = []
    for index, line in enumerate(lines):
        if line.startswith("USE ") and " judged " in line:
            found.append(line)
            if index + 1 < len(lines) and lines[index + 1].startswith("  where: "):
                found.append(lines[index + 1])
    return found


CASES = re.compile(r"(\d+) (passed|failed|skipped|xfailed|xpassed|errors?)\b")


def count_cases(output: str) -> int:
    """The cases a session ran, from pytest's last summary line ("2060 passed, 4 skipped in 76.07s")."""
    for line in reversed(output.splitlines()):
        found = CASES.findall(line)
        if found and " in " in line:
            return sum(int(number) for number, _ in found)
    return 0


@dataclass
class Timed:
    """One timed session."""

    seconds: float
    status: int
    #: (phase, seconds) in the order they began, start-up and exit included (:func:`phases_of`).
    phases: list[tuple[str, float]] = field(default_factory=list)
    #: per-case work summed in the session's process: name -> (seconds, count).
    tallies: dict[str, tuple[float, int]] = field(default_factory=dict)
    cpu: float = 0.0  # user + system seconds of the session's process and its workers
    cases: int = 0
    load: tuple[float, float] = (0.0, 0.0)  # 1-minute load average before and after
    output: str = ""
    workers: int | None = None  # the xdist workers it started (0: none), from its phase file


def phases_of(document: dict[str, object], spawned: float, ended: float) -> list[tuple[str, float]]:
    """The session's phases (:mod:`benchmark.core.phases`), with the time before the first (interpreter
    start, imports, pytest's start-up) and after the phase file was written (exit) added."""
    recorded = sorted(document.get("phases", []), key=lambda p: (p["start"], -p["end"]))  # type: ignore[arg-type]
    if not recorded:
        return []
    out = [(STARTUP, recorded[0]["start"] - spawned)]
    out += [(p["phase"], p["end"] - p["start"]) for p in recorded]
    written = document.get("written", ended)
    out.append((EXIT, ended - written))  # type: ignore[operator]
    return out


def tallies_of(document: dict[str, object]) -> dict[str, tuple[float, int]]:
    found = document.get("tallies", {})
    return {name: (t["seconds"], t["count"]) for name, t in found.items()}  # type: ignore[union-attr]


@dataclass(frozen=True)
class Key:
    """One line of the table: a scale, a row, an -n value and a disk cache state."""

    scale: int
    row: str
    workers: str
    cache: str
    ocl_judge: str = "builtin"

    def label(self) -> str:
        scale = f"{self.scale}x, " if self.scale != 1 else ""
        return f"{scale}pytest {self.command()} -n {self.workers}, {self.cache}"

    def command(self) -> str:
        """The row's paths, and ``--ocl-judge`` when it is not the built-in judge's session."""
        judge = (
            f" --ocl-judge {self.ocl_judge}" if self.ocl_judge != "builtin" and self.row in OCL_ROWS else ""
        )
        return f"{ROWS[self.row]}{judge}"


Measurements = dict[Key, dict[str, list[Timed]]]  # key -> checkout label -> sessions, in the order run


def median(values: Sequence[float]) -> float:
    return statistics.median(values) if values else float("nan")


def _wall(runs: list[Timed]) -> str:
    walls = [t.seconds for t in runs]
    spread = f" [{min(walls):.2f}-{max(walls):.2f}]" if len(walls) > 1 else ""
    return f"{median(walls):.2f}{spread}"


def paired_ratio(this: Sequence[Timed], other: Sequence[Timed]) -> str:
    """The median of the pairs' wall-time ratios (the i-th session of ``this`` over the i-th of ``other``,
    run in turn: a drift of the machine's speed weighs on both), and from 5 pairs on, in brackets, the
    interval of two of the ratios that holds their median with at least 90 % confidence
    (:func:`benchmark.stats.median_interval.median_interval`): a ratio whose interval holds 1 is within
    the noise."""
    pairs = zip(this, other, strict=False)  # a bench line runs as many sessions of each; a table may not
    ratios = [a.seconds / b.seconds for a, b in pairs if b.seconds > 0]
    if not ratios:
        return "-"
    interval = median_interval(ratios)
    return f"{median(ratios):.2f}" + (f" [{interval[0]:.2f}-{interval[1]:.2f}]" if interval else "")


def _started(asked: str, by_side: dict[str, list[Timed]], sides: Sequence[str]) -> str:
    """The -n value, with the workers its sessions started when that was decided at run time (``auto``:
    ``auto (2)``, or ``auto (0)`` in one process), per checkout when they differ (``auto (0; abc1234: 2)``,
    as when one of them predates the choice), several counts when a checkout's sessions differed."""
    counts = {}
    for side in sides:
        started = sorted({t.workers for t in by_side.get(side, []) if t.workers is not None})
        counts[side] = "/".join(str(c) for c in started)
    if asked.isdigit() or not any(counts.values()):
        return asked
    shown = [c for c in counts.values() if c]
    if len(set(shown)) == 1 and all(counts.values()):
        return f"{asked} ({shown[0]})"
    parts = [counts[sides[0]] or "?"] + [f"{side}: {counts[side] or '?'}" for side in sides[1:]]
    return f"{asked} ({'; '.join(parts)})"


def summary_rows(measurements: Measurements, sides: Sequence[str]) -> tuple[list[str], list[list[str]]]:
    """The main table: per key, each checkout's median wall seconds [min-max] and CPU seconds, the first
    checkout's time over the second's (:func:`paired_ratio`), and the load average around the key's
    sessions."""
    headers = ["scale", "command", "-n", "disk cache", "cases"]
    for side in sides:
        headers += [f"{side}: wall s", f"{side}: CPU s"]
    if len(sides) == 2:
        headers.append(f"{sides[0]} / {sides[1]}")
    headers += ["load before-after", "exit"]
    rows = []
    for key, by_side in measurements.items():
        runs = [t for side in sides for t in by_side.get(side, [])]
        line = [f"{key.scale}x", f"pytest {key.command()}", _started(key.workers, by_side, sides), key.cache]
        line.append(str(max((t.cases for t in runs), default=0)))
        for side in sides:
            mine = by_side.get(side, [])
            line += [_wall(mine) if mine else "-", f"{median([t.cpu for t in mine]):.1f}" if mine else "-"]
        if len(sides) == 2:
            line.append(paired_ratio(*(by_side.get(side, []) for side in sides)))
        loads = [t.load for t in runs]
        line.append(f"{loads[0][0]:.1f}-{loads[-1][1]:.1f}" if loads else "-")
        line.append(",".join(sorted({str(t.status) for t in runs})))
        rows.append(line)
    return headers, rows


def phase_rows(by_side: dict[str, list[Timed]], sides: Sequence[str]) -> tuple[list[str], list[list[str]]]:
    """Each phase's median seconds per checkout (a phase is listed after the phase it is part of), then
    the per-case work summed in the session's process (``-n 0`` only: xdist workers do not write it)."""
    order: dict[str, dict[str, list[float]]] = {}
    for side in sides:
        for run in by_side.get(side, []):
            for name, seconds in run.phases:
                order.setdefault(name, {}).setdefault(side, []).append(seconds)
            for name, (seconds, count) in run.tallies.items():
                label = f"sum over cases: {name} (x{count})"
                order.setdefault(label, {}).setdefault(side, []).append(seconds)
    rows = [
        [name, *(f"{median(values[s]):.3f}" if s in values else "-" for s in sides)]
        for name, values in order.items()
    ]
    return ["phase", *(f"{s}: s" for s in sides)], rows


def overhead(run: Timed) -> float | None:
    """The session's wall seconds beyond its cases' own work (scoring and ground-truth checks, summed in
    its process), or ``None`` when they were not summed (workers)."""
    if not run.tallies:
        return None
    return run.seconds - sum(seconds for seconds, _ in run.tallies.values())


def slope_lines(measurements: Measurements, sides: Sequence[str]) -> list[str]:
    """Per row, -n, cache and checkout over the scales timed: wall ms per additional case between the
    smallest and the largest scale, and (``-n 0``) the ms per case beyond the cases' own work."""
    lines = []
    groups: dict[tuple[str, str, str, str], list[tuple[int, float, float | None]]] = {}
    for key, by_side in measurements.items():
        for side in sides:
            runs = by_side.get(side, [])
            if not runs:
                continue
            cases = max(t.cases for t in runs)
            extra = [o for o in (overhead(t) for t in runs) if o is not None]
            groups.setdefault((key.row, key.workers, key.cache, side), []).append(
                (cases, median([t.seconds for t in runs]), median(extra) if extra else None)
            )
    for (row, workers, cache, side), points in groups.items():
        points.sort()
        if len(points) < 2 or points[-1][0] <= points[0][0]:
            continue
        (c0, w0, o0), (c1, w1, o1) = points[0], points[-1]
        text = (
            f"pytest {ROWS[row]} -n {workers}, {cache}, {side}: "
            f"cases {' / '.join(str(p[0]) for p in points)}, "
            f"wall {' / '.join(f'{p[1]:.2f}' for p in points)} s: {1000 * (w1 - w0) / (c1 - c0):.2f} ms per "
            "additional case"
        )
        if o0 is not None and o1 is not None:
            text += (
                f"; beyond the cases' own work {' / '.join(f'{p[2]:.2f}' for p in points)} s: "
                f"{1000 * (o1 - o0) / (c1 - c0):.2f} ms per additional case"
            )
        lines.append(text)
    return lines
