"""``atlbench import``: validation with the scorer's reader, folder matching, normalised names."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from benchmark.cli import main
from benchmark.core.fileio import sha256_file
from benchmark.tracks.mapping.importer import ALREADY_PRESENT, FAILED, IMPORTED, import_runs
from benchmark.tracks.mapping.scoring.suggestions import load_suggestions
from tests.llm.conftest import BOOK_ANSWER


def export(tmp_path: Path, name: str, **blocks: object) -> Path:
    document: dict[str, object] = {
        "jjodel": {"exportType": "suggested-mappings", "schemaVersion": 1},
        "transformation": {"name": "Book2Publication", "source": "Book", "target": "Publication"},
        "analysis": {"provider": "Gemini", "model": "gemini-1.5/pro", "modelLabel": "Gemini 1.5 Pro"},
        "mappings": [
            {
                "kind": "class",
                "source": {"class": "Book", "feature": None},
                "target": {"class": "Publication", "feature": None},
                "confidence": "high",
                "provider": "Gemini",
            }
        ],
    }
    document.update(blocks)
    path = tmp_path / name
    path.write_text(json.dumps(document, indent=4) + "\n", encoding="utf-8")
    return path


def test_exports_are_filed_under_their_transformation_with_the_next_run_number(
    tmp_path: Path, validation_tree: Path
) -> None:
    first = export(tmp_path, "download (1).json")
    second = export(tmp_path, "download (2).json", mappings=[])
    results = import_runs([first, second], validation_tree)
    runs = validation_tree / "Book2Publication" / "runs"
    assert [(r.status, r.destination) for r in results] == [
        (IMPORTED, runs / "Gemini-gemini-1.5_pro-run01.json"),
        (IMPORTED, runs / "Gemini-gemini-1.5_pro-run02.json"),
    ]
    assert (runs / "Gemini-gemini-1.5_pro-run01.json").read_bytes() == first.read_bytes()  # unchanged
    assert load_suggestions(runs / "Gemini-gemini-1.5_pro-run02.json").mappings == ()
    # The same bytes again are recognised, not filed a second time.
    [again] = import_runs([first], validation_tree)
    assert again.status == ALREADY_PRESENT and again.destination == runs / "Gemini-gemini-1.5_pro-run01.json"


def test_folder_found_by_metamodel_names_when_the_name_differs(tmp_path: Path, validation_tree: Path) -> None:
    path = export(
        tmp_path,
        "x.json",
        transformation={"name": "Families2Persons", "source": "Families", "target": "Persons"},
    )
    [result] = import_runs([path], validation_tree)
    assert result.status == IMPORTED and result.destination is not None
    assert result.destination.parent.parent.name == "Family2Person"


def test_undecidable_transformation_asks_for_the_option(tmp_path: Path, validation_tree: Path) -> None:
    path = export(tmp_path, "x.json", transformation={"name": "Other", "source": "A", "target": "B"})
    [result] = import_runs([path], validation_tree)
    assert result.status == FAILED and result.error is not None
    assert result.error.field == "$.transformation" and "give --transformation" in result.error.message
    [forced] = import_runs([path], validation_tree, transformation="family2person")
    assert forced.status == IMPORTED and forced.destination is not None
    assert forced.destination.parent.parent.name == "Family2Person"


def test_invalid_file_is_reported_with_its_json_path_and_not_filed(
    tmp_path: Path, validation_tree: Path
) -> None:
    bad = export(
        tmp_path, "bad.json", mappings=[{"kind": "class", "source": {"class": 3}, "target": {"class": "P"}}]
    )
    good = export(tmp_path, "good.json")
    results = import_runs([bad, good], validation_tree)
    assert [r.status for r in results] == [FAILED, IMPORTED]
    assert results[0].error is not None and results[0].error.field == "$.mappings[0].source.class"
    assert len(list(validation_tree.rglob("runs/*.json"))) == 1


def test_raw_answer_needs_provider_model_and_transformation(tmp_path: Path, validation_tree: Path) -> None:
    answer = tmp_path / "chat.md"
    answer.write_text("Sure!\n```json\n" + json.dumps(BOOK_ANSWER) + "\n```\n", encoding="utf-8")
    [refused] = import_runs([answer], validation_tree)
    assert refused.status == FAILED and "--provider and --model" in (refused.message or "")
    [result] = import_runs(
        [answer], validation_tree, transformation="Book2Publication", provider="ChatGPT", model="gpt-4o"
    )
    assert result.status == IMPORTED and result.destination is not None
    assert result.destination.name == "ChatGPT-gpt-4o-run01.json"
    document = json.loads(result.destination.read_text())
    assert document["imported"]["file"] == "chat.md" and document["analysis"]["provider"] == "ChatGPT"
    assert [m.identity for m in load_suggestions(result.destination).mappings] == [
        ("class", "Book", None, "Publication", None),
        ("attribute", "Book", "title", "Publication", "title"),
        ("attribute", "Book", "chapters", "Publication", "nbPages"),
    ]


def test_provider_and_model_options_override_what_is_scored(tmp_path: Path, validation_tree: Path) -> None:
    original = export(tmp_path, "download.json")
    [renamed] = import_runs([original], validation_tree, provider="Gemini-EU", model="gemini-2")
    assert renamed.status == IMPORTED and renamed.destination is not None
    assert renamed.destination.name == "Gemini-EU-gemini-2-run01.json"
    read = load_suggestions(renamed.destination)
    assert (read.provider, read.model, read.model_label) == ("Gemini-EU", "gemini-2", "gemini-2")
    document = json.loads(renamed.destination.read_text())
    assert {m["provider"] for m in document["mappings"]} == {"Gemini-EU"}
    assert document["imported"] == {
        "file": "download.json",
        "sha256": sha256_file(original),
        "provider": "Gemini",
        "model": "gemini-1.5/pro",
    }
    # The duplicate check counts the override: the same file under the same names is already there,
    # under its own names (or another provider) it is another run.
    [again] = import_runs([original], validation_tree, provider="Gemini-EU", model="gemini-2")
    assert again.status == ALREADY_PRESENT and again.destination == renamed.destination
    [own] = import_runs([original], validation_tree)
    assert own.status == IMPORTED and own.destination is not None
    assert own.destination.read_bytes() == original.read_bytes()
    [provider_only] = import_runs([original], validation_tree, provider="Vertex")
    assert provider_only.destination is not None
    assert provider_only.destination.name == "Vertex-gemini-1.5_pro-run01.json"
    kept = load_suggestions(provider_only.destination)
    assert (kept.provider, kept.model, kept.model_label) == ("Vertex", "gemini-1.5/pro", "Gemini 1.5 Pro")


def test_a_json_mode_answer_object_imports_like_an_array(tmp_path: Path, validation_tree: Path) -> None:
    answer = tmp_path / "json-mode.json"
    answer.write_text(json.dumps({"mappings": BOOK_ANSWER}), encoding="utf-8")
    [result] = import_runs(
        [answer], validation_tree, transformation="Book2Publication", provider="OpenAI", model="gpt-4o"
    )
    assert result.status == IMPORTED and result.destination is not None
    document = json.loads(result.destination.read_text())
    assert document["imported"]["answerShape"] == "object"
    assert document["imported"]["answerMember"] == "mappings"
    assert len(load_suggestions(result.destination).mappings) == 3
    broken = export(tmp_path, "broken.json", jjodel={"exportType": "model", "schemaVersion": 1})
    [refused] = import_runs([broken], validation_tree, transformation="Book2Publication")
    assert refused.status == FAILED and refused.error is not None
    assert refused.error.field == "$.jjodel.exportType"  # an export stays an export


def test_cli_import(tmp_path: Path, validation_tree: Path, capsys: pytest.CaptureFixture[str]) -> None:
    good = export(tmp_path, "good.json")
    bad = tmp_path / "bad.json"
    bad.write_text("{not json", encoding="utf-8")
    assert main(["import", str(good), "--into", str(validation_tree), "--dry-run"]) == 0
    assert "Gemini-gemini-1.5_pro-run01.json" in capsys.readouterr().out
    assert not list(validation_tree.rglob("runs/*.json"))
    assert main(["import", str(good), str(bad), "--into", str(validation_tree)]) == 2
    captured = capsys.readouterr()
    assert f"{bad}:1:2: error:" in captured.err
    assert "1 imported, 0 already present, 1 failed" in captured.err
