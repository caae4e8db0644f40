"""``atlbench generate --variant``: the task variants of the mapping track through the real engine, SDK
clients and a local HTTP server (``docs/VARIANTS.md``): what each variant's prompt shows, where its runs
are filed, what they record, and how they are scored."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

from benchmark.bench.support.fake_llm_server import FakeLLMServer
from benchmark.cli import main
from benchmark.lang.ecore import load_metamodel
from benchmark.llm.config import load_config
from benchmark.llm.generate import GenerateOptions, generate
from benchmark.llm.requests import LlmRequest
from benchmark.tracks.mapping.variants.rules import draw_renaming
from tests.llm.conftest import BOOK_ANSWER

Options = Callable[..., GenerateOptions]
VARIANTS = {"atl_variant": ("original", "synonym", "opaque", "shuffled", "name-only"), "atl_variant_seed": 3}


def book_views(validation_tree: Path):
    folder = validation_tree / "Book2Publication"
    return load_metamodel(folder / "Book.ecore"), load_metamodel(folder / "Publication.ecore")


def test_each_variant_prompts_its_own_metamodels_and_files_its_runs_apart(
    make_options: Options, llm_server: FakeLLMServer, validation_tree: Path
) -> None:
    report = generate(make_options(selectors=["book"], track_options=VARIANTS))
    assert report.ok, report.to_json()
    sent = [r.prompt for r in llm_server.answer_requests()]
    parameters = load_config(make_options().config_file).provider("OpenAI").parameters
    assert len(sent) == 5
    runs = validation_tree / "Book2Publication" / "runs"
    files = {
        variant: runs / (variant if variant != "original" else "") / "OpenAI-gpt-test-1-run01.json"
        for variant in VARIANTS["atl_variant"]
    }
    assert all(path.is_file() for path in files.values())
    documents = {variant: json.loads(path.read_text()) for variant, path in files.items()}
    source, target = book_views(validation_tree)
    by_hash = {d["generation"]["promptSha256"]: v for v, d in documents.items()}
    assert len(by_hash) == 5  # five different prompts
    prompt_of = {by_hash[LlmRequest(prompt, parameters, 1).prompt_sha256]: prompt for prompt in sent}

    # the original task: as always, no variant block
    assert "variant" not in documents["original"]
    assert '"name":"Chapter"' in prompt_of["original"]
    # synonym and opaque: the renaming drawn with the seed, recorded; no original class name is shown
    for variant in ("synonym", "opaque"):
        renaming = draw_renaming(variant, source, target, 3)
        assert renaming is not None and renaming.source is not None and renaming.target is not None
        assert documents[variant]["variant"] == renaming.to_json()
        prompt = prompt_of[variant]
        for old, new in {**renaming.source.classifiers, **renaming.target.classifiers}.items():
            assert f'"name":"{old}"' not in prompt and f'"name":"{new}"' in prompt
        assert f"## Source metamodel: {renaming.source.packages['Book']}" in prompt
        assert documents[variant]["transformation"]["source"] == renaming.source.packages["Book"]
    # shuffled: the same names in another order, and the order recorded
    shuffled = documents["shuffled"]["variant"]
    assert shuffled["name"] == "shuffled" and shuffled["source"]["order"]["classifiers"]
    assert '"name":"Chapter"' in prompt_of["shuffled"] and prompt_of["shuffled"] != prompt_of["original"]
    # name-only: the names and nothing of the metamodels
    name_only = prompt_of["name-only"]
    assert "the transformation: Book2Publication" in name_only
    assert "its source metamodel: Book" in name_only and "its target metamodel: Publication" in name_only
    assert '"name":' not in name_only and "Chapter" not in name_only
    assert documents["name-only"]["variant"] == {"name": "name-only", "seed": 3}


def test_variant_runs_are_scored_against_the_renamed_ground_truth(
    make_options: Options, llm_server: FakeLLMServer, validation_tree: Path
) -> None:
    """The fake model answers every Book prompt with the original names: right on the original task and
    on shuffled, made-up names on synonym and opaque, recall of the Zoo on name-only."""
    from validate_session import score_tree

    llm_server.responder = lambda prompt: json.dumps(BOOK_ANSWER)  # the original names, whatever is shown
    options = {**VARIANTS, "atl_variant": ("original", "synonym", "shuffled", "name-only")}
    assert generate(make_options(selectors=["book"], track_options=options)).ok
    rows = {r.variant: r for r in score_tree(validation_tree, atl_baselines="none") if r.provider == "OpenAI"}
    assert set(rows) == {"original", "synonym", "shuffled", "name-only"}
    assert all(r.ok for r in rows.values())
    original, synonym = rows["original"], rows["synonym"]
    assert rows["shuffled"].classes == original.classes and rows["shuffled"].bindings == original.bindings
    assert rows["name-only"].classes == original.classes  # the answer recalled: scored like any run
    assert synonym.classes.tp == 0 and original.classes.tp > 0
    assert "Book" in synonym.hallucinated_classes and not original.hallucinated_classes
    assert synonym.payload.variant_detail["seed"] == 3
    assert synonym.payload.variant_detail["source"]["classifiers"]["Book"] != "Book"


def test_the_command_line_takes_the_variants_and_their_seed(
    llm_server: FakeLLMServer, validation_tree: Path, tmp_path: Path, fake_keys: dict[str, str]
) -> None:
    from tests.llm.conftest import write_config

    config = write_config(tmp_path, llm_server.url)
    common = ["generate", "--provider", "OpenAI", "--validation-root", str(validation_tree), "-k", "book"]
    common += ["--config", str(config), "--cache-dir", str(tmp_path / "cache"), "--no-progress"]
    assert main([*common, "--variant", "Synonym,nameonly", "--atl-variant-seed", "5"]) == 0
    runs = validation_tree / "Book2Publication" / "runs"
    assert sorted(p.parent.name for p in runs.rglob("*.json")) == ["name-only", "synonym"]
    document = json.loads((runs / "synonym" / "OpenAI-gpt-test-1-run01.json").read_text())
    assert document["variant"]["seed"] == 5
    assert (runs / "synonym" / ".log" / "OpenAI.jsonl").is_file()
    assert main([*common, "--variant", "synonim"]) == 2
