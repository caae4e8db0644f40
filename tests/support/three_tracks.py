"""A small session of the three bundled tracks whose names hold every character LaTeX treats as markup.

The mapping track scores the test tree of ``tests/harness/data/tree`` (two transformations, live baselines);
the round-trip track two cases of the bundled study; the OCL track the bundled runs of one dataset model
(every mode, and the runs of its other prompt templates, so that the prompt-sensitivity report is written
too). Then one provider of each track, and one transformation, are renamed to names holding each of
``\\ { } ~ ^ < > & % $ # _ |`` (as a user's provider or task may be named): every report writer must
escape them (the ``.tex`` files must compile) and the page must still lay out. Scoring a subset of each
track's cases keeps the session to a few seconds. The odd mapping provider's runs are also recorded as
runs of the ``synonym`` task variant, so that the variants table (``docs/VARIANTS.md``) holds the odd
name too.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from benchmark.core.options import LIST
from benchmark.core.registry import track_class
from benchmark.core.results import Results, TrackSection
from benchmark.core.rows import Row
from benchmark.core.track import with_template
from benchmark.harness.options import VALIDATION_ROOT, read_session_options
from benchmark.harness.session import Harness

REPO = Path(__file__).resolve().parents[2]
SPECIAL = "\\ { } ~ ^ < > & % $ # _ |"
PROVIDER = r"Odd\Provider {v2}~x^2 <beta> & 50% $5-$6 #1 snake_case a|b"
TASK = r"Odd\Task_{1} ~^ <in> & 5% $ #2|x"
TRACKS = ("atl", "roundtrip", "ocl")
RENAMED = {"atl": "Synthetic-Noisy", "roundtrip": "Synthetic-Sloppy", "ocl": "Synthetic-Noisy"}


def _harness() -> Harness:
    classes = [track_class(name) for name in TRACKS]
    given = {
        "atl_root": str(REPO / "tests" / "harness" / "data" / "tree"),
        "roundtrip_root": str(REPO / "validation" / "roundtrip"),
        "ocl_root": str(REPO / "validation" / "ocl"),
    }

    def read(option):
        if option is VALIDATION_ROOT:
            return str(REPO / "validation"), Path.cwd()
        return given.get(option.dest, () if option.kind == LIST else option.default), Path.cwd()

    return Harness(read_session_options(read, classes), {c.name: c for c in classes})


def _rows(harness: Harness) -> list[Row]:
    rows: list[Row] = []
    for name in TRACKS:
        track = harness.track(name)
        runs = harness.collection(name).runs
        if name == "roundtrip":
            tasks = sorted({case.task for case in runs})[:2]
            runs = tuple(case for case in runs if case.task in tasks)
        elif name == "ocl":
            runs = tuple(case for case in runs if case.task.startswith("library-"))
        for case in runs:
            problem = track.ground_truth_error(case.task)
            row = track.error_row(case, problem) if problem else track.score_run(case)
            rows.append(with_template(row, case))  # as the harness does: templates in the rows
    return rows


def _renamed(results: Results) -> Results:
    sections = []
    for section in results.sections:
        task = "Library2Catalog" if section.track == "atl" else None

        def rename(row: Row, renamed: str = RENAMED[section.track], task: str | None = task) -> Row:
            provider = PROVIDER if row.provider == renamed else row.provider
            return replace(row, provider=provider, task=TASK if row.task == task else row.task)

        facts = tuple(replace(f, task=TASK) if f.task == task else f for f in section.facts)
        rows = tuple(rename(row) for row in section.rows)
        if section.track == "atl":
            rows += tuple(_as_variant(row) for row in rows if row.provider == PROVIDER)
        sections.append(TrackSection(section.track, section.options, facts, rows))
    return Results(results.header, tuple(sections))


def _as_variant(row: Row) -> Row:
    """The row as a run of the synonym variant (the same counts: the table's pairing is what is shown)."""
    payload = {**row.payload, "variant": {"name": "synonym", "seed": 0}}
    return replace(row, run=f"synonym/{row.run}", payload=payload)


def write_three_tracks(out: Path) -> tuple[Results, list[Path]]:
    """The session's results and the report files it writes into ``out`` (``index.html`` last)."""
    from benchmark.reports import write_session_reports

    harness, results = three_track_session()
    return results, write_session_reports(results, out, harness.tracks)


def three_track_session() -> tuple[Harness, Results]:
    """The session's harness and its results (nothing written)."""
    harness = _harness()
    return harness, _renamed(harness.build_results(_rows(harness)))
