"""Prompt templates as a dimension of ``atlbench generate`` (mapping track, against the fake server): every
shipped template asks for the same answer, ``--template all`` files one run per template in one pass, the
study's template keeps today's file names and bytes, the cache replays the grid, and the template is a
segment of the run's file name, its case id and its row."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest

from benchmark.bench.support.fake_llm_server import FakeLLMServer
from benchmark.core.errors import ConfigurationError
from benchmark.core.rows import STUDY_TEMPLATE
from benchmark.llm.generate import GenerateOptions, generate
from benchmark.llm.templates import SHIPPED, TemplateCatalog, chosen_templates
from benchmark.tracks.mapping.collection import collect
from benchmark.tracks.mapping.discovery import discover
from benchmark.tracks.mapping.prompt import TEMPLATES, mapping_prompt, mapping_template

Options = Callable[..., GenerateOptions]


def test_every_shipped_template_fills_every_placeholder_and_asks_for_the_same_array() -> None:
    view = {"name": "Book", "classes": []}
    prompts = {}
    for name in SHIPPED:
        template = mapping_template(None, name)
        assert template.origin == f"builtin:{TEMPLATES.files[name]['prompt']}"
        prompts[name] = mapping_prompt(
            template, source_name="Book", source_view_json=view, target_name="Pub", target_view_json=view
        )
        assert "{{" not in prompts[name] and '{"name":"Book","classes":[]}' in prompts[name]
        for key in ("sourceClass", "sourceAttribute", "targetClass", "targetAttribute", "confidence"):
            assert key in prompts[name], (name, key)
    assert len(set(prompts.values())) == 3  # three wordings
    assert prompts["stepwise"].index("Output format") < prompts["stepwise"].index('{"name":"Book"')


def test_choosing_templates() -> None:
    assert TEMPLATES.select([]) == (STUDY_TEMPLATE,)
    assert TEMPLATES.select(["all"]) == SHIPPED
    assert TEMPLATES.select(["stepwise", "study", "stepwise"]) == ("study", "stepwise")
    with pytest.raises(ConfigurationError, match="unknown template verbose; this track ships study, terse"):
        TEMPLATES.select(["verbose"])
    assert chosen_templates(TEMPLATES, ["terse"], Path("mine.md")) == [("terse", Path("mine.md"))]
    with pytest.raises(ConfigurationError, match="replaces one template, and 3 are chosen"):
        chosen_templates(TEMPLATES, ["all"], Path("mine.md"))
    assert TemplateCatalog("benchmark.tracks.mapping", {"study": {"prompt": "x.md"}}).names == ("study",)


def test_all_templates_in_one_pass_study_bytes_unchanged_and_replayed(
    make_options: Options, llm_server: FakeLLMServer, validation_tree: Path, tmp_path: Path
) -> None:
    runs = validation_tree / "Book2Publication" / "runs"
    assert generate(make_options(runs=2, selectors=["book"])).ok
    study_only = {p.name: p.read_bytes() for p in runs.glob("*.json")}
    assert sorted(study_only) == ["OpenAI-gpt-test-1-run01.json", "OpenAI-gpt-test-1-run02.json"]

    report = generate(make_options(runs=2, selectors=["book"], templates=["all"]))
    assert report.ok, report.to_json()
    assert len(llm_server.answer_requests()) == 2 + 4  # the study's runs were cached; 2 templates x 2 runs
    prompts = {r.prompt for r in llm_server.answer_requests()}
    assert len(prompts) == 3  # one prompt per template (the seed tells the runs apart)
    labels = sorted(f.label for f in report.filed)
    assert labels == [
        "Book2Publication run01",
        "Book2Publication run02",
        "Book2Publication stepwise run01",
        "Book2Publication stepwise run02",
        "Book2Publication terse run01",
        "Book2Publication terse run02",
    ]
    files = {p.name: p.read_bytes() for p in runs.glob("*.json")}
    assert {name: files[name] for name in study_only} == study_only  # the study's runs: the same bytes
    terse = json.loads(files["OpenAI-gpt-test-1-terse-run02.json"])
    assert terse["analysis"]["template"] == "terse"
    assert terse["generation"]["promptTemplate"]["name"] == "prompt_terse.md"
    assert "template" not in json.loads(files["OpenAI-gpt-test-1-run01.json"])["analysis"]

    before = len(llm_server.answer_requests())
    for path in runs.glob("*.json"):
        path.unlink()
    replay = generate(make_options(runs=2, selectors=["book"], templates=["all"], offline=True))
    assert replay.ok and len(llm_server.answer_requests()) == before
    assert {p.name: p.read_bytes() for p in runs.glob("*.json")} == files

    collection = collect(discover(validation_tree), ())
    by_id = {case.case_id: case for case in collection.runs}
    case = by_id["Book2Publication-OpenAI-gpt-test-1-terse-run02"]
    assert case.template == "terse" and case.provider == "OpenAI"
    assert by_id["Book2Publication-OpenAI-gpt-test-1-run01"].template == STUDY_TEMPLATE


def test_a_replacement_template_keeps_the_name_of_the_template_it_replaces(
    make_options: Options, llm_server: FakeLLMServer, validation_tree: Path, tmp_path: Path
) -> None:
    mine = tmp_path / "mine.md"
    mine.write_text("Map {{sourceMetamodel}} onto {{targetMetamodel}}; a JSON array.", encoding="utf-8")
    report = generate(make_options(selectors=["book"], templates=["stepwise"], prompt_template=mine))
    assert report.ok
    path = validation_tree / "Book2Publication" / "runs" / "OpenAI-gpt-test-1-stepwise-run01.json"
    document = json.loads(path.read_text(encoding="utf-8"))
    assert document["analysis"]["template"] == "stepwise"
    assert document["generation"]["promptTemplate"] == {
        "name": "mine.md",
        "builtin": False,
        "sha256": document["generation"]["promptTemplate"]["sha256"],
    }
    assert llm_server.answer_requests()[0].prompt.startswith("Map {")
    with pytest.raises(ConfigurationError, match="choose the one it replaces with --template"):
        generate(make_options(selectors=["book"], templates=["study", "terse"], prompt_template=mine))


def test_a_run_file_naming_no_template_name_is_an_input_error(validation_tree: Path, tmp_path: Path) -> None:
    from benchmark.core.errors import InputFormatError
    from benchmark.tracks.mapping.scoring.suggestions import load_suggestions, peek_run

    path = tmp_path / "run.json"
    document = {"jjodel": {"exportType": "suggested-mappings", "schemaVersion": 1}, "mappings": []}
    document["analysis"] = {"provider": "P", "model": "m", "template": "Bad Name"}
    path.write_text(json.dumps(document), encoding="utf-8")
    assert peek_run(path) == (
        "P",
        "m",
        "original",
        STUDY_TEMPLATE,
        "free",
    )  # the case is named; its row says what is wrong
    with pytest.raises(InputFormatError, match=r"\$\.analysis\.template: 'Bad Name' does not match"):
        load_suggestions(path)
