"""A synthetic mapping session of ATL Zoo size, for the report page's layout: 105 transformations with
names as long as the Zoo's longest (``SpreadsheetMLSimplified2SoftwareQualityControl``, 46 characters),
five synthetic providers (one with a long model-like name) under three prompt templates, and a task
variant, through the project's synthetic-run tooling
(:func:`benchmark.bench.support.synthetic_results.synthetic_results`: scored by the real comparator).
Nothing of the Zoo is in it. Its page holds the widest tables a session of this size gives: the results
table with its intervals, the F1 per transformation table with a column per series (16), and the
drill-down page, whose tables have a column per series after their four key columns.
"""

from __future__ import annotations

from pathlib import Path

from benchmark.bench.support.synthetic_results import synthetic_results

TRANSFORMATIONS = 105
WORDS = (
    "Hierarchical", "StateMachine", "Spreadsheet", "PetriNet", "SoftwareQuality", "Families",
    "MeasuringModel", "Relational", "TabularHTML", "ProcessModel", "SVGBarChart", "Repositories",
)  # fmt: skip
PROVIDERS = (
    "Synthetic-Oracle",
    "Synthetic-Noisy",
    "Synthetic-Sloppy",
    "Synthetic-Memoriser",
    "Synthetic-Careful-Long-Model-Name-2024-07-18",
)
TEMPLATES = ("study", "stepwise", "terse")
VARIANTS = ("synonym",)


def names() -> list[str]:
    """105 names like the Zoo's longest: ``T017_MeasuringModelTabularHTML2SpreadsheetRelational__...``."""
    n = len(WORDS)
    return [
        f"T{i:03d}_{WORDS[i % n]}{WORDS[(i * 5 + 1) % n]}2{WORDS[(i * 7 + 2) % n]}"
        + ("" if i % 3 else f"__{WORDS[(i + 4) % n]}{WORDS[(i + 9) % n]}")
        for i in range(1, TRANSFORMATIONS + 1)
    ]


def write_zoo_sized(out: Path) -> list[Path]:
    """The session's report files (``index.html`` and the drill-down page among them) in ``out``."""
    from benchmark.tracks.mapping.reports.files import write_reports

    results = synthetic_results(
        names=names(), providers=PROVIDERS, runs=1, seed=5, templates=TEMPLATES, variants=VARIANTS
    )
    return write_reports(results, out, draws=20)
