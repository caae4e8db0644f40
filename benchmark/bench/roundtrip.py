"""Round-trip scoring speed: ``python -m benchmark.bench roundtrip [--providers 4] [--workers 2]``.

The published study has 800 stage evaluations (10 pairs x 10 operators x 4 LLMs x 2 stages). This
benchmark copies the bundled data to a temporary folder, writes that many synthetic run files (the first
``--providers`` profiles of :data:`benchmark.tracks.roundtrip.synth.PROFILES`, k = 1; not timed) and
scores every one through the track (``RoundTripTrack.score_run``: run file, answer extraction, loading,
lines, verdicts, delta scores), as the pytest suite does. It prints

* the median CPU time of one scoring, with the case's references already read (the steady state), and
  of a scoring that also reads its two reference models (the first scoring of a case in a process);
* the wall-clock and CPU time of scoring all of them with ``--workers`` processes (each starting cold,
  as pytest-xdist workers do), which is the figure the issue's "800 evaluations in at most 10 s on 2
  cores" is about. CPU time is reported too because the machine may be shared.
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import tempfile
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "roundtrip",
        help="speed of the round-trip scorer on the study's 800 stage evaluations",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--data", type=Path, help="round-trip data folder (default: the bundled one)")
    parser.add_argument("--providers", type=int, default=4, help="synthetic providers (default 4, at most 4)")
    parser.add_argument("--workers", type=int, default=2, help="processes for the full run (default 2)")
    parser.add_argument("--sample", type=int, default=200, help="scorings timed one by one (default 200)")
    parser.set_defaults(handler=run)


def _track(folder: Path) -> Any:
    from benchmark.core.track import TrackContext
    from benchmark.tracks.roundtrip.track import RoundTripTrack

    return RoundTripTrack(TrackContext(folder, {"roundtrip_baselines": ()}))


def _score_slice(folder: str, ids: list[str]) -> tuple[int, float, int]:
    """(rows, CPU seconds, error rows) of scoring the given run cases in a fresh track."""
    began = time.process_time()
    track = _track(Path(folder))
    cases = {case.case_id: case for case in track.collect().runs}
    errors = sum(not track.score_run(cases[case_id]).ok for case_id in ids)
    return len(ids), time.process_time() - began, errors


def _timed_ms(action: Any) -> float:
    began = time.process_time()
    action()
    return (time.process_time() - began) * 1000


def run(args: argparse.Namespace) -> int:
    from benchmark.tracks.roundtrip.scoring.scorer import clear_reference_cache
    from benchmark.tracks.roundtrip.study.load import load_study
    from benchmark.tracks.roundtrip.study.manifest import default_data_dir
    from benchmark.tracks.roundtrip.synth import PROFILES, write_synthetic_runs

    source = args.data or default_data_dir()
    profiles = list(PROFILES)[: max(1, min(args.providers, len(PROFILES)))]
    with tempfile.TemporaryDirectory(prefix="atlbench-roundtrip-bench-") as temp:
        folder = Path(temp) / "roundtrip"
        shutil.copytree(source, folder, ignore=shutil.ignore_patterns("runs"))
        study = load_study(folder)
        write_synthetic_runs(study, profiles=profiles, examples=(1,))
        track = _track(folder)
        cases = list(track.collect().runs)
        print(
            f"{len(study.cases)} cases x {len(profiles)} synthetic providers x 2 stages = {len(cases)} stage "
            f"evaluations ({', '.join(profiles)})"
        )
        step = max(1, len(cases) // max(1, args.sample))
        sample = cases[::step][: args.sample]
        cold = []
        for case in sample:
            clear_reference_cache()
            cold.append(_timed_ms(lambda case=case: track.score_run(case)))
        warm = [_timed_ms(lambda case=case: track.score_run(case)) for case in sample]
        from benchmark.reports.table import terminal_lines

        rows = [
            [label, f"{statistics.median(times):.1f}", str(len(times))]
            for label, times in (("references cached", warm), ("references read too", cold))
        ]
        print("\n".join(terminal_lines(("one scoring", "ms CPU (median)", "scorings"), rows)))
        ids = [case.case_id for case in cases]
        workers = max(1, args.workers)
        slices = [ids[index::workers] for index in range(workers)]
        began = time.perf_counter()
        with ProcessPoolExecutor(max_workers=workers) as pool:
            results = list(pool.map(_score_slice, [str(folder)] * workers, slices))
        wall = time.perf_counter() - began
        rows = sum(r[0] for r in results)
        cpu = sum(r[1] for r in results)
        errors = sum(r[2] for r in results)
        print(
            f"all {rows} with {workers} process(es): {wall:.2f} s wall, {cpu:.2f} s CPU in the workers"
            f" ({1000 * cpu / rows:.1f} ms CPU per evaluation); {errors} error rows"
        )
    return 0 if errors == 0 else 1
