"""``atlbench diff`` / ``atlbench validate`` and the folder discovery behind them.

The ATL extractor and the metamodel readers belong to other modules; here they are replaced by stand-ins
(an extractor that returns a hand-written interchange document, a loader that returns hand-built views),
so these tests pin down only what this module decides: discovery, metamodel roles, scoring and output.
"""

from __future__ import annotations

import json
import shutil
import sys
import types
from pathlib import Path

import pytest

import benchmark.lang.ecore
from benchmark.cli import main
from benchmark.tracks.mapping import interchange
from benchmark.tracks.mapping.discovery import CorpusError, discover
from benchmark.tracks.mapping.ground_truth import (
    MetamodelResolver,
    load_ground_truth,
    merge_views,
    resolve_metamodels,
)
from benchmark.tracks.mapping.interchange import ModelDecl, TransformationInfo
from benchmark.tracks.mapping.scoring.suggestions import extract_json_array


@pytest.fixture
def stand_ins(monkeypatch, data_dir, library, catalog):
    """Route ``.atl`` extraction and metamodel loading to the worked example."""
    calls: list[str] = []

    def extract_file(path):
        calls.append(Path(path).name)
        return interchange.load(data_dir / "library2catalog.interchange.json")

    def load_metamodel(path):
        calls.append(Path(path).name)
        stem = Path(path).stem.lower()
        view = {"library": library, "catalog": catalog}.get(stem)
        if view is None:  # any other file: a metamodel whose main package is "Catalog"
            return catalog
        return view

    module = types.ModuleType("benchmark.tracks.mapping.extractor")
    module.extract_file = extract_file
    monkeypatch.setitem(sys.modules, "benchmark.tracks.mapping.extractor", module)
    monkeypatch.setattr(benchmark.lang.ecore, "load_metamodel", load_metamodel, raising=False)
    return calls


@pytest.fixture
def tree(tmp_path, data_dir):
    root = tmp_path / "validation"
    folder = root / "Library2Catalog"
    (folder / "runs" / ".log").mkdir(parents=True)
    (folder / "Library2Catalog.atl").write_text("-- stand-in\n")
    (folder / "Library.ecore").write_text("<stand-in/>")
    (folder / "Catalog.km3").write_text("-- stand-in")
    shutil.copy(data_dir / "llm-export.json", folder / "runs" / "llm-export.json")
    shutil.copy(data_dir / "baseline.json", folder / "baseline.json")
    answer = extract_json_array((data_dir / "llm-answer.md").read_text())
    (folder / "runs" / "raw-answer.json").write_text(json.dumps(answer))
    (folder / "runs" / "broken.json").write_text(
        '{"jjodel": {"exportType": "suggested-mappings"}, "mappings": []}'
    )
    (folder / "runs" / ".log" / "cached.json").write_text("[]")
    (root / "stray-run.json").write_text("[]")
    (root / "README.md").write_text("not an input")
    (root / "ocl-track").mkdir()
    (root / "ocl-track" / "model.json").write_text("{}")
    (root / "two-atl").mkdir()
    (root / "two-atl" / "a.atl").write_text("")
    (root / "two-atl" / "b.atl").write_text("")
    return root


# ----------------------------------------------------------------------------------------- corpus


def test_discovery_finds_folders_runs_and_reports_what_it_skips(tree):
    found = discover(tree)
    (folder,) = found.transformations
    assert folder.name == "Library2Catalog"
    assert [p.name for p in folder.metamodel_files] == ["Catalog.km3", "Library.ecore"]
    assert [folder.run_id(p) for p in folder.suggestion_files] == [
        "baseline",
        "runs/broken",
        "runs/llm-export",
        "runs/raw-answer",
    ]
    assert [(s.path.name, s.reason) for s in found.skipped_folders] == [
        ("ocl-track", "no .atl file"),
        ("two-atl", "2 .atl files (a.atl, b.atl); expected one"),
    ]
    assert [(s.path.name, s.reason) for s in found.ignored_files] == [
        ("cached.json", "inside a hidden directory"),
        ("stray-run.json", "not inside a transformation folder"),
    ]


def test_root_holding_one_atl_is_itself_the_transformation(tree):
    found = discover(tree / "Library2Catalog")
    assert [t.name for t in found.transformations] == ["Library2Catalog"]


def test_missing_root_is_an_error(tmp_path):
    with pytest.raises(CorpusError, match="not a directory"):
        discover(tmp_path / "nope")


def test_metamodel_roles_come_from_the_module_header(ground_truth, stand_ins, tmp_path):
    files = [tmp_path / "Library.ecore", tmp_path / "Catalog.km3"]
    found = resolve_metamodels(ground_truth, files)
    assert (found.source.name, found.target.name) == ("Library", "Catalog")
    assert (found.source_files, found.target_files) == ((files[0],), (files[1],))
    assert found.notes == ()


def test_ecore_wins_over_its_km3_twin_and_case_is_forgiven(stand_ins, tmp_path):
    files = [tmp_path / "library.km3", tmp_path / "library.ecore"]
    assert MetamodelResolver(files).find("Library") == tmp_path / "library.ecore"


def test_file_found_by_main_package_name(stand_ins, tmp_path):
    files = [tmp_path / "Library.ecore", tmp_path / "cat-v2.ecore"]
    assert MetamodelResolver(files).find("Catalog") == tmp_path / "cat-v2.ecore"


def test_ambiguous_metamodel_fails_with_a_clear_message(stand_ins, tmp_path):
    files = [tmp_path / "a" / "Catalog.ecore", tmp_path / "b" / "Catalog.ecore"]
    with pytest.raises(
        CorpusError, match="metamodel 'Catalog' is ambiguous: several files match by file name"
    ):
        MetamodelResolver(files, folder=tmp_path).find("Catalog")
    by_package = [tmp_path / "x.ecore", tmp_path / "y.ecore"]  # both have main package "Catalog"
    with pytest.raises(CorpusError, match="by main package"):
        MetamodelResolver(by_package).find("Catalog")


def test_missing_metamodel_is_a_note_not_a_failure(ground_truth, stand_ins, tmp_path):
    found = resolve_metamodels(ground_truth, [tmp_path / "Library.ecore"])
    assert found.source is not None and found.target is None
    assert found.notes == ("no metamodel file for target metamodel 'Catalog'",)


def test_several_input_metamodels_are_merged(ground_truth, library, catalog, tmp_path, stand_ins):
    info = TransformationInfo(
        "T", "T.atl", in_models=(ModelDecl("IN", "Library"), ModelDecl("IN2", "Catalog"))
    )
    document = interchange.InterchangeDocument(info, ground_truth.class_matches)
    found = resolve_metamodels(document, [tmp_path / "Library.ecore", tmp_path / "Catalog.ecore"])
    assert found.source.has_class("Book") and found.source.has_class("Person")
    assert merge_views([library]) is library


def test_load_ground_truth_reads_json_and_reports_missing_files(data_dir, tmp_path):
    assert (
        load_ground_truth(data_dir / "library2catalog.interchange.json").transformation.name
        == "Library2Catalog"
    )
    with pytest.raises(CorpusError, match="cannot read ground truth"):
        load_ground_truth(tmp_path / "absent.json")


# -------------------------------------------------------------------------------------------- diff


def test_diff_prints_the_report(capsys, data_dir):
    code = main(
        [
            "diff",
            "--atl",
            str(data_dir / "library2catalog.interchange.json"),
            "--llm",
            str(data_dir / "llm-export.json"),
        ]
    )
    assert code == 0
    report = json.loads(capsys.readouterr().out)
    assert report["summary"]["class"] == {
        "tp": 2,
        "fp": 1,
        "fn": 1,
        "precision": 2 / 3,
        "recall": 2 / 3,
        "f1": 2 / 3,
        "accuracy": 0.5,
    }
    binding = report["summary"]["binding"]
    assert [
        binding[k] for k in ("exact", "partial", "divergent", "targetOnly", "onlyGenerated", "onlyAtl")
    ] == [
        3,
        2,
        1,
        1,
        1,
        2,
    ]
    assert (binding["tp"], binding["fp"], binding["fn"]) == (4, 3, 4)
    assert report["summary"]["overall"]["precision"] == 0.6
    assert report["duplicates"] == 1 and len(report["invalid"]) == 2
    assert len(report["classes"]) == 4 and len(report["bindings"]) == 10
    assert "threeWay" not in report


def test_diff_with_baseline_weight_confidence_and_output(tmp_path, capsys, data_dir):
    out = tmp_path / "out.json"
    code = main(
        [
            "diff",
            "--atl",
            str(data_dir / "library2catalog.interchange.json"),
            "--llm",
            str(data_dir / "llm-answer.md"),
            "--baseline",
            str(data_dir / "baseline.json"),
            "--partial-weight",
            "1",
            "--confidence",
            "high,med",
            "-o",
            str(out),
        ]
    )
    assert code == 0
    printed = capsys.readouterr().out
    assert "binding" in printed and f"wrote {out}" in printed
    report = json.loads(out.read_text())
    assert report["input"]["confidence"] == "high,medium"
    # high+medium slice: exact 3, partial 2, onlyGenerated 1, onlyAtl 4; at w = 1: TP 5, FP 1, FN 4
    binding = report["summary"]["binding"]
    assert (binding["tp"], binding["fp"], binding["fn"]) == (5, 1, 4)
    assert report["threeWay"]["residualRecall"]["binding"]["recall"] == 1.0  # w = 1: partials count fully


def test_diff_from_atl_with_metamodels(stand_ins, tmp_path, capsys, data_dir):
    atl = tmp_path / "Library2Catalog.atl"
    atl.write_text("-- stand-in\n")
    code = main(
        [
            "diff",
            "--atl",
            str(atl),
            "--llm",
            str(data_dir / "llm-export.json"),
            "--metamodels",
            str(tmp_path / "Library.ecore"),
            str(tmp_path / "Catalog.ecore"),
        ]
    )
    assert code == 0
    report = json.loads(capsys.readouterr().out)
    assert report["hallucinations"] == {
        "classes": ["Journal"],
        "features": ["Book.publisher", "Publication.publisher"],
    }
    assert report["byKind"]["reference"]["exact"] == 1
    assert stand_ins == ["Library2Catalog.atl", "Library.ecore", "Catalog.ecore"]


def test_diff_bad_suggestion_file_names_file_and_path(tmp_path, capsys, data_dir):
    bad = tmp_path / "bad.json"
    document = json.loads((data_dir / "llm-export.json").read_text())
    document["mappings"][2]["source"] = "Book"
    bad.write_text(json.dumps(document))
    code = main(["diff", "--atl", str(data_dir / "library2catalog.interchange.json"), "--llm", str(bad)])
    assert code == 2
    assert capsys.readouterr().err.startswith(
        f"{bad}: error: $.mappings[2].source: 'Book' is not of type 'object'"
    )


@pytest.mark.parametrize(
    ("option", "value", "message"),
    [
        ("--confidence", "sure", "unknown confidence label"),
        ("--partial-weight", "2", "--partial-weight: must be a number in [0, 1], got 2"),
    ],
)
def test_diff_bad_options_exit_2(capsys, data_dir, option, value, message):
    code = main(
        [
            "diff",
            "--atl",
            str(data_dir / "library2catalog.interchange.json"),
            "--llm",
            str(data_dir / "llm-export.json"),
            option,
            value,
        ]
    )
    assert code == 2
    assert message in capsys.readouterr().err
