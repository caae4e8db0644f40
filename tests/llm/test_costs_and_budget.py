"""Prices, the ledger in every run file, --max-cost / --max-requests, --dry-run's estimate, the call's
manifest and event log, and results.json's link to them: against the local fake server."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from git_trees import archive, checkout, no_git_above

from benchmark import __version__
from benchmark.bench.support.fake_llm_server import FakeLLMServer
from benchmark.cli import main
from benchmark.core.errors import ConfigurationError
from benchmark.core.results import Results
from benchmark.llm.calllog import call_files
from benchmark.llm.config import load_config
from benchmark.llm.generate import code_provenance, generate, generate_call
from benchmark.llm.ledger import ledger_entries, run_ledger, summarise
from tests.llm.conftest import FAKE_OPENAI_KEY
from tests.llm.test_generate import Options

OPENAI_PRICE = (
    "[providers.OpenAI.price]\ninput_per_million = 2.5\noutput_per_million = 10.0\ndate = 2025-06-01\n"
)
LOCAL_PRICE = '[providers.Claude.price]\ninput_per_million = 0\noutput_per_million = 0\nreason = "local"\n'


def priced(options: Options, *tables: str, openai: str = "", **overrides: object) -> Options:
    """``make_options`` whose configuration also holds ``tables`` (appended TOML) and ``openai`` (lines
    added to the OpenAI provider's table)."""
    config = options().config_file
    assert config is not None
    text = config.read_text().replace('model = "gpt-test-1"\n', f'model = "gpt-test-1"\n{openai}')
    config.write_text(text + "\n" + "\n".join(tables), encoding="utf-8")
    return lambda provider="OpenAI", **more: options(provider, **{**overrides, **more})  # type: ignore[misc]


def generation(path: Path) -> dict[str, object]:
    return json.loads(path.read_text(encoding="utf-8"))["generation"]


def book_run(root: Path, provider: str = "OpenAI", model: str = "gpt-test-1", run: int = 1) -> Path:
    return root / "Book2Publication" / "runs" / f"{provider}-{model}-run{run:02d}.json"


# ------------------------------------------------------------------------------------------- prices


@pytest.mark.parametrize(
    ("table", "field", "message"),
    [
        ("input_per_million = 1\noutput_per_million = 2\n", "price.date", "date it was taken"),
        ("input_per_million = 0\noutput_per_million = 0\n", "price.reason", "a zero price needs a reason"),
        (
            "input_per_million = -1\noutput_per_million = 2\ndate = 2025-01-01\n",
            "price.input_per_million",
            ">= 0",
        ),
        ("output_per_million = 2\ndate = 2025-01-01\n", "price.input_per_million", "missing"),
        ("input_per_million = 1\noutput_per_million = 2\ndate = '2025-13-01'\n", "price.date", "YYYY-MM-DD"),
        (
            "input_per_million = 1\noutput_per_million = 2\ndate = 2025-01-01\ncurrency = 'EUR'\n",
            "price",
            "currency",
        ),
    ],
)
def test_a_price_is_never_guessed(tmp_path: Path, table: str, field: str, message: str) -> None:
    path = tmp_path / "atlbench.toml"
    path.write_text(f'[providers.X]\nkind = "openai-compatible"\nmodel = "m"\n[providers.X.price]\n{table}')
    with pytest.raises(ConfigurationError) as raised:
        load_config(path)
    assert raised.value.field == f"providers.X.{field}" and message in raised.value.message


def test_limits_and_windows_are_checked(tmp_path: Path) -> None:
    path = tmp_path / "atlbench.toml"
    base = '[providers.X]\nkind = "openai-compatible"\nmodel = "m"\n'
    for extra, field in [
        ("concurrency = 2\nmin_concurrency = 3\n", "min_concurrency"),
        ("context_window = 0\n", "context_window"),
        ('tokenizer = "sentencepiece"\n', "tokenizer"),
        ("max_retry_after = -1\n", "max_retry_after"),
    ]:
        path.write_text(base + extra)
        with pytest.raises(ConfigurationError) as raised:
            load_config(path)
        assert raised.value.field == f"providers.X.{field}"
    path.write_text(base + 'context_window = 8192\ntokenizer = "gguf:model.gguf"\nmax_retry_after = 30\n')
    config = load_config(path).provider("X")
    assert config.context_window == 8192 and config.max_retry_after == 30.0
    assert config.tokenizer == f"gguf:{(tmp_path / 'model.gguf').resolve()}"  # relative to the file


# ------------------------------------------------------------------------------------------- ledger


def test_every_run_file_has_a_ledger_cost_blank_without_price_zero_only_with_reason(
    make_options: Options, validation_tree: Path
) -> None:
    options = priced(make_options, LOCAL_PRICE)
    assert generate(options("OpenAI", selectors=["Book"])).ok  # no price
    assert generate(options("Claude", selectors=["Book"])).ok  # declared free: local
    unpriced = generation(book_run(validation_tree))["ledger"]
    assert unpriced["inputTokens"] == 100 and unpriced["outputTokens"] == 20 and unpriced["attempts"] == 1
    assert unpriced["seconds"] >= 0 and unpriced["costUsd"] is None
    assert unpriced["costNote"] == "no price configured for provider OpenAI"
    local = generation(book_run(validation_tree, "Claude", "claude-test-1"))["ledger"]
    assert local["costUsd"] == 0.0 and local["costNote"] == "local" and local["price"]["reason"] == "local"
    assert run_ledger(book_run(validation_tree)).cost_usd is None
    assert run_ledger(book_run(validation_tree, "Claude", "claude-test-1")).cost_note == "local"


def test_cost_from_the_configured_price_and_replayed_byte_for_byte(
    make_options: Options, llm_server: FakeLLMServer, validation_tree: Path
) -> None:
    options = priced(make_options, OPENAI_PRICE)
    report = generate(options(runs=2))
    assert report.ok and report.stats.cost_usd == pytest.approx(4 * 0.00045)
    assert "cost 0.001800 USD" in report.summary_line()
    ledger = generation(book_run(validation_tree, run=2))["ledger"]
    assert ledger["costUsd"] == 0.00045  # 100 x 2.5 / 1e6 + 20 x 10 / 1e6
    assert ledger["price"] == {"inputPerMillion": 2.5, "outputPerMillion": 10.0, "date": "2025-06-01"}
    totals = run_ledger(book_run(validation_tree, run=2))
    assert (totals.input_tokens, totals.output_tokens, totals.cost_usd, totals.attempts) == (
        100,
        20,
        0.00045,
        1,
    )
    files = {p: p.read_bytes() for p in validation_tree.rglob("runs/*.json")}
    for path in files:
        path.unlink()
    sent = llm_server.count()
    replay = generate(options(runs=2, offline=True))
    assert llm_server.count() == sent and replay.stats.cost_usd == 0  # a replay spends nothing...
    assert {p: p.read_bytes() for p in validation_tree.rglob("runs/*.json")} == files  # ...same ledger


def test_the_ledger_reader_finds_every_tracks_entries() -> None:
    entry = {
        "inputTokens": 10,
        "outputTokens": 5,
        "seconds": 2.0,
        "attempts": 2,
        "costUsd": 0.5,
        "call": "c1",
    }
    ocl = {
        "generation": {"answers": {"m/a": {"ledger": entry}, "m/b": {"ledger": {**entry, "seconds": 4.0}}}}
    }
    assert len(list(ledger_entries(ocl))) == 2
    totals = run_ledger(ocl)
    assert (totals.requests, totals.input_tokens, totals.cost_usd, totals.median_seconds) == (2, 20, 1.0, 3.0)
    assert totals.attempts == 4 and totals.calls == ("c1",)
    unknown = summarise([entry, {**entry, "costUsd": None, "costNote": "no price configured for provider P"}])
    assert unknown.cost_usd is None and unknown.cost_note == "no price configured for provider P"
    assert summarise([]).cost_usd is None and "no ledger" in (summarise([]).cost_note or "")


# ------------------------------------------------------------------------------------------- budget


def test_max_cost_refuses_to_start_without_every_price(
    make_options: Options,
    llm_server: FakeLLMServer,
    validation_tree: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    options = priced(make_options, OPENAI_PRICE)
    with pytest.raises(ConfigurationError, match="no price is configured for Claude"):
        generate_call([options("OpenAI", max_cost=1.0), options("Claude", max_cost=1.0)])
    config = options().config_file
    code = main(
        ["generate", "--provider", "OpenAI", "--provider", "Claude", "--max-cost", "1",
         "--config", str(config), "--validation-root", str(validation_tree)]
    )  # fmt: skip
    assert code == 2 and "--max-cost: --max-cost needs the price" in capsys.readouterr().err
    assert llm_server.count() == 0


def test_max_requests_stops_sending_and_leaves_budget_missing_runs_the_next_call_fills(
    make_options: Options, llm_server: FakeLLMServer, validation_tree: Path
) -> None:
    from benchmark.core.track import TrackContext
    from benchmark.tracks.mapping.discovery import discover
    from benchmark.tracks.mapping.ground_truth import load_ground_truth
    from benchmark.tracks.mapping.scoring.runs import score_file
    from benchmark.tracks.mapping.track import AtlTrack

    report = generate(make_options(runs=3, selectors=["Book"], max_requests=2))
    assert llm_server.count() == 2 and report.stats.budget_stopped == 1
    assert [f.status for f in report.filed] == ["ok", "ok", "no-answer"]
    assert "1 not sent (budget)" in report.summary_line()
    stub = generation(book_run(validation_tree, run=3))
    assert stub["status"] == "no-answer" and str(stub["error"]).startswith("budget: --max-requests 2 reached")
    assert stub["ledger"]["costNote"] == "no answer" and stub["ledger"]["attempts"] == 0
    # The scorer lists it as a missing run with the reason "budget", like any run without an answer.
    folder = next(t for t in discover(validation_tree).transformations if t.name == "Book2Publication")
    ground_truth = load_ground_truth(folder.atl_file)
    row = score_file(ground_truth, book_run(validation_tree, run=3), transformation=folder.name, run="r3")
    track = AtlTrack(TrackContext(data_root=validation_tree, options={}))
    assert (track.missing_reason(row.to_envelope()) or "").startswith("budget:")
    again = generate(make_options(runs=3, selectors=["Book"]))
    assert again.ok and llm_server.count() == 3 and again.stats.cache_hits == 2  # only the missing one


def test_max_cost_stops_before_the_request_that_could_cross_it(
    make_options: Options, llm_server: FakeLLMServer, validation_tree: Path
) -> None:
    # Worst case per request: max_tokens (512) x 1000 USD/M = 0.512 USD (prompts are free here); an
    # answer really costs 20 x 1000 / 1e6 = 0.02. Within 0.55: 0.512, then 0.02 + 0.512, then no more.
    price = "[providers.OpenAI.price]\ninput_per_million = 0\noutput_per_million = 1000\ndate = 2025-06-01\n"
    options = priced(make_options, price)
    report = generate(options(runs=4, selectors=["Book"], max_cost=0.55))
    assert llm_server.count() == 2 and report.stats.budget_stopped == 2
    assert report.stats.cost_usd == pytest.approx(0.04)
    stub = generation(book_run(validation_tree, run=3))
    assert "budget: the next request could cross --max-cost 0.55 USD" in str(stub["error"])
    # With four workers, what is in flight counts too: while the first request may still cost 0.512, a
    # second one could cross the cap, so the call stops there. The answer takes 0.3 s (within the test
    # configuration's timeout): the other workers ask for their reservation while it is in flight, where
    # an instant answer let a second request through when the workers started late (a loaded machine).
    llm_server.answer_delay = 0.3
    parallel = generate(options(runs=4, selectors=["Family"], max_cost=0.55, concurrency=4))
    assert parallel.stats.requests == 1 and parallel.stats.budget_stopped == 3


# ------------------------------------------------------------------------------------------- dry run


def test_dry_run_prints_requests_tokens_cost_and_context_per_track_and_provider(
    make_options: Options,
    llm_server: FakeLLMServer,
    validation_tree: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    options = priced(make_options, OPENAI_PRICE, LOCAL_PRICE, openai="context_window = 700\n")
    assert generate(options(selectors=["Book"])).ok  # one answer stored
    config = options().config_file
    argv = ["generate", "--provider", "OpenAI", "--provider", "Claude", "--runs", "2",
            "--config", str(config), "--validation-root", str(validation_tree),
            "--cache-dir", str(validation_tree.parent / "cache"),
            "--dry-run", "--max-cost", "0.01"]  # fmt: skip
    sent = llm_server.count()
    assert main(argv) == 0
    assert llm_server.count() == sent
    out = capsys.readouterr().out
    assert "atl / OpenAI (gpt-test-1): 4 runs; 1 stored (cache or log); 3 requests to send" in out
    assert "prompt tokens: " in out and "(estimated: UTF-8 bytes / 3)" in out
    assert "cost: 0.0" in out and "USD (the prompts, plus 0 to 512 output tokens per request" in out
    assert "price of 2025-06-01" in out
    assert "context window 700: 3 prompts do not fit (sent anyway: the counts are estimates)" in out
    assert "atl / Claude (claude-test-1): 4 runs; 0 stored (cache or log); 4 requests to send" in out
    assert "cost: 0 USD (local)" in out
    assert "budget: 1 of 3 requests fit within --max-cost 0.01 USD (worst case)" in out


def test_a_manifest_records_the_paths_under_the_current_directory_relative_to_it(
    make_options: Options, llm_server: FakeLLMServer, validation_tree: Path, tmp_path: Path, monkeypatch
) -> None:
    """A manifest is committed with the runs it paid for: run from the project, it names the project's
    configuration, cache and data by their place in it, not by one machine's folders."""
    monkeypatch.chdir(tmp_path)
    options = priced(make_options, OPENAI_PRICE)
    assert generate(options(runs=1, selectors=["Book"])).ok
    [log] = sorted((validation_tree / "Book2Publication" / "runs" / ".log" / "calls").glob("*.jsonl"))
    manifest = json.loads(log.read_text().splitlines()[0])
    assert manifest["provider"]["source"] == "atlbench.toml"
    assert manifest["options"]["cacheDir"] == "cache"
    assert manifest["options"]["validationRoot"] == validation_tree.relative_to(tmp_path).as_posix()
    assert manifest["options"]["promptTemplate"] is None
    assert str(tmp_path) not in log.read_text().splitlines()[0]


def test_the_prompts_that_do_not_fit_are_listed_one_size_a_line_the_largest_first() -> None:
    from dataclasses import replace

    from benchmark.llm.estimate import LISTED_SIZES, ContextProblem, Estimate

    # a Zoo-sized tree on a small model: three runs of each task; two tasks share a prompt size
    sizes = {"A2B": 9_000, "C2D": 30_000, "E2F": 9_000, "Big": 380_000}
    problems = tuple(
        ContextProblem(f"{task} run0{i}", tokens, 8_192 - tokens)
        for task, tokens in sizes.items()
        for i in (1, 2, 3)
    )
    estimate = Estimate("atl", "Small", "m", 12, 0, 12, 1, "bytes / 3", False, 512, 0.0, 0.0, "local", 8_192,
                        problems, (), False, None, None)  # fmt: skip
    lines = estimate.lines()
    at = lines.index("  context window 8,192: 12 prompts do not fit (sent anyway: the counts are estimates), "
                     "the largest first:")  # fmt: skip
    assert lines[at + 1 :] == [
        "    380,000 tokens: Big run01, run02, run03",
        "    30,000 tokens: C2D run01, run02, run03",
        "    9,000 tokens: A2B run01, run02, run03; E2F run01, run02, run03",
    ]
    many = tuple(ContextProblem(f"T{n}", 10_000 + n, -n) for n in range(LISTED_SIZES + 5))
    capped = replace(estimate, too_long=many).lines()
    assert len(capped) == at + 1 + LISTED_SIZES + 1 and capped[-1] == "    and 5 smaller prompts"
    assert capped[at + 1] == f"    {10_000 + LISTED_SIZES + 4:,} tokens: T{LISTED_SIZES + 4}"


# ------------------------------------------------------------------------------------- manifest, events


def test_each_call_writes_a_manifest_and_events_beside_the_runs_and_results_json_links_them(
    make_options: Options, llm_server: FakeLLMServer, validation_tree: Path, tmp_path: Path
) -> None:
    options = priced(make_options, OPENAI_PRICE)
    assert generate(options(runs=2, selectors=["Book"])).ok
    runs = validation_tree / "Book2Publication" / "runs"
    [log] = sorted((runs / ".log" / "calls").glob("*.jsonl"))
    lines = [json.loads(line) for line in log.read_text().splitlines()]
    manifest, events = lines[0], lines[1:]
    assert (
        manifest["event"] == "manifest"
        and manifest["call"] == log.stem
        and manifest["session"] == "atl/OpenAI"
    )
    # where the code comes from: a commit, or why there is none (a source archive has no .git); both
    # cases: test_the_manifest_names_the_code_commit_in_a_checkout_and_why_none_in_a_source_archive
    code = manifest["code"]
    assert (code["gitCommit"] is None) == bool(code.get("gitCommitMissing"))
    assert "openai" in manifest["versions"] and manifest["versions"]["atl-binding-bench"] == __version__
    assert manifest["provider"]["apiKeyEnv"] == "FAKE_OPENAI_KEY" and manifest["provider"]["price"]["date"]
    assert manifest["provider"]["parameters"]["seed"] == 100 and manifest["task"]["promptTemplate"]["sha256"]
    # the configuration and the cache lie outside the current directory: a placeholder that says so
    assert manifest["provider"]["source"] == "<outside the project>/atlbench.toml"
    assert manifest["options"]["cacheDir"] == "<outside the project>/cache"
    assert str(tmp_path) not in log.read_text()
    run = generation(book_run(validation_tree, run=2))
    assert manifest["prompts"]["Book2Publication run02"] == run["promptSha256"]
    assert [e["event"] for e in events] == ["request", "response", "request", "response", "end"]
    assert events[1]["costUsd"] == 0.00045 and events[-1]["stats"]["answered"] == 2
    assert FAKE_OPENAI_KEY not in log.read_text()
    assert run["ledger"]["call"] == log.stem  # the run names the call that paid for it
    assert call_files([book_run(validation_tree)], validation_tree) == {
        log.stem: [f"Book2Publication/runs/.log/calls/{log.stem}.jsonl"]
    }
    # A run file read from another copy of the tree (an xdist worker of a --tx session) names the same.
    other = shutil.copytree(validation_tree, tmp_path / "machine2" / validation_tree.name)
    assert call_files([book_run(other)], validation_tree) == {
        log.stem: [f"Book2Publication/runs/.log/calls/{log.stem}.jsonl"]
    }
    # A replay pays nothing and writes no call log.
    for path in runs.glob("*.json"):
        path.unlink()
    assert generate(options(runs=2, selectors=["Book"], offline=True)).ok
    assert sorted((runs / ".log" / "calls").glob("*.jsonl")) == [log]
    # results.json names the calls behind the runs it scored.
    out = tmp_path / "results.json"
    main(["validate", str(validation_tree), "-o", str(out)])
    header = Results.load(out).header
    assert header.generate_calls == {log.stem: [f"Book2Publication/runs/.log/calls/{log.stem}.jsonl"]}


def test_the_manifest_names_the_code_commit_in_a_checkout_and_why_none_in_a_source_archive(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    no_git_above(tmp_path, monkeypatch)
    repo = tmp_path / "project"
    commit = checkout(repo, {"benchmark/__init__.py": "", "validation/a.txt": "a\n"})
    found = code_provenance(repo / "validation", code_root=repo)
    assert found["code"] == found["data"] == {"gitCommit": commit, "uncommittedChanges": False}
    (repo / "benchmark" / "__init__.py").write_text("# edited\n")
    found = code_provenance(repo / "validation", code_root=repo)
    assert found["code"]["uncommittedChanges"] is True and found["data"]["uncommittedChanges"] is False
    release = archive(repo, tmp_path / "project-0.1.0")
    found = code_provenance(release / "validation", code_root=release)
    unknown = {"gitCommit": None, "uncommittedChanges": None, "gitCommitMissing": "not a git checkout"}
    assert found["code"] == found["data"] == unknown
    assert found["versions"]["atl-binding-bench"] == __version__  # what names the code then
    assert (
        code_provenance(tmp_path / "absent", code_root=release)["data"]["gitCommitMissing"] == "not a folder"
    )


def test_a_budget_stop_is_an_event_of_the_call(
    make_options: Options, llm_server: FakeLLMServer, validation_tree: Path
) -> None:
    generate(make_options(runs=3, selectors=["Book"], max_requests=1))
    [log] = (validation_tree / "Book2Publication" / "runs" / ".log" / "calls").glob("*.jsonl")
    lines = [json.loads(line) for line in log.read_text().splitlines()]
    kinds = [line["event"] for line in lines]
    assert kinds.count("budget-stop") == 1 and kinds.count("request") == 1
    stop = next(line for line in lines if line["event"] == "budget-stop")
    assert stop["reason"] == "budget: --max-requests 1 reached (1 sent)"
    assert [line["missing"] for line in lines if line["event"] == "error"] == ["budget", "budget"]
