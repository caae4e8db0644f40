"""The round-trip track's report files and its part of ``index.html`` (``docs/ROUNDTRIP.md`` §13).

Files written into the reports folder:

* ``roundtrip_per_stage.csv``: the sheet, one row per stage evaluation;
* ``roundtrip_by_stage.csv``, ``roundtrip_by_operator.csv``, ``roundtrip_by_k.csv``: means per provider and
  stage, operator or k, with 95 % bootstrap intervals over pairs;
* ``roundtrip_table.tex``: the study's table (provider x stage, the nine columns);
* ``roundtrip_cost.tex``: per provider and stage, what the runs cost (tokens, dollars, median seconds per
  request, %Correct per $: :mod:`benchmark.reports.cost`); the ``roundtrip_by_*.csv`` files have the same
  columns per group;
* ``roundtrip_heatmap.{png,svg}`` and ``roundtrip_correct_vs_k.{png,svg}``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from benchmark.core.fileio import write_text_atomic
from benchmark.core.forked import run_forked
from benchmark.core.phases import phase
from benchmark.core.track import HtmlPart, TrackReport
from benchmark.core.wording import plural
from benchmark.reports.excluded import excluded, excluded_table
from benchmark.reports.figures import Figure, figure_html, write_figures
from benchmark.stats.bootstrap import DEFAULT_DRAWS, DEFAULT_SEED
from benchmark.tracks.roundtrip.payload import missing_reason
from benchmark.tracks.roundtrip.reports.figures import correct_vs_k, heatmap
from benchmark.tracks.roundtrip.reports.sheet import (
    Group,
    SheetRow,
    aggregate,
    costs_table,
    groups_csv,
    groups_table,
    latex_table,
    sheet_csv,
    sheet_rows,
    stage_excluded_lines,
    terminal_lines,
)

if TYPE_CHECKING:
    from benchmark.core.diskcache import DiskCache

PER_STAGE_CSV = "roundtrip_per_stage.csv"
GROUPINGS = (
    ("by_stage", ("provider", "stage"), "By provider and stage"),
    ("by_operator", ("provider", "operator"), "By provider and operator"),
    ("by_k", ("provider", "k"), "By provider and k"),
)
LATEX = "roundtrip_table.tex"
#: the code the report's summaries and figures are computed by (their cache key's fingerprint)
REPORT_CODE = ("tracks/roundtrip", "stats", "reports")
COST_LATEX = "roundtrip_cost.tex"


def summaries_and_figures(
    rows: Sequence[SheetRow], draws: int, seed: int
) -> tuple[dict[str, list[Group]], list[Figure]]:
    """The three summaries (:data:`GROUPINGS`) and the two figures, each drawn from the summary it shows.

    The work is split in three independent calls run side by side in forked processes
    (:mod:`benchmark.core.forked`): the operator summary and the heatmap, the k summary and the curves,
    the stage summary. matplotlib is imported here first, so that no child imports it again. Each summary
    is a pure function of the rows, ``draws`` and ``seed`` (its own random stream), so where it is computed
    changes nothing in it."""
    from benchmark.reports.figures import import_drawing

    import_drawing()  # before the fork: each child would import it
    keys = {name: by for name, by, _ in GROUPINGS}

    def summary(name: str) -> list[Group]:
        with phase(f"summary {name}"):
            return aggregate(rows, keys[name], draws=draws, seed=seed)

    def with_figure(name: str, draw: Callable[[list[Group]], Figure]) -> Callable[[], Any]:
        def call() -> tuple[list[Group], Figure]:
            groups = summary(name)
            with phase(f"figure of {name} drawn"):
                return groups, draw(groups)

        return call

    (by_operator, heat), (by_k, curves), (by_stage, _) = run_forked(
        [
            with_figure("by_operator", heatmap),
            with_figure("by_k", correct_vs_k),
            lambda: (summary("by_stage"), None),
        ]
    )
    return {"by_stage": by_stage, "by_operator": by_operator, "by_k": by_k}, [heat, curves]


def track_report(
    section_rows: Sequence[Any], out_dir: str | Path, options: dict[str, Any], cache: DiskCache | None = None
) -> TrackReport:
    """Write the files (module docstring) and return them with the HTML part and the report's lines; with
    a ``cache``, the summaries and figures of rows an earlier session saw are read from it
    (:mod:`benchmark.reports.cached`)."""
    from benchmark.reports.cached import cached, report_key

    out = Path(out_dir)
    draws = DEFAULT_DRAWS if options.get("roundtrip_draws") is None else options["roundtrip_draws"]
    seed = DEFAULT_SEED if options.get("roundtrip_seed") is None else options["roundtrip_seed"]
    rows = sheet_rows(section_rows)

    def compute() -> tuple[dict[str, list[Group]], list[Figure]]:
        return summaries_and_figures(rows, draws, seed)

    key = lambda: report_key("summaries and figures", section_rows, [draws, seed], REPORT_CODE)  # noqa: E731
    groups, figures = cached(cache, "roundtrip-report", key, compute)
    paths = [write_text_atomic(out / PER_STAGE_CSV, sheet_csv(rows))]
    for name, by, _ in GROUPINGS:
        paths.append(write_text_atomic(out / f"roundtrip_{name}.csv", groups_csv(groups[name], by)))
    paths.append(write_text_atomic(out / LATEX, latex_table(groups["by_stage"])))
    costs = costs_table(groups["by_stage"])
    paths.append(write_text_atomic(out / COST_LATEX, costs.to_latex()))
    paths += write_figures(figures, out)
    left_out = excluded(section_rows, missing_reason)
    shown_with = {"by_operator": figures[0], "by_k": figures[1]}
    sections = tuple(
        (
            name.replace("_", "-"),
            title,
            groups_table(groups[name], by, title).to_html(heading=False)
            + (figure_html(shown_with[name]) if name in shown_with else ""),
        )
        for name, by, title in GROUPINGS
    ) + (("costs", "Cost and time per provider and stage", costs.to_html(heading=False)),)
    notes = (
        "Every stage evaluation counts: unloadable answers with what their lenient reading earned, unusable "
        "answers and forward stages not run because of them as empty answers (failures, never dropped).",
        "Echo (the unchanged base model) shows what doing nothing earns; Oracle (the expected model) must "
        "score 100 everywhere. Compare ΔRecall and ΔPrecision, not only %Correct.",
        "Intervals: 95 % percentile bootstrap over pairs (then stage evaluations within pairs), "
        f"{draws} draws, seed {seed}.",
    )
    provenance = f"{plural(len(rows), 'stage evaluation')} on {plural(len({r.pair for r in rows}), 'pair')}"
    if left_out:  # never silent: each stage evaluation not scored, missing or an error, with its reason
        missing = sum(1 for item in left_out if item.missing is not None)
        provenance += f"; {len(left_out)} excluded ({missing} missing)"
        table = excluded_table("roundtrip-excluded", left_out, "stage evaluation")
        sections += (("roundtrip-excluded", "Excluded stage evaluations", table.to_html()),)
    html = HtmlPart(provenance=(provenance,), notes=notes, sections=sections)
    lines = terminal_lines(groups["by_stage"], ("provider", "stage"))
    lines += stage_excluded_lines(left_out, verbose=True)
    return TrackReport(tuple(paths), html, tuple(lines))
