"""Prints how long ``atlbench report`` takes on a synthetic session of a typical and of a huge size.

Usage: ``python -m benchmark.bench report [--transformations 8] [--providers 5] [--runs 5] [--draws 2000]
[--huge-runs 300]``. The session is generated through the real comparator
(:func:`benchmark.bench.support.synthetic_results.synthetic_results`: every LLM provider has RUNS runs per
transformation, plus one EMFCompare baseline run), saved as results.json, and the report command's
steps are timed: loading the file, the statistics, the figures, and writing every artefact. CPU time of
this process (other processes on the machine do not count) and wall-clock time are both printed; the
import of matplotlib is timed on its own, since a fresh ``atlbench report`` pays it once.
"""

from __future__ import annotations

import argparse
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

from benchmark.core.wording import plural

T = TypeVar("T")
NAMES = ("Claude", "GPT", "Gemini", "Llama", "Mistral", "Qwen", "DeepSeek", "Grok")


class Timings:
    """Steps timed one after the other, printed as one table by the report kit."""

    def __init__(self) -> None:
        self.rows: list[list[str]] = []

    def timed(self, label: str, action: Callable[[], T]) -> tuple[T, float, float]:
        wall, cpu = time.perf_counter(), time.process_time()
        value = action()
        cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
        self.add(label, cpu, wall)
        return value, cpu, wall

    def add(self, label: str, cpu: float, wall: float) -> None:
        self.rows.append([label, f"{cpu:.2f}", f"{wall:.2f}"])

    def lines(self) -> list[str]:
        from benchmark.reports.table import terminal_lines

        return terminal_lines(("step", "s CPU", "s wall"), self.rows)


def session(transformations: int, providers: int, runs: int, draws: int, out: Path) -> None:
    from benchmark.bench.support.synthetic_results import synthetic_results
    from benchmark.core.results import Results
    from benchmark.tracks.mapping.reports.figures import all_figures
    from benchmark.tracks.mapping.reports.files import write_reports
    from benchmark.tracks.mapping.reports.results import MappingResults, from_section
    from benchmark.tracks.mapping.stats import compute_statistics

    names = NAMES[:providers] if providers <= len(NAMES) else tuple(f"P{i:02d}" for i in range(providers))
    results = synthetic_results(transformations=transformations, providers=names, runs=runs, seed=1)
    path = results.save(out / "results.json")
    print(
        f"{plural(transformations, 'transformation')} x {plural(providers, 'LLM provider')} x "
        f"{plural(runs, 'run')} + 1 baseline run each: {plural(len(results.rows), 'row')}, "
        f"results.json {path.stat().st_size / 1e6:.1f} MB, {draws} bootstrap draws"
    )

    def load() -> MappingResults:
        session = Results.load(path)
        section = session.section("atl")
        assert section is not None
        return from_section(session, section)

    steps = Timings()
    loaded, load_cpu, load_wall = steps.timed("load results.json", load)
    stats, stats_cpu, stats_wall = steps.timed(
        "statistics", lambda: compute_statistics(loaded.rows, draws=draws)
    )
    steps.timed("figures alone (part of the next line)", lambda: all_figures(stats))
    paths, write_cpu, write_wall = steps.timed(
        "write_reports (14 artefacts)", lambda: write_reports(loaded, out / "reports", statistics=stats)
    )
    steps.add(
        "total: load + statistics + write",
        load_cpu + stats_cpu + write_cpu,
        load_wall + stats_wall + write_wall,
    )
    print("\n".join(f"  {line}" for line in steps.lines()))
    print(f"  artefacts {sum(p.stat().st_size for p in paths) / 1e6:.1f} MB")


def _imports() -> None:
    import matplotlib.backends.backend_agg  # noqa: F401
    import matplotlib.figure  # noqa: F401
    import scipy.stats  # noqa: F401

    import benchmark.tracks.mapping.reports  # noqa: F401
    import benchmark.tracks.mapping.stats  # noqa: F401


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m benchmark.bench report", description=__doc__.splitlines()[0]
    )
    parser.add_argument("--transformations", type=int, default=8)
    parser.add_argument("--providers", type=int, default=5, help="LLM providers (the baseline comes on top)")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--draws", type=int, default=2000)
    parser.add_argument(
        "--huge-runs", type=int, default=300, help="runs per provider, huge session (0: skip)"
    )
    args = parser.parse_args(argv)
    imports = Timings()
    imports.timed("import benchmark, scipy, matplotlib", _imports)
    print("\n".join(imports.lines()))
    with tempfile.TemporaryDirectory() as folder:
        session(args.transformations, args.providers, args.runs, args.draws, Path(folder) / "typical")
        if args.huge_runs:
            session(args.transformations, 3, args.huge_runs, args.draws, Path(folder) / "huge")
    return 0


def register(subparsers: Any) -> None:
    """``python -m benchmark.bench report``: the options are this module's own (``--help`` lists them)."""
    parser = subparsers.add_parser(
        "report",
        help="statistics and report writing on a synthetic session",
        add_help=False,
        prefix_chars="+",
    )
    parser.add_argument("arguments", nargs=argparse.REMAINDER)
    parser.set_defaults(handler=lambda args: main(args.arguments) or 0)


if __name__ == "__main__":
    raise SystemExit(main())
