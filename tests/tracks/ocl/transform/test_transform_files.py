"""``atlbench ocl transform`` end to end, and the dataset walker's layouts.

The fixture ``tests/lang/ocl/data/transform`` mixes the two layouts the walker reads: ``library`` is flat
(``library.use``, ``library.puml``, ``library.ocl``, states under ``states/library/``), ``shop`` has a
folder of its own with its states listed in ``states.json``; one ``specification.json`` covers both.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from benchmark.cli import main
from benchmark.core.errors import ConfigurationError, InputFormatError
from benchmark.lang.ocl.engine import OclEngine
from benchmark.lang.ocl.model import Model, models_equal
from benchmark.lang.ocl.puml_io import read_puml
from benchmark.lang.ocl.use_io import read_use
from benchmark.tracks.ocl.transform.dataset import discover, load_dataset, transform_dataset

FIXTURE = Path(__file__).resolve().parents[3] / "lang" / "ocl" / "data" / "transform"


def _tree(root: Path) -> dict[str, bytes]:
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


def test_the_walker_finds_both_layouts() -> None:
    dataset = discover(FIXTURE)
    found = {
        str(m.use.relative_to(FIXTURE)): (
            str(m.puml.relative_to(FIXTURE)) if m.puml else None,
            [str(p.relative_to(FIXTURE)) for p, _ in m.constraints],
            [str(p.relative_to(FIXTURE)) for p, _ in m.states],
        )
        for m in dataset.models
    }
    assert found == {
        "library.use": (
            "library.puml",
            ["library.ocl"],
            ["states/library/invalid.soil", "states/library/undefined.soil", "states/library/valid.soil"],
        ),
        "shop/shop.use": ("shop/shop.puml", [], ["shop/states/happy.soil", "shop/states/broken.soil"]),
    }
    assert [p.name for p in dataset.specifications] == ["specification.json"]


def test_a_dataset_transformation_mirrors_the_layout(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "out"
    assert main(["ocl", "transform", "--mode", "full", "--dataset", str(FIXTURE), "--out", str(out)]) == 0
    printed = capsys.readouterr().out
    assert "Library: " in printed and "wrote 2 model(s)" in printed
    inputs = set(_tree(FIXTURE)) - {"specification.json"}
    assert set(_tree(out)) == inputs | {"transformed_specification.json", "mapping.json"}
    assert (out / "states.json").read_bytes() == (FIXTURE / "states.json").read_bytes()
    mapping = json.loads((out / "mapping.json").read_text())
    assert mapping["mode"] == "full" and set(mapping["models"]) == {"Library", "Shop"}
    spec = json.loads((out / "transformed_specification.json").read_text())
    original = json.loads((FIXTURE / "specification.json").read_text())
    assert {m: list(e) for m, e in spec.items()} == {m: list(e) for m, e in original.items()}
    assert spec["Library"]["keywordsKnown"]["source"] == "written for the tests"
    # the PlantUML view is the transformed model without constraints, as the input's had none
    for puml in out.rglob("*.puml"):
        model = read_use(puml.with_suffix(".use"))
        view = read_puml(puml)
        assert view.invariants == [] and model.invariants
        assert models_equal(view, Model(model.name, model.enumerations, model.classes, model.associations))
    # a transformed dataset is a dataset again
    assert [loaded.files.use.name for loaded, _ in load_dataset(out).models] == ["library.use", "shop.use"]


def test_the_same_seed_writes_the_same_bytes(tmp_path: Path) -> None:
    transform_dataset(FIXTURE, "full", 5, tmp_path / "a")
    transform_dataset(FIXTURE, "full", 5, tmp_path / "b")
    transform_dataset(FIXTURE, "full", 6, tmp_path / "c")
    assert _tree(tmp_path / "a") == _tree(tmp_path / "b")
    assert _tree(tmp_path / "a") != _tree(tmp_path / "c")


def test_one_model_on_the_command_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "out"
    states = sorted((FIXTURE / "states" / "library").glob("*.soil"))
    argv = ["ocl", "transform", "--mode", "rename", str(FIXTURE / "library.use"), "--seed", "3"]
    argv += ["--constraints", str(FIXTURE / "library.ocl"), "--spec", str(FIXTURE / "specification.json")]
    argv += ["--states", *map(str, states), "--out", str(out)]
    assert main(argv) == 0
    assert "Library: " in capsys.readouterr().out
    assert sorted(_tree(out)) == sorted(
        [
            "library.use",
            "library.puml",
            "library.ocl",
            "invalid.soil",
            "undefined.soil",
            "valid.soil",
            "transformed_specification.json",
            "mapping.json",
        ]
    )
    spec = json.loads((out / "transformed_specification.json").read_text())
    assert list(spec) == ["Library"] and len(spec["Library"]) == 17
    mapping = json.loads((out / "mapping.json").read_text())
    assert mapping["model"] == "Library" and mapping["seed"] == 3 and mapping["steps"] == ["rename"]
    engine = OclEngine.from_file(out / "library.use")
    engine.add_constraints_file(out / "library.ocl")
    assert engine.check(engine.load_state(out / "valid.soil")).ok


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--mode", "rename", "--out", "o"], "give either a MODEL.use or --dataset DIR"),
        (
            ["--mode", "rename", "m.use", "--dataset", "d", "--out", "o"],
            "give either a MODEL.use or --dataset DIR",
        ),
        (["--mode", "rename", "missing.use", "--out", "o"], "missing.use: error: no such model file"),
    ],
)
def test_command_line_errors(
    argv: list[str],
    message: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.chdir(tmp_path)
    assert main(["ocl", "transform", *argv]) == 2
    assert message in capsys.readouterr().err


def test_an_unknown_mode_is_refused_by_the_parser(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_:
        main(["ocl", "transform", "--mode", "shuffle", "m.use", "--out", "o"])
    assert exit_.value.code == 2
    assert "invalid choice: 'shuffle'" in capsys.readouterr().err


def test_the_output_may_not_lie_inside_the_dataset(tmp_path: Path) -> None:
    data = tmp_path / "data"
    shutil.copytree(FIXTURE, data)
    with pytest.raises(ConfigurationError, match="outside the dataset"):
        transform_dataset(data, "rename", 0, data / "out")


def test_two_inputs_with_one_output_name_are_refused(tmp_path: Path) -> None:
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    for folder in ("a", "b"):
        shutil.copy(FIXTURE / "states" / "library" / "valid.soil", tmp_path / folder / "valid.soil")
    argv = [
        "ocl",
        "transform",
        "--mode",
        "rename",
        str(FIXTURE / "library.use"),
        "--out",
        str(tmp_path / "o"),
    ]
    argv += ["--states", str(tmp_path / "a" / "valid.soil"), str(tmp_path / "b" / "valid.soil")]
    assert main(argv) == 2


# ------------------------------------------------------------------------------------------ layouts
MODEL = (
    "model Tiny\nclass A\nattributes\n  n : Integer\nend\nconstraints\ncontext A inv positive: self.n > 0\n"
)


def _write(root: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text, encoding="utf-8")
    return root


def _states(root: Path) -> dict[str, list[str]]:
    return {m.use.name: [str(p.relative_to(root)) for p, _ in m.states] for m in discover(root).models}


def test_states_named_after_their_model_in_the_flat_layout(tmp_path: Path) -> None:
    root = _write(
        tmp_path,
        {"tiny.use": MODEL, "tiny_ok.soil": "!new A('a')\n", "tiny-2.soil": "", "states/tiny/x.soil": ""},
    )
    assert _states(root) == {"tiny.use": ["states/tiny/x.soil", "tiny-2.soil", "tiny_ok.soil"]}


def test_states_json_keyed_by_model(tmp_path: Path) -> None:
    root = _write(
        tmp_path,
        {
            "tiny.use": MODEL,
            "s/one.soil": "",
            "s/two.soil": "",
            "states.json": json.dumps(
                {"Tiny": {"valid": ["s/one.soil"], "invalid": {"s/two.soil": ["positive"]}}}
            ),
        },
    )
    assert _states(root) == {"tiny.use": ["s/one.soil", "s/two.soil"]}


def test_states_json_in_a_model_folder_lists_that_models_states(tmp_path: Path) -> None:
    """The layout of validation/ocl: ``<model>/states.json`` keyed by state file, naming no model."""
    root = _write(
        tmp_path,
        {
            "tiny/tiny.use": MODEL,
            "tiny/states/s02.soil": "",
            "tiny/states/s01.soil": "",
            "tiny/states.json": json.dumps({"states/s02.soil": {"positive": True}, "states/s01.soil": {}}),
            "other/other.use": MODEL.replace("Tiny", "Other"),
            "other/o.soil": "",
        },
    )
    assert _states(root) == {
        "tiny.use": ["tiny/states/s02.soil", "tiny/states/s01.soil"],
        "other.use": ["other/o.soil"],
    }


def test_a_state_of_no_model_is_an_error(tmp_path: Path) -> None:
    root = _write(tmp_path, {"tiny.use": MODEL, "other.soil": ""})
    with pytest.raises(ConfigurationError, match="1 state file belongs to no model"):
        discover(root)


def test_states_json_naming_a_missing_file_is_an_error(tmp_path: Path) -> None:
    root = _write(
        tmp_path, {"tiny.use": MODEL, "states.json": json.dumps([{"model": "Tiny", "file": "no.soil"}])}
    )
    with pytest.raises(InputFormatError, match="lists state `no.soil', which does not exist"):
        discover(root)


def test_a_specification_of_a_missing_model_is_an_error(tmp_path: Path) -> None:
    root = _write(
        tmp_path,
        {"tiny.use": MODEL, "specification.json": json.dumps({"Tiny": {}, "Huge": {"x": {"text": "t"}}})},
    )
    with pytest.raises(InputFormatError) as caught:
        load_dataset(root)
    assert caught.value.field == "$.Huge"


def test_a_one_model_specification_in_a_model_folder(tmp_path: Path) -> None:
    root = _write(
        tmp_path / "data",
        {
            "tiny/tiny.use": MODEL,
            "tiny/specification.json": json.dumps(
                {"positive": {"text": "An A has a positive n.", "ocl": "self.n > 0"}}
            ),
            "tiny/ok.soil": "!new A('a')\n!a.n := 1\n",
            "other/other.use": MODEL.replace("Tiny", "Other"),
        },
    )
    transform_dataset(root, "rename", 0, tmp_path / "out")
    spec = json.loads((tmp_path / "out" / "tiny" / "transformed_specification.json").read_text())
    assert list(spec) == ["positive"] and spec["positive"]["ocl"] != "self.n > 0"
    assert (tmp_path / "out" / "tiny" / "ok.soil").is_file() and (
        tmp_path / "out" / "other" / "other.use"
    ).is_file()


def test_no_model_is_an_error(tmp_path: Path) -> None:
    with pytest.raises(ConfigurationError, match="no .use model"):
        discover(tmp_path)


def test_the_association_class_form_on_the_command_line(tmp_path: Path) -> None:
    out = tmp_path / "out"
    argv = ["ocl", "transform", "--mode", "association", "--dataset", str(FIXTURE), "--out", str(out)]
    assert main([*argv, "--association-as", "association-class"]) == 0
    mapping = json.loads((out / "mapping.json").read_text())
    assert mapping["association_form"] == "association_class"
    reified = [r for m in mapping["models"].values() for r in m["reified_associations"]]
    assert reified and all(r["associations"] == [r["class"]] for r in reified)
    written = "".join(p.read_text() for p in out.rglob("*.use"))
    assert all(f"associationclass {r['class']} between" in written for r in reified)
    soil = next(out.rglob("*.soil")).read_text()
    assert "--association-as association-class" in soil.splitlines()[0]
