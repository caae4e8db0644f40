"""``atlbench generate --track roundtrip``: two chained passes through the shared engine, against the fake
OpenAI-compatible server of tests/llm (docs/ROUNDTRIP.md §12)."""

from __future__ import annotations

import json
import re
import shutil
import socket
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from benchmark.bench.support.fake_llm_server import FakeLLMServer
from benchmark.core.fileio import sha256_text
from benchmark.core.track import TrackContext
from benchmark.llm.batch import PollPolicy
from benchmark.llm.generate import GenerateOptions, generate, plan
from benchmark.tracks.roundtrip.prompt import BUILTIN_FILES, PACKAGE
from benchmark.tracks.roundtrip.reading.runfile import read_run
from benchmark.tracks.roundtrip.study.manifest import default_data_dir
from benchmark.tracks.roundtrip.track import RoundTripTrack

DATA = default_data_dir()
PAIRS = ("library", "shop", "blog")
OPERATORS = ("to_many", "add_class")
UNUSABLE = "shop/add_class"  # the fake model refuses this inverse stage
KEY = "sk-test-FAKEKEY-roundtrip-0123456789"


def study_tree(root: Path) -> Path:
    """Three pairs and two operators of the bundled data, in the study layout (no manifest)."""
    folder = root / "validation" / "roundtrip"
    folder.mkdir(parents=True)
    for pair in PAIRS:
        for name in (f"S_{pair}.ecore", f"T_{pair}.sql.xmi"):
            shutil.copy(DATA / name, folder / name)
        for op in OPERATORS:
            for name in (f"Delta_{op}_S_{pair}.ecore", f"Delta_{op}_T_{pair}.sql.xmi"):
                shutil.copy(DATA / name, folder / name)
    return folder


def text(path: Path) -> str:
    return path.read_text(encoding="utf-8").rstrip("\n")


def answer_for(prompt: str) -> str:
    """A model that answers each stage with the expected model, in prose and a fence, flagging one thing;
    and refuses the inverse stage of shop/add_class."""
    stage_input = prompt[prompt.rindex("```xml\n") + 7 : prompt.rindex("\n```")]
    stage_input = re.sub(r"<!--.*?-->\n\s*", "", stage_input)  # S' as the model flagged it
    for pair in PAIRS:
        for op in OPERATORS:
            if stage_input == text(DATA / f"Delta_{op}_T_{pair}.sql.xmi"):
                if f"{pair}/{op}" == UNUSABLE:
                    return "I am sorry, I cannot produce S′ for this schema."
                model = text(DATA / f"Delta_{op}_S_{pair}.ecore")
                flagged = model.replace("<eClassifiers", f"<!-- {op} changed {pair} -->\n  <eClassifiers", 1)
                return f"Here is S′:\n\n```xml\n{flagged}\n```\nThe comment flags the change."
            if stage_input == text(DATA / f"Delta_{op}_S_{pair}.ecore"):
                return text(DATA / f"Delta_{op}_T_{pair}.sql.xmi")
    return "no idea"


@pytest.fixture
def server() -> Iterator[FakeLLMServer]:
    fake = FakeLLMServer(answer_for).start()
    try:
        yield fake
    finally:
        fake.stop()


@pytest.fixture
def make_options(
    tmp_path: Path, server: FakeLLMServer, monkeypatch: pytest.MonkeyPatch
) -> Callable[..., GenerateOptions]:
    monkeypatch.setenv("FAKE_OPENAI_KEY", KEY)
    monkeypatch.delenv("ATLBENCH_CACHE_DIR", raising=False)
    study_tree(tmp_path)
    config = tmp_path / "atlbench.toml"
    config.write_text(
        "[providers.OpenAI]\n"
        'kind = "openai-compatible"\nmodel = "gpt-test-1"\n'
        f'base_url = "{server.url}/v1"\napi_key_env = "FAKE_OPENAI_KEY"\n'
        "temperature = 0.0\nseed = 7\nmax_tokens = 4096\ntimeout = 2\nmax_attempts = 2\n",
        encoding="utf-8",
    )

    def make(**overrides: object) -> GenerateOptions:
        values: dict[str, object] = {
            "provider": "OpenAI",
            "track": "roundtrip",
            "track_options": {"examples": (1, 2), "example_seed": 0},
            "validation_root": tmp_path / "validation",
            "config_file": config,
            "cache_dir": tmp_path / "cache",
            "concurrency": 2,
            "progress": False,
            "poll": PollPolicy(initial=0.01, maximum=0.01),
        }
        values.update(overrides)
        return GenerateOptions(**values)  # type: ignore[arg-type]

    return make


def runs_of(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted((folder / "runs").rglob("*.json"))}


def test_two_chained_passes_file_every_stage(
    make_options: Callable[..., GenerateOptions], server: FakeLLMServer, tmp_path: Path
) -> None:
    report = generate(make_options())
    folder = tmp_path / "validation" / "roundtrip"
    cases = len(PAIRS) * len(OPERATORS) * 2  # x k in {1, 2}
    sent = server.answer_requests()
    assert len(sent) == cases + (cases - 2)  # no forward request after the two unusable inverse answers
    assert len(report.filed) == 2 * cases - 2
    statuses = {(f.label, f.status) for f in report.filed if f.status != "ok"}
    assert statuses == {
        ("shop/add_class k1 run01 inverse", "failed"),
        ("shop/add_class k2 run01 inverse", "failed"),
    }
    (message,) = {f.message for f in report.filed if f.status != "ok" and "k1" in f.label}
    assert message.startswith("answer unusable: the answer contains no XML document") and message.endswith(
        "forward stage not run"
    )
    files = sorted((folder / "runs").rglob("*.json"))
    assert len(files) == 2 * cases  # the not-run forward stages are filed too: nothing is dropped
    not_run = read_run(folder / "runs/shop/add_class/OpenAI-gpt-test-1-k2-run01-forward.json")
    assert not_run.status == "not-run" and not_run.answer is None
    assert not_run.reason == "not run: the inverse answer is unusable (the answer contains no XML document)"
    inverse = read_run(folder / "runs/library/to_many/OpenAI-gpt-test-1-k2-run01-inverse.json")
    assert inverse.status == "ok" and inverse.answer is not None and inverse.answer.startswith("Here is S′")


def test_both_stages_get_the_same_examples_and_the_forward_stage_its_own_s_prime(
    make_options: Callable[..., GenerateOptions], server: FakeLLMServer, tmp_path: Path
) -> None:
    generate(make_options())
    folder = tmp_path / "validation" / "roundtrip"
    sent = server.answer_requests()

    def examples(prompt: str) -> str:
        return prompt[: prompt.index("Input ")]

    inverse_prompts = [r.prompt for r in sent if "Input Δ(T)" in r.prompt]
    forward_prompts = [r.prompt for r in sent if "Input S′" in r.prompt]
    expected_s_prime = text(DATA / "Delta_to_many_S_blog.ecore").replace(
        "<eClassifiers", "<!-- to_many changed blog -->\n  <eClassifiers", 1
    )
    (forward,) = [p for p in forward_prompts if expected_s_prime in p and "Example pair 2" in p]
    delta_t = text(DATA / "Delta_to_many_T_blog.sql.xmi")
    (inverse,) = [p for p in inverse_prompts if delta_t in p and "Example pair 2" in p]
    assert examples(forward) == examples(inverse)
    assert "Here is S′" not in forward  # the extracted model, not the prose around it
    assert examples(inverse).index(text(DATA / "S_blog.ecore")) < examples(inverse).index("Example pair 2")
    run = read_run(folder / "runs/blog/to_many/OpenAI-gpt-test-1-k2-run01-forward.json")
    assert run.examples[0] == "blog" and len(run.examples) == 2 and run.examples[1] in PAIRS
    assert (
        run.examples
        == read_run(folder / "runs/blog/to_many/OpenAI-gpt-test-1-k2-run01-inverse.json").examples
    )
    assert run.extra["input"] == {
        "from": "OpenAI-gpt-test-1-k2-run01-inverse.json",
        "sha256": sha256_text(expected_s_prime),
    }
    assert run.extra["examples"]["seed"] == 0 and "SHA-256" in run.extra["examples"]["rule"]
    # the same pairs for every operator of blog (the rule does not look at the operator)
    other = read_run(folder / "runs/blog/add_class/OpenAI-gpt-test-1-k2-run01-inverse.json")
    assert other.examples == run.examples


def test_templates_and_the_system_prompt_are_recorded_in_every_run_file(
    make_options: Callable[..., GenerateOptions], server: FakeLLMServer, tmp_path: Path
) -> None:
    from importlib import resources

    generate(make_options(selectors=["library"]))
    folder = tmp_path / "validation" / "roundtrip"
    shipped = {
        name: sha256_text(resources.files(PACKAGE).joinpath(file).read_text(encoding="utf-8"))
        for name, file in BUILTIN_FILES.items()
    }
    for path in (folder / "runs").rglob("*.json"):
        templates = json.loads(path.read_text(encoding="utf-8"))["generation"]["promptTemplates"]
        assert {name: entry["sha256"] for name, entry in templates.items()} == shipped
    body = server.answer_requests()[0].body
    assert body["messages"][0] == {
        "role": "system",
        "content": "You are a transformation assistant that learns from example models and produces "
        "structurally valid models only.",
    }
    log = (folder / "runs/.log/OpenAI.jsonl").read_text(encoding="utf-8").splitlines()
    spec = json.loads(log[0])
    assert spec["promptTemplates"]["inverse"]["sha256"] == shipped["inverse"]
    assert spec["examples"] == {"k": [1, 2], "rule": spec["examples"]["rule"], "seed": 0}


def test_a_replay_reproduces_both_passes_byte_for_byte(
    make_options: Callable[..., GenerateOptions], server: FakeLLMServer, tmp_path: Path
) -> None:
    generate(make_options())
    folder = tmp_path / "validation" / "roundtrip"
    first = runs_of(folder)
    sent = len(server.answer_requests())
    for path in (folder / "runs").rglob("*.json"):
        path.unlink()
    report = generate(make_options(offline=True))
    assert len(server.answer_requests()) == sent  # nothing sent: both passes replayed from the cache
    assert runs_of(folder) == first
    assert report.stats.cache_hits == sent
    shutil.rmtree(tmp_path / "cache")  # the committed raw log alone replays too
    for path in (folder / "runs").rglob("*.json"):
        path.unlink()
    generate(make_options(offline=True))
    assert runs_of(folder) == first


def test_a_replacement_template_folder(
    make_options: Callable[..., GenerateOptions], server: FakeLLMServer, tmp_path: Path
) -> None:
    templates = tmp_path / "templates"
    templates.mkdir()
    (templates / "inverse.md").write_text(
        "{{k}} pairs:\n{{examples}}\nInput Δ(T):\n```xml\n{{input}}\n```\nWrite S′.\n", encoding="utf-8"
    )
    (templates / "system.md").write_text("", encoding="utf-8")
    generate(make_options(selectors=["library/to_many"], prompt_template=templates))
    sent = server.answer_requests()
    assert sent[0].prompt.startswith("1 pairs:") or sent[0].prompt.startswith("2 pairs:")
    assert all(m["role"] != "system" for r in sent for m in r.body["messages"])  # an empty system template
    run = json.loads(
        (
            tmp_path / "validation/roundtrip/runs/library/to_many/OpenAI-gpt-test-1-k1-run01-forward.json"
        ).read_text()
    )
    recorded = run["generation"]["promptTemplates"]
    assert recorded["inverse"]["builtin"] is False and recorded["forward"]["builtin"] is True
    assert recorded["inverse"]["sha256"] == sha256_text(
        (templates / "inverse.md").read_text(encoding="utf-8")
    )


def test_dry_run_lists_the_inverse_pass(
    make_options: Callable[..., GenerateOptions], server: FakeLLMServer
) -> None:
    planned = plan(make_options(selectors=["blog"]))
    assert [p.label for p in planned] == [
        "blog/add_class k1 run01 inverse",
        "blog/add_class k2 run01 inverse",
        "blog/to_many k1 run01 inverse",
        "blog/to_many k2 run01 inverse",
    ]
    assert {p.source for p in planned} == {"request"} and server.answer_requests() == []


def test_too_many_examples_for_the_study_is_a_configuration_error(
    make_options: Callable[..., GenerateOptions],
) -> None:
    from benchmark.core.errors import ConfigurationError

    with pytest.raises(ConfigurationError, match="k = 4 example pairs asked, the study has 3 base pairs"):
        generate(make_options(track_options={"examples": (4,), "example_seed": 0}))


def test_the_track_scores_what_generate_filed(
    make_options: Callable[..., GenerateOptions], server: FakeLLMServer, tmp_path: Path
) -> None:
    generate(make_options(selectors=["shop"]))
    folder = tmp_path / "validation" / "roundtrip"
    track = RoundTripTrack(TrackContext(folder, {"roundtrip_baselines": ()}))
    rows = {case.case_id: track.score_run(case) for case in track.collect().runs}
    assert len(rows) == 2 * 2 * 2  # shop x two operators x k in {1, 2} x two stages
    good = rows["shop-to_many-k1-inverse-OpenAI-run01"]
    assert good.ok and good.payload["equivalent"] and good.payload["flags"] == ["to_many changed shop"]
    assert rows["shop-to_many-k1-forward-OpenAI-run01"].payload["pctWSuccess"] == 1.0
    refused = rows["shop-add_class-k1-inverse-OpenAI-run01"].payload
    not_run = rows["shop-add_class-k1-forward-OpenAI-run01"].payload
    assert (refused["stageStatus"], refused["LOC"], refused["deltaDetected"]) == ("unusable", 0, False)
    assert (not_run["stageStatus"], not_run["LOC"], not_run["loadable"]) == ("not-run", 0, False)
    assert re.match(r"not run: the inverse answer is unusable", not_run["loadError"])
    assert not_run["pctWSuccess"] < 0  # a failure in the tables, never a dropped row


def test_the_cli_takes_the_tracks_generate_options(
    make_options: Callable[..., GenerateOptions],
    server: FakeLLMServer,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    from benchmark.cli import main

    options = make_options()
    args = [
        "generate", "--track", "roundtrip", "--provider", "OpenAI", "--config", str(options.config_file),
        "--validation-root", str(options.validation_root), "--cache-dir", str(options.cache_dir),
        "--examples", "2", "--example-seed", "3", "-k", "library/to_many", "--no-progress",
    ]  # fmt: skip
    assert main(args) == 0
    assert "2 runs" in capsys.readouterr().out  # one inverse and one forward stage
    run = read_run(
        tmp_path / "validation/roundtrip/runs/library/to_many/OpenAI-gpt-test-1-k2-run01-forward.json"
    )
    assert run.extra["examples"]["seed"] == 3 and len(run.examples) == 2
    assert main([*args[:-7], "--examples", "0", "--no-progress"]) == 2
    assert "--examples: must be numbers of example pairs of at least 1" in capsys.readouterr().err


def _validate(folder: Path, *flags: str) -> tuple[int, str]:
    """``atlbench validate`` of the round-trip track on ``folder``'s tree (the pytest session's harness)."""
    import contextlib
    import io

    from benchmark.cli import main

    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(["validate", str(folder.parent), "--track", "roundtrip", "--roundtrip-baselines", "none",
                     "-v", *flags])  # fmt: skip
    return code, out.getvalue() + err.getvalue()


def test_a_refused_connection_files_missing_stages_that_the_next_generate_fills_in(
    make_options: Callable[..., GenerateOptions], server: FakeLLMServer, tmp_path: Path
) -> None:
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.bind(("127.0.0.1", 0))  # bound, never listening: every connection is refused
    working = make_options().config_file
    down = tmp_path / "down.toml"
    down.write_text(
        working.read_text(encoding="utf-8").replace(server.url, f"http://127.0.0.1:{sock.getsockname()[1]}"),
        encoding="utf-8",
    )
    only = {"selectors": ["library/to_many"], "track_options": {"examples": (1,), "example_seed": 0}}
    try:
        report = generate(make_options(config_file=down, max_attempts=1, **only))
    finally:
        sock.close()
    (filed,) = report.filed  # the inverse stage; no forward request without its S'
    assert filed.status == "no-answer" and filed.message is not None
    assert filed.message.startswith("connection failed") and filed.message.endswith(
        "filed as missing (run generate again to fill it in); forward stage filed as missing too"
    )
    folder = tmp_path / "validation" / "roundtrip" / "runs" / "library" / "to_many"
    inverse = read_run(folder / "OpenAI-gpt-test-1-k1-run01-inverse.json")
    forward = read_run(folder / "OpenAI-gpt-test-1-k1-run01-forward.json")
    assert (inverse.status, inverse.answer, inverse.extra["generation"]["missing"]) == (
        "no-answer",
        None,
        "error",
    )
    assert inverse.extra["generation"]["attempts"] == 1 and inverse.reason == filed.message.split(";")[0]
    assert forward.status == "no-answer"
    assert forward.reason == f"not asked: its inverse stage got no answer ({inverse.reason})"

    # Listed as missing with their reasons, scored nowhere; the session fails in one line
    code, text = _validate(folder.parents[2])
    assert code == 1 and "0 stage evaluations, 0 pairs, study data, 2 excluded (2 missing)" in text
    assert f"  missing: {folder / 'OpenAI-gpt-test-1-k1-run01-inverse.json'}: {inverse.reason}" in text
    (failure,) = [line for line in text.splitlines() if "got no answer (missing" in line]
    assert failure.startswith("error: 2 runs got no answer (missing, not scored): roundtrip library/to_many")
    assert failure.endswith("fill them in with `atlbench generate` (cached answers are replayed) or accept "
                            "them with --allow-missing-runs")  # fmt: skip

    # A working server fills both stages in, and the track scores them
    again = generate(make_options(**only))
    assert [f.status for f in again.filed] == ["ok", "ok"] and len(server.answer_requests()) == 2
    assert read_run(folder / "OpenAI-gpt-test-1-k1-run01-forward.json").status == "ok"
    code, text = _validate(folder.parents[2])
    assert code == 0 and "2 stage evaluations, 1 pair, study data, 0 excluded (0 missing)" in text


def test_a_forward_stage_the_budget_stopped_is_missing_and_only_it_is_sent_again(
    make_options: Callable[..., GenerateOptions], server: FakeLLMServer, tmp_path: Path
) -> None:
    only = {"selectors": ["library/to_many"], "track_options": {"examples": (1,), "example_seed": 0}}
    report = generate(make_options(max_requests=1, **only))
    assert [f.status for f in report.filed] == ["ok", "no-answer"]
    folder = tmp_path / "validation" / "roundtrip" / "runs" / "library" / "to_many"
    forward = read_run(folder / "OpenAI-gpt-test-1-k1-run01-forward.json")
    assert forward.status == "no-answer" and forward.extra["generation"]["missing"] == "budget"
    track = RoundTripTrack(TrackContext(folder.parents[2], {"roundtrip_baselines": ()}))
    rows = {case.case_id: track.score_run(case) for case in track.collect().runs}
    assert rows["library-to_many-k1-inverse-OpenAI-run01"].ok
    missing = rows["library-to_many-k1-forward-OpenAI-run01"]
    assert not missing.ok and track.missing_reason(missing) == forward.reason
    assert (missing.error or "").startswith(
        f"{folder / 'OpenAI-gpt-test-1-k1-run01-forward.json'}: $.status: no"
    )
    again = generate(make_options(**only))
    assert again.stats.requests == 1 and again.stats.cache_hits == 1  # the inverse answer came from the cache
    assert read_run(folder / "OpenAI-gpt-test-1-k1-run01-forward.json").status == "ok"


def test_every_template_in_the_same_two_passes_each_forward_stage_with_its_inverse_template(
    make_options: Callable[..., GenerateOptions], server: FakeLLMServer, tmp_path: Path
) -> None:
    options = make_options(selectors=["library/to_many"], templates=["all"], track_options={"examples": (1,)})
    report = generate(options)
    assert sorted(f.label for f in report.filed) == [
        f"library/to_many k1{named} run01 {stage}"
        for named in ("", " stepwise", " terse")
        for stage in ("forward", "inverse")
    ]
    assert all(f.ok for f in report.filed)
    sent = server.answer_requests()
    systems = {r.body["messages"][0]["content"] for r in sent}
    assert len(sent) == 6 and len({r.prompt for r in sent}) == 6 and len(systems) == 3
    folder = tmp_path / "validation" / "roundtrip" / "runs" / "library" / "to_many"
    for template in ("study", "terse", "stepwise"):
        named = "" if template == "study" else f"-{template}"
        for stage in ("inverse", "forward"):
            run = read_run(folder / f"OpenAI-gpt-test-1{named}-k1-run01-{stage}.json")
            assert run.template == template and run.status == "ok"
            recorded = run.extra["generation"]["promptTemplates"]
            prefix = "prompt_" if template == "study" else f"prompt_{template}_"
            assert recorded[stage]["name"] == f"{prefix}{stage}.md"
            assert recorded["system"]["name"] == f"{prefix}system.md"
    track = RoundTripTrack(TrackContext(data_root=tmp_path / "validation" / "roundtrip"))
    ids = sorted(c.case_id for c in track.collect().runs if c.baseline is None)
    assert ids == [
        f"library-to_many-k1-{stage}-OpenAI-{named}run01"
        for stage in ("forward", "inverse")
        for named in ("", "stepwise-", "terse-")
    ]
    before = len(sent)
    again = generate(options)
    assert again.stats.requests == 0 and len(server.answer_requests()) == before  # replayed
