"""Runs of task variants through the track (``docs/VARIANTS.md``): their case ids and baselines, their
scoring against the recorded renaming, a broken variant block, ``atlbench variant export`` and the way
back with ``atlbench import --variant-file``."""

from __future__ import annotations

import json
import shutil
from dataclasses import replace
from pathlib import Path

import pytest
from validate_session import mapping_harness, score_tree

from benchmark.cli import main
from benchmark.core.fileio import dumps_json
from benchmark.lang.ecore import load_metamodel
from benchmark.tracks.mapping import interchange
from benchmark.tracks.mapping.discovery import discover
from benchmark.tracks.mapping.ground_truth import load_ground_truth, resolve_metamodels
from benchmark.tracks.mapping.llm_task import case_prompt, load_cases
from benchmark.tracks.mapping.prompt import mapping_template
from benchmark.tracks.mapping.synth import PROFILES, synthesize
from benchmark.tracks.mapping.variants.apply import rename_document, renamed_views
from benchmark.tracks.mapping.variants.rules import draw_renaming

VALIDATION = Path(__file__).resolve().parents[4] / "validation"


@pytest.fixture
def book(tmp_path: Path) -> Path:
    """book2publication alone, without its runs."""
    root = tmp_path / "validation"
    shutil.copytree(
        VALIDATION / "book2publication", root / "book2publication", ignore=shutil.ignore_patterns("runs")
    )
    return root


def views(root: Path):
    folder = discover(root).transformations[0]
    document = load_ground_truth(folder.atl_file)
    metamodels = resolve_metamodels(document, folder.metamodel_files, folder=folder.path)
    return document, metamodels.source, metamodels.target


def oracle_run(root: Path, variant: str, seed: int = 0, *, record: bool = True) -> dict:
    document, source, target = views(root)
    renaming = draw_renaming(variant, source, target, seed)
    export = synthesize(
        document,
        noise=PROFILES["Synthetic-Oracle"],
        seed="t",
        source_view=source,
        target_view=target,
        renaming=renaming,
    )
    if not record:
        del export["variant"]
    return export


def write(path: Path, data: dict) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(dumps_json(data), encoding="utf-8")
    return path


def test_case_ids_carry_the_variant_and_the_baselines_run_on_each_variant_with_metamodels(book: Path) -> None:
    runs = book / "book2publication" / "runs"
    write(runs / "Synthetic-Oracle-run01.json", oracle_run(book, "original") | {})
    for variant in ("synonym", "name-only"):
        write(runs / variant / "Synthetic-Oracle-run01.json", oracle_run(book, variant))
    collection = mapping_harness(book, atl_baselines="all").track("atl").collect()
    ids = {case.case_id: case for case in collection.runs}
    assert set(ids) == {
        "book2publication-Synthetic-Oracle-run01",
        "book2publication-synonym-Synthetic-Oracle-run01",
        "book2publication-name-only-Synthetic-Oracle-run01",
        "book2publication-EMFCompare",
        "book2publication-NameEquality",
        "book2publication-synonym-EMFCompare",
        "book2publication-synonym-NameEquality",
    }  # no name-only baseline: a baseline reads metamodels, and name-only shows none
    assert ids["book2publication-synonym-EMFCompare"].run == "synonym/EMFCompare"
    assert ids["book2publication-EMFCompare"].run == "EMFCompare"


def test_a_variant_run_scores_as_its_original_and_the_baselines_on_the_renamed_metamodels(book: Path) -> None:
    runs = book / "book2publication" / "runs"
    write(runs / "Synthetic-Oracle-run01.json", oracle_run(book, "original"))
    for variant in ("synonym", "opaque", "shuffled"):
        write(runs / variant / "Synthetic-Oracle-run01.json", oracle_run(book, variant))
    rows = score_tree(book, atl_baselines="all")
    by = {(r.provider, r.variant): r for r in rows}
    assert all(r.ok for r in rows), [r.error for r in rows if not r.ok]
    original = by[("Synthetic-Oracle", "original")]
    for variant in ("synonym", "opaque", "shuffled"):
        row = by[("Synthetic-Oracle", variant)]
        assert (row.classes, row.bindings, row.hallucinated_features) == (
            original.classes,
            original.bindings,
            original.hallucinated_features,
        )
        assert row.payload.variant_detail["seed"] == 0
    # names alone: NameEquality is the same on synonym (both metamodels renamed alike) and finds nothing on
    # opaque (every name an id of its own metamodel)
    assert by[("NameEquality", "synonym")].bindings == by[("NameEquality", "original")].bindings
    assert by[("NameEquality", "opaque")].classes.tp == 0 and by[("NameEquality", "opaque")].suggestions == 0
    assert by[("EMFCompare", "shuffled")].run == "shuffled/EMFCompare"


def test_a_variant_block_that_does_not_fit_the_metamodels_is_an_error_row_naming_file_and_field(
    book: Path,
) -> None:
    runs = book / "book2publication" / "runs"
    broken = oracle_run(book, "synonym")
    broken["variant"]["source"]["classifiers"]["Leaflet"] = "Pamphlet"
    del broken["variant"]["source"]["features"]["isbn"]
    path = write(runs / "synonym" / "Synthetic-Oracle-run01.json", broken)
    unknown = oracle_run(book, "synonym") | {"variant": {"name": "synonim", "seed": 0}}
    misspelt = write(runs / "Synthetic-Oracle-run02.json", unknown)
    rows = {r.file: r for r in score_tree(book)}
    row = rows[str(path)]
    assert not row.ok and row.variant == "synonym"
    assert str(path) in row.error and "$.variant" in row.error
    assert "'Leaflet' is renamed but Book defines no such name" in row.error
    assert "source attribute 'isbn' is neither renamed nor kept" in row.error
    other = rows[str(misspelt)]
    assert not other.ok and other.variant == "original" and "$.variant.name" in other.error


def test_export_writes_what_the_variant_shows_and_import_files_an_answer_back(
    book: Path, tmp_path: Path
) -> None:
    out = tmp_path / "out"
    assert main(["variant", "export", str(book), "--out", str(out), "--variant", "synonym,name-only"]) == 0
    document, source, target = views(book)
    renaming = draw_renaming("synonym", source, target, 0)
    assert renaming is not None and renaming.source is not None and renaming.target is not None
    folder = out / "book2publication" / "synonym"
    renamed_source, renamed_target = renamed_views(renaming, source, target)
    assert renamed_source is not None and renamed_target is not None
    for view in (renamed_source, renamed_target):
        for suffix in (".ecore", ".km3"):
            loaded = load_metamodel(folder / f"{view.name}{suffix}")
            assert [c.name for c in loaded.classes] == [c.name for c in view.classes]
        assert replace(load_metamodel(folder / f"{view.name}.ecore"), file=view.file) == view
    saved = interchange.load(folder / "ground-truth.json")
    expected = rename_document(document, renaming)
    assert saved.to_json()["classMatches"] == expected.to_json()["classMatches"]
    assert saved.transformation.file == "Book2Publication.atl"  # no path of this machine
    assert json.loads((folder / "variant.json").read_text()) == renaming.to_json()
    [case] = load_cases(book, variants=("synonym",))
    assert (folder / "prompt.md").read_text() == case_prompt(case, mapping_template())
    assert sorted(p.name for p in (out / "book2publication" / "name-only").iterdir()) == [
        "ground-truth.json",
        "prompt.md",
        "variant.json",
    ]

    # an answer obtained by hand, without the variant block, filed back as a run of the variant
    answer = write(tmp_path / "by-hand.json", oracle_run(book, "synonym", record=False) | {})
    answer_data = json.loads(answer.read_text())
    answer_data["analysis"] = {"provider": "ByHand", "model": "chat", "modelLabel": "chat"}
    write(answer, answer_data)
    command = ["import", str(answer), "--into", str(book), "--transformation", "book2publication"]
    assert main([*command, "--variant-file", str(folder / "variant.json")]) == 0
    filed = book / "book2publication" / "runs" / "synonym" / "ByHand-chat-run01.json"
    assert json.loads(filed.read_text())["variant"] == renaming.to_json()
    [row] = [r for r in score_tree(book) if r.provider == "ByHand"]
    assert row.ok and row.variant == "synonym" and row.classes.fn == 0 and not row.hallucinated_classes
    # a renaming drawn for other metamodels does not fit this transformation: refused, nothing filed
    other = write(
        tmp_path / "other.json",
        {
            "name": "synonym",
            "seed": 0,
            "source": {"metamodel": "X", "classifiers": {"Nope": "Nada"}},
            "target": {"metamodel": "Y"},
        },
    )
    assert main([*command, "--variant-file", str(other)]) == 2
    assert sorted(p.name for p in filed.parent.glob("*.json")) == ["ByHand-chat-run01.json"]


def test_diff_scores_a_variant_run_against_the_ground_truth_renamed_as_it_records(
    book: Path, tmp_path: Path
) -> None:
    folder = book / "book2publication"
    metamodels = ["--metamodels", str(folder / "Book.ecore"), str(folder / "Publication.ecore")]
    reports = {}
    for variant in ("original", "synonym", "opaque"):
        run = write(tmp_path / f"{variant}.json", oracle_run(book, variant))
        out = tmp_path / f"{variant}-report.json"
        command = ["diff", "--atl", str(folder / "Book2Publication.atl"), "--llm", str(run), *metamodels]
        assert main([*command, "-o", str(out)]) == 0
        reports[variant] = json.loads(out.read_text())
    for variant in ("synonym", "opaque"):
        assert reports[variant]["summary"] == reports["original"]["summary"]
        assert reports[variant]["hallucinations"] == {"classes": [], "features": []}
