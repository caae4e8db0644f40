"""Which correspondences survive each task variant (``reports/survival.py``), on the bundled session and
on rows made for the test: a variant's answers are read back into the original names, a correspondence
is one row under every variant, the counts are the runs', and the section is in ``index.html`` only for a
session with a variant (at scale its tables move to ``rq1_drilldown.html``)."""

from __future__ import annotations

import re
from dataclasses import replace
from html import unescape
from pathlib import Path

import pytest
from validate_session import mapping_harness

from benchmark.bench.support.synthetic_results import synthetic_results
from benchmark.tracks.mapping.payload import BindingItem, ClassItem, RunRow
from benchmark.tracks.mapping.reports.files import write_reports
from benchmark.tracks.mapping.reports.scale import DRILLDOWN_HTML
from benchmark.tracks.mapping.reports.survival import (
    SURVIVAL_TITLE,
    outcomes,
    summary,
    survival_parts,
)
from benchmark.tracks.mapping.variants.renaming import MetamodelRenaming, Renaming

VALIDATION = Path(__file__).resolve().parents[4] / "validation"


@pytest.fixture(scope="module")
def bundled(tmp_path_factory: pytest.TempPathFactory) -> tuple[list[RunRow], Path]:
    harness = mapping_harness(VALIDATION)
    rows, problems = harness.score_all(["atl"])
    assert problems == []
    out = tmp_path_factory.mktemp("reports")
    harness.write_reports(harness.build_results(rows), out)
    return [RunRow.from_envelope(r) for r in rows], out


def test_the_bundled_memoriser_loses_under_synonym_what_the_structure_alone_keeps(bundled) -> None:
    rows, _ = bundled
    transformations = sorted({r.transformation for r in rows})
    found = [outcomes(t, [r for r in rows if r.transformation == t and r.ok]) for t in transformations]
    survival = {(s.provider, s.variant): s for s in summary(found)}
    memoriser, noisy = survival[("Synthetic-Memoriser", "synonym")], survival[("Synthetic-Noisy", "synonym")]
    # the bundled synonym runs: one per transformation and profile
    assert memoriser.transformations == noisy.transformations == 8
    assert memoriser.correspondences == noisy.correspondences > 0
    # the memoriser is right on every correspondence under the original names, and under synonym loses
    # some and gains none; the noisy profile makes the same kind of mistakes whatever the names, so
    # under synonym it loses some and gains others back: its net loss is less than half the memoriser's
    assert memoriser.right_original == memoriser.correspondences
    assert memoriser.lost > 0 and memoriser.gained == 0
    assert noisy.lost > 0 and noisy.gained > 0
    assert memoriser.lost - memoriser.gained > 2 * (noisy.lost - noisy.gained)
    # name equality finds exactly what it found: a consistent renaming keeps equal names equal
    equality = survival[("NameEquality", "synonym")]
    assert equality.lost == equality.gained == 0
    assert ("Synthetic-Oracle", "synonym") not in survival  # no synonym run of it is bundled


def test_the_section_is_in_index_html_with_a_row_per_correspondence_and_a_column_per_variant(bundled) -> None:
    rows, out = bundled
    page = (out / "index.html").read_text(encoding="utf-8")
    assert f">{SURVIVAL_TITLE}<" in page and 'id="survival-book2publication"' in page
    section = page[page.index('id="survival-book2publication"') :]
    section = section[: section.index("</details>")]
    assert "Synthetic-Memoriser · original" in section and "Synthetic-Memoriser · synonym" in section
    # a correspondence in the original names even under synonym: Book -> Publication, title
    row = re.search(r"<tr><td>Book</td><td>Publication</td><td>title</td>(.*?)</tr>", section)
    assert row is not None
    cells = re.findall(r"<td[^>]*>(\d+/\d+)", row.group(1))
    assert cells and all(re.fullmatch(r"\d+/\d+", unescape(c)) for c in cells)
    book_runs = [
        r for r in rows if r.transformation == "book2publication" and r.provider == "Synthetic-Noisy"
    ]
    original = sum(r.variant == "original" for r in book_runs)
    assert f"/{original}" in row.group(1)


def _row(
    variant: str, detail: dict, classes: tuple[ClassItem, ...], bindings: tuple[BindingItem, ...]
) -> RunRow:
    return RunRow.of(
        "P",
        "m",
        "T",
        f"runs/{variant}/P-run01",
        variant=variant,
        variant_detail=detail,
        class_items=classes,
        binding_items=bindings,
    )


def test_a_variants_answers_are_read_back_into_the_original_names() -> None:
    renaming = Renaming(
        "synonym",
        0,
        MetamodelRenaming("Book", classifiers={"Book": "Tome"}, features={"title": "heading"}),
        MetamodelRenaming("Pub", classifiers={"Publication": "Issue"}, features={"name": "label"}),
    )
    detail = {k: v for k, v in renaming.to_json().items() if k != "name"}
    original = _row(
        "original",
        {},
        (ClassItem("Book", "Publication", "tp"),),
        (BindingItem("Book", "Publication", "name", "exact", ground_truth=("title",)),),
    )
    synonym = _row(
        "synonym",
        detail,
        (ClassItem("Tome", "Issue", "tp"),),
        (BindingItem("Tome", "Issue", "label", "onlyAtl", ground_truth=("heading",)),),
    )
    found = outcomes("T", [original, synonym])
    assert found.correspondences == (("Book", "Publication", ""), ("Book", "Publication", "name"))
    assert found.right[("P", "original")] == {k: [True] for k in found.correspondences}
    assert found.right[("P", "synonym")] == {
        ("Book", "Publication", ""): [True],
        ("Book", "Publication", "name"): [False],
    }
    (kept,) = summary([found])
    assert (kept.right_original, kept.kept, kept.lost, kept.gained) == (2, 1, 1, 0)
    head, tables = survival_parts([original, synonym], ["T"])
    assert "Kept" in head and "P · synonym" in tables and "Tome" not in tables


def test_a_session_of_the_original_task_alone_has_no_such_section(small_results, tmp_path: Path) -> None:
    write_reports(small_results, tmp_path, draws=50)
    assert SURVIVAL_TITLE not in (tmp_path / "index.html").read_text(encoding="utf-8")


def test_at_scale_the_tables_are_on_the_drilldown_page_and_index_html_keeps_the_summary(
    tmp_path: Path,
) -> None:
    results = synthetic_results(transformations=21, providers=("Alpha",), runs=2, seed=5, baseline=False)
    shuffled = tuple(
        replace(
            row,
            envelope=replace(row.envelope, run=f"shuffled/{row.run}"),
            payload=replace(row.payload, variant="shuffled", variant_detail={"seed": 0}),
        )
        for row in results.rows
    )
    write_reports(replace(results, rows=results.rows + shuffled), tmp_path, draws=50)
    index = (tmp_path / "index.html").read_text(encoding="utf-8")
    drill = (tmp_path / DRILLDOWN_HTML).read_text(encoding="utf-8")
    assert SURVIVAL_TITLE in index and "Right under original" in index
    assert 'id="survival-T01_Model12Model"' not in index and f'href="{DRILLDOWN_HTML}#survival"' in index
    assert 'id="survival-T01_Model12Model"' in drill and "Alpha · shuffled" in drill
    # shuffled renames nothing and these runs are the original ones: every correspondence is kept
    (alpha,) = summary(
        [
            outcomes(t, [r for r in (*results.rows, *shuffled) if r.transformation == t])
            for t in sorted({r.transformation for r in results.rows})
        ]  # fmt: skip
    )
    assert alpha.lost == alpha.gained == 0 and alpha.transformations == 21
