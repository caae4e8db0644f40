"""Fixtures of the statistics and report tests: rows built by hand (counts derived from their items, as
the comparator does) and small synthetic sessions built through the real comparator."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path

import pytest

from benchmark.bench.support.synthetic_results import synthetic_results
from benchmark.tracks.mapping.counts import BindingCounts, ClassCounts
from benchmark.tracks.mapping.payload import BindingItem, ClassItem, RunRow
from benchmark.tracks.mapping.reports.results import MappingResults as Results

COMPARE_DATA = Path(__file__).parent / "scoring" / "data"

RowFactory = Callable[..., RunRow]


def build_row(
    provider: str,
    transformation: str,
    run: str,
    classes: Sequence[tuple[str, str, str]] = (),
    bindings: Sequence[tuple[str, str, str, str] | tuple[str, str, str, str, tuple[str, ...]]] = (),
    *,
    truth: dict[tuple[str, str, str], tuple[str, ...]] | None = None,
    suggestions: int | None = None,
) -> RunRow:
    """A row whose counts are derived from its items.

    ``classes``: (source, target, verdict); ``bindings``: (source, target, feature, category[, suggested]).
    ``truth`` gives the ground-truth paths per key (default: the feature name itself, for every key that
    is in the ground truth).
    """
    class_items = tuple(ClassItem(s, t, v) for s, t, v in classes)
    binding_items = []
    totals = dict.fromkeys(BindingCounts().to_json(), 0)
    for entry in bindings:
        s, t, f, category = entry[:4]
        suggested = entry[4] if len(entry) > 4 else ((f"src_{f}",) if category != "onlyAtl" else ())
        in_truth = category != "onlyGenerated"
        gt = (truth or {}).get((s, t, f), (f,)) if in_truth else ()
        binding_items.append(BindingItem(s, t, f, category, suggested=tuple(suggested), ground_truth=gt))
        totals[category] += 1
    verdicts = [v for _, _, v in classes]
    return RunRow.of(
        provider=provider,
        model=f"{provider.lower()}-m",
        transformation=transformation,
        run=run,
        classes=ClassCounts(verdicts.count("tp"), verdicts.count("fp"), verdicts.count("fn")),
        bindings=BindingCounts.from_json(totals),
        class_items=class_items,
        binding_items=tuple(binding_items),
        suggestions=(
            suggestions
            if suggestions is not None
            else verdicts.count("tp")
            + verdicts.count("fp")
            + sum(v for k, v in totals.items() if k != "onlyAtl")
        ),
    )


@pytest.fixture
def make_row() -> RowFactory:
    return build_row


@pytest.fixture(scope="session")
def small_results() -> Results:
    """Three transformations, two providers with three runs each, the EMFCompare baseline, one error row."""
    return synthetic_results(transformations=3, providers=("Alpha", "Beta"), runs=3, seed=3, error_runs=1)


REPORT_DRAWS = 200


@pytest.fixture(scope="session")
def written_reports(
    small_results: Results, tmp_path_factory: pytest.TempPathFactory
) -> tuple[list[Path], Path]:
    """Every artefact of ``small_results`` (200 bootstrap draws), written once for the whole session."""
    from benchmark.tracks.mapping.reports.files import write_reports

    out = tmp_path_factory.mktemp("reports")
    return write_reports(small_results, out, draws=REPORT_DRAWS), out


@pytest.fixture(scope="session")
def results_file(small_results: Results, tmp_path_factory: pytest.TempPathFactory) -> Path:
    return small_results.save(tmp_path_factory.mktemp("session") / "results.json")


@pytest.fixture(scope="session")
def compare_data() -> Path:
    return COMPARE_DATA
