"""``atlbench zoo build`` on a Zoo-shaped fixture written for these tests (``data/mini-zoo``, its README
lists what each file is): every verdict, the tree the track then reads, and rebuilding safely."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from benchmark.cli import main
from benchmark.core.errors import BenchmarkError, ConfigurationError
from benchmark.tracks.mapping.discovery import discover
from benchmark.tracks.mapping.ground_truth import (
    consistency_problems,
    load_ground_truth,
    resolve_metamodels,
)
from benchmark.tracks.mapping.zoo import verdicts as v
from benchmark.tracks.mapping.zoo.build import build
from benchmark.tracks.mapping.zoo.manifest import MANIFEST_NAME, read_manifest
from benchmark.tracks.mapping.zoo.plan import PUBLISHED_STUDY, select, task_names

MINI_ZOO = Path(__file__).parent / "data" / "mini-zoo"

EXPECTED = {
    "Alpha/Tools/Convert.atl": (v.INCLUDED, "Convert__Alpha"),
    "Beta/Convert.atl": (v.INCLUDED, "Convert__Beta"),
    "Library2Catalog/Library2Catalog.atl": (v.INCLUDED, "Library2Catalog"),
    "Shop/transformations/Shop2Store.atl": (v.INCLUDED, "Shop2Store"),
    "Mirror/Library2Catalog.atl": (v.DUPLICATE, "same ATL text and metamodel files as Library2Catalog/"),
    "Shop/transformations/Broken.atl": (v.REJECTED, "line 12, column 1: unexpected 'rule'"),
    "Shop/transformations/Lenient.atl": (v.REJECTED, "only leniently: super-as-name at line 8"),
    "Shop/transformations/Count.atl": (v.LIBRARY_OR_QUERY, "query Count"),
    "Shop/transformations/Strings.atl": (v.LIBRARY_OR_QUERY, "library Strings"),
    "Shop/transformations/Merge.atl": (v.SEVERAL_MODELS, "from IN : Shop, OLD : Store"),
    "Shop/transformations/Refine.atl": (v.REFINING, "create OUT : Shop refining IN : Shop"),
    "Shop/transformations/Endo.atl": (v.ENDOGENOUS, "create OUT : Shop from IN : Shop"),
    "Shop/transformations/Twin.atl": (v.ENDOGENOUS, "Shop and ShopCopy are the same metamodel"),
    "Shop/transformations/Lost.atl": (
        v.METAMODEL_NOT_FOUND,
        "no metamodel file for target metamodel 'Warehouse' (passed over as not loadable: "
        "warehouse-sample.ecore), below Shop/",
    ),
    "Shop/transformations/Empty.atl": (v.EMPTY_GROUND_TRUTH, "no class pair (only 1 called rule)"),
    "Shop/transformations/Mismatch.atl": (v.METAMODEL_MISMATCH, "Store.colour (rule Shop2Store)"),
}

TASKS = sorted(name for verdict, name in EXPECTED.values() if verdict == v.INCLUDED)


@pytest.fixture
def zoo(tmp_path: Path) -> Path:
    """A copy of the fixture, free to edit."""
    return Path(shutil.copytree(MINI_ZOO, tmp_path / "zoo"))


@pytest.fixture
def built(zoo: Path, tmp_path: Path) -> Path:
    tree = tmp_path / "tree"
    build(zoo, tree, jobs=1)
    return tree


def _manifest(tree: Path) -> dict:
    return json.loads((tree / MANIFEST_NAME).read_text(encoding="utf-8"))


def test_every_file_gets_its_verdict_and_reason(built: Path) -> None:
    manifest = _manifest(built)
    found = {f["path"]: f for f in manifest["files"]}
    assert set(found) == set(EXPECTED)
    for path, (verdict, detail) in EXPECTED.items():
        assert found[path]["verdict"] == verdict, (path, found[path]["reason"])
        text = found[path]["task"] if verdict == v.INCLUDED else found[path]["reason"]
        assert detail in text, (path, text)
    assert set(v.ORDER) == {f["verdict"] for f in manifest["files"]}  # every verdict is represented
    assert manifest["counts"] == {
        "atl files": 16,
        v.INCLUDED: 4,
        v.REJECTED: 2,
        v.LIBRARY_OR_QUERY: 2,
        v.SEVERAL_MODELS: 1,
        v.REFINING: 1,
        v.ENDOGENOUS: 2,
        v.METAMODEL_NOT_FOUND: 1,
        v.EMPTY_GROUND_TRUTH: 1,
        v.METAMODEL_MISMATCH: 1,
        v.DUPLICATE: 1,
        "tasks written": 4,
    }


def test_an_included_file_records_its_metamodels_and_ground_truth_size(built: Path) -> None:
    entry = next(f for f in _manifest(built)["files"] if f["task"] == "Library2Catalog")
    assert entry["source"]["name"] == "Library" and entry["target"]["name"] == "Catalog"
    assert entry["source"]["path"] == "Library2Catalog/metamodels/LibraryMM.km3"  # by package name
    assert entry["target"]["path"] == "Library2Catalog/metamodels/CatalogModel.ecore"
    assert (entry["class_pairs"], entry["bindings"]) == (1, 2)


def test_the_tree_holds_the_atl_file_and_its_two_metamodels_and_the_track_reads_them(built: Path) -> None:
    discovery = discover(built)
    assert sorted(f.name for f in discovery.transformations) == TASKS
    assert discovery.skipped_folders == () and discovery.ignored_files == ()  # the manifest is no run
    for folder in discovery.transformations:
        assert len(list(folder.path.iterdir())) == 3
        document = load_ground_truth(folder.atl_file)
        metamodels = resolve_metamodels(document, folder.metamodel_files, folder=folder.path)
        assert metamodels.notes == ()
        assert consistency_problems(document, metamodels) == []
        assert document.class_matches
    shop = built / "Shop2Store"
    assert sorted(p.name for p in shop.iterdir()) == ["Shop.km3", "Shop2Store.atl", "Store.ecore"]
    assert (shop / "Shop.km3").read_bytes() == (MINI_ZOO / "Shop/metamodels/Shop.km3").read_bytes()


def test_the_built_tree_scores_end_to_end(built: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["synth", str(built), "--runs", "1", "--profile", "Synthetic-Oracle"]) == 0
    assert main(["validate", str(built), "--track", "atl"]) == 0
    out = capsys.readouterr().out
    assert "12 runs scored (0 unusable) on 4 transformations, 0 excluded (0 missing)" in out  # 2 baselines


def test_a_rebuild_changes_nothing_and_keeps_runs(zoo: Path, built: Path) -> None:
    run = built / "Shop2Store" / "runs" / "Someone-run01.json"
    run.parent.mkdir()
    run.write_text("{}", encoding="utf-8")
    before = (built / MANIFEST_NAME).read_bytes()
    result = build(zoo, built, jobs=1)
    assert sorted(result.tree.unchanged) == sorted(TASKS)
    assert result.tree.created == result.tree.updated == result.tree.removed == []
    assert (built / MANIFEST_NAME).read_bytes() == before
    assert run.read_text(encoding="utf-8") == "{}"


def test_a_changed_zoo_file_updates_its_task(zoo: Path, built: Path) -> None:
    store = zoo / "Alpha" / "Store.ecore"
    text = store.read_text(encoding="utf-8")
    store.write_text(text.replace('name="cost"', 'name="price"'), encoding="utf-8")
    result = build(zoo, built, jobs=1)
    assert result.tree.updated == ["Convert__Alpha"]
    assert (built / "Convert__Alpha" / "Store.ecore").read_bytes() == store.read_bytes()


def test_a_task_no_longer_selected_is_removed_unless_it_holds_runs(zoo: Path, built: Path) -> None:
    (built / "Convert__Beta" / "runs").mkdir()
    (built / "Convert__Beta" / "runs" / "A-run01.json").write_text("{}", encoding="utf-8")
    result = build(zoo, built, only=["Shop2Store", "Library2Catalog/Library2Catalog.atl"], jobs=1)
    assert sorted(result.tree.written) == ["Library2Catalog", "Shop2Store"]
    assert result.tree.removed == ["Convert__Alpha"] and not (built / "Convert__Alpha").exists()
    assert list(result.tree.kept) == ["Convert__Beta"]
    assert "runs/A-run01.json" in result.tree.kept["Convert__Beta"]
    assert (built / "Convert__Beta" / "Convert.atl").is_file()  # left as it was, runs and all
    manifest = read_manifest(built)
    assert manifest is not None and list(manifest.kept) == ["Convert__Beta"]
    # Once its runs are moved away, the next build removes it.
    shutil.rmtree(built / "Convert__Beta" / "runs")
    result = build(zoo, built, only=["Shop2Store"], jobs=1)
    assert sorted(result.tree.removed) == ["Convert__Beta", "Library2Catalog"]
    assert sorted(p.name for p in built.iterdir()) == ["Shop2Store", MANIFEST_NAME]


def test_a_file_the_build_did_not_write_stops_it_before_anything_is_written(zoo: Path, built: Path) -> None:
    stray = built / "Shop2Store" / "runs" / "Other.ecore"
    stray.parent.mkdir()
    stray.write_text("<x/>", encoding="utf-8")
    (zoo / "Alpha" / "Tools" / "Convert.atl").write_text("module Changed;", encoding="utf-8")
    before = (built / MANIFEST_NAME).read_bytes()
    with pytest.raises(ConfigurationError) as raised:
        build(zoo, built, jobs=1)
    assert raised.value.file == str(stray)
    assert "not written by atlbench zoo build" in raised.value.message
    assert (built / MANIFEST_NAME).read_bytes() == before


def test_the_tree_and_the_zoo_cannot_hold_each_other(zoo: Path) -> None:
    with pytest.raises(ConfigurationError, match="cannot be inside the Zoo"):
        build(zoo, zoo / "tree", jobs=1)
    with pytest.raises(ConfigurationError, match="Zoo checkout cannot be inside"):
        build(zoo, zoo.parent, jobs=1)


def test_a_foreign_manifest_is_not_taken_for_ours(zoo: Path, tmp_path: Path) -> None:
    tree = tmp_path / "tree"
    tree.mkdir()
    (tree / MANIFEST_NAME).write_text('{"something": "else"}', encoding="utf-8")
    with pytest.raises(BenchmarkError, match="not a manifest written by atlbench zoo build"):
        build(zoo, tree, jobs=1)


def test_only_names_tasks_and_says_why_a_file_is_none(zoo: Path, tmp_path: Path) -> None:
    with pytest.raises(ConfigurationError) as raised:
        build(zoo, tmp_path / "tree", only=["Shop/transformations/Endo.atl", "Nowhere"], jobs=1)
    message = raised.value.message
    assert "'Shop/transformations/Endo.atl' is not a task: endogenous" in message
    assert "'Nowhere' is neither a task name nor the path of an .atl file" in message
    assert not (tmp_path / "tree" / MANIFEST_NAME).exists()


def test_names_of_files_sharing_a_stem_take_the_fewest_folders_that_tell_them_apart() -> None:
    names = task_names(
        [
            "A/with_context/X.atl",
            "A/without_context/X.atl",
            "B/Y.atl",
            "C/Y.atl",
            "UML2MOF 2/Transfos/Z.atl",
            "Z.atl",
            "D/z.atl",
        ]
    )
    assert names == {
        "A/with_context/X.atl": "X__A__with_context",
        "A/without_context/X.atl": "X__A__without_context",
        "B/Y.atl": "Y__B",
        "C/Y.atl": "Y__C",
        "UML2MOF 2/Transfos/Z.atl": "Z__UML2MOF_2",
        "Z.atl": "Z",  # a file in the Zoo's root has no folder to add
        "D/z.atl": "z__D",
    }


def test_the_published_study_is_eight_names() -> None:
    assert len(PUBLISHED_STUDY) == 8
    assert select([], []) == []


def test_the_command_prints_every_file_and_the_counts(
    zoo: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["zoo", "build", str(zoo), "--into", str(tmp_path / "tree"), "-j", "1"]) == 0
    captured = capsys.readouterr()
    for path, (verdict, _detail) in EXPECTED.items():
        assert any(path in line and verdict in line for line in captured.out.splitlines()), path
    assert "4 task folders (4 created, 0 updated, 0 unchanged), 0 removed, 0 kept" in captured.out
    assert "surveyed 16/16 .atl files" in captured.err
    assert main(["zoo", "build", str(zoo), "--into", str(tmp_path / "tree"), "-q"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("16 .atl files: 4 included, 2 rejected-by-parser")
    assert "0 created, 0 updated, 4 unchanged" in out


def test_the_command_reports_a_bad_zoo_directory(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["zoo", "build", str(tmp_path / "none"), "--into", str(tmp_path / "tree")]) == 2
    assert "the Zoo checkout is not a directory" in capsys.readouterr().err
    (tmp_path / "empty").mkdir()
    assert main(["zoo", "build", str(tmp_path / "empty"), "--into", str(tmp_path / "tree")]) == 2
    assert "no .atl file below this directory" in capsys.readouterr().err


def test_surveying_on_several_processes_gives_what_one_process_gives(zoo: Path) -> None:
    from benchmark.tracks.mapping.zoo.survey import survey

    assert survey(zoo, jobs=2) == survey(zoo, jobs=1)  # forked where it can be (not in an xdist worker)
