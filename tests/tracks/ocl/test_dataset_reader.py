"""The dataset reader (benchmark.tracks.ocl.dataset) on a tiny dataset written here: what it reads, and the
error, naming file and field, for each way the files can fail to refer to each other."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from benchmark.tracks.ocl.dataset import DatasetError, load_dataset

USE = """\
model Shop
class Item
attributes
  price : Integer
end
class Part < Item
end
associationclass Line between
  Item[*] role items
  Item[*] role parts
end
constraints
context Item inv pricePositive: self.price > 0
"""

PUML = """\
@startuml Shop
class Item {
  price : Integer
}
class Part
Item <|-- Part
Item "items *" -- "parts *" Item : Line
(Item, Item) .. Line
@enduml
"""

SPEC = {
    "shop": {
        "pricePositive": {
            "text": "Every `Item` has a positive `price`.",
            "ocl": "context Item inv pricePositive: self.price > 0",
            "covers": ["comparison"],
        }
    }
}


def write(root: Path, spec: object = SPEC, verdicts: object = None) -> Path:
    folder = root / "shop"
    (folder / "states").mkdir(parents=True, exist_ok=True)
    (folder / "shop.use").write_text(USE, encoding="utf-8")
    (folder / "shop.puml").write_text(PUML, encoding="utf-8")
    (folder / "states" / "ok.soil").write_text("!new Item('i')\n!i.price := 3\n", encoding="utf-8")
    (folder / "states" / "free.soil").write_text("!new Item('i')\n!i.price := 0\n", encoding="utf-8")
    if verdicts is None:
        verdicts = {"states/ok.soil": {"pricePositive": True}, "states/free.soil": {"pricePositive": False}}
    (folder / "states.json").write_text(json.dumps(verdicts), encoding="utf-8")
    (root / "specification.json").write_text(json.dumps(spec), encoding="utf-8")
    return root


def test_reads_models_constraints_and_verdicts(tmp_path: Path) -> None:
    data = load_dataset(write(tmp_path))
    (m,) = data.models.values()
    assert m.name == "shop" and m.use_file == tmp_path / "shop" / "shop.use"
    (c,) = data.constraints()
    assert (c.key, c.covers) == ("shop/pricePositive", ("comparison",))
    assert m.states_where("pricePositive", True) == ["states/ok.soil"]
    assert m.states_where("pricePositive", False) == ["states/free.soil"]
    assert data.state_count == 2


def test_a_missing_model_file_is_named(tmp_path: Path) -> None:
    write(tmp_path)
    (tmp_path / "shop" / "shop.puml").unlink()
    with pytest.raises(DatasetError, match="no file shop.puml") as error:
        load_dataset(tmp_path)
    assert error.value.file == str(tmp_path / "shop" / "shop.puml") and error.value.field == "$.shop"


@pytest.mark.parametrize(
    ("change", "field", "message"),
    [
        ({"covers": ["loops"]}, "$.shop.pricePositive.covers", "unknown category: loops"),
        ({"covers": []}, "$.shop.pricePositive.covers", "non-empty list"),
        ({"covers": ["string", "string"]}, "$.shop.pricePositive.covers", "listed twice"),
        ({"ocl": "context Item inv other: self.price > 0"}, "$.shop.pricePositive.ocl", "named after its id"),
        ({"text": " "}, "$.shop.pricePositive.text", "non-empty string"),
        ({"extra": 1}, "$.shop.pricePositive", 'exactly "text", "ocl" and "covers"'),
    ],
)
def test_a_bad_specification_entry_names_its_field(
    tmp_path: Path, change: dict[str, object], field: str, message: str
) -> None:
    spec = json.loads(json.dumps(SPEC))
    spec["shop"]["pricePositive"].update(change)
    with pytest.raises(DatasetError, match=message) as error:
        load_dataset(write(tmp_path, spec=spec))
    assert error.value.field == field and error.value.file == str(tmp_path / "specification.json")


@pytest.mark.parametrize(
    ("verdicts", "field", "message"),
    [
        ({"states/ok.soil": {"pricePositive": True}}, None, "state file without verdicts: states/free.soil"),
        (
            {
                "states/ok.soil": {"pricePositive": True},
                "states/free.soil": {"pricePositive": False},
                "states/gone.soil": {"pricePositive": True},
            },
            '$["states/gone.soil"]',
            "no such state file",
        ),
        (
            {"states/ok.soil": {"pricePositive": True}, "states/free.soil": {"other": False}},
            '$["states/free.soil"]',
            r"missing pricePositive; unknown other",
        ),
        (
            {"states/ok.soil": {"pricePositive": "yes"}, "states/free.soil": {"pricePositive": False}},
            '$["states/ok.soil"]',
            "true or false",
        ),
    ],
)
def test_verdicts_must_match_the_state_files_and_constraints(
    tmp_path: Path, verdicts: object, field: str | None, message: str
) -> None:
    with pytest.raises(DatasetError, match=message) as error:
        load_dataset(write(tmp_path, verdicts=verdicts))
    assert error.value.field == field and error.value.file == str(tmp_path / "shop" / "states.json")


def test_invalid_json_gives_its_line(tmp_path: Path) -> None:
    write(tmp_path)
    (tmp_path / "specification.json").write_text('{\n  "shop": ,\n}\n', encoding="utf-8")
    with pytest.raises(DatasetError, match="not valid JSON") as error:
        load_dataset(tmp_path)
    assert error.value.line == 2


def test_a_folder_outside_the_specification_is_an_error(tmp_path: Path) -> None:
    write(tmp_path)
    (tmp_path / "orphan").mkdir()
    with pytest.raises(DatasetError, match="folder not in the specification: orphan"):
        load_dataset(tmp_path)


def test_a_missing_root_says_so(tmp_path: Path) -> None:
    with pytest.raises(DatasetError, match="cannot read") as error:
        load_dataset(tmp_path / "nowhere")
    assert error.value.file == str(tmp_path / "nowhere" / "specification.json")
