"""``atlbench generate`` end to end: real SDK clients, a real local HTTP server, files, logs, cache."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from benchmark.bench.support.fake_llm_server import FakeLLMServer, Reply
from benchmark.cli import main
from benchmark.core.errors import ConfigurationError, InputFormatError
from benchmark.llm.generate import GenerateOptions, generate, plan
from benchmark.tracks.mapping.llm_task import GENERATOR
from benchmark.tracks.mapping.scoring.suggestions import load_suggestions, parse_suggestions
from tests.llm.conftest import BOOK_ANSWER, FAKE_ANTHROPIC_KEY, FAKE_OPENAI_KEY

Options = Callable[..., GenerateOptions]


def run_files(root: Path) -> dict[str, bytes]:
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("runs/*.json"))}


def log_events(path: Path) -> list[dict[str, object]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def test_prompt_carries_both_metamodels_and_the_parameters(
    make_options: Options, llm_server: FakeLLMServer, validation_tree: Path
) -> None:
    report = generate(make_options(runs=2, selectors=["book"]))
    assert report.ok, report.to_json()
    sent = llm_server.answer_requests()
    assert len(sent) == 2
    prompt = sent[0].prompt
    assert '"name":"Book"' in prompt and '"name":"Chapter"' in prompt  # source view
    assert '"name":"Publication"' in prompt and '"name":"nbPages"' in prompt  # target view
    assert "## Source metamodel: Book" in prompt and "## Target metamodel: Publication" in prompt
    assert "{{" not in prompt
    bodies = [r.body for r in sent]
    assert {b["seed"] for b in bodies} == {100, 101}  # seed + run - 1: repetitions are distinct samples
    assert all(
        b["model"] == "gpt-test-1" and b["temperature"] == 0.2 and b["max_tokens"] == 512 for b in bodies
    )
    assert sent[0].headers["authorization"] == f"Bearer {FAKE_OPENAI_KEY}"


def test_run_files_are_jjodel_exports_with_a_generation_block(
    make_options: Options, validation_tree: Path
) -> None:
    report = generate(make_options(runs=2))
    assert report.ok
    runs = validation_tree / "Book2Publication" / "runs"
    assert sorted(p.name for p in runs.glob("*.json")) == [
        "OpenAI-gpt-test-1-run01.json",
        "OpenAI-gpt-test-1-run02.json",
    ]
    document = json.loads((runs / "OpenAI-gpt-test-1-run02.json").read_text())
    assert document["jjodel"] == {"exportType": "suggested-mappings", "schemaVersion": 1}
    assert document["transformation"] == {
        "name": "Book2Publication",
        "source": "Book",
        "target": "Publication",
    }
    assert document["analysis"] == {"provider": "OpenAI", "model": "gpt-test-1", "modelLabel": "gpt-test-1"}
    generation = document["generation"]
    assert generation["generator"] == GENERATOR and generation["status"] == "ok"
    assert generation["run"] == 2
    assert generation["parameters"] == {
        "temperature": 0.2,
        "topP": None,
        "maxTokens": 512,
        "seed": 100,
        "requestSeed": 101,
    }
    assert (
        generation["promptTemplate"]["builtin"] is True and len(generation["promptTemplate"]["sha256"]) == 64
    )
    assert generation["usage"] == {"inputTokens": 100, "outputTokens": 20}
    assert generation["latencySeconds"] >= 0 and generation["transport"] == "direct"
    assert generation["answerEntries"] == 3
    # The comparator reads it and finds what the model said, entry for entry.
    from_file = load_suggestions(runs / "OpenAI-gpt-test-1-run02.json")
    from_answer = parse_suggestions(BOOK_ANSWER)
    assert [m.identity for m in from_file.mappings] == [m.identity for m in from_answer.mappings]
    assert [m.conversion_hint for m in from_file.mappings] == [
        m.conversion_hint for m in from_answer.mappings
    ]
    assert from_file.provider == "OpenAI"


def test_fenced_malformed_empty_and_object_answers(
    make_options: Options, llm_server: FakeLLMServer, validation_tree: Path
) -> None:
    llm_server.enqueue(
        "Here you go:\n```json\n" + json.dumps(BOOK_ANSWER) + "\n```\n",  # run 1: fenced
        '[{"sourceClass": "Book", "targetClass": "Publication",',  # run 2: cut short
        "[]",  # run 3: an empty answer is an answer
        "I cannot help with that.",  # run 4: no array at all
        json.dumps({"mappings": BOOK_ANSWER}),  # run 5: JSON mode's object
    )
    report = generate(make_options(runs=5, selectors=["Book"]))
    statuses = [(f.label, f.status) for f in report.filed]
    assert statuses == [
        ("Book2Publication run01", "ok"),
        ("Book2Publication run02", "failed"),
        ("Book2Publication run03", "ok"),
        ("Book2Publication run04", "failed"),
        ("Book2Publication run05", "ok"),
    ]
    assert not report.ok
    runs = validation_tree / "Book2Publication" / "runs"
    fenced = load_suggestions(runs / "OpenAI-gpt-test-1-run01.json")
    assert len(fenced.mappings) == 3 and fenced.answer_shape == "fenced-array"
    empty = json.loads((runs / "OpenAI-gpt-test-1-run03.json").read_text())
    assert empty["mappings"] == [] and empty["generation"]["status"] == "ok"
    assert empty["generation"]["answerShape"] == "array"
    unusable = json.loads((runs / "OpenAI-gpt-test-1-run02.json").read_text())
    assert "mappings" not in unusable  # never an invented empty answer
    assert unusable["generation"]["status"] == "unusable"
    assert unusable["generation"]["rawResponse"] == '[{"sourceClass": "Book", "targetClass": "Publication",'
    assert "not valid JSON" in unusable["generation"]["error"]
    # The scorer reads the unusable run as a run with no suggestions, and says why.
    read = load_suggestions(runs / "OpenAI-gpt-test-1-run02.json")
    assert read.mappings == () and read.provider == "OpenAI"
    assert "not valid JSON" in (read.unusable_reason or "") and "response:1:55: " in (
        read.unusable_reason or ""
    )
    no_array = json.loads((runs / "OpenAI-gpt-test-1-run04.json").read_text())
    assert no_array["generation"]["rawResponse"] == "I cannot help with that."
    assert "expected a JSON array" in no_array["generation"]["error"]
    wrapped = json.loads((runs / "OpenAI-gpt-test-1-run05.json").read_text())
    assert wrapped["generation"]["answerShape"] == "object"
    assert wrapped["generation"]["answerMember"] == "mappings"
    assert [m.identity for m in load_suggestions(runs / "OpenAI-gpt-test-1-run05.json").mappings] == [
        m.identity for m in fenced.mappings
    ]


def test_an_unusable_run_is_scored_as_an_empty_run(
    make_options: Options, llm_server: FakeLLMServer, validation_tree: Path
) -> None:
    from benchmark.tracks.mapping.discovery import discover
    from benchmark.tracks.mapping.ground_truth import load_ground_truth
    from benchmark.tracks.mapping.scoring.outcomes import OUTCOME_UNUSABLE, outcome_reason, run_outcome
    from benchmark.tracks.mapping.scoring.runs import score_file

    llm_server.enqueue("not json")
    generate(make_options(selectors=["Book"]))
    folder = next(t for t in discover(validation_tree).transformations if t.name == "Book2Publication")
    path = folder.path / "runs" / "OpenAI-gpt-test-1-run01.json"
    row = score_file(load_ground_truth(folder.atl_file), path, transformation=folder.name, run="r1")
    assert row.ok and row.suggestions == 0 and row.classes.fn > 0 and row.classes.tp == 0
    assert run_outcome(row) == OUTCOME_UNUSABLE
    assert "expected a JSON array" in (outcome_reason(row) or "")


def test_raw_log_has_spec_response_and_errors(
    make_options: Options, llm_server: FakeLLMServer, validation_tree: Path
) -> None:
    llm_server.enqueue(Reply(status=500, body={"error": {"message": "boom"}}), "[]")
    sleeps: list[float] = []
    generate(make_options(selectors=["Book"]), sleep=sleeps.append)
    events = log_events(validation_tree / "Book2Publication" / "runs" / ".log" / "OpenAI.jsonl")
    assert [e["event"] for e in events] == ["spec", "retry", "response"]
    spec, retry, response = events
    assert spec["provider"]["model"] == "gpt-test-1" and spec["provider"]["apiKeyEnv"] == "FAKE_OPENAI_KEY"
    assert spec["promptTemplate"]["sha256"] and spec["tool"].startswith("atl-binding-bench")
    assert retry["status"] == 500 and "boom" in retry["error"]
    assert response["completion"]["text"] == "[]" and response["attempts"] == 2
    assert response["completion"]["inputTokens"] == 100 and len(response["promptSha256"]) == 64
    assert len(sleeps) == 1


def test_offline_replays_the_cache_byte_for_byte_without_a_request(
    make_options: Options, llm_server: FakeLLMServer, validation_tree: Path
) -> None:
    assert generate(make_options(runs=3)).ok
    first = run_files(validation_tree)
    logs = {p: p.read_bytes() for p in validation_tree.rglob("runs/.log/*.jsonl")}
    assert len(first) == 6 and len(logs) == 2
    sent = llm_server.count()
    for path in validation_tree.rglob("runs/*.json"):
        path.unlink()
    report = generate(make_options(runs=3, offline=True))
    assert llm_server.count() == sent  # zero requests
    assert report.ok and report.stats.cache_hits == 6 and report.stats.requests == 0
    assert run_files(validation_tree) == first
    assert {p: p.read_bytes() for p in validation_tree.rglob("runs/.log/*.jsonl")} == logs  # untouched


@pytest.mark.parametrize("batch", [False, True])
def test_two_folders_with_the_same_prompt_share_one_answer(
    batch: bool, make_options: Options, llm_server: FakeLLMServer, validation_tree: Path
) -> None:
    """Two ground truths of one metamodel pair give the same prompt, hence the same cache key: one
    request answers both (as a batch does), so --offline reproduces both files from the one entry."""
    import shutil

    shutil.copytree(validation_tree / "Book2Publication", validation_tree / "Book2PublicationAgain")
    llm_server.enqueue("[]", json.dumps(BOOK_ANSWER))  # two requests would get different answers
    report = generate(make_options(selectors=["Book"], concurrency=2, batch=batch))
    assert report.ok and report.stats.requests == 1 and report.stats.answered == 1
    assert report.stats.output_tokens == 20  # spent once
    first = run_files(validation_tree)
    documents = [json.loads(text) for text in first.values()]
    assert len(documents) == 2 and documents[0]["transformation"] != documents[1]["transformation"]
    assert documents[0]["mappings"] == documents[1]["mappings"]  # the one answer, filed twice
    assert documents[0]["generation"] == documents[1]["generation"]
    for folder in ("Book2Publication", "Book2PublicationAgain"):  # each folder's log can replay it
        events = log_events(validation_tree / folder / "runs" / ".log" / "OpenAI.jsonl")
        assert [e["event"] for e in events] == ["spec", "response"]
    for path in validation_tree.rglob("runs/*.json"):
        path.unlink()
    assert generate(make_options(selectors=["Book"], offline=True)).ok
    assert run_files(validation_tree) == first


def test_offline_needs_no_key(
    make_options: Options, llm_server: FakeLLMServer, validation_tree: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert generate(make_options()).ok
    monkeypatch.delenv("FAKE_OPENAI_KEY")
    assert generate(make_options(offline=True)).ok
    with pytest.raises(ConfigurationError, match="FAKE_OPENAI_KEY"):
        generate(make_options(runs=2))  # run 2 is not cached: a key is needed, and nothing is sent
    assert len(llm_server.answer_requests()) == 2


def test_no_answer_files_a_missing_run_that_the_next_generate_fills_in(
    make_options: Options, llm_server: FakeLLMServer, validation_tree: Path
) -> None:
    from benchmark.tracks.mapping.discovery import discover
    from benchmark.tracks.mapping.ground_truth import load_ground_truth
    from benchmark.tracks.mapping.scoring.outcomes import OUTCOME_MISSING, outcome_reason, run_outcome
    from benchmark.tracks.mapping.scoring.runs import score_file

    report = generate(make_options(offline=True, selectors=["Book"]))
    assert llm_server.count() == 0
    assert [f.status for f in report.filed] == ["no-answer"]
    assert "offline: no cached answer" in (report.filed[0].message or "")
    assert "filed as a missing run" in (report.filed[0].message or "")
    stub_path = validation_tree / "Book2Publication" / "runs" / "OpenAI-gpt-test-1-run01.json"
    stub = json.loads(stub_path.read_text())
    assert "mappings" not in stub and stub["analysis"]["provider"] == "OpenAI"
    assert stub["generation"]["status"] == "no-answer" and stub["generation"]["generator"] == GENERATOR
    assert "offline" in stub["generation"]["error"] and stub["generation"]["run"] == 1
    events = log_events(validation_tree / "Book2Publication" / "runs" / ".log" / "OpenAI.jsonl")
    assert events[-1]["event"] == "error" and "offline" in str(events[-1]["error"])
    # The scorer lists it as missing, under its provider, never as a zero.
    folder = next(t for t in discover(validation_tree).transformations if t.name == "Book2Publication")
    row = score_file(load_ground_truth(folder.atl_file), stub_path, transformation=folder.name, run="r1")
    assert run_outcome(row) == OUTCOME_MISSING and row.provider == "OpenAI" and not row.ok
    assert "offline" in (outcome_reason(row) or "")
    # The next online session replaces the stub with the answer...
    assert generate(make_options(selectors=["Book"])).ok
    answered = stub_path.read_bytes()
    assert json.loads(answered)["generation"]["status"] == "ok"
    # ... and a later session without answer keeps that answer.
    again = generate(make_options(offline=True, selectors=["Book"]))
    assert again.ok and stub_path.read_bytes() == answered  # replayed from the cache: same bytes
    empty_cache = validation_tree.parent / "empty-cache"
    lost = generate(make_options(offline=True, selectors=["Book"], replay_logs=False, cache_dir=empty_cache))
    assert [f.status for f in lost.filed] == ["no-answer"]
    assert "the earlier answer" in (lost.filed[0].message or "") and stub_path.read_bytes() == answered


def test_committed_logs_replay_without_the_cache_directory(
    make_options: Options, llm_server: FakeLLMServer, validation_tree: Path, tmp_path: Path
) -> None:
    assert generate(make_options(runs=2)).ok
    first = run_files(validation_tree)
    sent = llm_server.count()
    for path in validation_tree.rglob("runs/*.json"):
        path.unlink()
    report = generate(make_options(runs=2, offline=True, cache_dir=tmp_path / "fresh-cache"))
    assert llm_server.count() == sent
    assert report.stats.log_hits == 4 and report.stats.cache_hits == 0
    assert run_files(validation_tree) == first
    # ... and the replayed answers were copied into the new cache directory.
    assert len(list((tmp_path / "fresh-cache" / "responses").rglob("*.json"))) == 4


def test_run_index_keeps_repetitions_apart_and_refresh_asks_again(
    make_options: Options, llm_server: FakeLLMServer
) -> None:
    generate(make_options(runs=2, selectors=["Book"]))
    assert len(llm_server.answer_requests()) == 2
    report = generate(make_options(runs=3, selectors=["Book"]))  # only run 3 is new
    assert len(llm_server.answer_requests()) == 3 and report.stats.cache_hits == 2
    generate(make_options(runs=1, selectors=["Book"], refresh=True))
    assert len(llm_server.answer_requests()) == 4


def test_anthropic_provider_end_to_end(
    make_options: Options, llm_server: FakeLLMServer, validation_tree: Path
) -> None:
    report = generate(make_options("Claude", runs=2))
    assert report.ok
    sent = llm_server.answer_requests()
    assert {r.path for r in sent} == {"/v1/messages"}
    # The key travels in x-api-key or, with recent SDKs, as a bearer token.
    assert all(
        FAKE_ANTHROPIC_KEY in r.headers.get("x-api-key", r.headers.get("authorization", "")) for r in sent
    )
    assert all(
        r.body["temperature"] == 0.0 and r.body["max_tokens"] == 256 and "seed" not in r.body for r in sent
    )
    document = json.loads(
        (validation_tree / "Family2Person" / "runs" / "Claude-claude-test-1-run01.json").read_text()
    )
    assert document["analysis"]["modelLabel"] == "Claude Test"
    assert document["generation"]["usage"] == {"inputTokens": 200, "outputTokens": 40}
    assert document["transformation"]["source"] == "Families"
    assert [m["target"]["class"] for m in document["mappings"]] == ["Male", "Male"]


def test_no_key_reaches_any_file(
    make_options: Options, llm_server: FakeLLMServer, validation_tree: Path, tmp_path: Path
) -> None:
    echo = {"error": {"message": f"invalid x-api-key {FAKE_ANTHROPIC_KEY} for this server"}}
    llm_server.enqueue(Reply(status=500, body=echo), Reply(status=400, body=echo))
    generate(make_options("Claude", runs=2, selectors=["Book"]))
    llm_server.enqueue(Reply(status=401, body={"error": {"message": f"bad key {FAKE_OPENAI_KEY}"}}))
    report = generate(make_options(runs=2, selectors=["Book"]), sleep=lambda s: None)
    messages = " ".join(f.message or "" for f in report.filed)
    assert "***" in messages and FAKE_OPENAI_KEY not in messages
    written = [p for p in tmp_path.rglob("*") if p.is_file()]
    assert any(p.suffix == ".jsonl" for p in written) and any("responses" in p.parts for p in written)
    for path in written:
        content = path.read_bytes()
        assert FAKE_OPENAI_KEY.encode() not in content, path
        assert FAKE_ANTHROPIC_KEY.encode() not in content, path


def test_fatal_http_status_stops_the_session(make_options: Options, llm_server: FakeLLMServer) -> None:
    llm_server.enqueue(Reply(status=401, body={"error": {"message": "unauthorized"}}))
    report = generate(make_options(runs=3, selectors=["Book"]))
    assert len(llm_server.answer_requests()) == 1  # the two other runs were not sent
    assert [f.status for f in report.filed] == ["no-answer"] * 3
    assert "HTTP 401" in (report.filed[0].message or "")
    assert all("not sent" in (f.message or "") for f in report.filed[1:])


def test_an_imported_file_is_never_overwritten(make_options: Options, validation_tree: Path) -> None:
    runs = validation_tree / "Book2Publication" / "runs"
    runs.mkdir()
    hand_made = runs / "OpenAI-gpt-test-1-run01.json"
    hand_made.write_text(
        '{"jjodel": {"exportType": "suggested-mappings", "schemaVersion": 1}, "mappings": []}'
    )
    before = hand_made.read_bytes()
    report = generate(make_options(selectors=["Book"]))
    assert [f.status for f in report.filed] == ["refused"]
    assert hand_made.read_bytes() == before


def test_dry_run_plan_sends_nothing(make_options: Options, llm_server: FakeLLMServer) -> None:
    generate(make_options(selectors=["Book"]))
    sent = llm_server.count()
    planned = plan(make_options(runs=2))
    assert llm_server.count() == sent
    assert [(p.label, p.source) for p in planned] == [
        ("Book2Publication run01", "cache"),
        ("Book2Publication run02", "request"),
        ("Family2Person run01", "request"),
        ("Family2Person run02", "request"),
    ]


def test_custom_prompt_template(make_options: Options, llm_server: FakeLLMServer, tmp_path: Path) -> None:
    template = tmp_path / "study.txt"
    template.write_text("Map {{sourceName}} to {{targetName}}.\n{{sourceMetamodel}}\n{{targetMetamodel}}\n")
    generate(make_options(selectors=["Book"], prompt_template=template))
    assert llm_server.answer_requests()[0].prompt.startswith("Map Book to Publication.\n{")
    bad = tmp_path / "bad.txt"
    bad.write_text("Hello\n{{sourceMetamodel}} {{targetMetamodel}} {{sourceModel}}\n")
    with pytest.raises(InputFormatError) as raised:
        generate(make_options(selectors=["Book"], prompt_template=bad))
    assert raised.value.line == 2 and raised.value.column == 41 and "sourceModel" in raised.value.message


def test_selection_that_matches_nothing_is_an_error(make_options: Options) -> None:
    with pytest.raises(
        ConfigurationError,
        match="no transformation matches -k Nope; available: Book2Publication, Family2Person",
    ):
        generate(make_options(selectors=["Nope"]))


def test_cli_generate_prints_the_summary_and_exits_1_on_a_failed_run(
    make_options: Options,
    llm_server: FakeLLMServer,
    validation_tree: Path,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    options = make_options()
    argv = [
        "generate",
        "--provider",
        "OpenAI",
        "--runs",
        "2",
        "--validation-root",
        str(validation_tree),
        "--config",
        str(options.config_file),
        "--cache-dir",
        str(tmp_path / "cache"),
        "--concurrency",
        "2",
    ]
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert out.strip().splitlines()[-1] == (
        "atlbench generate: 4 runs; 4 requests sent; 0 cache hits; 0 failed; "
        "tokens 400 in / 80 out; 4 files written"
    )
    assert main([*argv, "--offline"]) == 0
    assert "0 requests sent; 4 cache hits" in capsys.readouterr().out
    llm_server.enqueue("garbage")
    assert main([*argv, "--runs", "3", "-k", "book"]) == 1
    captured = capsys.readouterr()
    assert "1 request sent; 2 cache hits; 1 failed" in captured.out  # not "1 requests"
    assert "Book2Publication run03: failed: answer unusable" in captured.err
    assert main([*argv, "--dry-run", "--runs", "3"]) == 0
    assert "Family2Person run03: request ->" in capsys.readouterr().out
    assert main([*argv, "--dry-run", "--runs", "1", "-k", "book"]) == 0
    assert capsys.readouterr().err.splitlines()[-1] == "1 run; 1 cached; 0 to request"  # not "1 runs"


def test_cli_reports_configuration_errors_with_file_and_key(
    tmp_path: Path, validation_tree: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config = tmp_path / "atlbench.toml"
    config.write_text('[providers.X]\nkind = "openai-compatible"\nmodel = "m"\ntemprature = 0.5\n')
    code = main(
        ["generate", "--provider", "X", "--validation-root", str(validation_tree), "--config", str(config)]
    )
    assert code == 2
    err = capsys.readouterr().err
    assert f"{config}: error: providers.X: unknown key temprature; allowed: " in err


@pytest.mark.parametrize("provider", ["OpenAI", "Claude"])
def test_batch_files_the_same_runs_as_the_direct_path(
    provider: str, make_options: Options, llm_server: FakeLLMServer, validation_tree: Path, tmp_path: Path
) -> None:
    assert generate(make_options(provider, runs=2, cache_dir=tmp_path / "direct-cache")).ok
    direct = {name: json.loads(text) for name, text in run_files(validation_tree).items()}
    for path in validation_tree.rglob("runs/*.json"):
        path.unlink()
    for path in validation_tree.rglob("runs/.log/*.jsonl"):
        path.unlink()
    report = generate(make_options(provider, runs=2, batch=True, cache_dir=tmp_path / "batch-cache"))
    assert report.ok and report.stats.batches == 1 and report.stats.requests == 4
    assert len(llm_server.answer_requests()) == 4  # the direct session only
    batched = {name: json.loads(text) for name, text in run_files(validation_tree).items()}
    assert batched.keys() == direct.keys() and len(batched) == 4
    transport_fields = {"transport", "batchId", "latencySeconds", "timestamp", "ledger"}
    for name, document in batched.items():
        assert document["generation"]["transport"] == "batch" and document["generation"]["batchId"]
        assert document["generation"]["latencySeconds"] is None
        batch_ledger, direct_ledger = document["generation"]["ledger"], direct[name]["generation"]["ledger"]
        assert batch_ledger["seconds"] is None and direct_ledger["seconds"] >= 0  # no per-request time
        assert batch_ledger["attempts"] == direct_ledger["attempts"] == 1
        assert batch_ledger["inputTokens"] == direct_ledger["inputTokens"]
        assert batch_ledger["call"] != direct_ledger["call"]  # two calls paid for them
        for version in (document, direct[name]):
            for field in transport_fields:
                version["generation"].pop(field, None)
        assert document == direct[name]
    # ... and the batch answers replay offline like any others.
    sent = llm_server.count()
    assert generate(make_options(provider, runs=2, offline=True, cache_dir=tmp_path / "batch-cache")).ok
    assert llm_server.count() == sent


def test_generated_runs_are_scored_like_any_other(
    make_options: Options, llm_server: FakeLLMServer, validation_tree: Path
) -> None:
    from validate_session import score_tree

    llm_server.enqueue("[]")  # Book run 1 answers an empty array
    llm_server.enqueue("no array")  # Book run 2 is unusable
    assert not generate(make_options(runs=2)).ok
    rows = {(r.transformation, r.run): r for r in score_tree(validation_tree, atl_baselines="none")}
    assert set(rows) == {
        ("Book2Publication", "runs/OpenAI-gpt-test-1-run01"),
        ("Book2Publication", "runs/OpenAI-gpt-test-1-run02"),
        ("Family2Person", "runs/OpenAI-gpt-test-1-run01"),
        ("Family2Person", "runs/OpenAI-gpt-test-1-run02"),
    }
    empty = rows[("Book2Publication", "runs/OpenAI-gpt-test-1-run01")]
    assert empty.status == "ok" and empty.suggestions == 0 and empty.provider == "OpenAI"
    unusable = rows[("Book2Publication", "runs/OpenAI-gpt-test-1-run02")]
    assert unusable.status == "ok" and unusable.suggestions == 0
    assert "expected a JSON array" in unusable.extra["unusable"]
    family = rows[("Family2Person", "runs/OpenAI-gpt-test-1-run01")]
    assert family.status == "ok" and family.suggestions == 2 and family.model == "gpt-test-1"


@pytest.mark.parametrize(
    ("overrides", "flag"),
    [({"runs": 0}, "--runs"), ({"concurrency": 0}, "--concurrency"), ({"timeout": 0.0}, "--timeout")],
)
def test_nonsense_options_are_refused(make_options: Options, overrides: dict[str, object], flag: str) -> None:
    with pytest.raises(ConfigurationError) as raised:
        generate(make_options(**overrides))
    assert raised.value.field == flag


def test_offline_works_without_the_sdks_and_online_says_what_to_install(
    make_options: Options, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert generate(make_options(selectors=["Book"])).ok
    monkeypatch.setitem(sys.modules, "openai", None)  # "import openai" now raises ImportError
    monkeypatch.setitem(sys.modules, "anthropic", None)
    assert generate(make_options(selectors=["Book"], offline=True)).ok
    with pytest.raises(ConfigurationError, match=r"pip install 'atl-binding-bench\[llm\]'"):
        generate(make_options(selectors=["Book"], runs=2))


def test_the_command_line_does_not_import_the_sdks() -> None:
    code = (
        "import sys; from benchmark.cli import build_parser; build_parser(); "
        "print(sorted(m for m in ('openai', 'anthropic', 'httpx', 'httpx2') if m in sys.modules))"
    )
    root = Path(__file__).resolve().parents[2]
    done = subprocess.run([sys.executable, "-c", code], cwd=root, capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "[]"
